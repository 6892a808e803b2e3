// Direct allocation (nki.compiler, SDK 2.24; spec §2.12 and rule C27): kernels that place their
// SBUF/PSUM tiles themselves with ncc.sbuf.alloc(func) / mod_alloc(...) and ncc.psum.alloc(func)
// / mod_alloc(...). This is the front-end half, at tensor creation.
//
// The placement of every logical tile (one per block index) is evaluated as the compiler does:
// the user's function is called with (block index tuple, partition count, bytes per partition),
// and mod_alloc uses the modulo formula of the Python reference in the official tests
// test_sbuf_modulo_alloc.py / test_psum_modulo_alloc.py. The documented rules on the arguments
// and the resulting placement are checked there (project codes `invalid_allocation`,
// `allocation_out_of_bounds`).
//
// The kernel-wide rules, after tracing, are an IR check (check/direct_alloc.h) over the
// placements recorded here. docs/simulator.md ("Direct allocation") describes the model and its
// sources.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "check/direct_alloc.h"
#include "ir/ir.h"
#include "nki/objects.h"
#include "target/target.h"

namespace nki::front {

class Tracer;

using check::DirectTensor;
using check::TilePlacement;

// Parses the keyword arguments of ncc.sbuf.mod_alloc / ncc.psum.mod_alloc and checks the
// argument rules of nki/compiler/sbuf.py and psum.py (SDK 2.24).
std::shared_ptr<DirectAllocSpec> parse_mod_alloc(ir::Buffer buf, py::CallArgs& call);

// Evaluates and checks the placement of a tensor created with a direct-allocation buffer.
// Raises the NKI error of the first violated rule.
DirectTensor place_direct_tensor(Tracer& t, const DirectAllocSpec& spec, ir::Buffer buf,
                                 const std::vector<int64_t>& shape, int pdim, DType dtype, int tensor_id);

}  // namespace nki::front
