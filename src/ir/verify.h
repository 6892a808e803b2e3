// Structural invariants of a traced kernel IR (issue 16, step 1): every tensor id an access or
// alias names exists, accesses have one offset and one coefficient row per tensor dimension and
// one coefficient per iteration dimension, views fit inside the storage they alias, loop
// variables are used only inside their loop, and the fixed operands of matmul / memset / reduce /
// scan are present. The front end must never produce IR that breaks them, so a finding is a bug
// of this tool (reported as an internal error naming the instruction), never a kernel error;
// without this check it surfaces later as a simulator `sim_bad_ir` or a wrong result.
#pragma once

#include <optional>
#include <string>

#include "base/source.h"
#include "ir/ir.h"

namespace nki::ir {

struct InvariantViolation {
  std::string what;  // names the instruction (API name, opcode) or the tensor / loop
  SourceLoc loc;     // the instruction's (or tensor's, loop's) source location
};

// The first broken invariant in program order, or nullopt. One static walk: linear in the IR size.
std::optional<InvariantViolation> verify_kernel(const Kernel& k);

}  // namespace nki::ir
