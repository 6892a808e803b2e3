// Conversions between fp32 and the NKI dtypes. See dtype_convert.h for the rules.
//
// The per-element kernels are written branch-free (selects instead of early returns) and the
// dtype dispatch happens once per call, outside the loops, so that the compiler can vectorise
// the bulk conversions.
#include "base/dtype_convert.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>

namespace nki {
namespace {

constexpr uint32_t kF32AbsMask = 0x7fffffffu;
constexpr uint32_t kF32Inf = 0x7f800000u;

inline uint32_t f32_bits(float v) { return std::bit_cast<uint32_t>(v); }
inline float bits_f32(uint32_t b) { return std::bit_cast<float>(b); }

// Branch-free select on bit patterns. With the default -ftrapping-math GCC refuses to if-convert
// `c ? x : y` when x or y comes from a floating-point operation it would have to speculate, so
// the loops below select through masks instead; that keeps them vectorisable.
inline uint32_t select_u32(bool c, uint32_t a, uint32_t b) {
  const uint32_t m = 0u - static_cast<uint32_t>(c);
  return (a & m) | (b & ~m);
}
inline float select_f32(bool c, float a, float b) {
  return bits_f32(select_u32(c, f32_bits(a), f32_bits(b)));
}

// Round to the nearest integer, ties to even, without libm (vectorisable). Adding and then
// subtracting 2^23 leaves no fraction bits, and the hardware rounding mode (RNE) does the rest;
// values with |v| >= 2^23 are already integers (or inf/NaN) and pass through. This relies on
// strict IEEE arithmetic: never build this file with -ffast-math / -fassociative-math.
inline float round_half_even(float v) {
  constexpr float kTwo23 = 8388608.0f;
  const float a = std::fabs(v);
  const float r = std::copysign((a + kTwo23) - kTwo23, v);
  return select_f32(a < kTwo23, r, v);
}

// Narrow IEEE-style binary format with E exponent bits and M mantissa bits (E < 8), with
// subnormals, +-inf and NaN (all-ones exponent).
template <int E, int M>
struct Narrow {
  static constexpr int kBias = (1 << (E - 1)) - 1;
  static constexpr uint32_t kExpAll = (1u << E) - 1;
  static constexpr int kShift = 23 - M;                  // fp32 mantissa bits dropped
  static constexpr uint32_t kInf = kExpAll << M;         // magnitude bits of inf
  static constexpr uint32_t kRebias = static_cast<uint32_t>(127 - kBias) << 23;
  static constexpr uint32_t kMinNormalF32 = static_cast<uint32_t>(127 - kBias + 1) << 23;
  // One subnormal step of the narrow format is 2^(1 - bias - M).
  static constexpr float kSubStep = 1.0f / static_cast<float>(1ull << (kBias - 1 + M));
  static constexpr float kSubScale = static_cast<float>(1ull << (kBias - 1 + M));

  static uint32_t encode(float v) {
    const uint32_t x = f32_bits(v);
    const uint32_t sign = (x >> 31) << (E + M);
    const uint32_t ax = x & kF32AbsMask;
    // Normal result: move the exponent to the narrow bias, then drop kShift bits with RNE.
    // A carry out of the mantissa correctly bumps the exponent; anything at or past the
    // all-ones exponent is an overflow to inf.
    const uint32_t rebased = ax - kRebias;  // only used when ax >= kMinNormalF32 (no wrap)
    const uint32_t rounded =
        (rebased + ((1u << (kShift - 1)) - 1) + ((rebased >> kShift) & 1u)) >> kShift;
    const uint32_t normal = rounded < kInf ? rounded : kInf;
    // Subnormal result: count subnormal steps, rounding to nearest even. The scaling is by a
    // power of two, hence exact; the clamp keeps large inputs (unused here) finite.
    float steps = bits_f32(ax) * kSubScale;
    steps = select_f32(steps < 4096.0f, steps, 4096.0f);
    // (Converted through int32: SSE2 has no float->uint32 vector conversion.)
    const uint32_t sub = static_cast<uint32_t>(static_cast<int32_t>(round_half_even(steps)));
    uint32_t mag = select_u32(ax < kMinNormalF32, sub, normal);
    // NaN: quiet NaN keeping the top payload bits.
    const uint32_t nan = kInf | (1u << (M - 1)) | ((ax >> kShift) & ((1u << M) - 1));
    mag = select_u32(ax > kF32Inf, nan, mag);
    return sign | mag;
  }

