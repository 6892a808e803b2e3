#include "check/outputs.h"

#include <algorithm>

#include "base/diag_codes.h"

namespace nki::check {

namespace {

int storage_of(const ir::Kernel& k, int t) {
  while (k.tensors[static_cast<size_t>(t)].alias_of >= 0) t = k.tensors[static_cast<size_t>(t)].alias_of;
  return t;
}

int writes_of(const WriteFacts& w, int t) {
  return t >= 0 && static_cast<size_t>(t) < w.write_counts.size() ? w.write_counts[static_cast<size_t>(t)] : 0;
}

}  // namespace

std::vector<Diagnostic> output_errors(const ir::Kernel& k, const WriteFacts& writes) {
  std::vector<Diagnostic> errors;
  for (int id : k.outputs) {
    const ir::TensorDecl& d = k.tensors[static_cast<size_t>(id)];
    if (d.role == ir::TensorRole::Parameter) continue;
    if (writes_of(writes, storage_of(k, id)) == 0) {
      errors.push_back(make_diagnostic(Severity::Error, diag::Code::err_tensor_output_not_written_to,
                                       "output tensor '" + d.name + "' is never written to", k.file, d.loc,
                                       "write every element with nl.store(" + d.name + "[...], value=tile)"));
    }
  }
  for (int id : k.params) {
    const ir::TensorDecl& d = k.tensors[static_cast<size_t>(id)];
    if (d.mutable_param && writes_of(writes, id) > 0 && !k.outputs.empty() &&
        std::find(k.outputs.begin(), k.outputs.end(), id) == k.outputs.end()) {
      errors.push_back(make_diagnostic(Severity::Error, diag::Code::err_mutable_parameter_not_returned,
                                       "mutable parameter '" + d.name + "' is updated but not returned", k.file,
                                       writes.last_return_loc, "return the mutated parameter from the kernel"));
    }
  }
  if (k.outputs.empty()) {
    // Pass-by-reference style: the written parameters are the results.
    bool any = false;
    for (int id : k.params) any = any || writes_of(writes, id) > 0;
    if (!any) {
      errors.push_back(make_diagnostic(Severity::Error, diag::Code::err_tensor_output_not_written_to,
                                       "kernel '" + k.name + "' produces no output (nothing is returned or stored)",
                                       k.file, writes.kernel_def_loc, "return the output tensors"));
    }
  }
  return errors;
}

}  // namespace nki::check
