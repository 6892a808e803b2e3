// Activation / unary math kernels. As in alu.cpp, each function is a template instance and the
// function switch sits outside the element loop. Transcendentals are evaluated in double and
// rounded once to fp32, which keeps composite functions (gelu, silu, softplus, mish) free of
// fp32 cancellation error.
#include "machine/activation.h"

#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>

namespace nki {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kPi = std::numbers::pi_v<float>;

// Valid ranges from nki-spec.md §2.11.2 (SDK 2.24 values).
constexpr float kTwoM116 = 0x1p-116f, kTwo118 = 0x1p118f;  // sqrt
constexpr float kTwoM87 = 0x1p-87f, kTwo97 = 0x1p97f;      // rsqrt
constexpr float kTwoM64 = 0x1p-64f, kTwo64 = 0x1p64f;      // log
constexpr float kTwoM42 = 0x1p-42f, kTwo42 = 0x1p42f;      // reciprocal (magnitude)

// One row per enumerator, in enum order (checked by activation_test).
constexpr std::array<ActFuncInfo, kNumActFuncs> kInfo = {{
    {ActFunc::Copy, "copy", true, -kInf, kInf, false},
    {ActFunc::Exp, "exp", true, -kInf, kInf, false},
    {ActFunc::Log, "log", true, kTwoM64, kTwo64, false},
    {ActFunc::Tanh, "tanh", true, -kInf, kInf, false},
    {ActFunc::Sigmoid, "sigmoid", true, -kInf, kInf, false},
    {ActFunc::Relu, "relu", true, -kInf, kInf, false},
    {ActFunc::Gelu, "gelu", true, -kInf, kInf, false},
    {ActFunc::GeluDx, "gelu_dx", true, -kInf, kInf, false},
    {ActFunc::GeluApprxTanh, "gelu_apprx_tanh", true, -kInf, kInf, false},
    // gelu_apprx_sigmoid joined the activation table in SDK 2.26, after the 2.24 baseline.
    {ActFunc::GeluApprxSigmoid, "gelu_apprx_sigmoid", false, -kInf, kInf, false},
    {ActFunc::Silu, "silu", true, -kInf, kInf, false},
    {ActFunc::SiluDx, "silu_dx", true, -kInf, kInf, false},
    {ActFunc::Softplus, "softplus", true, -kInf, kInf, false},
    {ActFunc::Mish, "mish", true, -kInf, kInf, false},
    {ActFunc::Erf, "erf", true, -kInf, kInf, false},
    {ActFunc::ErfDx, "erf_dx", true, -kInf, kInf, false},
    {ActFunc::Sign, "sign", true, -kInf, kInf, false},
    {ActFunc::Abs, "abs", true, -kInf, kInf, false},
    {ActFunc::Square, "square", true, -kInf, kInf, false},
    {ActFunc::Sqrt, "sqrt", true, kTwoM116, kTwo118, false},
    {ActFunc::Rsqrt, "rsqrt", true, kTwoM87, kTwo97, false},
    {ActFunc::Reciprocal, "reciprocal", true, kTwoM42, kTwo42, true},
    {ActFunc::Sin, "sin", true, -kPi, kPi, false},
    {ActFunc::Cos, "cos", false, -kInf, kInf, false},
    {ActFunc::Tan, "tan", false, -kInf, kInf, false},
    {ActFunc::Arctan, "arctan", true, -kPi / 2, kPi / 2, false},
    {ActFunc::Negative, "negative", false, -kInf, kInf, false},
    {ActFunc::Floor, "floor", false, -kInf, kInf, false},
    {ActFunc::Ceil, "ceil", false, -kInf, kInf, false},
    {ActFunc::Trunc, "trunc", false, -kInf, kInf, false},
    {ActFunc::LogicalNot, "logical_not", false, -kInf, kInf, false},
    {ActFunc::Invert, "invert", false, -kInf, kInf, false},
}};

struct Alias {
  std::string_view name;
  ActFunc func;
};
constexpr std::array<Alias, 6> kAliases = {{
    {"identity", ActFunc::Copy}, {"absolute", ActFunc::Abs}, {"bitwise_not", ActFunc::Invert},
    {"neg", ActFunc::Negative}, {"atan", ActFunc::Arctan}, {"fix", ActFunc::Trunc},
}};

inline double sigmoid_d(double x) { return 1.0 / (1.0 + std::exp(-x)); }
inline double softplus_d(double x) {
  // ln(1 + e^x) without overflow for large x or loss of precision for very negative x.
  return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
}
inline int32_t to_i32(float x) {
  if (!(x == x)) return 0;
  if (x >= 2147483648.0f) return std::numeric_limits<int32_t>::max();
  if (x < -2147483648.0f) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(std::nearbyint(x));
}

template <ActFunc kF>
inline float act_f32(float xf) {
  const double x = xf;
  constexpr double kInvSqrt2 = 0.70710678118654752440;
  constexpr double kInvSqrt2Pi = 0.39894228040143267794;  // 1/sqrt(2 pi)
  constexpr double kSqrt2OverPi = 0.79788456080286535588;
  constexpr double kTwoOverSqrtPi = 1.12837916709551257390;
  if constexpr (kF == ActFunc::Copy) return xf;
  else if constexpr (kF == ActFunc::Exp) return static_cast<float>(std::exp(x));
  else if constexpr (kF == ActFunc::Log) return static_cast<float>(std::log(x));
  else if constexpr (kF == ActFunc::Tanh) return static_cast<float>(std::tanh(x));
  else if constexpr (kF == ActFunc::Sigmoid) return static_cast<float>(sigmoid_d(x));
  else if constexpr (kF == ActFunc::Relu) return xf > 0.0f ? xf : (xf != xf ? xf : 0.0f);
  else if constexpr (kF == ActFunc::Gelu)
    return static_cast<float>(0.5 * x * (1.0 + std::erf(x * kInvSqrt2)));
  else if constexpr (kF == ActFunc::GeluDx)
    return static_cast<float>(0.5 * (1.0 + std::erf(x * kInvSqrt2)) +
                              x * kInvSqrt2Pi * std::exp(-0.5 * x * x));
  else if constexpr (kF == ActFunc::GeluApprxTanh)
    return static_cast<float>(0.5 * x * (1.0 + std::tanh(kSqrt2OverPi * (x + 0.044715 * x * x * x))));
  else if constexpr (kF == ActFunc::GeluApprxSigmoid) return static_cast<float>(x * sigmoid_d(1.702 * x));
  else if constexpr (kF == ActFunc::Silu) return static_cast<float>(x * sigmoid_d(x));
  else if constexpr (kF == ActFunc::SiluDx) {
    const double s = sigmoid_d(x);
    return static_cast<float>(s * (1.0 + x * (1.0 - s)));
  } else if constexpr (kF == ActFunc::Softplus) return static_cast<float>(softplus_d(x));
  else if constexpr (kF == ActFunc::Mish) return static_cast<float>(x * std::tanh(softplus_d(x)));
  else if constexpr (kF == ActFunc::Erf) return static_cast<float>(std::erf(x));
  else if constexpr (kF == ActFunc::ErfDx) return static_cast<float>(kTwoOverSqrtPi * std::exp(-x * x));
  else if constexpr (kF == ActFunc::Sign) return xf > 0.0f ? 1.0f : (xf < 0.0f ? -1.0f : xf);
  else if constexpr (kF == ActFunc::Abs) return std::fabs(xf);
  else if constexpr (kF == ActFunc::Square) return xf * xf;
  else if constexpr (kF == ActFunc::Sqrt) return std::sqrt(xf);
  else if constexpr (kF == ActFunc::Rsqrt) return static_cast<float>(1.0 / std::sqrt(x));
  else if constexpr (kF == ActFunc::Reciprocal) return 1.0f / xf;
  else if constexpr (kF == ActFunc::Sin) return static_cast<float>(std::sin(x));
  else if constexpr (kF == ActFunc::Cos) return static_cast<float>(std::cos(x));
  else if constexpr (kF == ActFunc::Tan) return static_cast<float>(std::tan(x));
  else if constexpr (kF == ActFunc::Arctan) return static_cast<float>(std::atan(x));
  else if constexpr (kF == ActFunc::Negative) return -xf;
  else if constexpr (kF == ActFunc::Floor) return std::floor(xf);
  else if constexpr (kF == ActFunc::Ceil) return std::ceil(xf);
  else if constexpr (kF == ActFunc::Trunc) return std::trunc(xf);
  else if constexpr (kF == ActFunc::LogicalNot) return xf == 0.0f ? 1.0f : 0.0f;
  else return static_cast<float>(~to_i32(xf));  // Invert
}

template <ActFunc kF>
void loop(const float* in, float* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = act_f32<kF>(in[i]);
}

std::string_view strip_module(std::string_view name) {
  if (auto dot = name.rfind('.'); dot != std::string_view::npos) return name.substr(dot + 1);
  return name;
}

}  // namespace

