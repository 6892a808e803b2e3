// Direct allocation (nki.compiler, SDK 2.24; spec §2.12 and rule C27): kernels that place their
// SBUF/PSUM tiles themselves with ncc.sbuf.alloc(func) / mod_alloc(...) and ncc.psum.alloc(func)
// / mod_alloc(...).
//
// At tensor creation the placement of every logical tile (one per block index) is evaluated as
// the compiler does: the user's function is called with (block index tuple, partition count,
// bytes per partition), and mod_alloc uses the modulo formula of the Python reference in the
// official tests test_sbuf_modulo_alloc.py / test_psum_modulo_alloc.py. The documented rules on
// the arguments and the resulting placement are checked there (project codes
// `invalid_allocation`, `allocation_out_of_bounds`).
//
// After tracing, the kernel-wide rules are checked: no auto-allocated on-chip tensor may be used
// in a kernel with direct allocation (`mixed_allocation`), no HBM tensor other than inputs,
// returned outputs and constants (`non_io_hbm_tensor`), and a warning for two directly
// allocated tensors whose memory overlaps while both are live (`allocation_overlap`).
// docs/simulator.md ("Direct allocation") describes the model and its sources.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <vector>

#include "base/diagnostic.h"
#include "ir/ir.h"
#include "nki/objects.h"
#include "target/target.h"

namespace nki::front {

class Tracer;

// Where one logical tile is placed: PSUM bank (PSUM only), first partition, byte offset in each
// partition (in the bank for PSUM).
struct TilePlacement {
  int64_t bank = 0;
  int64_t start_partition = 0;
  int64_t byte_addr = 0;
};

struct DirectTensor {
  int tensor = -1;
  ir::Buffer buffer = ir::Buffer::Sbuf;
  int64_t pdim_size = 0;   // partitions of one tile
  int64_t fdim_bytes = 0;  // bytes per partition of one tile
  // One per logical tile (row-major over the block dims). Empty when the allocation function
  // returned values that are not compile-time integers (nothing is checked then).
  std::vector<TilePlacement> tiles;
};

// Parses the keyword arguments of ncc.sbuf.mod_alloc / ncc.psum.mod_alloc and checks the
// argument rules of nki/compiler/sbuf.py and psum.py (SDK 2.24).
std::shared_ptr<DirectAllocSpec> parse_mod_alloc(ir::Buffer buf, py::CallArgs& call);

// Evaluates and checks the placement of a tensor created with a direct-allocation buffer.
// Raises the NKI error of the first violated rule.
DirectTensor place_direct_tensor(Tracer& t, const DirectAllocSpec& spec, ir::Buffer buf,
                                 const std::vector<int64_t>& shape, int pdim, DType dtype, int tensor_id);

// Kernel-wide rules of direct-allocation kernels (run after tracing). Returns the first error;
// appends warnings. `folded_results`: instruction results that an assignment copied into a tile
// right after they were produced; they are not auto-allocated tiles unless used again.
std::optional<Diagnostic> direct_alloc_error(const ir::Kernel& k, const std::vector<DirectTensor>& placed,
                                             const std::set<int>& folded_results, std::vector<Diagnostic>& warnings);

}  // namespace nki::front
