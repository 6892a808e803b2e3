// Free-axis reductions. The fold is sequential by definition (left-to-right order is part of
// the numeric model); the op switch runs once per call and each fold loop inlines the op.
#include "machine/reduce.h"

#include <limits>
#include <stdexcept>
#include <string>

#include "machine/alu.inl.h"

namespace nki {
namespace {

using alu_detail::op_bits;
using alu_detail::op_f32;

template <AluOp kOp>
float fold_f32(float acc, const float* x, size_t n) {
  for (size_t i = 0; i < n; ++i) acc = op_f32<kOp>(acc, x[i]);
  return acc;
}

template <AluOp kOp>
uint32_t fold_u32(uint32_t acc, const uint32_t* x, size_t n) {
  for (size_t i = 0; i < n; ++i) acc = op_bits<kOp>(acc, x[i]);
  return acc;
}

[[noreturn]] void not_a_reduction(AluOp op, const char* what) {
  throw std::invalid_argument(std::string("ALU op '") + alu_op_name(op) + "' cannot be used as " + what);
}

}  // namespace

float fold(AluOp op, float init, const float* x, size_t n) {
  switch (op) {
#define NKI_FOLD_CASE(name) \
  case AluOp::name: return fold_f32<AluOp::name>(init, x, n);
    NKI_FOLD_CASE(Add) NKI_FOLD_CASE(Subtract) NKI_FOLD_CASE(Multiply) NKI_FOLD_CASE(Maximum)
    NKI_FOLD_CASE(Minimum) NKI_FOLD_CASE(LogicalAnd) NKI_FOLD_CASE(LogicalOr)
    NKI_FOLD_CASE(LogicalXor) NKI_FOLD_CASE(BitwiseAnd) NKI_FOLD_CASE(BitwiseOr)
    NKI_FOLD_CASE(BitwiseXor)
#undef NKI_FOLD_CASE
    default:
      not_a_reduction(op, "a reduction");
  }
}

uint32_t fold_bits(AluOp op, uint32_t init, const uint32_t* x, size_t n) {
  switch (op) {
    case AluOp::Add: return fold_u32<AluOp::Add>(init, x, n);
    case AluOp::Multiply: return fold_u32<AluOp::Multiply>(init, x, n);
    case AluOp::BitwiseAnd: return fold_u32<AluOp::BitwiseAnd>(init, x, n);
    case AluOp::BitwiseOr: return fold_u32<AluOp::BitwiseOr>(init, x, n);
    case AluOp::BitwiseXor: return fold_u32<AluOp::BitwiseXor>(init, x, n);
    default:
      not_a_reduction(op, "an integer-bit reduction");
  }
}

void reduce_free(AluOp op, const float* in, size_t partitions, size_t free_size, float* out) {
  const AluOpInfo& info = alu_info(op);
  if (!info.reduction_legal) not_a_reduction(op, "a reduction");
  for (size_t p = 0; p < partitions; ++p) out[p] = fold(op, info.identity, in + p * free_size, free_size);
}

void reduce_mean(const float* in, size_t partitions, size_t free_size, float* out) {
  reduce_free(AluOp::Add, in, partitions, free_size, out);
  const float count = static_cast<float>(free_size);
  for (size_t p = 0; p < partitions; ++p) {
    out[p] = free_size ? out[p] / count : std::numeric_limits<float>::quiet_NaN();
  }
}

void reduce_free_bits(AluOp op, const uint32_t* in, size_t partitions, size_t free_size,
                      uint32_t* out) {
  if (!alu_info(op).reduction_legal || !alu_bits_supported(op) || op == AluOp::Subtract) {
    not_a_reduction(op, "an integer-bit reduction");
  }
  const uint32_t init = alu_info(op).identity_bits;
  for (size_t p = 0; p < partitions; ++p) out[p] = fold_bits(op, init, in + p * free_size, free_size);
}

}  // namespace nki
