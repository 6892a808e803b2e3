// Static out-of-bounds check of every tensor access (err_tensor_access_out_of_bound, spec §2.3.3
// / C13), run after tracing: loops and SPMD instances are enumerated concretely and masks with
// one coordinate per comparison narrow the accessed ranges. Accesses whose masks couple several
// coordinates, and data-dependent (indirect) indices, are left to the simulator's runtime check.
#pragma once

#include <vector>

#include "base/diagnostic.h"
#include "ir/ir.h"

namespace nki::check {

// Every access that is provably out of bounds, one diagnostic per access (its first failing
// iteration), at most `max_errors`.
std::vector<Diagnostic> static_bounds_errors(const ir::Kernel& k, size_t max_errors);

}  // namespace nki::check
