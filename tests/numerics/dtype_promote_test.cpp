// Promotion table entries quoted in the official 2.24 docs (nki.api.shared.rst, "NKI Type
// Promotion") and nki-spec.md §2.7.2, plus the spec's inferred rule for unlisted pairs.
#include "base/dtype_promote.h"

#include <gtest/gtest.h>

namespace nki {
namespace {

void expect_symmetric(DType a, DType b, DType want) {
  EXPECT_EQ(promote(a, b), want) << dtype_name(a) << " x " << dtype_name(b);
  EXPECT_EQ(promote(b, a), want) << dtype_name(b) << " x " << dtype_name(a);
}

TEST(Promote, DocumentedFloatIntPairs) {
  expect_symmetric(DType::Int32, DType::Float16, DType::Float16);
  expect_symmetric(DType::UInt16, DType::TFloat32, DType::TFloat32);
}

TEST(Promote, DocumentedFloatFloatPairs) {
  expect_symmetric(DType::Float32, DType::TFloat32, DType::Float32);
  expect_symmetric(DType::Float32, DType::BFloat16, DType::Float32);
  expect_symmetric(DType::Float16, DType::BFloat16, DType::Float32);
  expect_symmetric(DType::Float8E4M3, DType::Float16, DType::Float16);
  expect_symmetric(DType::Float8E4M3, DType::BFloat16, DType::BFloat16);
  expect_symmetric(DType::Float8E4M3, DType::Float8E5M2, DType::BFloat16);
}

TEST(Promote, DocumentedIntIntPairs) {
  expect_symmetric(DType::Int16, DType::Int32, DType::Int32);
  expect_symmetric(DType::UInt8, DType::UInt16, DType::UInt16);
  expect_symmetric(DType::UInt16, DType::Int32, DType::Int32);
  expect_symmetric(DType::Int8, DType::UInt8, DType::Int16);
  expect_symmetric(DType::Int8, DType::UInt16, DType::Int32);
  expect_symmetric(DType::Int32, DType::UInt32, DType::Float32);
}

TEST(Promote, DocumentedWeakScalars) {
  EXPECT_EQ(weak_scalar_dtype(WeakScalar::Bool), DType::UInt8);
  EXPECT_EQ(weak_scalar_dtype(WeakScalar::Int), DType::Int32);
  EXPECT_EQ(weak_scalar_dtype(WeakScalar::Float), DType::Float32);
  EXPECT_EQ(promote_with_scalar(DType::Int8, WeakScalar::Int), DType::Int32);
  EXPECT_EQ(promote_with_scalar(DType::Float16, WeakScalar::Float), DType::Float32);
  EXPECT_EQ(promote_with_scalar(DType::Float16, WeakScalar::Int), DType::Float16);
  EXPECT_EQ(promote_with_scalar(DType::BFloat16, WeakScalar::Bool), DType::BFloat16);
}

TEST(Promote, InferredRuleForUnlistedPairs) {
  expect_symmetric(DType::Float16, DType::TFloat32, DType::TFloat32);
  expect_symmetric(DType::BFloat16, DType::TFloat32, DType::TFloat32);
  expect_symmetric(DType::Float8E5M2, DType::Float16, DType::Float16);
  expect_symmetric(DType::Float8E5M2, DType::Float32, DType::Float32);
  expect_symmetric(DType::Int16, DType::UInt8, DType::Int16);
  expect_symmetric(DType::Int16, DType::UInt16, DType::Int32);
  expect_symmetric(DType::Int8, DType::UInt32, DType::Float32);
  expect_symmetric(DType::UInt8, DType::UInt32, DType::UInt32);
  expect_symmetric(DType::Bool, DType::Int8, DType::Int8);
  expect_symmetric(DType::Bool, DType::UInt16, DType::UInt16);
  expect_symmetric(DType::Bool, DType::Float8E4M3, DType::Float8E4M3);
}

TEST(Promote, SameTypeIsIdentityAndResultIsSymmetric) {
  for (int i = 0; i < kNumDTypes; ++i) {
    auto a = static_cast<DType>(i);
    EXPECT_EQ(promote(a, a), a) << dtype_name(a);
    for (int j = 0; j < kNumDTypes; ++j) {
      auto b = static_cast<DType>(j);
      EXPECT_EQ(promote(a, b), promote(b, a)) << dtype_name(a) << " x " << dtype_name(b);
    }
  }
}

}  // namespace
}  // namespace nki
