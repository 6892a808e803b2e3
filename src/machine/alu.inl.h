// Internal: the per-element ALU semantics as inline templates, shared by the kernels in alu.cpp
// and the folds in reduce.cpp so both use one definition. Not part of the public API.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include "machine/alu.h"

namespace nki::alu_detail {

// fp32 value -> int32 for bitvec ops on float data: RNE, saturating, NaN -> 0.
inline int32_t to_i32(float x) {
  if (!(x == x)) return 0;
  if (x >= 2147483648.0f) return std::numeric_limits<int32_t>::max();
  if (x < -2147483648.0f) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(std::nearbyint(x));
}

inline uint32_t shl(uint32_t a, uint32_t s) { return s >= 32 ? 0u : a << s; }
inline uint32_t shr(uint32_t a, uint32_t s) { return s >= 32 ? 0u : a >> s; }

template <AluOp kOp>
inline uint32_t op_bits(uint32_t a, uint32_t b) {
  if constexpr (kOp == AluOp::Add) return a + b;
  else if constexpr (kOp == AluOp::Subtract) return a - b;
  else if constexpr (kOp == AluOp::Multiply) return a * b;
  else if constexpr (kOp == AluOp::BitwiseAnd) return a & b;
  else if constexpr (kOp == AluOp::BitwiseOr) return a | b;
  else if constexpr (kOp == AluOp::BitwiseXor) return a ^ b;
  else if constexpr (kOp == AluOp::LeftShift) return shl(a, b);
  else if constexpr (kOp == AluOp::RightShift) return shr(a, b);
  else return a;  // Bypass
}

template <AluOp kOp>
inline float op_f32(float x, float y) {
  if constexpr (kOp == AluOp::Add) return x + y;
  else if constexpr (kOp == AluOp::Subtract) return x - y;
  else if constexpr (kOp == AluOp::Multiply) return x * y;
  else if constexpr (kOp == AluOp::Divide) return x / y;
  else if constexpr (kOp == AluOp::Maximum) return x != x ? x : (y != y ? y : (x > y ? x : y));
  else if constexpr (kOp == AluOp::Minimum) return x != x ? x : (y != y ? y : (x < y ? x : y));
  else if constexpr (kOp == AluOp::Power)
    return static_cast<float>(std::pow(static_cast<double>(x), static_cast<double>(y)));
  else if constexpr (kOp == AluOp::Mod) {
    // Python semantics: the remainder takes the divisor's sign (a zero keeps it too).
    float r = std::fmod(x, y);
    if (r != 0.0f) return (r < 0.0f) != (y < 0.0f) ? r + y : r;
    return std::copysign(0.0f, y);
  } else if constexpr (kOp == AluOp::Fmod) return std::fmod(x, y);
  else if constexpr (kOp == AluOp::Equal) return x == y ? 1.0f : 0.0f;
  else if constexpr (kOp == AluOp::NotEqual) return x != y ? 1.0f : 0.0f;
  else if constexpr (kOp == AluOp::Greater) return x > y ? 1.0f : 0.0f;
  else if constexpr (kOp == AluOp::GreaterEqual) return x >= y ? 1.0f : 0.0f;
  else if constexpr (kOp == AluOp::Less) return x < y ? 1.0f : 0.0f;
  else if constexpr (kOp == AluOp::LessEqual) return x <= y ? 1.0f : 0.0f;
  else if constexpr (kOp == AluOp::LogicalAnd) return (x != 0.0f) && (y != 0.0f) ? 1.0f : 0.0f;
  else if constexpr (kOp == AluOp::LogicalOr) return (x != 0.0f) || (y != 0.0f) ? 1.0f : 0.0f;
  else if constexpr (kOp == AluOp::LogicalXor) return (x != 0.0f) != (y != 0.0f) ? 1.0f : 0.0f;
  else if constexpr (kOp == AluOp::Bypass) return x;
  else {
    // Bitvec op on fp32 data: operate on the int32 values.
    const uint32_t r = op_bits<kOp>(static_cast<uint32_t>(to_i32(x)), static_cast<uint32_t>(to_i32(y)));
    return static_cast<float>(static_cast<int32_t>(r));
  }
}

}  // namespace nki::alu_detail
