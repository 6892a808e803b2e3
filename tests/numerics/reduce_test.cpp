// Free-axis reductions: values, identities, strict left-to-right fp32 order, bad ops.
#include "machine/reduce.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace nki {
namespace {

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

std::vector<float> reduce(AluOp op, const std::vector<float>& in, size_t p, size_t f) {
  std::vector<float> out(p);
  reduce_free(op, in.data(), p, f, out.data());
  return out;
}

TEST(Reduce, BasicOpsPerPartition) {
  const std::vector<float> x = {1, 2, 3, 4, 5, 6};  // [2, 3]
  EXPECT_EQ(reduce(AluOp::Add, x, 2, 3), (std::vector<float>{6, 15}));
  EXPECT_EQ(reduce(AluOp::Multiply, x, 2, 3), (std::vector<float>{6, 120}));
  EXPECT_EQ(reduce(AluOp::Maximum, x, 2, 3), (std::vector<float>{3, 6}));
  EXPECT_EQ(reduce(AluOp::Minimum, x, 2, 3), (std::vector<float>{1, 4}));
  EXPECT_EQ(reduce(AluOp::Subtract, x, 2, 3), (std::vector<float>{-6, -15}));
  std::vector<float> mean(2);
  reduce_mean(x.data(), 2, 3, mean.data());
  EXPECT_EQ(mean, (std::vector<float>{2, 5}));
}

TEST(Reduce, LeftToRightFp32Order) {
  // Left to right in fp32: (1e8 + 1) rounds to 1e8, minus 1e8 is 0, plus 1 is 1. A pairwise
  // or double-precision sum would give 2.
  const std::vector<float> x = {1e8f, 1.0f, -1e8f, 1.0f};
  EXPECT_EQ(reduce(AluOp::Add, x, 1, 4), std::vector<float>{1.0f});
}

TEST(Reduce, NaNAndEmptyRows) {
  const std::vector<float> x = {1, kNaN, 3};
  EXPECT_TRUE(std::isnan(reduce(AluOp::Maximum, x, 1, 3)[0]));
  EXPECT_TRUE(std::isnan(reduce(AluOp::Minimum, x, 1, 3)[0]));
  EXPECT_TRUE(std::isnan(reduce(AluOp::Add, x, 1, 3)[0]));
  const std::vector<float> none;
  std::vector<float> out(2, 123.0f);
  reduce_free(AluOp::Add, none.data(), 2, 0, out.data());
  EXPECT_EQ(out, (std::vector<float>{0, 0}));
  reduce_free(AluOp::Maximum, none.data(), 2, 0, out.data());
  EXPECT_EQ(out, (std::vector<float>{-kInf, -kInf}));
  reduce_free(AluOp::Multiply, none.data(), 1, 0, out.data());
  EXPECT_EQ(out[0], 1.0f);
  reduce_mean(none.data(), 1, 0, out.data());
  EXPECT_TRUE(std::isnan(out[0]));
}

TEST(Reduce, LogicalAndBitvecOnFloats) {
  const std::vector<float> x = {1, 2, 0, 3, 4, 5};  // [2, 3]
  EXPECT_EQ(reduce(AluOp::LogicalAnd, x, 2, 3), (std::vector<float>{0, 1}));
  EXPECT_EQ(reduce(AluOp::LogicalOr, x, 2, 3), (std::vector<float>{1, 1}));
  EXPECT_EQ(reduce(AluOp::LogicalXor, x, 2, 3), (std::vector<float>{0, 1}));
  const std::vector<float> bits = {12, 10, 15};
  EXPECT_EQ(reduce(AluOp::BitwiseAnd, bits, 1, 3), std::vector<float>{8});
  EXPECT_EQ(reduce(AluOp::BitwiseOr, bits, 1, 3), std::vector<float>{15});
  EXPECT_EQ(reduce(AluOp::BitwiseXor, bits, 1, 3), std::vector<float>{9});
}

TEST(Reduce, IntegerBits) {
  const std::vector<uint32_t> x = {0xFF, 0x0F, 0x3C, 0xFFFFFFFFu, 1, 0};  // [2, 3]
  std::vector<uint32_t> out(2);
  reduce_free_bits(AluOp::BitwiseAnd, x.data(), 2, 3, out.data());
  EXPECT_EQ(out, (std::vector<uint32_t>{0x0C, 0}));
  reduce_free_bits(AluOp::BitwiseOr, x.data(), 2, 3, out.data());
  EXPECT_EQ(out, (std::vector<uint32_t>{0xFF, 0xFFFFFFFFu}));
  reduce_free_bits(AluOp::BitwiseXor, x.data(), 2, 3, out.data());
  EXPECT_EQ(out, (std::vector<uint32_t>{0xCC, 0xFFFFFFFEu}));
  reduce_free_bits(AluOp::Add, x.data(), 2, 3, out.data());
  EXPECT_EQ(out, (std::vector<uint32_t>{0x14A, 0}));  // 0xFFFFFFFF + 1 wraps to 0
}

TEST(Reduce, FoldStartsFromTheGivenAccumulator) {
  const float x[2] = {1, 2};
  EXPECT_EQ(fold(AluOp::Add, 10.0f, x, 2), 13.0f);
  EXPECT_EQ(fold(AluOp::Maximum, 5.0f, x, 2), 5.0f);
  EXPECT_EQ(fold(AluOp::Minimum, 5.0f, x, 2), 1.0f);
  const uint32_t b[2] = {0x1, 0x4};
  EXPECT_EQ(fold_bits(AluOp::BitwiseOr, 0x10u, b, 2), 0x15u);
}

TEST(Reduce, NonReductionOpsAreRejected) {
  const std::vector<float> x = {1, 2};
  std::vector<float> out(1);
  EXPECT_THROW(reduce_free(AluOp::Divide, x.data(), 1, 2, out.data()), std::invalid_argument);
  EXPECT_THROW(reduce_free(AluOp::Less, x.data(), 1, 2, out.data()), std::invalid_argument);
  EXPECT_THROW(fold(AluOp::Power, 0.0f, x.data(), 2), std::invalid_argument);
  const std::vector<uint32_t> b = {1, 2};
  std::vector<uint32_t> bout(1);
  EXPECT_THROW(reduce_free_bits(AluOp::Maximum, b.data(), 1, 2, bout.data()), std::invalid_argument);
  EXPECT_THROW(reduce_free_bits(AluOp::Subtract, b.data(), 0, 2, bout.data()), std::invalid_argument);
}

}  // namespace
}  // namespace nki
