// Dtype promotion of two operands of an arithmetic op (shared/docs/nki-spec.md §2.7.2; official
// docs general/nki/api/nki.api.shared.rst "NKI Type Promotion", SDK 2.24).
//
//  * float x int   -> the float type.
//  * float x float -> the wider float; fp16 x bf16 -> fp32 and fp8_e4m3 x fp8_e5m2 -> bf16
//                     (documented "new widened type" joins).
//  * int x int     -> the wider type of the same signedness, or the smallest signed type that
//                     holds both ranges; int32 x uint32 (and any signed x uint32) -> fp32,
//                     since the hardware has no 64-bit integers.
//  * bool counts as the narrowest unsigned integer (bool x int8 -> int8, bool x bool -> bool).
//  * Weakly typed Python scalars take the widest hardware type of their kind:
//    bool -> uint8, int -> int32, float -> float32 ((int8 tile, 2) -> int32).
#pragma once

#include "base/dtype.h"

namespace nki {

DType promote(DType a, DType b);

// The kind of an untyped Python scalar operand.
enum class WeakScalar { Bool, Int, Float };

// The dtype a weakly typed scalar is inferred as.
DType weak_scalar_dtype(WeakScalar s);
// Promotion of a typed operand with a weakly typed scalar.
DType promote_with_scalar(DType t, WeakScalar s);

}  // namespace nki
