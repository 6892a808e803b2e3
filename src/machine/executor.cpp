#include "machine/executor.h"

#include <string>

#include "base/dtype_convert.h"
#include "machine/atom_env.h"
#include "machine/exec_context.h"
#include "machine/interpreter.h"
#include "machine/memory.h"
#include "machine/sim_error.h"

namespace nki::machine {

namespace {

std::string shape_str(const std::vector<int64_t>& s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
  return r + "]";
}

void load_argument(const ir::Kernel& k, Memory& mem, int t, const HostTensor& a, size_t index) {
  const ir::TensorDecl& d = k.tensors[static_cast<size_t>(t)];
  if (a.dtype != d.dtype)
    throw_sim_error(k, d.loc, "arg_dtype_mismatch",
                    "argument " + std::to_string(index) + " ('" + d.name + "') has dtype " +
                        dtype_name(a.dtype) + ", the kernel expects " + dtype_name(d.dtype));
  if (a.shape != d.shape)
    throw_sim_error(k, d.loc, "arg_shape_mismatch",
                    "argument " + std::to_string(index) + " ('" + d.name + "') has shape " +
                        shape_str(a.shape) + ", the kernel expects " + shape_str(d.shape));
  const int64_t n = a.element_count();
  if (static_cast<int64_t>(a.data.size()) != n * static_cast<int64_t>(dtype_size(a.dtype)))
    throw_sim_error(k, d.loc, "arg_bad_data",
                    "argument " + std::to_string(index) + " ('" + d.name + "') holds " +
                        std::to_string(a.data.size()) + " bytes for " + std::to_string(n) +
                        " elements");
  Storage& s = mem.storage(t);
  convert(a.dtype, a.data.data(), s.dtype, s.bytes.data(), static_cast<size_t>(n));
  if (!s.written.empty()) std::fill(s.written.begin(), s.written.end(), 1);
}

HostTensor read_back(const ir::Kernel& k, Memory& mem, int t) {
  const ir::TensorDecl& d = k.tensors[static_cast<size_t>(t)];
  HostTensor h;
  h.dtype = d.dtype;
  h.shape = d.shape;
  const int64_t n = h.element_count();
  h.data.resize(static_cast<size_t>(n) * dtype_size(d.dtype));
  // Views (alias tensors) read their root's leading bytes at their own dtype.
  convert(mem.storage_dtype(t), mem.data(t), d.dtype, h.data.data(), static_cast<size_t>(n));
  return h;
}

}  // namespace

RunResult execute(const ir::Kernel& k, const std::vector<HostTensor>& args,
                  const RunOptions& options) {
  if (args.size() != k.params.size())
    throw_sim_error(k, SourceLoc{}, "arg_count_mismatch",
                    "kernel '" + k.name + "' takes " + std::to_string(k.params.size()) +
                        " tensor argument(s), got " + std::to_string(args.size()));
  RunResult result;
  Memory mem(k, options);
  mem.allocate_persistent();
  for (size_t i = 0; i < args.size(); ++i) load_argument(k, mem, k.params[i], args[i], i);

  const ScopeInfo scopes = analyse_scopes(k);
  AtomEnv env(k);
  ExecContext cx(k, options, mem, env, result.warnings);
  Interpreter interp(cx, scopes);

  // SPMD instances in row-major order over the grid (spec §2.5, §7.3).
  std::vector<int64_t> pid(k.grid.size(), 0);
  int64_t instances = ir::element_count(k.grid);
  for (int64_t i = 0; i < instances; ++i) {
    env.set_program_ids(pid);
    mem.begin_instance();
    cx.regs.reset();
    interp.run_instance();
    for (size_t d = pid.size(); d-- > 0;) {
      if (++pid[d] < k.grid[d]) break;
      pid[d] = 0;
    }
  }

  for (int t : k.outputs) result.outputs.push_back(read_back(k, mem, t));
  for (int t : k.params) result.args_after.push_back(read_back(k, mem, t));
  return result;
}

}  // namespace nki::machine
