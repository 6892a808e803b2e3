#include <cmath>
#include <cstring>
#include <limits>

#include <gtest/gtest.h>

#include "base/dtype_convert.h"
#include "task/compare.h"

namespace nki {
namespace {

HostTensor f32(std::vector<int64_t> shape, std::vector<float> v) {
  HostTensor t;
  t.dtype = DType::Float32;
  t.shape = std::move(shape);
  t.data.resize(v.size() * 4);
  std::memcpy(t.data.data(), v.data(), t.data.size());
  return t;
}

HostTensor bf16(std::vector<int64_t> shape, const std::vector<float>& v) {
  HostTensor t;
  t.dtype = DType::BFloat16;
  t.shape = std::move(shape);
  t.data.resize(v.size() * 2);
  convert_f32_to(DType::BFloat16, v.data(), t.data.data(), v.size());
  return t;
}

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

TEST(Compare, PassWithinTolerance) {
  HostTensor e = f32({2, 2}, {1.0f, -2.0f, 0.0f, 100.0f});
  HostTensor a = f32({2, 2}, {1.0005f, -2.001f, 0.0009f, 100.09f});
  OutputComparison c = compare_output(e, DType::Float32, a, {1e-3, 1e-3});
  EXPECT_TRUE(c.passed);
  EXPECT_EQ(c.mismatches, 0);
  EXPECT_NEAR(c.max_abs_err, 0.09, 1e-4);
  EXPECT_EQ(c.max_abs_index, (std::vector<int64_t>{1, 1}));
  EXPECT_NEAR(c.max_rel_err, 0.0009, 1e-5);
  // |err| / (atol + rtol |e|): 0.25, 0.33, 0.9 and 0.89. The worst is the element whose reference
  // is 0 (err 0.0009 against atol 0.001), not the one with the largest absolute error.
  EXPECT_NEAR(c.tolerance_used, 0.9, 1e-4);
  EXPECT_EQ(c.tolerance_used_index, (std::vector<int64_t>{1, 0}));
}

TEST(Compare, ToleranceUsedStaysSmallWhereMaxRelErrBlowsUp) {
  // A reference of 1e-6 with an error of 2e-4: relative error 200, yet a fifth of the tolerance.
  // The worst share (0.5) is a moderate error on a large value at [0, 2].
  HostTensor e = f32({1, 3}, {1e-6f, 3.0f, 9.0f});
  HostTensor a = f32({1, 3}, {1e-6f + 2e-4f, 3.0f, 9.005f});
  OutputComparison c = compare_output(e, DType::Float32, a, {1e-3, 1e-3});
  EXPECT_TRUE(c.passed);
  EXPECT_GT(c.max_rel_err, 100.0);
  EXPECT_NEAR(c.tolerance_used, 0.005 / (1e-3 + 9e-3), 1e-3);
  EXPECT_EQ(c.tolerance_used_index, (std::vector<int64_t>{0, 2}));
  // An exact output uses none of it and has no location.
  OutputComparison exact = compare_output(e, DType::Float32, e, {1e-3, 1e-3});
  EXPECT_EQ(exact.tolerance_used, 0.0);
  EXPECT_TRUE(exact.tolerance_used_index.empty());
}

TEST(Compare, MismatchCountsAndExamples) {
  HostTensor e = f32({2, 3}, {0, 1, 2, 3, 4, 5});
  HostTensor a = f32({2, 3}, {0, 1.5f, 2, 3, 4, -5});
  OutputComparison c = compare_output(e, DType::Float32, a, {1e-3, 1e-3}, 1);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.mismatches, 2);
  EXPECT_DOUBLE_EQ(c.mismatch_fraction, 2.0 / 6.0);
  EXPECT_DOUBLE_EQ(c.max_abs_err, 10.0);
  EXPECT_EQ(c.max_abs_index, (std::vector<int64_t>{1, 2}));
  ASSERT_EQ(c.examples.size(), 1u);  // capped by max_examples
  EXPECT_EQ(c.examples[0].index, (std::vector<int64_t>{0, 1}));
  EXPECT_DOUBLE_EQ(c.examples[0].expected, 1.0);
  EXPECT_DOUBLE_EQ(c.examples[0].actual, 1.5);
  EXPECT_EQ(c.never_written, 0);
}

TEST(Compare, NaNIsNeverWritten) {
  HostTensor e = f32({4}, {1, 2, 3, 4});
  HostTensor a = f32({4}, {1, 2, kNaN, kNaN});
  OutputComparison c = compare_output(e, DType::Float32, a, {1e-3, 1e-3});
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.nan_count, 2);
  EXPECT_EQ(c.never_written, 2);
  EXPECT_EQ(c.first_never_written, (std::vector<int64_t>{2}));
  EXPECT_EQ(c.mismatches, 2);
  EXPECT_TRUE(c.examples.empty());  // never-written elements are not repeated as examples
}

