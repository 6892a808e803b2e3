// Static out-of-bounds check of every tensor access (err_tensor_access_out_of_bound, spec §2.3.3
// / C13), run after tracing: loops and SPMD instances are enumerated concretely and masks with
// one coordinate per comparison narrow the accessed ranges. Accesses whose masks couple several
// coordinates, and data-dependent (indirect) indices, are left to the simulator's runtime check.
#pragma once

#include "ir/ir.h"

namespace nki::front {

// Throws DiagnosticError for the first access that is provably out of bounds.
void check_static_bounds(const ir::Kernel& k);

}  // namespace nki::front
