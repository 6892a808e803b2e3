// Element-wise engine arithmetic on dense scratch buffers, as the executor needs it: fp32 ALU
// operators and activation functions (Vector/Scalar/GpSimd compute in fp32, spec §7.3) and an
// exact int64 path for bitvec operators and integer GpSimd arithmetic.
//
// Each entry point switches on the operator once and runs a tight stride-1 loop; an operand
// flagged `scalar` is one value broadcast over all n elements.
#pragma once

#include <cstdint>

#include "ir/ir.h"

namespace nki::machine {

bool is_bitvec(ir::Alu op);
// Identity element of a reduction operator (add 0, multiply 1, max -inf, min +inf, ...).
float alu_identity(ir::Alu op);
int64_t alu_identity_i64(ir::Alu op);

float alu_scalar(ir::Alu op, float a, float b);
int64_t alu_scalar_i64(ir::Alu op, int64_t a, int64_t b);

// out[i] = op(a[i], b[i]); `a`/`b` may alias `out`.
void alu_f32(ir::Alu op, const float* a, bool a_scalar, const float* b, bool b_scalar, float* out,
             int64_t n);
void alu_i64(ir::Alu op, const int64_t* a, bool a_scalar, const int64_t* b, bool b_scalar,
             int64_t* out, int64_t n);

// out[i] = f(in[i]) in fp32 (may be in place).
void act_f32(ir::Act f, const float* in, float* out, int64_t n);

}  // namespace nki::machine
