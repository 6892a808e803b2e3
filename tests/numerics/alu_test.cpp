// ALU operator table and kernels against hand-computed values (nki-spec.md §2.11.1, §2.9.4).
#include "machine/alu.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

namespace nki {
namespace {

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

float op(AluOp o, float a, float b) { return alu_scalar(o, a, b); }

TEST(AluTable, RowsAreInEnumOrderWithNames) {
  for (int i = 0; i < kNumAluOps; ++i) {
    EXPECT_EQ(static_cast<int>(alu_info(static_cast<AluOp>(i)).op), i);
  }
  EXPECT_STREQ(alu_op_name(AluOp::Add), "add");
  EXPECT_STREQ(alu_op_name(AluOp::GreaterEqual), "greater_equal");
  EXPECT_STREQ(alu_op_name(AluOp::RightShift), "right_shift");
  EXPECT_THROW(alu_info(static_cast<AluOp>(200)), std::invalid_argument);
}

TEST(AluTable, ParseAcceptsNlAndNumpySpellings) {
  EXPECT_EQ(parse_alu_op("add"), AluOp::Add);
  EXPECT_EQ(parse_alu_op("np.add"), AluOp::Add);
  EXPECT_EQ(parse_alu_op("nl.maximum"), AluOp::Maximum);
  EXPECT_EQ(parse_alu_op("np.max"), AluOp::Maximum);
  EXPECT_EQ(parse_alu_op("np.amin"), AluOp::Minimum);
  EXPECT_EQ(parse_alu_op("nl.bitwise_xor"), AluOp::BitwiseXor);
  EXPECT_EQ(parse_alu_op("np.power"), AluOp::Power);
  EXPECT_EQ(parse_alu_op("nl.logical_or"), AluOp::LogicalOr);
  EXPECT_FALSE(parse_alu_op("nl.frobnicate").has_value());
  EXPECT_FALSE(parse_alu_op("").has_value());
}

TEST(AluTable, PropertiesFollowTheSpecTable) {
  for (AluOp o : {AluOp::Add, AluOp::Subtract, AluOp::Multiply, AluOp::Maximum, AluOp::Minimum,
                  AluOp::LogicalAnd, AluOp::LogicalOr, AluOp::LogicalXor, AluOp::BitwiseAnd,
                  AluOp::BitwiseOr, AluOp::BitwiseXor}) {
    EXPECT_TRUE(alu_info(o).reduction_legal) << alu_op_name(o);
  }
  for (AluOp o : {AluOp::Divide, AluOp::Power, AluOp::Mod, AluOp::Fmod, AluOp::Equal, AluOp::Less,
                  AluOp::LeftShift, AluOp::RightShift, AluOp::Bypass}) {
    EXPECT_FALSE(alu_info(o).reduction_legal) << alu_op_name(o);
  }
  for (AluOp o : {AluOp::BitwiseAnd, AluOp::BitwiseOr, AluOp::BitwiseXor, AluOp::LeftShift, AluOp::RightShift}) {
    EXPECT_TRUE(alu_info(o).is_bitvec) << alu_op_name(o);
  }
  EXPECT_FALSE(alu_info(AluOp::Add).is_bitvec);
  for (AluOp o : {AluOp::Equal, AluOp::NotEqual, AluOp::Greater, AluOp::GreaterEqual, AluOp::Less, AluOp::LessEqual}) {
    EXPECT_TRUE(alu_info(o).is_comparison) << alu_op_name(o);
  }
  EXPECT_FALSE(alu_info(AluOp::LogicalAnd).is_comparison);
  EXPECT_TRUE(alu_info(AluOp::LogicalXor).is_logical);
  EXPECT_EQ(alu_info(AluOp::Add).identity, 0.0f);
  EXPECT_EQ(alu_info(AluOp::Multiply).identity, 1.0f);
  EXPECT_EQ(alu_info(AluOp::Maximum).identity, -kInf);
  EXPECT_EQ(alu_info(AluOp::Minimum).identity, kInf);
  EXPECT_EQ(alu_info(AluOp::LogicalAnd).identity, 1.0f);
  EXPECT_EQ(alu_info(AluOp::BitwiseAnd).identity_bits, 0xFFFFFFFFu);
  EXPECT_EQ(alu_info(AluOp::BitwiseOr).identity_bits, 0u);
}

TEST(AluFloat, Arithmetic) {
  EXPECT_EQ(op(AluOp::Add, 1.5f, 2.25f), 3.75f);
  EXPECT_EQ(op(AluOp::Subtract, 1.5f, 2.25f), -0.75f);
  EXPECT_EQ(op(AluOp::Multiply, 1.5f, -4.0f), -6.0f);
  EXPECT_EQ(op(AluOp::Divide, 1.0f, 4.0f), 0.25f);
  EXPECT_EQ(op(AluOp::Divide, 1.0f, 0.0f), kInf);
  EXPECT_EQ(op(AluOp::Divide, -1.0f, 0.0f), -kInf);
  EXPECT_EQ(op(AluOp::Divide, 1.0f, -0.0f), -kInf);
  EXPECT_TRUE(std::isnan(op(AluOp::Divide, 0.0f, 0.0f)));
  EXPECT_EQ(op(AluOp::Power, 2.0f, 10.0f), 1024.0f);
  EXPECT_EQ(op(AluOp::Power, 2.0f, -1.0f), 0.5f);
  EXPECT_EQ(op(AluOp::Power, 0.0f, 0.0f), 1.0f);
  EXPECT_EQ(op(AluOp::Power, 9.0f, 0.5f), 3.0f);
  EXPECT_TRUE(std::isnan(op(AluOp::Power, -8.0f, 1.0f / 3.0f)));
  EXPECT_EQ(op(AluOp::Bypass, 7.0f, 100.0f), 7.0f);
}

TEST(AluFloat, MaxMinPropagateNaN) {
  EXPECT_EQ(op(AluOp::Maximum, 2.0f, 3.0f), 3.0f);
  EXPECT_EQ(op(AluOp::Maximum, -2.0f, -3.0f), -2.0f);
  EXPECT_EQ(op(AluOp::Minimum, 2.0f, 3.0f), 2.0f);
  EXPECT_EQ(op(AluOp::Minimum, -kInf, 3.0f), -kInf);
  EXPECT_TRUE(std::isnan(op(AluOp::Maximum, kNaN, 1.0f)));
  EXPECT_TRUE(std::isnan(op(AluOp::Maximum, 1.0f, kNaN)));
  EXPECT_TRUE(std::isnan(op(AluOp::Minimum, kNaN, 1.0f)));
  EXPECT_TRUE(std::isnan(op(AluOp::Minimum, 1.0f, kNaN)));
}

TEST(AluFloat, ModHasDivisorSignFmodHasDividendSign) {
  EXPECT_EQ(op(AluOp::Mod, 7.0f, 3.0f), 1.0f);
  EXPECT_EQ(op(AluOp::Mod, -7.0f, 3.0f), 2.0f);
  EXPECT_EQ(op(AluOp::Mod, 7.0f, -3.0f), -2.0f);
  EXPECT_EQ(op(AluOp::Mod, -7.0f, -3.0f), -1.0f);
  EXPECT_EQ(op(AluOp::Mod, 5.5f, 2.0f), 1.5f);
  EXPECT_EQ(op(AluOp::Mod, -5.5f, 2.0f), 0.5f);
  EXPECT_TRUE(std::signbit(op(AluOp::Mod, 6.0f, -3.0f)));  // -0.0, like Python's 6.0 % -3.0
  EXPECT_EQ(op(AluOp::Mod, -5.0f, kInf), kInf);            // as Python / NumPy
  EXPECT_TRUE(std::isnan(op(AluOp::Mod, 5.0f, 0.0f)));
  EXPECT_EQ(op(AluOp::Fmod, 7.0f, 3.0f), 1.0f);
  EXPECT_EQ(op(AluOp::Fmod, -7.0f, 3.0f), -1.0f);
  EXPECT_EQ(op(AluOp::Fmod, 7.0f, -3.0f), 1.0f);
  EXPECT_EQ(op(AluOp::Fmod, -5.5f, 2.0f), -1.5f);
  EXPECT_TRUE(std::isnan(op(AluOp::Fmod, 5.0f, 0.0f)));
}

TEST(AluFloat, ComparisonsAndLogicalGiveOneOrZero) {
  EXPECT_EQ(op(AluOp::Less, 1.0f, 2.0f), 1.0f);
  EXPECT_EQ(op(AluOp::Less, 2.0f, 2.0f), 0.0f);
  EXPECT_EQ(op(AluOp::LessEqual, 2.0f, 2.0f), 1.0f);
  EXPECT_EQ(op(AluOp::Greater, 3.0f, 2.0f), 1.0f);
  EXPECT_EQ(op(AluOp::GreaterEqual, 1.0f, 2.0f), 0.0f);
  EXPECT_EQ(op(AluOp::Equal, 0.0f, -0.0f), 1.0f);
  EXPECT_EQ(op(AluOp::Equal, kNaN, kNaN), 0.0f);
  EXPECT_EQ(op(AluOp::NotEqual, kNaN, kNaN), 1.0f);
  EXPECT_EQ(op(AluOp::Less, kNaN, 1.0f), 0.0f);
  EXPECT_EQ(op(AluOp::GreaterEqual, kNaN, 1.0f), 0.0f);
  EXPECT_EQ(op(AluOp::LogicalAnd, 2.0f, 0.0f), 0.0f);
  EXPECT_EQ(op(AluOp::LogicalAnd, -1.0f, 0.5f), 1.0f);
  EXPECT_EQ(op(AluOp::LogicalOr, 0.0f, -0.0f), 0.0f);
  EXPECT_EQ(op(AluOp::LogicalOr, 0.0f, 3.0f), 1.0f);
  EXPECT_EQ(op(AluOp::LogicalXor, 1.0f, 3.0f), 0.0f);
  EXPECT_EQ(op(AluOp::LogicalXor, 0.0f, kNaN), 1.0f);
}

TEST(AluFloat, BitvecOpsWorkOnInt32Values) {
  EXPECT_EQ(op(AluOp::BitwiseAnd, 12.0f, 10.0f), 8.0f);
  EXPECT_EQ(op(AluOp::BitwiseOr, 12.0f, 10.0f), 14.0f);
  EXPECT_EQ(op(AluOp::BitwiseXor, 12.0f, 10.0f), 6.0f);
  EXPECT_EQ(op(AluOp::BitwiseAnd, -1.0f, 5.0f), 5.0f);
  EXPECT_EQ(op(AluOp::LeftShift, 3.0f, 4.0f), 48.0f);
  EXPECT_EQ(op(AluOp::LeftShift, 1.0f, 32.0f), 0.0f);
  EXPECT_EQ(op(AluOp::RightShift, 48.0f, 4.0f), 3.0f);
  // Logical shift: -8 = 0xFFFFFFF8 -> 0x7FFFFFFC = 2147483644, which rounds to 2^31 in fp32.
  EXPECT_EQ(op(AluOp::RightShift, -8.0f, 1.0f), 2147483648.0f);
  EXPECT_EQ(op(AluOp::BitwiseOr, 2.6f, 0.0f), 3.0f);  // operands rounded to nearest int
}

TEST(AluFloat, ArrayScalarAndPartitionVariants) {
  const float a[4] = {1, 2, 3, 4};
  const float b[4] = {10, 20, 30, 40};
  float out[4];
  binary(AluOp::Subtract, a, b, out, 4);
  EXPECT_EQ(std::vector<float>(out, out + 4), (std::vector<float>{-9, -18, -27, -36}));
  binary_scalar_rhs(AluOp::Subtract, a, 1.0f, out, 4);
  EXPECT_EQ(std::vector<float>(out, out + 4), (std::vector<float>{0, 1, 2, 3}));
  binary_scalar_lhs(AluOp::Subtract, 1.0f, a, out, 4);
  EXPECT_EQ(std::vector<float>(out, out + 4), (std::vector<float>{0, -1, -2, -3}));
  binary_scalar_rhs(AluOp::Divide, a, 0.0f, out, 4);
  EXPECT_EQ(out[3], kInf);
  // [2, 2] tile with one scalar per partition.
  const float scalars[2] = {10, 100};
  binary_partition_scalar(AluOp::Subtract, a, scalars, out, 2, 2);
  EXPECT_EQ(std::vector<float>(out, out + 4), (std::vector<float>{-9, -8, -97, -96}));
  binary_partition_scalar(AluOp::Subtract, a, scalars, out, 2, 2, /*scalar_is_lhs=*/true);
  EXPECT_EQ(std::vector<float>(out, out + 4), (std::vector<float>{9, 8, 97, 96}));
  // In-place use is allowed.
  float c[4] = {1, 2, 3, 4};
  binary(AluOp::Multiply, c, c, c, 4);
  EXPECT_EQ(std::vector<float>(c, c + 4), (std::vector<float>{1, 4, 9, 16}));
}

TEST(AluFloat, ArrayKernelsAgreeWithScalarForEveryOp) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> dist(-20.0f, 20.0f);
  std::vector<float> a(257), b(257), out(257);
  for (auto& v : a) v = std::round(dist(rng) * 4) / 4;
  for (auto& v : b) v = std::round(dist(rng) * 4) / 4;
  b[3] = 0.0f;
  a[5] = kNaN;
  for (int i = 0; i < kNumAluOps; ++i) {
    auto o = static_cast<AluOp>(i);
    binary(o, a.data(), b.data(), out.data(), a.size());
    for (size_t k = 0; k < a.size(); ++k) {
      float want = alu_scalar(o, a[k], b[k]);
      if (std::isnan(want)) {
        ASSERT_TRUE(std::isnan(out[k])) << alu_op_name(o) << " at " << k;
      } else {
        ASSERT_EQ(out[k], want) << alu_op_name(o) << " at " << k;
      }
    }
  }
}

TEST(AluBits, BitvecAndWrappingIntegerOps) {
  EXPECT_EQ(alu_bits_scalar(AluOp::BitwiseAnd, 0xF0F0u, 0xFF00u), 0xF000u);
  EXPECT_EQ(alu_bits_scalar(AluOp::BitwiseOr, 0xF0F0u, 0xFF00u), 0xFFF0u);
  EXPECT_EQ(alu_bits_scalar(AluOp::BitwiseXor, 0xF0F0u, 0xFF00u), 0x0FF0u);
  EXPECT_EQ(alu_bits_scalar(AluOp::LeftShift, 1u, 31u), 0x80000000u);
  EXPECT_EQ(alu_bits_scalar(AluOp::LeftShift, 1u, 32u), 0u);
  EXPECT_EQ(alu_bits_scalar(AluOp::RightShift, 0x80000000u, 31u), 1u);  // logical
  EXPECT_EQ(alu_bits_scalar(AluOp::RightShift, 0xFFFFFFFFu, 0xFFFFFFFFu), 0u);
  EXPECT_EQ(alu_bits_scalar(AluOp::Add, 0xFFFFFFFFu, 1u), 0u);
  EXPECT_EQ(alu_bits_scalar(AluOp::Subtract, 0u, 1u), 0xFFFFFFFFu);
  EXPECT_EQ(alu_bits_scalar(AluOp::Multiply, 65536u, 65536u), 0u);
  EXPECT_EQ(alu_bits_scalar(AluOp::Multiply, 0xFFFFFFFFu, 3u), 0xFFFFFFFDu);  // -1 * 3 = -3
  EXPECT_TRUE(alu_bits_supported(AluOp::BitwiseXor));
  EXPECT_FALSE(alu_bits_supported(AluOp::Divide));
  EXPECT_THROW(alu_bits_scalar(AluOp::Divide, 1u, 1u), std::invalid_argument);
  EXPECT_THROW(alu_bits_scalar(AluOp::Less, 1u, 1u), std::invalid_argument);

  const uint32_t a[3] = {1, 2, 3};
  const uint32_t b[3] = {4, 5, 6};
  uint32_t out[3];
  binary_bits(AluOp::BitwiseOr, a, b, out, 3);
  EXPECT_EQ(std::vector<uint32_t>(out, out + 3), (std::vector<uint32_t>{5, 7, 7}));
  binary_bits_scalar_rhs(AluOp::LeftShift, a, 2u, out, 3);
  EXPECT_EQ(std::vector<uint32_t>(out, out + 3), (std::vector<uint32_t>{4, 8, 12}));
  binary_bits_scalar_lhs(AluOp::LeftShift, 1u, a, out, 3);
  EXPECT_EQ(std::vector<uint32_t>(out, out + 3), (std::vector<uint32_t>{2, 4, 8}));
  invert_bits(a, out, 3);
  EXPECT_EQ(out[0], 0xFFFFFFFEu);
}

}  // namespace
}  // namespace nki
