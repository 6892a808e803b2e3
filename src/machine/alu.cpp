// ALU kernels. Each op is a template instance of one per-element function; the op switch runs
// once per call, outside the element loop, so every loop body is a plain inlinable expression.
#include "machine/alu.h"
#include "machine/alu.inl.h"

#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace nki {
namespace {

using alu_detail::op_bits;
using alu_detail::op_f32;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// One row per enumerator, in enum order (checked by alu_test).
constexpr std::array<AluOpInfo, kNumAluOps> kInfo = {{
    {AluOp::Add, "add", false, false, false, true, 0.0f, 0u},
    {AluOp::Subtract, "subtract", false, false, false, true, 0.0f, 0u},
    {AluOp::Multiply, "multiply", false, false, false, true, 1.0f, 1u},
    {AluOp::Divide, "divide", false, false, false, false, kNaN, 0u},
    {AluOp::Maximum, "maximum", false, false, false, true, -kInf, 0u},
    {AluOp::Minimum, "minimum", false, false, false, true, kInf, 0xffffffffu},
    {AluOp::Power, "power", false, false, false, false, kNaN, 0u},
    {AluOp::Mod, "mod", false, false, false, false, kNaN, 0u},
    {AluOp::Fmod, "fmod", false, false, false, false, kNaN, 0u},
    {AluOp::Equal, "equal", false, true, false, false, kNaN, 0u},
    {AluOp::NotEqual, "not_equal", false, true, false, false, kNaN, 0u},
    {AluOp::Greater, "greater", false, true, false, false, kNaN, 0u},
    {AluOp::GreaterEqual, "greater_equal", false, true, false, false, kNaN, 0u},
    {AluOp::Less, "less", false, true, false, false, kNaN, 0u},
    {AluOp::LessEqual, "less_equal", false, true, false, false, kNaN, 0u},
    {AluOp::LogicalAnd, "logical_and", false, false, true, true, 1.0f, 1u},
    {AluOp::LogicalOr, "logical_or", false, false, true, true, 0.0f, 0u},
    {AluOp::LogicalXor, "logical_xor", false, false, true, true, 0.0f, 0u},
    {AluOp::BitwiseAnd, "bitwise_and", true, false, false, true, -1.0f, 0xffffffffu},
    {AluOp::BitwiseOr, "bitwise_or", true, false, false, true, 0.0f, 0u},
    {AluOp::BitwiseXor, "bitwise_xor", true, false, false, true, 0.0f, 0u},
    {AluOp::LeftShift, "left_shift", true, false, false, false, kNaN, 0u},
    {AluOp::RightShift, "right_shift", true, false, false, false, kNaN, 0u},
    {AluOp::Bypass, "bypass", false, false, false, false, kNaN, 0u},
}};

struct Alias {
  std::string_view name;
  AluOp op;
};
constexpr std::array<Alias, 10> kAliases = {{
    {"max", AluOp::Maximum}, {"amax", AluOp::Maximum}, {"min", AluOp::Minimum},
    {"amin", AluOp::Minimum}, {"true_divide", AluOp::Divide}, {"remainder", AluOp::Mod},
    {"pow", AluOp::Power}, {"sub", AluOp::Subtract}, {"mul", AluOp::Multiply},
    {"copy", AluOp::Bypass},
}};

// Element accessors: a contiguous array or one broadcast value.
template <typename T>
struct Arr {
  const T* p;
  T operator[](size_t i) const { return p[i]; }
};
template <typename T>
struct Bcast {
  T v;
  T operator[](size_t) const { return v; }
};

template <AluOp kOp, typename A, typename B>
void loop_f32(A a, B b, float* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = op_f32<kOp>(a[i], b[i]);
}

template <typename A, typename B>
void dispatch_f32(AluOp op, A a, B b, float* out, size_t n) {
  switch (op) {
#define NKI_ALU_CASE(name) \
  case AluOp::name: return loop_f32<AluOp::name>(a, b, out, n);
    NKI_ALU_CASE(Add) NKI_ALU_CASE(Subtract) NKI_ALU_CASE(Multiply) NKI_ALU_CASE(Divide)
    NKI_ALU_CASE(Maximum) NKI_ALU_CASE(Minimum) NKI_ALU_CASE(Power) NKI_ALU_CASE(Mod)
    NKI_ALU_CASE(Fmod) NKI_ALU_CASE(Equal) NKI_ALU_CASE(NotEqual) NKI_ALU_CASE(Greater)
    NKI_ALU_CASE(GreaterEqual) NKI_ALU_CASE(Less) NKI_ALU_CASE(LessEqual)
    NKI_ALU_CASE(LogicalAnd) NKI_ALU_CASE(LogicalOr) NKI_ALU_CASE(LogicalXor)
    NKI_ALU_CASE(BitwiseAnd) NKI_ALU_CASE(BitwiseOr) NKI_ALU_CASE(BitwiseXor)
    NKI_ALU_CASE(LeftShift) NKI_ALU_CASE(RightShift) NKI_ALU_CASE(Bypass)
#undef NKI_ALU_CASE
  }
  throw std::invalid_argument("unknown ALU op " + std::to_string(static_cast<int>(op)));
}

template <AluOp kOp, typename A, typename B>
void loop_bits(A a, B b, uint32_t* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = op_bits<kOp>(a[i], b[i]);
}

template <typename A, typename B>
void dispatch_bits(AluOp op, A a, B b, uint32_t* out, size_t n) {
  switch (op) {
#define NKI_ALU_CASE(name) \
  case AluOp::name: return loop_bits<AluOp::name>(a, b, out, n);
    NKI_ALU_CASE(Add) NKI_ALU_CASE(Subtract) NKI_ALU_CASE(Multiply)
    NKI_ALU_CASE(BitwiseAnd) NKI_ALU_CASE(BitwiseOr) NKI_ALU_CASE(BitwiseXor)
    NKI_ALU_CASE(LeftShift) NKI_ALU_CASE(RightShift) NKI_ALU_CASE(Bypass)
#undef NKI_ALU_CASE
    default: break;
  }
  throw std::invalid_argument(std::string("ALU op '") + alu_op_name(op) +
                              "' is not supported on 32-bit integer bit patterns");
}

std::string_view strip_module(std::string_view name) {
  if (auto dot = name.rfind('.'); dot != std::string_view::npos) return name.substr(dot + 1);
  return name;
}

}  // namespace

