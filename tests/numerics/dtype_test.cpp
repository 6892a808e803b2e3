#include "base/dtype.h"

#include <gtest/gtest.h>

namespace nki {
namespace {

TEST(DType, NamesRoundTripThroughParse) {
  for (int i = 0; i < kNumDTypes; ++i) {
    auto t = static_cast<DType>(i);
    auto parsed = parse_dtype(dtype_name(t));
    ASSERT_TRUE(parsed.has_value()) << dtype_name(t);
    EXPECT_EQ(*parsed, t);
  }
}

TEST(DType, NkiSpellings) {
  EXPECT_STREQ(dtype_name(DType::Bool), "bool");
  EXPECT_STREQ(dtype_name(DType::BFloat16), "bfloat16");
  EXPECT_STREQ(dtype_name(DType::TFloat32), "tfloat32");
  EXPECT_STREQ(dtype_name(DType::Float8E4M3), "float8_e4m3");
  EXPECT_STREQ(dtype_name(DType::Float8E5M2), "float8_e5m2");
  EXPECT_STREQ(dtype_name(DType::UInt16), "uint16");
}

TEST(DType, AliasesAndQualifiedNames) {
  EXPECT_EQ(parse_dtype("bool_"), DType::Bool);
  EXPECT_EQ(parse_dtype("fp32"), DType::Float32);
  EXPECT_EQ(parse_dtype("float"), DType::Float32);
  EXPECT_EQ(parse_dtype("bf16"), DType::BFloat16);
  EXPECT_EQ(parse_dtype("fp16"), DType::Float16);
  EXPECT_EQ(parse_dtype("int"), DType::Int32);
  EXPECT_EQ(parse_dtype("nl.bfloat16"), DType::BFloat16);
  EXPECT_EQ(parse_dtype("np.int8"), DType::Int8);
  EXPECT_FALSE(parse_dtype("float64").has_value());
  EXPECT_FALSE(parse_dtype("").has_value());
  EXPECT_FALSE(parse_dtype("Float32").has_value());
}

TEST(DType, SizesAreRealWidths) {
  EXPECT_EQ(dtype_size(DType::Bool), 1u);
  EXPECT_EQ(dtype_size(DType::Int8), 1u);
  EXPECT_EQ(dtype_size(DType::Int16), 2u);
  EXPECT_EQ(dtype_size(DType::Int32), 4u);
  EXPECT_EQ(dtype_size(DType::UInt8), 1u);
  EXPECT_EQ(dtype_size(DType::UInt16), 2u);
  EXPECT_EQ(dtype_size(DType::UInt32), 4u);
  EXPECT_EQ(dtype_size(DType::Float16), 2u);
  EXPECT_EQ(dtype_size(DType::BFloat16), 2u);
  EXPECT_EQ(dtype_size(DType::TFloat32), 4u);
  EXPECT_EQ(dtype_size(DType::Float32), 4u);
  EXPECT_EQ(dtype_size(DType::Float8E4M3), 1u);
  EXPECT_EQ(dtype_size(DType::Float8E5M2), 1u);
}

TEST(DType, KindPredicates) {
  EXPECT_TRUE(dtype_is_int(DType::Bool));
  EXPECT_FALSE(dtype_is_signed(DType::Bool));
  EXPECT_TRUE(dtype_is_int(DType::UInt32));
  EXPECT_FALSE(dtype_is_signed(DType::UInt32));
  EXPECT_TRUE(dtype_is_signed(DType::Int16));
  EXPECT_TRUE(dtype_is_float(DType::Float8E5M2));
  EXPECT_TRUE(dtype_is_float(DType::TFloat32));
  EXPECT_FALSE(dtype_is_int(DType::BFloat16));
  EXPECT_FALSE(dtype_is_float(DType::Int8));
}

}  // namespace
}  // namespace nki