TEST(Compare, InfinityOnlyMatchesSameInfinity) {
  HostTensor e = f32({3}, {kInf, 1, -kInf});
  HostTensor a = f32({3}, {kInf, kInf, kInf});
  OutputComparison c = compare_output(e, DType::Float32, a, {1e-3, 1e-3});
  EXPECT_EQ(c.inf_count, 3);
  EXPECT_EQ(c.mismatches, 2);
}

TEST(Compare, WrongShapeAndDtype) {
  HostTensor e = f32({2, 2}, {1, 2, 3, 4});
  OutputComparison shape = compare_output(e, DType::Float32, f32({4}, {1, 2, 3, 4}), {1e-3, 1e-3});
  EXPECT_FALSE(shape.passed);
  EXPECT_FALSE(shape.shape_ok);
  EXPECT_EQ(shape.actual_shape, (std::vector<int64_t>{4}));
  OutputComparison dtype =
      compare_output(e, DType::BFloat16, f32({2, 2}, {1, 2, 3, 4}), {1e-2, 1e-2});
  EXPECT_FALSE(dtype.passed);
  EXPECT_FALSE(dtype.dtype_ok);
  // A data buffer too short for the declared shape is a shape problem, not a crash.
  HostTensor broken = f32({2, 2}, {1, 2, 3, 4});
  broken.data.resize(8);
  EXPECT_FALSE(compare_output(e, DType::Float32, broken, {1e-3, 1e-3}).passed);
}

TEST(Compare, Bf16OutputAgainstFp32Reference) {
  // bf16 keeps 8 significant bits: 1.001 rounds to 1.0 (rel err 1e-3).
  HostTensor e = f32({3}, {1.001f, 3.14159f, -7.5f});
  HostTensor a = bf16({3}, {1.001f, 3.14159f, -7.5f});
  EXPECT_TRUE(compare_output(e, DType::BFloat16, a, {1e-2, 1e-2}).passed);
  // Near 100 the bf16 spacing is 0.5: 100.3 becomes 100.5, within 1e-2 but not within 1e-3.
  HostTensor e2 = f32({1}, {100.3f});
  HostTensor a2 = bf16({1}, {100.3f});
  EXPECT_FALSE(compare_output(e2, DType::BFloat16, a2, {1e-3, 1e-3}).passed);
  EXPECT_TRUE(compare_output(e2, DType::BFloat16, a2, {1e-2, 1e-2}).passed);
}

TEST(Compare, IntegerOutputsExact) {
  HostTensor e;
  e.dtype = DType::Int32;
  e.shape = {3};
  std::vector<int32_t> ev = {1, 2, 3};
  e.data.resize(12);
  std::memcpy(e.data.data(), ev.data(), 12);
  HostTensor a = e;
  EXPECT_TRUE(compare_output(e, DType::Int32, a, {0, 0}).passed);
  int32_t four = 4;
  std::memcpy(a.data.data() + 8, &four, 4);
  OutputComparison c = compare_output(e, DType::Int32, a, {0, 0});
  EXPECT_EQ(c.mismatches, 1);
  // A zero tolerance missed is an infinite share of it, located at the wrong element.
  EXPECT_TRUE(std::isinf(c.tolerance_used));
  EXPECT_EQ(c.tolerance_used_index, (std::vector<int64_t>{2}));
}

TEST(Compare, InputModificationDetected) {
  HostTensor before = f32({2, 2}, {1, 2, 3, 4});
  EXPECT_FALSE(compare_input(0, "x", before, before).has_value());
  HostTensor after = f32({2, 2}, {1, 2, 30, 40});
  auto ch = compare_input(1, "x", before, after);
  ASSERT_TRUE(ch.has_value());
  EXPECT_EQ(ch->arg_index, 1);
  EXPECT_EQ(ch->changed_elements, 2);
  auto reshaped = compare_input(0, "x", before, f32({4}, {1, 2, 3, 4}));
  ASSERT_TRUE(reshaped.has_value());
  EXPECT_TRUE(reshaped->layout_changed);
}

TEST(Compare, Formatting) {
  EXPECT_EQ(format_index({3, 17}), "[3, 17]");
  EXPECT_EQ(format_shape({}), "[]");
}

}  // namespace
}  // namespace nki