const AluOpInfo& alu_info(AluOp op) {
  const auto i = static_cast<size_t>(op);
  if (i >= kInfo.size()) throw std::invalid_argument("unknown ALU op " + std::to_string(i));
  return kInfo[i];
}

std::optional<AluOp> parse_alu_op(std::string_view name) {
  name = strip_module(name);
  for (const auto& row : kInfo) {
    if (name == row.name) return row.op;
  }
  for (const auto& a : kAliases) {
    if (name == a.name) return a.op;
  }
  return std::nullopt;
}

float alu_scalar(AluOp op, float a, float b) {
  float r;
  dispatch_f32(op, Bcast<float>{a}, Bcast<float>{b}, &r, 1);
  return r;
}

void binary(AluOp op, const float* a, const float* b, float* out, size_t n) {
  dispatch_f32(op, Arr<float>{a}, Arr<float>{b}, out, n);
}

void binary_scalar_rhs(AluOp op, const float* a, float b, float* out, size_t n) {
  dispatch_f32(op, Arr<float>{a}, Bcast<float>{b}, out, n);
}

void binary_scalar_lhs(AluOp op, float a, const float* b, float* out, size_t n) {
  dispatch_f32(op, Bcast<float>{a}, Arr<float>{b}, out, n);
}

void binary_partition_scalar(AluOp op, const float* a, const float* scalars, float* out,
                             size_t partitions, size_t free_size, bool scalar_is_lhs) {
  for (size_t p = 0; p < partitions; ++p) {
    const float* row = a + p * free_size;
    float* dst = out + p * free_size;
    if (scalar_is_lhs) {
      dispatch_f32(op, Bcast<float>{scalars[p]}, Arr<float>{row}, dst, free_size);
    } else {
      dispatch_f32(op, Arr<float>{row}, Bcast<float>{scalars[p]}, dst, free_size);
    }
  }
}

bool alu_bits_supported(AluOp op) {
  switch (op) {
    case AluOp::Add: case AluOp::Subtract: case AluOp::Multiply:
    case AluOp::BitwiseAnd: case AluOp::BitwiseOr: case AluOp::BitwiseXor:
    case AluOp::LeftShift: case AluOp::RightShift: case AluOp::Bypass:
      return true;
    default:
      return false;
  }
}

uint32_t alu_bits_scalar(AluOp op, uint32_t a, uint32_t b) {
  uint32_t r;
  dispatch_bits(op, Bcast<uint32_t>{a}, Bcast<uint32_t>{b}, &r, 1);
  return r;
}

void binary_bits(AluOp op, const uint32_t* a, const uint32_t* b, uint32_t* out, size_t n) {
  dispatch_bits(op, Arr<uint32_t>{a}, Arr<uint32_t>{b}, out, n);
}

void binary_bits_scalar_rhs(AluOp op, const uint32_t* a, uint32_t b, uint32_t* out, size_t n) {
  dispatch_bits(op, Arr<uint32_t>{a}, Bcast<uint32_t>{b}, out, n);
}

void binary_bits_scalar_lhs(AluOp op, uint32_t a, const uint32_t* b, uint32_t* out, size_t n) {
  dispatch_bits(op, Bcast<uint32_t>{a}, Arr<uint32_t>{b}, out, n);
}

void invert_bits(const uint32_t* in, uint32_t* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = ~in[i];
}

}  // namespace nki
