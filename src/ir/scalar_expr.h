// Arithmetic on ScalarExpr (affine combinations of atoms), kept in canonical form: terms sorted by
// atom id, no zero coefficients.
#pragma once

#include <stdexcept>

#include "ir/ir.h"

namespace nki::ir {

// Thrown when index arithmetic leaves the int64 range (e.g. `x[i * 2**62]`): no such index can
// address a tensor, and wrapping around could make an out-of-bounds access look in bounds.
struct IndexOverflow : std::overflow_error {
  IndexOverflow() : std::overflow_error("index arithmetic overflows 64-bit integers") {}
};

ScalarExpr add(const ScalarExpr& a, const ScalarExpr& b);
ScalarExpr scale(const ScalarExpr& a, int64_t c);
ScalarExpr sub(const ScalarExpr& a, const ScalarExpr& b);
ScalarExpr atom_expr(int atom);
bool equal(const ScalarExpr& a, const ScalarExpr& b);

}  // namespace nki::ir
