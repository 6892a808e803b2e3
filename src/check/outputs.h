// The output rules, checked after tracing from what the front end saw the kernel write:
// err_tensor_output_not_written_to (spec §2.6, C24: a returned tensor never written, or a kernel
// with no output at all) and err_mutable_parameter_not_returned (a mutable parameter that is
// updated while the kernel returns other tensors).
#pragma once

#include <vector>

#include "base/diagnostic.h"
#include "base/source.h"
#include "ir/ir.h"

namespace nki::check {

struct WriteFacts {
  // Writes of each tensor (by id) while tracing; a view's writes count on the tensor that owns
  // its storage. Writes in a loop that never runs do not count.
  std::vector<int> write_counts;
  SourceLoc kernel_def_loc;   // the kernel's `def` (a kernel with no output is reported there)
  SourceLoc last_return_loc;  // its last `return` (a mutable parameter it does not return)
};

// Every violated output rule, in the order: outputs never written, mutable parameters not
// returned, no output at all.
std::vector<Diagnostic> output_errors(const ir::Kernel& k, const WriteFacts& writes);

}  // namespace nki::check