const ActFuncInfo& act_info(ActFunc f) {
  const auto i = static_cast<size_t>(f);
  if (i >= kInfo.size()) throw std::invalid_argument("unknown activation function " + std::to_string(i));
  return kInfo[i];
}

std::optional<ActFunc> parse_act_func(std::string_view name) {
  name = strip_module(name);
  for (const auto& row : kInfo) {
    if (name == row.name) return row.func;
  }
  for (const auto& a : kAliases) {
    if (name == a.name) return a.func;
  }
  return std::nullopt;
}

bool act_input_in_range(ActFunc f, float x) {
  const ActFuncInfo& info = act_info(f);
  const float v = info.magnitude_range ? std::fabs(x) : x;
  return v >= info.valid_lo && v <= info.valid_hi;
}

size_t count_out_of_range(ActFunc f, const float* in, size_t n) {
  const ActFuncInfo& info = act_info(f);
  if (info.valid_lo == -kInf && info.valid_hi == kInf) return 0;
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i) bad += act_input_in_range(f, in[i]) ? 0 : 1;
  return bad;
}

void apply(ActFunc f, const float* in, float* out, size_t n) {
  switch (f) {
#define NKI_ACT_CASE(name) \
  case ActFunc::name: return loop<ActFunc::name>(in, out, n);
    NKI_ACT_CASE(Copy) NKI_ACT_CASE(Exp) NKI_ACT_CASE(Log) NKI_ACT_CASE(Tanh)
    NKI_ACT_CASE(Sigmoid) NKI_ACT_CASE(Relu) NKI_ACT_CASE(Gelu) NKI_ACT_CASE(GeluDx)
    NKI_ACT_CASE(GeluApprxTanh) NKI_ACT_CASE(GeluApprxSigmoid) NKI_ACT_CASE(Silu)
    NKI_ACT_CASE(SiluDx) NKI_ACT_CASE(Softplus) NKI_ACT_CASE(Mish) NKI_ACT_CASE(Erf)
    NKI_ACT_CASE(ErfDx) NKI_ACT_CASE(Sign) NKI_ACT_CASE(Abs) NKI_ACT_CASE(Square)
    NKI_ACT_CASE(Sqrt) NKI_ACT_CASE(Rsqrt) NKI_ACT_CASE(Reciprocal) NKI_ACT_CASE(Sin)
    NKI_ACT_CASE(Cos) NKI_ACT_CASE(Tan) NKI_ACT_CASE(Arctan) NKI_ACT_CASE(Negative)
    NKI_ACT_CASE(Floor) NKI_ACT_CASE(Ceil) NKI_ACT_CASE(Trunc) NKI_ACT_CASE(LogicalNot)
    NKI_ACT_CASE(Invert)
#undef NKI_ACT_CASE
  }
  throw std::invalid_argument("unknown activation function " + std::to_string(static_cast<int>(f)));
}

float act_scalar(ActFunc f, float x) {
  float r;
  apply(f, &x, &r, 1);
  return r;
}

void activation(ActFunc func, const float* in, float* out, size_t partitions, size_t free_size,
                PartitionScalar scale, PartitionScalar bias) {
  for (size_t p = 0; p < partitions; ++p) {
    const float s = scale.at(p), b = bias.at(p);
    const float* src = in + p * free_size;
    float* dst = out + p * free_size;
    for (size_t i = 0; i < free_size; ++i) {
      const float scaled = src[i] * s;  // two roundings, as an fp32 multiply then add
      dst[i] = scaled + b;
    }
    apply(func, dst, dst, free_size);
  }
}

}  // namespace nki
