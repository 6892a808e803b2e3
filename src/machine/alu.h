// The ALU operator table of shared/docs/nki-spec.md §2.11.1 (and the nl binary ops of §2.9.4)
// with vectorisable kernels over contiguous arrays.
//
// Numeric model (nki-spec.md §2.7.2 rule 5, §7.3): arithmetic on Vector/GpSimd/Scalar engines is
// done in fp32 on values already converted from their storage dtype; the caller converts the
// result to the output dtype. Semantics follow NumPy where NKI follows NumPy:
//  * divide: IEEE (x/0 = +-inf, 0/0 = NaN);
//  * mod: Python `%` (result has the sign of the divisor); fmod: C fmod (sign of the dividend);
//    both give NaN for a zero divisor;
//  * maximum/minimum propagate NaN (np.maximum / np.minimum);
//  * comparisons and logical ops produce 1.0 / 0.0; logical ops treat any nonzero (and NaN) as
//    true; comparisons with NaN are false except not_equal;
//  * power: pow evaluated in double, rounded to fp32.
// Bitvec ops (bitwise and/or/xor, shifts) work on raw 32-bit integer patterns: use the *_bits
// kernels on int32/uint32 data. Given fp32 values instead, they convert each operand to int32
// (round-to-nearest-even, saturating, NaN -> 0), operate on the bits, and return the int32
// result as fp32. Shifts are logical in both directions (the HW ALU has no arithmetic right
// shift); a shift amount of 32 or more (or negative) gives 0.
//
// The enumerators are in the same order as ir::Alu (src/ir/ir.h) so the executor can map one to
// the other with a cast.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace nki {

enum class AluOp : uint8_t {
  Add, Subtract, Multiply, Divide, Maximum, Minimum, Power, Mod, Fmod,
  Equal, NotEqual, Greater, GreaterEqual, Less, LessEqual,
  LogicalAnd, LogicalOr, LogicalXor,
  BitwiseAnd, BitwiseOr, BitwiseXor, LeftShift, RightShift,
  Bypass,  // returns the first operand (the identity stage of two-op instructions)
};
inline constexpr int kNumAluOps = 24;

struct AluOpInfo {
  AluOp op;
  const char* name;        // nl spelling: "add", "bitwise_and", ...
  bool is_bitvec;          // works on raw integer bits
  bool is_comparison;      // ==, !=, <, <=, >, >=
  bool is_logical;         // logical_and/or/xor
  bool reduction_legal;    // allowed as reduce_op / in tensor_reduce (§2.11.1 table)
  float identity;          // fold identity in fp32 (NaN when not reduction-legal)
  uint32_t identity_bits;  // fold identity for the integer-bits kernels
};

const AluOpInfo& alu_info(AluOp op);
inline const char* alu_op_name(AluOp op) { return alu_info(op).name; }
// Accepts nl / NumPy spellings with or without a module prefix: "add", "nl.add", "np.add",
// "np.max" / "amax" / "max" (-> maximum), "np.min" / "amin" / "min", "np.power", "bypass", ...
std::optional<AluOp> parse_alu_op(std::string_view name);

// ---- fp32 kernels (a, b, out may alias element-for-element) ----
float alu_scalar(AluOp op, float a, float b);
// out[i] = op(a[i], b[i])
void binary(AluOp op, const float* a, const float* b, float* out, size_t n);
// out[i] = op(a[i], b)
void binary_scalar_rhs(AluOp op, const float* a, float b, float* out, size_t n);
// out[i] = op(a, b[i])
void binary_scalar_lhs(AluOp op, float a, const float* b, float* out, size_t n);
// a and out are [partitions, free_size] row-major; scalars has one value per partition.
// out[p, f] = op(a[p, f], scalars[p]), or op(scalars[p], a[p, f]) when scalar_is_lhs.
void binary_partition_scalar(AluOp op, const float* a, const float* scalars, float* out,
                             size_t partitions, size_t free_size, bool scalar_is_lhs = false);

// ---- 32-bit integer kernels ----
// Supported ops: the bitvec ops, Bypass, and Add/Subtract/Multiply with two's-complement
// wrap-around (GpSimd native int32 arithmetic, nki-spec.md §2.7.2 rule 5). Any other op throws
// std::invalid_argument naming it.
bool alu_bits_supported(AluOp op);
uint32_t alu_bits_scalar(AluOp op, uint32_t a, uint32_t b);
void binary_bits(AluOp op, const uint32_t* a, const uint32_t* b, uint32_t* out, size_t n);
void binary_bits_scalar_rhs(AluOp op, const uint32_t* a, uint32_t b, uint32_t* out, size_t n);
void binary_bits_scalar_lhs(AluOp op, uint32_t a, const uint32_t* b, uint32_t* out, size_t n);
// Bitwise NOT (nl.invert) on raw bits.
void invert_bits(const uint32_t* in, uint32_t* out, size_t n);

}  // namespace nki
