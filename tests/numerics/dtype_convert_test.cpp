// Conversion tests against hand-derived bit patterns and an independent brute-force reference.
#include "base/dtype_convert.h"

#include <gtest/gtest.h>

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace nki {
namespace {

float f(uint32_t bits) { return std::bit_cast<float>(bits); }
uint32_t bits(float v) { return std::bit_cast<uint32_t>(v); }
const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

TEST(Bf16, KnownPatterns) {
  EXPECT_EQ(f32_to_bf16_bits(1.0f), 0x3F80);
  EXPECT_EQ(f32_to_bf16_bits(-2.0f), 0xC000);
  EXPECT_EQ(f32_to_bf16_bits(0.0f), 0x0000);
  EXPECT_EQ(f32_to_bf16_bits(-0.0f), 0x8000);
  EXPECT_EQ(f32_to_bf16_bits(kInf), 0x7F80);
  EXPECT_EQ(f32_to_bf16_bits(-kInf), 0xFF80);
  EXPECT_EQ(bf16_bits_to_f32(0x3F80), 1.0f);
  EXPECT_EQ(bf16_bits_to_f32(0x4049), 3.140625f);
}

TEST(Bf16, RoundToNearestEven) {
  EXPECT_EQ(f32_to_bf16_bits(f(0x3F808000)), 0x3F80);  // tie, even below
  EXPECT_EQ(f32_to_bf16_bits(f(0x3F818000)), 0x3F82);  // tie, odd below -> up
  EXPECT_EQ(f32_to_bf16_bits(f(0x3F808001)), 0x3F81);  // just above the tie
  EXPECT_EQ(f32_to_bf16_bits(f(0x3F807FFF)), 0x3F80);  // just below the tie
  EXPECT_EQ(f32_to_bf16_bits(f(0xBF818000)), 0xBF82);  // sign does not matter
  EXPECT_EQ(f32_to_bf16_bits(f(0x3FFF8000)), 0x4000);  // mantissa carry bumps the exponent
}

TEST(Bf16, OverflowSubnormalNaN) {
  EXPECT_EQ(f32_to_bf16_bits(FLT_MAX), 0x7F80);           // rounds past max bf16 -> inf
  EXPECT_EQ(f32_to_bf16_bits(f(0x7F7F7FFF)), 0x7F7F);     // stays at max bf16
  EXPECT_EQ(f32_to_bf16_bits(f(0x00010000)), 0x0001);     // smallest bf16 subnormal
  EXPECT_EQ(f32_to_bf16_bits(f(0x00008000)), 0x0000);     // tie to zero (even)
  EXPECT_EQ(f32_to_bf16_bits(f(0x00018000)), 0x0002);     // tie to 2 (even)
  EXPECT_EQ(f32_to_bf16_bits(kNaN), 0x7FC0);
  EXPECT_EQ(f32_to_bf16_bits(f(0x7F800001)), 0x7FC0);     // signalling NaN stays NaN (not inf)
  EXPECT_EQ(f32_to_bf16_bits(f(0xFFFFFFFF)), 0xFFFF);     // payload and sign kept
}

TEST(Fp16, KnownPatternsAndRounding) {
  EXPECT_EQ(f32_to_fp16_bits(1.0f), 0x3C00);
  EXPECT_EQ(f32_to_fp16_bits(-2.0f), 0xC000);
  EXPECT_EQ(f32_to_fp16_bits(65504.0f), 0x7BFF);
  EXPECT_EQ(f32_to_fp16_bits(65519.0f), 0x7BFF);
  EXPECT_EQ(f32_to_fp16_bits(65520.0f), 0x7C00);   // tie between max (odd) and 2^16 -> inf
  EXPECT_EQ(f32_to_fp16_bits(1e6f), 0x7C00);
  EXPECT_EQ(f32_to_fp16_bits(-1e6f), 0xFC00);
  EXPECT_EQ(f32_to_fp16_bits(FLT_MAX), 0x7C00);
  EXPECT_EQ(f32_to_fp16_bits(1.0f + std::ldexp(1.0f, -11)), 0x3C00);      // tie -> even
  EXPECT_EQ(f32_to_fp16_bits(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3C02);  // tie -> even
  EXPECT_EQ(f32_to_fp16_bits(std::ldexp(1.0f, -14)), 0x0400);  // min normal
  EXPECT_EQ(f32_to_fp16_bits(std::ldexp(1.0f, -24)), 0x0001);  // min subnormal
  EXPECT_EQ(f32_to_fp16_bits(std::ldexp(1.0f, -25)), 0x0000);  // tie -> 0
  EXPECT_EQ(f32_to_fp16_bits(std::ldexp(1.5f, -25)), 0x0001);
  EXPECT_EQ(f32_to_fp16_bits(std::ldexp(3.0f, -25)), 0x0002);  // 1.5 steps: tie -> 2
  EXPECT_EQ(f32_to_fp16_bits(std::ldexp(1023.0f, -24)), 0x03FF);
  EXPECT_EQ(f32_to_fp16_bits(std::ldexp(1023.5f, -24)), 0x0400);  // rounds up into normals
  EXPECT_EQ(f32_to_fp16_bits(-std::ldexp(1.0f, -24)), 0x8001);
  EXPECT_EQ(f32_to_fp16_bits(f(0x00000001)), 0x0000);  // fp32 subnormal underflows
  EXPECT_EQ(f32_to_fp16_bits(-0.0f), 0x8000);
  EXPECT_EQ(f32_to_fp16_bits(kInf), 0x7C00);
  EXPECT_EQ(f32_to_fp16_bits(kNaN), 0x7E00);
  EXPECT_EQ(fp16_bits_to_f32(0x7BFF), 65504.0f);
  EXPECT_EQ(fp16_bits_to_f32(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(fp16_bits_to_f32(0x8400), -std::ldexp(1.0f, -14));
  EXPECT_TRUE(std::isnan(fp16_bits_to_f32(0x7E00)));
  EXPECT_TRUE(std::isnan(fp16_bits_to_f32(0x7C01)));
  EXPECT_EQ(fp16_bits_to_f32(0xFC00), -kInf);
}

TEST(Fp8E4M3, KnownPatterns) {
  EXPECT_EQ(f32_to_fp8e4m3_bits(1.0f), 0x38);
  EXPECT_EQ(f32_to_fp8e4m3_bits(240.0f), 0x77);   // max finite: exp 1110, mantissa 111
  EXPECT_EQ(f32_to_fp8e4m3_bits(-240.0f), 0xF7);
  EXPECT_EQ(f32_to_fp8e4m3_bits(247.0f), 0x77);
  EXPECT_EQ(f32_to_fp8e4m3_bits(248.0f), 0x78);   // tie with 256 (odd max) -> inf
  EXPECT_EQ(f32_to_fp8e4m3_bits(1000.0f), 0x78);
  EXPECT_EQ(f32_to_fp8e4m3_bits(-kInf), 0xF8);
  EXPECT_EQ(f32_to_fp8e4m3_bits(kNaN), 0x7C);
  EXPECT_EQ(f32_to_fp8e4m3_bits(std::ldexp(1.0f, -6)), 0x08);  // min normal
  EXPECT_EQ(f32_to_fp8e4m3_bits(std::ldexp(1.0f, -9)), 0x01);  // min subnormal
  EXPECT_EQ(f32_to_fp8e4m3_bits(std::ldexp(1.0f, -10)), 0x00);  // tie -> 0
  EXPECT_EQ(f32_to_fp8e4m3_bits(std::ldexp(3.0f, -10)), 0x02);  // 1.5 steps -> 2
  EXPECT_EQ(f32_to_fp8e4m3_bits(0.3f), 0x2A);  // 0.3125 = 1.25 * 2^-2
  EXPECT_EQ(fp8e4m3_bits_to_f32(0x77), 240.0f);
  EXPECT_EQ(fp8e4m3_bits_to_f32(0x07), 7.0f * std::ldexp(1.0f, -9));
  EXPECT_EQ(fp8e4m3_bits_to_f32(0x78), kInf);
  EXPECT_EQ(fp8e4m3_bits_to_f32(0xF8), -kInf);
  EXPECT_TRUE(std::isnan(fp8e4m3_bits_to_f32(0x79)));
  EXPECT_TRUE(std::isnan(fp8e4m3_bits_to_f32(0xFF)));
  EXPECT_EQ(dtype_max_finite(DType::Float8E4M3), 240.0f);
}

TEST(Fp8E5M2, KnownPatterns) {
  EXPECT_EQ(f32_to_fp8e5m2_bits(1.0f), 0x3C);
  EXPECT_EQ(f32_to_fp8e5m2_bits(57344.0f), 0x7B);
  EXPECT_EQ(f32_to_fp8e5m2_bits(61439.0f), 0x7B);
  EXPECT_EQ(f32_to_fp8e5m2_bits(61440.0f), 0x7C);  // tie with 65536 -> inf
  EXPECT_EQ(f32_to_fp8e5m2_bits(std::ldexp(1.0f, -16)), 0x01);
  EXPECT_EQ(f32_to_fp8e5m2_bits(kNaN), 0x7E);
  EXPECT_EQ(f32_to_fp8e5m2_bits(-1.25f), 0xBD);
  EXPECT_EQ(fp8e5m2_bits_to_f32(0x7B), 57344.0f);
  EXPECT_EQ(fp8e5m2_bits_to_f32(0x7C), kInf);
  EXPECT_TRUE(std::isnan(fp8e5m2_bits_to_f32(0x7D)));
  EXPECT_EQ(dtype_max_finite(DType::Float8E5M2), 57344.0f);
}

TEST(Tf32, RoundsMantissaToTenBits) {
  EXPECT_EQ(round_to_tf32(1.0f + std::ldexp(1.0f, -11)), 1.0f);
  EXPECT_EQ(round_to_tf32(1.0f + 3 * std::ldexp(1.0f, -11)), 1.0f + std::ldexp(1.0f, -9));
  EXPECT_EQ(round_to_tf32(1.0f + std::ldexp(1.0f, -10)), 1.0f + std::ldexp(1.0f, -10));
  EXPECT_EQ(bits(round_to_tf32(f(0x3F801001))), 0x3F802000u);
  EXPECT_EQ(round_to_tf32(FLT_MAX), kInf);
  EXPECT_TRUE(std::isnan(round_to_tf32(kNaN)));
  // Storage: tf32 is a 4-byte container with the low 13 bits clear.
  float in = f(0x3F801001);
  uint32_t out = 0;
  convert_f32_to(DType::TFloat32, &in, &out, 1);
  EXPECT_EQ(out, 0x3F802000u);
}

// Independent reference for a narrow format: the nearest of all finite values (computed with
// ldexp), ties to the even mantissa, and overflow to inf from max + half an ulp on.
struct RefFormat {
  int ebits, mbits;
  std::vector<double> values;  // index = magnitude bit pattern, finite only
  RefFormat(int e, int m) : ebits(e), mbits(m) {
    int bias = (1 << (e - 1)) - 1;
    for (int em = 0; em < ((1 << e) - 1) << m; ++em) {
      int ex = em >> m, man = em & ((1 << m) - 1);
      values.push_back(ex == 0 ? std::ldexp(man, 1 - bias - m)
                               : std::ldexp(1.0 + std::ldexp(man, -m), ex - bias));
    }
  }
  uint32_t encode(float v) const {
    uint32_t sign = std::signbit(v) ? 1u << (ebits + mbits) : 0;
    double a = std::fabs(static_cast<double>(v));
    double max = values.back();
    double half_ulp = (max - values[values.size() - 2]) / 2;
    if (a >= max + half_ulp) return sign | (((1u << ebits) - 1) << mbits);
    size_t best = 0;
    for (size_t i = 1; i < values.size(); ++i) {
      double d = std::fabs(values[i] - a), db = std::fabs(values[best] - a);
      if (d < db || (d == db && (i % 2) == 0)) best = i;
    }
    return sign | static_cast<uint32_t>(best);
  }
};

TEST(NarrowFloats, MatchBruteForceReferenceOnRandomValues) {
  RefFormat e4m3(4, 3), e5m2(5, 2);
  std::mt19937 rng(1234);
  std::uniform_real_distribution<float> expo(-20.0f, 17.0f);
  for (int i = 0; i < 20000; ++i) {
    float v = std::ldexp(1.0f, 0) * std::exp2(expo(rng)) * ((rng() & 1) ? -1.0f : 1.0f);
    ASSERT_EQ(f32_to_fp8e4m3_bits(v), e4m3.encode(v)) << v;
    ASSERT_EQ(f32_to_fp8e5m2_bits(v), e5m2.encode(v)) << v;
  }
  // Every exact midpoint between neighbours, where ties matter most.
  for (size_t i = 0; i + 1 < e4m3.values.size(); ++i) {
    float mid = static_cast<float>((e4m3.values[i] + e4m3.values[i + 1]) / 2);
    ASSERT_EQ(f32_to_fp8e4m3_bits(mid), e4m3.encode(mid)) << mid;
  }
  for (size_t i = 0; i + 1 < e5m2.values.size(); ++i) {
    float mid = static_cast<float>((e5m2.values[i] + e5m2.values[i + 1]) / 2);
    ASSERT_EQ(f32_to_fp8e5m2_bits(mid), e5m2.encode(mid)) << mid;
  }
}

TEST(NarrowFloats, DecodeMatchesFormulaAndEncodeInvertsIt) {
  RefFormat e4m3(4, 3), e5m2(5, 2), fp16(5, 10);
  for (uint32_t b = 0; b < 256; ++b) {
    uint32_t mag = b & 0x7F;
    float sign = (b & 0x80) ? -1.0f : 1.0f;
    if (mag < e4m3.values.size()) {
      ASSERT_EQ(fp8e4m3_bits_to_f32(static_cast<uint8_t>(b)), sign * static_cast<float>(e4m3.values[mag]));
      ASSERT_EQ(f32_to_fp8e4m3_bits(fp8e4m3_bits_to_f32(static_cast<uint8_t>(b))), b);
    }
    if (mag < e5m2.values.size()) {
      ASSERT_EQ(fp8e5m2_bits_to_f32(static_cast<uint8_t>(b)), sign * static_cast<float>(e5m2.values[mag]));
      ASSERT_EQ(f32_to_fp8e5m2_bits(fp8e5m2_bits_to_f32(static_cast<uint8_t>(b))), b);
    }
  }
  for (uint32_t b = 0; b < 65536; ++b) {
    uint32_t mag = b & 0x7FFF;
    if (mag >= fp16.values.size()) continue;
    float sign = (b & 0x8000) ? -1.0f : 1.0f;
    ASSERT_EQ(fp16_bits_to_f32(static_cast<uint16_t>(b)), sign * static_cast<float>(fp16.values[mag]));
    ASSERT_EQ(f32_to_fp16_bits(fp16_bits_to_f32(static_cast<uint16_t>(b))), b);
  }
}

template <typename T>
T to_int(DType t, float v) {
  T out{};
  convert_f32_to(t, &v, &out, 1);
  return out;
}

TEST(FloatToInt, RoundHalfEvenAndSaturate) {
  EXPECT_EQ(to_int<int8_t>(DType::Int8, 2.5f), 2);
  EXPECT_EQ(to_int<int8_t>(DType::Int8, 3.5f), 4);
  EXPECT_EQ(to_int<int8_t>(DType::Int8, -2.5f), -2);
  EXPECT_EQ(to_int<int8_t>(DType::Int8, -0.6f), -1);
  EXPECT_EQ(to_int<int8_t>(DType::Int8, 127.5f), 127);
  EXPECT_EQ(to_int<int8_t>(DType::Int8, -128.5f), -128);
  EXPECT_EQ(to_int<int8_t>(DType::Int8, -129.0f), -128);
  EXPECT_EQ(to_int<int8_t>(DType::Int8, 1e30f), 127);
  EXPECT_EQ(to_int<int8_t>(DType::Int8, kInf), 127);
  EXPECT_EQ(to_int<int8_t>(DType::Int8, -kInf), -128);
  EXPECT_EQ(to_int<int8_t>(DType::Int8, kNaN), 0);
  EXPECT_EQ(to_int<uint8_t>(DType::UInt8, -1.0f), 0);
  EXPECT_EQ(to_int<uint8_t>(DType::UInt8, 254.5f), 254);
  EXPECT_EQ(to_int<uint8_t>(DType::UInt8, 255.5f), 255);
  EXPECT_EQ(to_int<int16_t>(DType::Int16, 40000.0f), 32767);
  EXPECT_EQ(to_int<int16_t>(DType::Int16, -40000.0f), -32768);
  EXPECT_EQ(to_int<uint16_t>(DType::UInt16, 65535.4f), 65535);
  EXPECT_EQ(to_int<uint16_t>(DType::UInt16, 70000.0f), 65535);
  EXPECT_EQ(to_int<int32_t>(DType::Int32, 3e9f), 2147483647);
  EXPECT_EQ(to_int<int32_t>(DType::Int32, 2147483648.0f), 2147483647);
  EXPECT_EQ(to_int<int32_t>(DType::Int32, 2147483520.0f), 2147483520);
  EXPECT_EQ(to_int<int32_t>(DType::Int32, -2147483648.0f), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(to_int<int32_t>(DType::Int32, -3e9f), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(to_int<int32_t>(DType::Int32, 8388609.0f), 8388609);
  EXPECT_EQ(to_int<int32_t>(DType::Int32, kNaN), 0);
  EXPECT_EQ(to_int<uint32_t>(DType::UInt32, 4294967040.0f), 4294967040u);
  EXPECT_EQ(to_int<uint32_t>(DType::UInt32, 4294967296.0f), 4294967295u);
  EXPECT_EQ(to_int<uint32_t>(DType::UInt32, -0.4f), 0u);
  EXPECT_EQ(to_int<uint32_t>(DType::UInt32, -5.0f), 0u);
}

TEST(FloatToBool, NonzeroIsOne) {
  EXPECT_EQ(to_int<uint8_t>(DType::Bool, 0.5f), 1);
  EXPECT_EQ(to_int<uint8_t>(DType::Bool, -3.0f), 1);
  EXPECT_EQ(to_int<uint8_t>(DType::Bool, 0.0f), 0);
  EXPECT_EQ(to_int<uint8_t>(DType::Bool, -0.0f), 0);
  EXPECT_EQ(to_int<uint8_t>(DType::Bool, kNaN), 1);
  uint8_t stored[3] = {0, 1, 7};
  float out[3];
  convert_to_f32(DType::Bool, stored, out, 3);
  EXPECT_EQ(out[0], 0.0f);
  EXPECT_EQ(out[1], 1.0f);
  EXPECT_EQ(out[2], 1.0f);
}

TEST(BulkConvert, ToF32FromEveryIntType) {
  int8_t i8[2] = {-128, 127};
  uint16_t u16[2] = {0, 65535};
  int32_t i32[2] = {16777217, -7};  // 2^24+1 is not representable: RNE to 2^24
  uint32_t u32[1] = {4294967295u};
  float out[2];
  convert_to_f32(DType::Int8, i8, out, 2);
  EXPECT_EQ(out[0], -128.0f);
  EXPECT_EQ(out[1], 127.0f);
  convert_to_f32(DType::UInt16, u16, out, 2);
  EXPECT_EQ(out[1], 65535.0f);
  convert_to_f32(DType::Int32, i32, out, 2);
  EXPECT_EQ(out[0], 16777216.0f);
  EXPECT_EQ(out[1], -7.0f);
  convert_to_f32(DType::UInt32, u32, out, 1);
  EXPECT_EQ(out[0], 4294967296.0f);
}

TEST(BulkConvert, LongArraysMatchScalarHelpers) {
  std::mt19937 rng(7);
  std::vector<float> src(3000);
  for (auto& v : src) v = std::bit_cast<float>(static_cast<uint32_t>(rng()));
  std::vector<uint16_t> b16(src.size()), h16(src.size());
  std::vector<uint8_t> e4(src.size()), e5(src.size());
  convert_f32_to(DType::BFloat16, src.data(), b16.data(), src.size());
  convert_f32_to(DType::Float16, src.data(), h16.data(), src.size());
  convert_f32_to(DType::Float8E4M3, src.data(), e4.data(), src.size());
  convert_f32_to(DType::Float8E5M2, src.data(), e5.data(), src.size());
  std::vector<float> back(src.size());
  convert_to_f32(DType::Float16, h16.data(), back.data(), src.size());
  for (size_t i = 0; i < src.size(); ++i) {
    ASSERT_EQ(b16[i], f32_to_bf16_bits(src[i]));
    ASSERT_EQ(h16[i], f32_to_fp16_bits(src[i]));
    ASSERT_EQ(e4[i], f32_to_fp8e4m3_bits(src[i]));
    ASSERT_EQ(e5[i], f32_to_fp8e5m2_bits(src[i]));
    ASSERT_EQ(bits(back[i]), bits(fp16_bits_to_f32(h16[i])));
  }
}

TEST(RoundInplace, EqualsRoundTripThroughType) {
  float v[6] = {1.00390625f, 300.0f, -2.5f, 0.3f, kNaN, 70000.0f};
  float a[6];
  std::copy(v, v + 6, a);
  round_f32_inplace(DType::BFloat16, a, 6);
  EXPECT_EQ(a[0], 1.0f);
  EXPECT_EQ(a[3], bf16_bits_to_f32(f32_to_bf16_bits(0.3f)));
  EXPECT_TRUE(std::isnan(a[4]));
  std::copy(v, v + 6, a);
  round_f32_inplace(DType::Int8, a, 6);
  EXPECT_EQ(a[0], 1.0f);
  EXPECT_EQ(a[1], 127.0f);
  EXPECT_EQ(a[2], -2.0f);
  EXPECT_EQ(a[3], 0.0f);
  EXPECT_EQ(a[4], 0.0f);
  std::copy(v, v + 6, a);
  round_f32_inplace(DType::Float8E4M3, a, 6);
  EXPECT_EQ(a[3], 0.3125f);
  EXPECT_EQ(a[1], kInf);  // 300 > 248: overflow to inf
  std::copy(v, v + 6, a);
  round_f32_inplace(DType::Float16, a, 6);
  EXPECT_EQ(a[5], kInf);
  EXPECT_EQ(a[0], 1.00390625f);  // exact in fp16
  std::copy(v, v + 6, a);
  round_f32_inplace(DType::Float32, a, 6);
  EXPECT_EQ(a[3], 0.3f);
  std::copy(v, v + 6, a);
  round_f32_inplace(DType::Bool, a, 6);
  EXPECT_EQ(a[2], 1.0f);
  EXPECT_EQ(a[4], 1.0f);
  std::vector<float> big(2000, 2.5f);
  round_f32_inplace(DType::UInt8, big.data(), big.size());
  EXPECT_EQ(big.back(), 2.0f);
}

TEST(DirectConvert, SameTypeIsBitExact) {
  uint16_t src[3] = {0x7F81, 0xFFFF, 0x0001};  // odd NaN payloads survive
  uint16_t dst[3] = {};
  convert(DType::BFloat16, src, DType::BFloat16, dst, 3);
  EXPECT_EQ(dst[0], 0x7F81);
  EXPECT_EQ(dst[1], 0xFFFF);
  EXPECT_EQ(dst[2], 0x0001);
}

TEST(DirectConvert, IntToIntIsExactAndSaturates) {
  int32_t i32[5] = {16777217, 40000, -40000, 2147483647, -1};
  int16_t i16[5];
  convert(DType::Int32, i32, DType::Int16, i16, 5);
  EXPECT_EQ(i16[0], 32767);
  EXPECT_EQ(i16[1], 32767);
  EXPECT_EQ(i16[2], -32768);
  EXPECT_EQ(i16[4], -1);
  uint32_t u32[5];
  convert(DType::Int32, i32, DType::UInt32, u32, 5);
  EXPECT_EQ(u32[0], 16777217u);  // exact, would be 16777216 via fp32
  EXPECT_EQ(u32[3], 2147483647u);
  EXPECT_EQ(u32[4], 0u);
  uint32_t big[1] = {4000000000u};
  int32_t back[1];
  convert(DType::UInt32, big, DType::Int32, back, 1);
  EXPECT_EQ(back[0], 2147483647);
  uint8_t b[5];
  convert(DType::Int32, i32, DType::Bool, b, 5);
  EXPECT_EQ(b[4], 1);
  int32_t zero = 0;
  convert(DType::Int32, &zero, DType::Bool, b, 1);
  EXPECT_EQ(b[0], 0);
  int8_t neg = -5;
  uint8_t u8 = 9;
  convert(DType::Int8, &neg, DType::UInt8, &u8, 1);
  EXPECT_EQ(u8, 0);
  std::vector<int32_t> many(1500, 70000);
  std::vector<uint16_t> many16(1500);
  convert(DType::Int32, many.data(), DType::UInt16, many16.data(), many.size());
  EXPECT_EQ(many16.back(), 65535);
}

TEST(DirectConvert, MixedPairsGoThroughFp32) {
  uint16_t bf = 0x4780;  // 65536 in bf16: too large for fp16
  uint16_t h = 0;
  convert(DType::BFloat16, &bf, DType::Float16, &h, 1);
  EXPECT_EQ(h, 0x7C00);
  uint16_t half = 0x3C00;
  uint8_t e4 = 0;
  convert(DType::Float16, &half, DType::Float8E4M3, &e4, 1);
  EXPECT_EQ(e4, 0x38);
  int32_t i = 1000;
  convert(DType::Int32, &i, DType::Float8E4M3, &e4, 1);
  EXPECT_EQ(e4, 0x78);  // 1000 overflows e4m3 to inf
  float fv = -7.5f;
  int8_t i8 = 0;
  convert(DType::Float32, &fv, DType::Int8, &i8, 1);
  EXPECT_EQ(i8, -8);
  uint16_t bf_val = 0x4049;  // 3.140625
  int16_t i16 = 0;
  convert(DType::BFloat16, &bf_val, DType::Int16, &i16, 1);
  EXPECT_EQ(i16, 3);
}

}  // namespace
}  // namespace nki
