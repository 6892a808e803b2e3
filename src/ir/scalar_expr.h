// Arithmetic on ScalarExpr (affine combinations of atoms), kept in canonical form: terms sorted by
// atom id, no zero coefficients.
#pragma once

#include "ir/ir.h"

namespace nki::ir {

ScalarExpr add(const ScalarExpr& a, const ScalarExpr& b);
ScalarExpr scale(const ScalarExpr& a, int64_t c);
ScalarExpr sub(const ScalarExpr& a, const ScalarExpr& b);
ScalarExpr atom_expr(int atom);
bool equal(const ScalarExpr& a, const ScalarExpr& b);

}  // namespace nki::ir
