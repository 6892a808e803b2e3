// Element conversions between fp32 and every NKI dtype, at the dtype's real width.
//
// Rules (shared/docs/nki-spec.md §2.2.1 and §7.3):
//  * fp32 -> bf16 / fp16 / tf32 / fp8: round to nearest, ties to even. Values too large for the
//    format become +-inf (every narrow format here has an inf: fp8_e4m3 is the IEEE-style
//    ml_dtypes float8_e4m3, max finite 240, not the OCP "fn" variant). Values too small become
//    subnormals or signed zero. NaN stays NaN (quiet, sign kept).
//  * fp32 -> integer: round to nearest even, then saturate to the type's range; NaN -> 0.
//  * fp32 -> bool: nonzero (including NaN) -> 1, zero -> 0.
//  * tfloat32 lives in a 4-byte fp32 container whose low 13 mantissa bits are zero.
#pragma once

#include <cstddef>
#include <cstdint>

#include "base/dtype.h"

namespace nki {

// ---- scalar bit-pattern helpers ----
float bf16_bits_to_f32(uint16_t bits);
uint16_t f32_to_bf16_bits(float v);
float fp16_bits_to_f32(uint16_t bits);
uint16_t f32_to_fp16_bits(float v);
float fp8e4m3_bits_to_f32(uint8_t bits);
uint8_t f32_to_fp8e4m3_bits(float v);
float fp8e5m2_bits_to_f32(uint8_t bits);
uint8_t f32_to_fp8e5m2_bits(float v);
// fp32 rounded (RNE) to tf32 precision, returned as an fp32 value.
float round_to_tf32(float v);

// Largest finite value of a float dtype (240 for fp8_e4m3, 57344 for fp8_e5m2, ...).
float dtype_max_finite(DType t);

// ---- bulk conversions (contiguous arrays, n elements) ----
// fp32 -> dst dtype, written at dst's width into dst_bytes (n * dtype_size(dst) bytes).
void convert_f32_to(DType dst, const float* src, void* dst_bytes, size_t n);
// src dtype (n * dtype_size(src) bytes) -> fp32. Exact for every float dtype and for integers
// up to 2^24 in magnitude; larger int32/uint32 values are rounded to nearest even.
void convert_to_f32(DType src, const void* src_bytes, float* dst, size_t n);
// Replaces each value with its round trip through dtype t (fp32 -> t -> fp32). This is the
// "precise" numerics step applied when a value is stored into a tensor of dtype t; the
// "legacy-sim" mode simply skips it for bf16/fp8.
void round_f32_inplace(DType t, float* data, size_t n);
// src dtype -> dst dtype for n elements. Bit-exact memcpy when src == dst. Integer -> integer
// conversions are done in 64-bit integer arithmetic (exact, saturating to dst's range; bool
// destination: nonzero -> 1). Every other pair goes through fp32 (exact for float sources;
// int32/uint32 sources above 2^24 are first rounded to fp32, as the hardware converter does).
void convert(DType src, const void* src_bytes, DType dst, void* dst_bytes, size_t n);

}  // namespace nki
