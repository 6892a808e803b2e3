// Engine arithmetic for the executor: the fp32 paths delegate to the shared numerics library
// (machine/alu.h, machine/activation.h: nki_machine_math); the int64 path (exact integer /
// bitvec arithmetic with saturation on store) is local.
#include "machine/engine_math.h"

#include <cmath>
#include <limits>

#include "machine/activation.h"
#include "machine/alu.h"

namespace nki::machine {

// ir::Alu / ir::Act and AluOp / ActFunc list the operators in the same order.
static_assert(static_cast<int>(ir::Alu::Bypass) == static_cast<int>(AluOp::Bypass));
static_assert(static_cast<int>(ir::Alu::RightShift) == static_cast<int>(AluOp::RightShift));
static_assert(static_cast<int>(ir::Alu::LogicalXor) == static_cast<int>(AluOp::LogicalXor));
static_assert(static_cast<int>(ir::Act::Invert) == static_cast<int>(ActFunc::Invert));
static_assert(static_cast<int>(ir::Act::Arctan) == static_cast<int>(ActFunc::Arctan));
static_assert(static_cast<int>(ir::Act::Mish) == static_cast<int>(ActFunc::Mish));

inline AluOp to_alu(ir::Alu op) { return static_cast<AluOp>(op); }

}  // namespace nki::machine

namespace nki::machine {

namespace {

using A = ir::Alu;

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

float alu_scalar(ir::Alu op, float a, float b) { return nki::alu_scalar(to_alu(op), a, b); }

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

namespace {

// The four IEEE operators on the hot path, written so the compiler vectorises them: operands may
// only alias `out` element for element (never shifted), which `ivdep` asserts.
template <class F>
bool fast_binary(const float* a, bool as, const float* b, bool bs, float* out, size_t n, F f) {
  if (!as && !bs) {
#pragma GCC ivdep
    for (size_t i = 0; i < n; ++i) out[i] = f(a[i], b[i]);
  } else if (!as) {
    const float y = b[0];
#pragma GCC ivdep
    for (size_t i = 0; i < n; ++i) out[i] = f(a[i], y);
  } else if (!bs) {
    const float x = a[0];
#pragma GCC ivdep
    for (size_t i = 0; i < n; ++i) out[i] = f(x, b[i]);
  } else {
    return false;
  }
  return true;
}

}  // namespace

void alu_f32(ir::Alu op, const float* a, bool as, const float* b, bool bs, float* out,
             int64_t n) {
  const size_t un = static_cast<size_t>(n);
  const AluOp o = to_alu(op);
  switch (op) {  // same IEEE results as nki::binary, vectorised
    case ir::Alu::Add:
      if (fast_binary(a, as, b, bs, out, un, [](float x, float y) { return x + y; })) return;
      break;
    case ir::Alu::Subtract:
      if (fast_binary(a, as, b, bs, out, un, [](float x, float y) { return x - y; })) return;
      break;
    case ir::Alu::Multiply:
      if (fast_binary(a, as, b, bs, out, un, [](float x, float y) { return x * y; })) return;
      break;
    case ir::Alu::Divide:
      if (fast_binary(a, as, b, bs, out, un, [](float x, float y) { return x / y; })) return;
      break;
    default:
      break;
  }
  if (op == ir::Alu::Bypass) b = a, bs = as;
  if (!as && !bs) {
    binary(o, a, b, out, un);
  } else if (!as) {
    binary_scalar_rhs(o, a, b[0], out, un);
  } else if (!bs) {
    binary_scalar_lhs(o, a[0], b, out, un);
  } else {
    const float r = nki::alu_scalar(o, a[0], b[0]);
    for (size_t i = 0; i < un; ++i) out[i] = r;
  }
}

void alu_i64(ir::Alu op, const int64_t* a, bool as, const int64_t* b, bool bs, int64_t* out,
             int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    out[i] = alu_scalar_i64(op, a[as ? 0 : i], (op == A::Bypass) ? 0 : b[bs ? 0 : i]);
}

void act_f32(ir::Act f, const float* in, float* out, int64_t n) {
  apply(static_cast<ActFunc>(f), in, out, static_cast<size_t>(n));
}

}  // namespace nki::machine
