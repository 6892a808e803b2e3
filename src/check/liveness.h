// Live ranges of the on-chip (SBUF/PSUM) tensors of a traced kernel, used by the capacity check
// (check/capacity.h). Program order is the pre-order walk of the IR with one position per
// instruction; a loop body appears once (it is traced once), so a range describes one iteration
// unless the tensor lives across the loop.
//
// The ranges are an ESTIMATE of the shortest lifetimes the IR allows (the compiler's scheduler
// and allocator decide the real ones): whenever the IR leaves a choice, the shorter range is taken.
//  * A range runs from the tensor's first access (its first write, or the fill of nl.zeros /
//    nl.full at its creation point) to its last access (normally its last read). Creating a
//    tensor (nl.ndarray) occupies nothing until it is written; a tensor that is written and never
//    read occupies its slot at the write only; a tensor never accessed has no range.
//  * A tensor accessed both inside and outside a loop (created before it and used in it, or
//    written in it and read after it) is live for the whole loop: every iteration uses the one
//    allocation.
//  * A tensor accessed only inside a loop body counts once, over the part of the body between
//    its first and last access: the compiler may multi-buffer it, but one instance is the
//    minimum. The exception is a tensor whose first access in that body is a read (a
//    loop-carried accumulator such as `acc += ...` into an uninitialised tile): it carries a
//    value from one iteration to the next and is live for the whole loop.
//  * Block dimensions are logical (general/nki/nki_block_dimension_migration_guide.rst: the
//    compiler allocates each physical (P, F) tile separately, and tiles that are not alive at the
//    same time may share an address). A loop in which every access of a block tensor selects
//    the same block index with that loop's variable (`a[i, j]` inside `for i`, `for j`) uses a
//    different physical tile in each iteration: the tensor is counted as if it were created
//    inside that loop (the guide's "hoist it down" migration), and only the tiles one iteration
//    touches are live (`LiveRange::tiles`). Any other pattern counts the tiles the accesses can
//    reach within the loops they are not privatised by (all of them when in doubt).
//  * Branch arms are walked one after the other, so a tensor used in one arm only is never live
//    together with one used in the other arm only: the peak is the maximum over the arms.
//  * Views (reshape, view(dtype)) count as accesses of the tensor that owns the storage.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/ir.h"

namespace nki::check {

struct LiveRange {
  int tensor = -1;     // id of a root (storage-owning) SBUF or PSUM tensor
  int64_t first = 0;   // first and last instruction position, inclusive
  int64_t last = 0;
  int64_t tiles = 1;   // physical (P, F) tiles live at once: 1 without block dims
};

// The on-chip root tensors one instruction reads and writes (each at most once per list; a
// tensor that is read and written, such as `acc += ...`, is in both).
struct PositionOperands {
  std::vector<int> reads;
  std::vector<int> writes;
};

struct Liveness {
  int64_t positions = 0;                // number of instructions in the walk
  std::vector<LiveRange> ranges;        // one per accessed on-chip root tensor, by increasing id
  std::vector<PositionOperands> at;     // per position
};

Liveness on_chip_liveness(const ir::Kernel& k);

}  // namespace nki::check
