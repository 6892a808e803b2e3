// Private element-wise kernels of the executor. (The shared numerics library nki_machine_math,
// alu.h/activation.h, was not available when this was written; see docs/simulator.md.)
#include "machine/engine_math.h"

#include <cmath>
#include <limits>

namespace nki::machine {

namespace {

using A = ir::Alu;

inline float b2f(bool b) { return b ? 1.0f : 0.0f; }

// Python/NumPy float modulo: result has the divisor's sign.
inline float py_fmod(float a, float b) {
  float r = std::fmod(a, b);
  if (r != 0.0f && ((r < 0.0f) != (b < 0.0f))) r += b;
  return r;
}

inline float nan_max(float a, float b) { return (a != a || b != b) ? a + b : (a > b ? a : b); }
inline float nan_min(float a, float b) { return (a != a || b != b) ? a + b : (a < b ? a : b); }

int64_t to_i64(float x) {
  if (std::isnan(x)) return 0;
  double r = std::nearbyint(static_cast<double>(x));
  if (r >= 9.2e18) return std::numeric_limits<int64_t>::max();
  if (r <= -9.2e18) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(r);
}

template <class F>
void binary_loop(const float* a, bool as, const float* b, bool bs, float* out, int64_t n, F f) {
  if (!as && !bs) {
    for (int64_t i = 0; i < n; ++i) out[i] = f(a[i], b[i]);
  } else if (as && !bs) {
    const float x = a[0];
    for (int64_t i = 0; i < n; ++i) out[i] = f(x, b[i]);
  } else if (!as && bs) {
    const float y = b[0];
    for (int64_t i = 0; i < n; ++i) out[i] = f(a[i], y);
  } else {
    const float r = f(a[0], b[0]);
    for (int64_t i = 0; i < n; ++i) out[i] = r;
  }
}

template <class F>
void unary_loop(const float* in, float* out, int64_t n, F f) {
  for (int64_t i = 0; i < n; ++i) out[i] = f(in[i]);
}

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double softplus(double x) { return x > 30.0 ? x : std::log1p(std::exp(x)); }

}  // namespace

bool is_bitvec(ir::Alu op) {
  return op == A::BitwiseAnd || op == A::BitwiseOr || op == A::BitwiseXor ||
         op == A::LeftShift || op == A::RightShift;
}

float alu_identity(ir::Alu op) {
  switch (op) {
    case A::Multiply: case A::LogicalAnd: return 1.0f;
    case A::Maximum: return -std::numeric_limits<float>::infinity();
    case A::Minimum: return std::numeric_limits<float>::infinity();
    default: return 0.0f;
  }
}

int64_t alu_identity_i64(ir::Alu op) {
  switch (op) {
    case A::Multiply: case A::LogicalAnd: return 1;
    case A::BitwiseAnd: return -1;
    case A::Maximum: return std::numeric_limits<int64_t>::min();
    case A::Minimum: return std::numeric_limits<int64_t>::max();
    default: return 0;
  }
}

float alu_scalar(ir::Alu op, float a, float b) {
  switch (op) {
    case A::Add: return a + b;
    case A::Subtract: return a - b;
    case A::Multiply: return a * b;
    case A::Divide: return a / b;
    case A::Maximum: return nan_max(a, b);
    case A::Minimum: return nan_min(a, b);
    case A::Power: return std::pow(a, b);
    case A::Mod: return py_fmod(a, b);
    case A::Fmod: return std::fmod(a, b);
    case A::Equal: return b2f(a == b);
    case A::NotEqual: return b2f(a != b);
    case A::Greater: return b2f(a > b);
    case A::GreaterEqual: return b2f(a >= b);
    case A::Less: return b2f(a < b);
    case A::LessEqual: return b2f(a <= b);
    case A::LogicalAnd: return b2f(a != 0.0f && b != 0.0f);
    case A::LogicalOr: return b2f(a != 0.0f || b != 0.0f);
    case A::LogicalXor: return b2f((a != 0.0f) != (b != 0.0f));
    case A::BitwiseAnd: case A::BitwiseOr: case A::BitwiseXor: case A::LeftShift:
    case A::RightShift:
      return static_cast<float>(alu_scalar_i64(op, to_i64(a), to_i64(b)));
    case A::Bypass: return a;
  }
  return a;
}

int64_t alu_scalar_i64(ir::Alu op, int64_t a, int64_t b) {
  switch (op) {
    case A::Add: return a + b;
    case A::Subtract: return a - b;
    case A::Multiply: return a * b;
    case A::Divide: return b == 0 ? 0 : a / b;
    case A::Maximum: return a > b ? a : b;
    case A::Minimum: return a < b ? a : b;
    case A::Power: {
      int64_t r = 1;
      for (int64_t i = 0; i < b && i < 64; ++i) r *= a;
      return b < 0 ? 0 : r;
    }
    case A::Mod: return b == 0 ? 0 : a - b * ((a / b) - ((a % b != 0) && ((a < 0) != (b < 0))));
    case A::Fmod: return b == 0 ? 0 : a % b;
    case A::Equal: return a == b;
    case A::NotEqual: return a != b;
    case A::Greater: return a > b;
    case A::GreaterEqual: return a >= b;
    case A::Less: return a < b;
    case A::LessEqual: return a <= b;
    case A::LogicalAnd: return a != 0 && b != 0;
    case A::LogicalOr: return a != 0 || b != 0;
    case A::LogicalXor: return (a != 0) != (b != 0);
    case A::BitwiseAnd: return a & b;
    case A::BitwiseOr: return a | b;
    case A::BitwiseXor: return a ^ b;
    case A::LeftShift: return (b < 0 || b > 63) ? 0 : static_cast<int64_t>(static_cast<uint64_t>(a) << b);
    case A::RightShift:
      // Logical shift: a negative value is taken as its 32-bit two's-complement pattern.
      if (b < 0 || b > 63) return 0;
      return a < 0 ? static_cast<int64_t>(static_cast<uint32_t>(a) >> b)
                   : static_cast<int64_t>(static_cast<uint64_t>(a) >> b);
    case A::Bypass: return a;
  }
  return a;
}

void alu_f32(ir::Alu op, const float* a, bool as, const float* b, bool bs, float* out,
             int64_t n) {
  switch (op) {
    case A::Add: binary_loop(a, as, b, bs, out, n, [](float x, float y) { return x + y; }); return;
    case A::Subtract:
      binary_loop(a, as, b, bs, out, n, [](float x, float y) { return x - y; }); return;
    case A::Multiply:
      binary_loop(a, as, b, bs, out, n, [](float x, float y) { return x * y; }); return;
    case A::Divide:
      binary_loop(a, as, b, bs, out, n, [](float x, float y) { return x / y; }); return;
    case A::Maximum: binary_loop(a, as, b, bs, out, n, nan_max); return;
    case A::Minimum: binary_loop(a, as, b, bs, out, n, nan_min); return;
    case A::Bypass:
      binary_loop(a, as, a, as, out, n, [](float x, float) { return x; }); return;
    default:
      binary_loop(a, as, b, bs, out, n, [op](float x, float y) { return alu_scalar(op, x, y); });
      return;
  }
}

void alu_i64(ir::Alu op, const int64_t* a, bool as, const int64_t* b, bool bs, int64_t* out,
             int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    out[i] = alu_scalar_i64(op, a[as ? 0 : i], (op == A::Bypass) ? 0 : b[bs ? 0 : i]);
}

void act_f32(ir::Act f, const float* in, float* out, int64_t n) {
  using F = ir::Act;
  auto d = [](auto fn) { return [fn](float x) { return static_cast<float>(fn(static_cast<double>(x))); }; };
  constexpr double kInvSqrt2 = 0.70710678118654752440;
  constexpr double kInvSqrt2Pi = 0.39894228040143267794;
  constexpr double kSqrt2OverPi = 0.79788456080286535588;
  constexpr double kTwoOverSqrtPi = 1.12837916709551257390;
  switch (f) {
    case F::Copy: unary_loop(in, out, n, [](float x) { return x; }); return;
    case F::Exp: unary_loop(in, out, n, d([](double x) { return std::exp(x); })); return;
    case F::Log: unary_loop(in, out, n, d([](double x) { return std::log(x); })); return;
    case F::Tanh: unary_loop(in, out, n, d([](double x) { return std::tanh(x); })); return;
    case F::Sigmoid: unary_loop(in, out, n, d(sigmoid)); return;
    case F::Relu: unary_loop(in, out, n, [](float x) { return x > 0.0f ? x : (x != x ? x : 0.0f); }); return;
    case F::Gelu:
      unary_loop(in, out, n, d([](double x) { return 0.5 * x * (1.0 + std::erf(x * kInvSqrt2)); }));
      return;
    case F::GeluDx:
      unary_loop(in, out, n, d([](double x) {
        return 0.5 * (1.0 + std::erf(x * kInvSqrt2)) + x * kInvSqrt2Pi * std::exp(-0.5 * x * x);
      }));
      return;
    case F::GeluApprxTanh:
      unary_loop(in, out, n, d([](double x) {
        return 0.5 * x * (1.0 + std::tanh(kSqrt2OverPi * (x + 0.044715 * x * x * x)));
      }));
      return;
    case F::GeluApprxSigmoid:
      unary_loop(in, out, n, d([](double x) { return x * sigmoid(1.702 * x); })); return;
    case F::Silu: unary_loop(in, out, n, d([](double x) { return x * sigmoid(x); })); return;
    case F::SiluDx:
      unary_loop(in, out, n, d([](double x) {
        double s = sigmoid(x);
        return s * (1.0 + x * (1.0 - s));
      }));
      return;
    case F::Softplus: unary_loop(in, out, n, d(softplus)); return;
    case F::Mish:
      unary_loop(in, out, n, d([](double x) { return x * std::tanh(softplus(x)); })); return;
    case F::Erf: unary_loop(in, out, n, d([](double x) { return std::erf(x); })); return;
    case F::ErfDx:
      unary_loop(in, out, n, d([](double x) { return kTwoOverSqrtPi * std::exp(-x * x); }));
      return;
    case F::Sign:
      unary_loop(in, out, n, [](float x) { return x > 0.0f ? 1.0f : (x < 0.0f ? -1.0f : x); });
      return;
    case F::Abs: unary_loop(in, out, n, [](float x) { return std::fabs(x); }); return;
    case F::Square: unary_loop(in, out, n, [](float x) { return x * x; }); return;
    case F::Sqrt: unary_loop(in, out, n, [](float x) { return std::sqrt(x); }); return;
    case F::Rsqrt: unary_loop(in, out, n, d([](double x) { return 1.0 / std::sqrt(x); })); return;
    case F::Reciprocal: unary_loop(in, out, n, [](float x) { return 1.0f / x; }); return;
    case F::Sin: unary_loop(in, out, n, d([](double x) { return std::sin(x); })); return;
    case F::Cos: unary_loop(in, out, n, d([](double x) { return std::cos(x); })); return;
    case F::Tan: unary_loop(in, out, n, d([](double x) { return std::tan(x); })); return;
    case F::Arctan: unary_loop(in, out, n, d([](double x) { return std::atan(x); })); return;
    case F::Negative: unary_loop(in, out, n, [](float x) { return -x; }); return;
    case F::Floor: unary_loop(in, out, n, [](float x) { return std::floor(x); }); return;
    case F::Ceil: unary_loop(in, out, n, [](float x) { return std::ceil(x); }); return;
    case F::Trunc: unary_loop(in, out, n, [](float x) { return std::trunc(x); }); return;
    case F::LogicalNot: unary_loop(in, out, n, [](float x) { return x == 0.0f ? 1.0f : 0.0f; }); return;
    case F::Invert:  // fp32 stand-in for ~x on integral values (the executor uses the int path)
      unary_loop(in, out, n, [](float x) { return -x - 1.0f; });
      return;
  }
}

}  // namespace nki::machine