  static float decode(uint32_t h) {
    const uint32_t sign = ((h >> (E + M)) & 1u) << 31;
    const uint32_t em = h & ((1u << (E + M)) - 1);
    const uint32_t exp = em >> M;
    const uint32_t man = em & ((1u << M) - 1);
    const uint32_t normal = (em << kShift) + kRebias;
    const uint32_t special = kF32Inf | (man << kShift);
    const uint32_t sub = f32_bits(static_cast<float>(static_cast<int32_t>(man)) * kSubStep);
    uint32_t mag = select_u32(exp == kExpAll, special, normal);
    mag = select_u32(exp == 0, sub, mag);
    return bits_f32(sign | mag);
  }
};

using Fp16 = Narrow<5, 10>;
using Fp8E4M3 = Narrow<4, 3>;
using Fp8E5M2 = Narrow<5, 2>;

// Formats with fp32's 8-bit exponent (bf16, tf32): RNE on the raw bits; overflow carries into
// an all-ones exponent (= inf) by itself, and fp32 subnormals stay subnormal.
template <int kDropBits>
inline uint32_t round_f32_bits(uint32_t x) {
  const bool is_nan = (x & kF32AbsMask) > kF32Inf;
  const uint32_t lsb = (x >> kDropBits) & 1u;
  const uint32_t rounded = (x + ((1u << (kDropBits - 1)) - 1) + lsb) >> kDropBits;
  const uint32_t quiet_nan = (x >> kDropBits) | (1u << (22 - kDropBits));
  return select_u32(is_nan, quiet_nan, rounded);
}

struct Fp8Tables {
  std::array<float, 256> e4m3;
  std::array<float, 256> e5m2;
  Fp8Tables() {
    for (uint32_t i = 0; i < 256; ++i) {
      e4m3[i] = Fp8E4M3::decode(i);
      e5m2[i] = Fp8E5M2::decode(i);
    }
  }
};

const Fp8Tables& fp8_tables() {
  static const Fp8Tables tables;
  return tables;
}

// ---- fp32 -> integer, RNE + saturation (nki-spec.md §7.3), NaN -> 0 ----
template <typename T>
inline T f32_to_int_sat(float v) {
  constexpr T kMin = std::numeric_limits<T>::min();
  constexpr T kMax = std::numeric_limits<T>::max();
  constexpr float kLo = static_cast<float>(kMin);  // 0 or -2^k: exact
  // max + 1 is a power of two, computed without rounding max itself.
  constexpr float kHiExcl = static_cast<float>(kMax / 2 + 1) * 2.0f;
  // Largest float below kHiExcl (exact: kHiExcl is a power of two).
  constexpr float kHiClamp = kHiExcl - kHiExcl * 0x1p-24f;
  const float r = round_half_even(v);
  // Clamp first so the conversion itself is always in range (no speculation of an invalid
  // conversion, which would block vectorisation), then patch the saturated and NaN lanes.
  float c = r < kLo ? kLo : r;
  c = c < kHiClamp ? c : kHiClamp;  // NaN ends up here too; fixed below
  T out = static_cast<T>(c);
  out = r >= kHiExcl ? kMax : out;
  return r != r ? T(0) : out;
}

template <typename T>
void f32_to_int_array(const float* src, void* dst_bytes, size_t n) {
  T* dst = static_cast<T*>(dst_bytes);
  for (size_t i = 0; i < n; ++i) dst[i] = f32_to_int_sat<T>(src[i]);
}

template <typename T>
void int_array_to_f32(const void* src_bytes, float* dst, size_t n) {
  const T* src = static_cast<const T*>(src_bytes);
  for (size_t i = 0; i < n; ++i) dst[i] = static_cast<float>(src[i]);
}

// ---- integer -> integer in 64-bit arithmetic ----
template <typename T>
void load_i64(const void* src_bytes, int64_t* dst, size_t n) {
  const T* src = static_cast<const T*>(src_bytes);
  for (size_t i = 0; i < n; ++i) dst[i] = static_cast<int64_t>(src[i]);
}

template <typename T>
void store_i64_sat(const int64_t* src, void* dst_bytes, size_t n) {
  constexpr int64_t kMin = std::numeric_limits<T>::min();
  constexpr int64_t kMax = std::numeric_limits<T>::max();
  T* dst = static_cast<T*>(dst_bytes);
  for (size_t i = 0; i < n; ++i) dst[i] = static_cast<T>(std::clamp(src[i], kMin, kMax));
}

void int_to_i64(DType t, const void* src, int64_t* dst, size_t n) {
  switch (t) {
    case DType::Bool: {
      const uint8_t* s = static_cast<const uint8_t*>(src);
      for (size_t i = 0; i < n; ++i) dst[i] = s[i] != 0;
      return;
    }
    case DType::Int8: return load_i64<int8_t>(src, dst, n);
    case DType::Int16: return load_i64<int16_t>(src, dst, n);
    case DType::Int32: return load_i64<int32_t>(src, dst, n);
    case DType::UInt8: return load_i64<uint8_t>(src, dst, n);
    case DType::UInt16: return load_i64<uint16_t>(src, dst, n);
    case DType::UInt32: return load_i64<uint32_t>(src, dst, n);
    default: return;  // not reached: callers check dtype_is_int
  }
}

void i64_to_int(const int64_t* src, DType t, void* dst, size_t n) {
  switch (t) {
    case DType::Bool: {
      uint8_t* d = static_cast<uint8_t*>(dst);
      for (size_t i = 0; i < n; ++i) d[i] = src[i] != 0;
      return;
    }
    case DType::Int8: return store_i64_sat<int8_t>(src, dst, n);
    case DType::Int16: return store_i64_sat<int16_t>(src, dst, n);
    case DType::Int32: return store_i64_sat<int32_t>(src, dst, n);
    case DType::UInt8: return store_i64_sat<uint8_t>(src, dst, n);
    case DType::UInt16: return store_i64_sat<uint16_t>(src, dst, n);
    case DType::UInt32: return store_i64_sat<uint32_t>(src, dst, n);
    default: return;
  }
}

constexpr size_t kChunk = 512;  // elements per stack buffer in chunked conversions

}  // namespace

// ---- scalar helpers ----
float bf16_bits_to_f32(uint16_t bits) { return bits_f32(static_cast<uint32_t>(bits) << 16); }
uint16_t f32_to_bf16_bits(float v) { return static_cast<uint16_t>(round_f32_bits<16>(f32_bits(v))); }
float fp16_bits_to_f32(uint16_t bits) { return Fp16::decode(bits); }
uint16_t f32_to_fp16_bits(float v) { return static_cast<uint16_t>(Fp16::encode(v)); }
float fp8e4m3_bits_to_f32(uint8_t bits) { return fp8_tables().e4m3[bits]; }
uint8_t f32_to_fp8e4m3_bits(float v) { return static_cast<uint8_t>(Fp8E4M3::encode(v)); }
float fp8e5m2_bits_to_f32(uint8_t bits) { return fp8_tables().e5m2[bits]; }
uint8_t f32_to_fp8e5m2_bits(float v) { return static_cast<uint8_t>(Fp8E5M2::encode(v)); }
float round_to_tf32(float v) { return bits_f32(round_f32_bits<13>(f32_bits(v)) << 13); }

float dtype_max_finite(DType t) {
  switch (t) {
    case DType::Bool: return 1.0f;
    case DType::Int8: return 127.0f;
    case DType::Int16: return 32767.0f;
    case DType::Int32: return 2147483647.0f;  // rounds to 2^31 in fp32
    case DType::UInt8: return 255.0f;
    case DType::UInt16: return 65535.0f;
    case DType::UInt32: return 4294967295.0f;  // rounds to 2^32 in fp32
    case DType::Float16: return 65504.0f;
    case DType::BFloat16: return bits_f32(0x7f7f0000u);
    case DType::TFloat32: return bits_f32(0x7f7fe000u);
    case DType::Float32: return FLT_MAX;
    case DType::Float8E4M3: return 240.0f;
    case DType::Float8E5M2: return 57344.0f;
  }
  return FLT_MAX;
}

// ---- bulk ----
void convert_f32_to(DType dst, const float* src, void* dst_bytes, size_t n) {
  switch (dst) {
    case DType::Float32:
      if (n) std::memcpy(dst_bytes, src, n * sizeof(float));
      return;
    case DType::TFloat32: {
      uint32_t* d = static_cast<uint32_t*>(dst_bytes);
      for (size_t i = 0; i < n; ++i) d[i] = round_f32_bits<13>(f32_bits(src[i])) << 13;
      return;
    }
    case DType::BFloat16: {
      uint16_t* d = static_cast<uint16_t*>(dst_bytes);
      for (size_t i = 0; i < n; ++i) d[i] = static_cast<uint16_t>(round_f32_bits<16>(f32_bits(src[i])));
      return;
    }
    case DType::Float16: {
      uint16_t* d = static_cast<uint16_t*>(dst_bytes);
      for (size_t i = 0; i < n; ++i) d[i] = static_cast<uint16_t>(Fp16::encode(src[i]));
      return;
    }
    case DType::Float8E4M3: {
      uint8_t* d = static_cast<uint8_t*>(dst_bytes);
      for (size_t i = 0; i < n; ++i) d[i] = static_cast<uint8_t>(Fp8E4M3::encode(src[i]));
      return;
    }
    case DType::Float8E5M2: {
      uint8_t* d = static_cast<uint8_t*>(dst_bytes);
      for (size_t i = 0; i < n; ++i) d[i] = static_cast<uint8_t>(Fp8E5M2::encode(src[i]));
      return;
    }
    case DType::Bool: {
      uint8_t* d = static_cast<uint8_t*>(dst_bytes);
      for (size_t i = 0; i < n; ++i) d[i] = src[i] != 0.0f;  // NaN != 0: true
      return;
    }
    case DType::Int8: return f32_to_int_array<int8_t>(src, dst_bytes, n);
    case DType::Int16: return f32_to_int_array<int16_t>(src, dst_bytes, n);
    case DType::Int32: return f32_to_int_array<int32_t>(src, dst_bytes, n);
    case DType::UInt8: return f32_to_int_array<uint8_t>(src, dst_bytes, n);
    case DType::UInt16: return f32_to_int_array<uint16_t>(src, dst_bytes, n);
    case DType::UInt32: return f32_to_int_array<uint32_t>(src, dst_bytes, n);
  }
}

void convert_to_f32(DType src, const void* src_bytes, float* dst, size_t n) {
  switch (src) {
    case DType::Float32:
    case DType::TFloat32:  // stored as an fp32 bit pattern
      if (n) std::memcpy(dst, src_bytes, n * sizeof(float));
      return;
    case DType::BFloat16: {
      const uint16_t* s = static_cast<const uint16_t*>(src_bytes);
      for (size_t i = 0; i < n; ++i) dst[i] = bits_f32(static_cast<uint32_t>(s[i]) << 16);
      return;
    }
    case DType::Float16: {
      const uint16_t* s = static_cast<const uint16_t*>(src_bytes);
      for (size_t i = 0; i < n; ++i) dst[i] = Fp16::decode(s[i]);
      return;
    }
    case DType::Float8E4M3:
    case DType::Float8E5M2: {
      const auto& table = src == DType::Float8E4M3 ? fp8_tables().e4m3 : fp8_tables().e5m2;
      const uint8_t* s = static_cast<const uint8_t*>(src_bytes);
      for (size_t i = 0; i < n; ++i) dst[i] = table[s[i]];
      return;
    }
    case DType::Bool: {
      const uint8_t* s = static_cast<const uint8_t*>(src_bytes);
      for (size_t i = 0; i < n; ++i) dst[i] = s[i] != 0 ? 1.0f : 0.0f;
      return;
    }
    case DType::Int8: return int_array_to_f32<int8_t>(src_bytes, dst, n);
    case DType::Int16: return int_array_to_f32<int16_t>(src_bytes, dst, n);
    case DType::Int32: return int_array_to_f32<int32_t>(src_bytes, dst, n);
    case DType::UInt8: return int_array_to_f32<uint8_t>(src_bytes, dst, n);
    case DType::UInt16: return int_array_to_f32<uint16_t>(src_bytes, dst, n);
    case DType::UInt32: return int_array_to_f32<uint32_t>(src_bytes, dst, n);
  }
}

void round_f32_inplace(DType t, float* data, size_t n) {
  switch (t) {
    case DType::Float32:
      return;
    case DType::TFloat32:
      for (size_t i = 0; i < n; ++i) data[i] = round_to_tf32(data[i]);
      return;
    case DType::BFloat16:
      for (size_t i = 0; i < n; ++i) data[i] = bits_f32(round_f32_bits<16>(f32_bits(data[i])) << 16);
      return;
    default:
      break;
  }
  // Everything else: a real round trip through a chunk-sized buffer at t's width, so the
  // result is by construction what a store-then-load would give.
  alignas(16) uint8_t buf[kChunk * 4];
  for (size_t start = 0; start < n; start += kChunk) {
    const size_t m = std::min(kChunk, n - start);
    convert_f32_to(t, data + start, buf, m);
    convert_to_f32(t, buf, data + start, m);
  }
}

void convert(DType src, const void* src_bytes, DType dst, void* dst_bytes, size_t n) {
  const auto* s = static_cast<const uint8_t*>(src_bytes);
  auto* d = static_cast<uint8_t*>(dst_bytes);
  const size_t ssize = dtype_size(src);
  const size_t dsize = dtype_size(dst);
  if (src == dst) {
    if (n) std::memcpy(dst_bytes, src_bytes, n * ssize);
    return;
  }
  if (dtype_is_int(src) && dtype_is_int(dst)) {
    int64_t buf[kChunk];
    for (size_t start = 0; start < n; start += kChunk) {
      const size_t m = std::min(kChunk, n - start);
      int_to_i64(src, s + start * ssize, buf, m);
      i64_to_int(buf, dst, d + start * dsize, m);
    }
    return;
  }
  if (src == DType::Float32) return convert_f32_to(dst, static_cast<const float*>(src_bytes), dst_bytes, n);
  if (dst == DType::Float32) return convert_to_f32(src, src_bytes, static_cast<float*>(dst_bytes), n);
  float buf[kChunk];
  for (size_t start = 0; start < n; start += kChunk) {
    const size_t m = std::min(kChunk, n - start);
    convert_to_f32(src, s + start * ssize, buf, m);
    convert_f32_to(dst, buf, d + start * dsize, m);
  }
}

}  // namespace nki
