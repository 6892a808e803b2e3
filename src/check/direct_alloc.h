// The kernel-wide rules of direct allocation (nki.compiler, SDK 2.24; spec §2.12 and rule C27),
// checked on the IR after tracing: no auto-allocated on-chip tensor may be used in a kernel with
// direct allocation (`mixed_allocation`), no HBM tensor other than inputs, returned outputs and
// constants (`non_io_hbm_tensor`), and a warning for two directly allocated tensors whose memory
// overlaps while both are live (`allocation_overlap`).
//
// Where each tile lives is evaluated by the front end when the tensor is created (it calls the
// kernel's allocation function, nki/check_alloc.h) and reaches this check as `DirectTensor`s.
// docs/simulator.md ("Direct allocation") describes the model and its sources.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <vector>

#include "base/diagnostic.h"
#include "ir/ir.h"

namespace nki::check {

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

// Kernel-wide rules of direct-allocation kernels (run after tracing). Returns the first error;
// appends warnings. `folded_results`: instruction results that an assignment copied into a tile
// right after they were produced; they are not auto-allocated tiles unless used again.
std::optional<Diagnostic> direct_alloc_error(const ir::Kernel& k, const std::vector<DirectTensor>& placed,
                                             const std::set<int>& folded_results, std::vector<Diagnostic>& warnings);

}  // namespace nki::check
