// Dtype promotion. The documented examples (nki-spec.md §2.7.2) are reproduced by the rules
// below; pairs the docs do not list follow the spec's inferred ranking:
//   floats: {fp8_e4m3, fp8_e5m2} < {bf16, fp16} < tf32 < fp32, with the special joins
//           fp16 x bf16 = fp32 and e4m3 x e5m2 = bf16;
//   ints:   same signedness -> wider; mixed -> smallest signed type covering both; no 64-bit.
#include "base/dtype_promote.h"

namespace nki {
namespace {

// Float rank: a type of higher rank can represent every value of a lower-ranked one, except
// between types sharing a rank (handled by the special joins).
int float_rank(DType t) {
  switch (t) {
    case DType::Float8E4M3:
    case DType::Float8E5M2: return 0;
    case DType::BFloat16:
    case DType::Float16: return 1;
    case DType::TFloat32: return 2;
    default: return 3;  // Float32
  }
}

DType promote_floats(DType a, DType b) {
  if (a == b) return a;
  const int ra = float_rank(a), rb = float_rank(b);
  if (ra != rb) return ra > rb ? a : b;
  // Same rank, different types: neither holds the other's range and precision.
  if (ra == 0) return DType::BFloat16;  // e4m3 x e5m2 (documented)
  return DType::Float32;                // fp16 x bf16 (documented)
}

// Value bits excluding the sign bit; bool holds one bit.
int int_value_bits(DType t) {
  switch (t) {
    case DType::Bool: return 1;
    case DType::Int8: return 7;
    case DType::UInt8: return 8;
    case DType::Int16: return 15;
    case DType::UInt16: return 16;
    case DType::Int32: return 31;
    default: return 32;  // UInt32
  }
}

DType signed_int_with_value_bits(int bits) {
  if (bits <= 7) return DType::Int8;
  if (bits <= 15) return DType::Int16;
  if (bits <= 31) return DType::Int32;
  return DType::Float32;  // would need int64, which the hardware lacks
}

DType promote_ints(DType a, DType b) {
  if (a == b) return a;
  const bool sa = dtype_is_signed(a), sb = dtype_is_signed(b);
  const int ba = int_value_bits(a), bb = int_value_bits(b);
  if (sa == sb) return ba >= bb ? a : b;
  // Mixed signedness: a signed type must hold the unsigned operand's full range.
  const int unsigned_bits = sa ? bb : ba;
  const int signed_bits = sa ? ba : bb;
  if (signed_bits >= unsigned_bits) return sa ? a : b;
  return signed_int_with_value_bits(unsigned_bits);
}

}  // namespace

DType promote(DType a, DType b) {
  const bool fa = dtype_is_float(a), fb = dtype_is_float(b);
  if (fa && fb) return promote_floats(a, b);
  if (fa) return a;
  if (fb) return b;
  return promote_ints(a, b);
}

DType weak_scalar_dtype(WeakScalar s) {
  switch (s) {
    case WeakScalar::Bool: return DType::UInt8;
    case WeakScalar::Int: return DType::Int32;
    case WeakScalar::Float: return DType::Float32;
  }
  return DType::Float32;
}

DType promote_with_scalar(DType t, WeakScalar s) { return promote(t, weak_scalar_dtype(s)); }

}  // namespace nki
