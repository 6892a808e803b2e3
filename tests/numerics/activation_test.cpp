// Activation functions against values computed by hand / with Python's math module in double
// precision (nki-spec.md §2.11.2, §2.9.3).
#include "machine/activation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <vector>

namespace nki {
namespace {

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

float act(ActFunc f, float x) { return act_scalar(f, x); }

TEST(ActTable, RowsInEnumOrderAndParse) {
  for (int i = 0; i < kNumActFuncs; ++i) {
    EXPECT_EQ(static_cast<int>(act_info(static_cast<ActFunc>(i)).func), i);
    EXPECT_EQ(parse_act_func(act_func_name(static_cast<ActFunc>(i))), static_cast<ActFunc>(i));
  }
  EXPECT_EQ(parse_act_func("nl.exp"), ActFunc::Exp);
  EXPECT_EQ(parse_act_func("np.copy"), ActFunc::Copy);
  EXPECT_EQ(parse_act_func("identity"), ActFunc::Copy);
  EXPECT_EQ(parse_act_func("np.absolute"), ActFunc::Abs);
  EXPECT_EQ(parse_act_func("nl.gelu_apprx_tanh"), ActFunc::GeluApprxTanh);
  EXPECT_FALSE(parse_act_func("nl.softmax").has_value());
  EXPECT_TRUE(act_info(ActFunc::Reciprocal).in_activation_table);
  EXPECT_FALSE(act_info(ActFunc::Floor).in_activation_table);
  EXPECT_FALSE(act_info(ActFunc::GeluApprxSigmoid).in_activation_table);  // added in 2.26
  EXPECT_TRUE(act_info(ActFunc::Gelu).in_activation_table);
  EXPECT_THROW(act_info(static_cast<ActFunc>(99)), std::invalid_argument);
}

TEST(ActValues, ElementaryFunctions) {
  EXPECT_EQ(act(ActFunc::Copy, -3.5f), -3.5f);
  EXPECT_EQ(act(ActFunc::Exp, 0.0f), 1.0f);
  EXPECT_EQ(act(ActFunc::Exp, 1.0f), static_cast<float>(std::numbers::e));
  EXPECT_EQ(act(ActFunc::Exp, 100.0f), kInf);
  EXPECT_EQ(act(ActFunc::Log, 1.0f), 0.0f);
  EXPECT_EQ(act(ActFunc::Log, 0.0f), -kInf);
  EXPECT_TRUE(std::isnan(act(ActFunc::Log, -1.0f)));
  EXPECT_FLOAT_EQ(act(ActFunc::Tanh, 0.5f), 0.46211715726000974f);
  EXPECT_EQ(act(ActFunc::Sigmoid, 0.0f), 0.5f);
  EXPECT_FLOAT_EQ(act(ActFunc::Sigmoid, 2.0f), 0.8807970779778823f);
  EXPECT_EQ(act(ActFunc::Sigmoid, -200.0f), 0.0f);
  EXPECT_EQ(act(ActFunc::Relu, -1.0f), 0.0f);
  EXPECT_EQ(act(ActFunc::Relu, 2.0f), 2.0f);
  EXPECT_TRUE(std::isnan(act(ActFunc::Relu, kNaN)));
  EXPECT_FLOAT_EQ(act(ActFunc::Erf, 0.5f), 0.5204998778130465f);
  EXPECT_FLOAT_EQ(act(ActFunc::ErfDx, 0.0f), 1.1283791670955126f);
  EXPECT_FLOAT_EQ(act(ActFunc::ErfDx, 1.0f), 0.4151074974205947f);
  EXPECT_EQ(act(ActFunc::Sign, -3.0f), -1.0f);
  EXPECT_EQ(act(ActFunc::Sign, 0.25f), 1.0f);
  EXPECT_EQ(act(ActFunc::Sign, 0.0f), 0.0f);
  EXPECT_TRUE(std::isnan(act(ActFunc::Sign, kNaN)));
  EXPECT_EQ(act(ActFunc::Abs, -2.0f), 2.0f);
  EXPECT_EQ(act(ActFunc::Square, -3.0f), 9.0f);
  EXPECT_EQ(act(ActFunc::Sqrt, 2.0f), 1.41421356f);
  EXPECT_EQ(act(ActFunc::Rsqrt, 4.0f), 0.5f);
  EXPECT_EQ(act(ActFunc::Rsqrt, 0.0f), kInf);
  EXPECT_EQ(act(ActFunc::Reciprocal, 4.0f), 0.25f);
  EXPECT_EQ(act(ActFunc::Reciprocal, -0.0f), -kInf);
  EXPECT_FLOAT_EQ(act(ActFunc::Sin, std::numbers::pi_v<float> / 6), 0.5f);
  EXPECT_EQ(act(ActFunc::Cos, 0.0f), 1.0f);
  EXPECT_FLOAT_EQ(act(ActFunc::Tan, std::numbers::pi_v<float> / 4), 1.0f);
  EXPECT_FLOAT_EQ(act(ActFunc::Arctan, 1.0f), 0.7853981633974483f);
  EXPECT_EQ(act(ActFunc::Negative, 2.0f), -2.0f);
  EXPECT_EQ(act(ActFunc::Floor, -1.5f), -2.0f);
  EXPECT_EQ(act(ActFunc::Ceil, -1.5f), -1.0f);
  EXPECT_EQ(act(ActFunc::Trunc, -1.5f), -1.0f);
  EXPECT_EQ(act(ActFunc::Trunc, 2.7f), 2.0f);
  EXPECT_EQ(act(ActFunc::LogicalNot, 0.0f), 1.0f);
  EXPECT_EQ(act(ActFunc::LogicalNot, -2.0f), 0.0f);
  EXPECT_EQ(act(ActFunc::Invert, 5.0f), -6.0f);
  EXPECT_EQ(act(ActFunc::Invert, 0.0f), -1.0f);
}

TEST(ActValues, GeluSiluFamily) {
  EXPECT_FLOAT_EQ(act(ActFunc::Gelu, 1.0f), 0.8413447460685429f);
  EXPECT_FLOAT_EQ(act(ActFunc::Gelu, -1.0f), -0.15865525393145707f);
  EXPECT_EQ(act(ActFunc::Gelu, 0.0f), 0.0f);
  EXPECT_FLOAT_EQ(act(ActFunc::GeluDx, 1.0f), 1.0833154705876862f);
  EXPECT_FLOAT_EQ(act(ActFunc::GeluDx, -0.5f), 0.13250487534383712f);
  EXPECT_FLOAT_EQ(act(ActFunc::GeluApprxTanh, 1.0f), 0.8411919906082768f);
  EXPECT_FLOAT_EQ(act(ActFunc::GeluApprxTanh, -2.0f), -0.04540230591222494f);
  EXPECT_FLOAT_EQ(act(ActFunc::GeluApprxSigmoid, 1.0f), 0.8457957659328212f);
  EXPECT_FLOAT_EQ(act(ActFunc::Silu, 1.0f), 0.7310585786300049f);
  EXPECT_FLOAT_EQ(act(ActFunc::SiluDx, 1.0f), 0.9276705118714869f);
  EXPECT_FLOAT_EQ(act(ActFunc::SiluDx, -3.0f), -0.08810410601516962f);
  EXPECT_FLOAT_EQ(act(ActFunc::Softplus, 0.0f), 0.6931471805599453f);
  EXPECT_EQ(act(ActFunc::Softplus, 100.0f), 100.0f);  // no overflow
  EXPECT_FLOAT_EQ(act(ActFunc::Softplus, -100.0f), 3.720075976020836e-44f);  // no cancellation
  EXPECT_FLOAT_EQ(act(ActFunc::Mish, 1.0f), 0.8650983882673103f);
  EXPECT_FLOAT_EQ(act(ActFunc::Mish, -2.0f), -0.2525014826957089f);
  EXPECT_EQ(act(ActFunc::Mish, 200.0f), 200.0f);
}

TEST(ActValues, ValidRangesFromTheSpec) {
  EXPECT_TRUE(act_input_in_range(ActFunc::Log, 1.0f));
  EXPECT_FALSE(act_input_in_range(ActFunc::Log, 0.0f));
  EXPECT_TRUE(act_input_in_range(ActFunc::Log, std::ldexp(1.0f, 64)));
  EXPECT_FALSE(act_input_in_range(ActFunc::Log, std::ldexp(1.0f, 65)));
  EXPECT_TRUE(act_input_in_range(ActFunc::Sin, -3.0f));
  EXPECT_FALSE(act_input_in_range(ActFunc::Sin, 4.0f));
  EXPECT_FALSE(act_input_in_range(ActFunc::Arctan, 2.0f));
  EXPECT_TRUE(act_input_in_range(ActFunc::Reciprocal, -2.0f));
  EXPECT_FALSE(act_input_in_range(ActFunc::Reciprocal, -1e-20f));
  EXPECT_FALSE(act_input_in_range(ActFunc::Sqrt, -1.0f));
  EXPECT_TRUE(act_input_in_range(ActFunc::Exp, -1e30f));
  EXPECT_FALSE(act_input_in_range(ActFunc::Sin, kNaN));
  const float xs[4] = {0.0f, 4.0f, -4.0f, 3.0f};
  EXPECT_EQ(count_out_of_range(ActFunc::Sin, xs, 4), 2u);
  EXPECT_EQ(count_out_of_range(ActFunc::Exp, xs, 4), 0u);
}

TEST(ActKernels, ApplyMatchesScalarAndAllowsInPlace) {
  std::vector<float> xs;
  for (int i = -40; i <= 40; ++i) xs.push_back(i * 0.37f);
  for (int f = 0; f < kNumActFuncs; ++f) {
    auto fn = static_cast<ActFunc>(f);
    std::vector<float> out(xs.size());
    apply(fn, xs.data(), out.data(), xs.size());
    std::vector<float> inplace = xs;
    apply(fn, inplace.data(), inplace.data(), inplace.size());
    for (size_t i = 0; i < xs.size(); ++i) {
      float want = act_scalar(fn, xs[i]);
      if (std::isnan(want)) {
        ASSERT_TRUE(std::isnan(out[i]) && std::isnan(inplace[i])) << act_func_name(fn);
      } else {
        ASSERT_EQ(out[i], want) << act_func_name(fn) << " x=" << xs[i];
        ASSERT_EQ(inplace[i], want) << act_func_name(fn) << " x=" << xs[i];
      }
    }
  }
}

TEST(ActKernels, FusedScaleAndBias) {
  const float in[4] = {1, 2, 3, 4};  // [2, 2]
  const float scales[2] = {2.0f, 0.5f};
  float out[4];
  activation(ActFunc::Copy, in, out, 2, 2, PartitionScalar{scales, 0}, PartitionScalar{nullptr, 1.0f});
  EXPECT_EQ(std::vector<float>(out, out + 4), (std::vector<float>{3, 5, 2.5f, 3}));
  const float biases[2] = {-1.0f, -4.0f};
  activation(ActFunc::Relu, in, out, 2, 2, PartitionScalar{nullptr, 1.0f}, PartitionScalar{biases, 0});
  EXPECT_EQ(std::vector<float>(out, out + 4), (std::vector<float>{0, 1, 0, 0}));
  float buf[4] = {0, 1, 2, 3};
  activation(ActFunc::Exp, buf, buf, 1, 4, PartitionScalar{nullptr, -1.0f}, PartitionScalar{nullptr, 0.0f});
  EXPECT_EQ(buf[0], 1.0f);
  EXPECT_FLOAT_EQ(buf[2], 0.1353352832366127f);  // e^-2
}

}  // namespace
}  // namespace nki
