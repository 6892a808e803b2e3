// What the cost model needs to know about an operand at concrete loop values (the loop values
// come from ir::AtomEnv, shared with the simulator, saturating instead of throwing): the box of tensor
// indices it touches (for dependency tracking), and its layout facts (partitions, elements per
// partition, innermost stride, contiguous runs) for the per-instruction and DMA formulas.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "ir/atom_env.h"
#include "ir/ir.h"

namespace nki::cost {

// Row-major element strides of a tensor's storage: HBM tensors over all dims; on-chip tensors
// over the non-partition dims within one partition (the partition dim gets stride 0).
std::vector<int64_t> storage_strides(const ir::TensorDecl& t);

// Stored inline: the scheduler makes one for every operand of every instruction it schedules or
// replays, and heap-allocated bounds were most of the model's fixed cost on small kernels
// (docs/performance.md). Tensors of higher rank are tracked whole (conservative).
struct Box {
  static constexpr size_t kMaxRank = 8;
  std::array<int64_t, kMaxRank> lo{}, hi{};  // inclusive, per tensor dim (the first `rank`)
  uint8_t rank = 0;
  bool whole = false;  // the whole tensor (views, indirect indices)
  static Box whole_tensor() {
    Box b;
    b.whole = true;
    return b;
  }
};
bool overlaps(const Box& a, const Box& b);
bool covers(const Box& outer, const Box& inner);
Box bounding(const Box& a, const Box& b);

Box access_box(const ir::Kernel& k, const ir::Access& a, const ir::AtomEnv& env);

struct Layout {
  int64_t partitions = 1;        // iteration extent along the tensor's partition dim (1 for HBM)
  int64_t free_elems = 1;        // elements per partition
  int64_t elements = 1;
  int64_t inner_stride_bytes = 0;  // byte stride of the innermost iterated dim (0 if none)
  bool psum = false, sbuf = false, hbm = false;
  DType dtype = DType::Float32;
  bool broadcast_free = false;   // no free dim is iterated (a [P, 1] or scalar operand)
};
Layout layout_of(const ir::Kernel& k, const ir::Access& a);

// Element strides of each iteration dim in the tensor's storage (per-partition for on-chip
// tensors) and whether the dim walks partitions.
struct DimWalk {
  std::vector<int64_t> stride;
  std::vector<bool> partition;
};
DimWalk dim_walk(const ir::Kernel& k, const ir::Access& a);

}  // namespace nki::cost
