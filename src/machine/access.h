// Resolving operands: mask evaluation over an iteration space and Access -> View with bounds
// checks (static: err_tensor_access_out_of_bound; indirect: dynamic_oob or oob_skip).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ir/ir.h"
#include "machine/exec_context.h"
#include "machine/view.h"

namespace nki::machine {

// Which elements of an iteration space an instruction touches.
struct ActiveSet {
  enum Kind { All, None, Some } kind = All;
  std::vector<uint8_t> bits;  // Some: one byte per flat element
  const uint8_t* ptr() const { return kind == Some ? bits.data() : nullptr; }
};

// Evaluates a mask (conjunction of affine predicates over the coordinates k_j and loop values)
// over `shape`. Predicates that hold (or fail) on the whole box are decided from the corners.
ActiveSet eval_mask(const AtomEnv& env, const std::optional<ir::Mask>& mask,
                    const std::vector<int64_t>& shape);

// How an instruction uses an operand (see Memory's deferred copies):
//   Write: the instruction may write through the view; deferred copies it would invalidate are
//          performed first. The default, and always correct.
//   Read:  read-only; the view may point into the source storage of a deferred copy.
//   Peek:  the tensor's own storage with nothing materialised; the caller must call
//          Memory::prepare_write before writing through it.
enum class Use { Write, Read, Peek };

// Evaluates one Access at the current loop values. `mask` (nullable, flat over a.shape) limits
// bounds checks to active elements. With oob_skip, out-of-range indirect rows are marked in
// View::dropped instead of raising.
View resolve(ExecContext& cx, const ir::Access& a, const uint8_t* mask, bool oob_skip = false,
             Use use = Use::Write);

// A view of `v` broadcast (NumPy rules, right-aligned) to `shape`; throws on incompatibility.
View broadcast_view(ExecContext& cx, const View& v, const std::vector<int64_t>& shape);

}  // namespace nki::machine
