// Element-wise functions: the activation table of shared/docs/nki-spec.md §2.11.2 (ScalarE
// `nisa.activation`) and the nl unary math ops of §2.9.3, computed in fp32 as the engines do
// (§7.3 "Activation": f(fp32(x) * scale + bias), functions evaluated with libm in double and
// rounded to fp32).
//
// Definitions: gelu = x*Phi(x) (erf form); gelu_dx = Phi(x) + x*phi(x); gelu_apprx_tanh =
// 0.5x(1 + tanh(sqrt(2/pi)(x + 0.044715x^3))); gelu_apprx_sigmoid = x*sigmoid(1.702x);
// silu = x*sigmoid(x); silu_dx = s(1 + x(1 - s)); softplus = ln(1 + e^x); mish =
// x*tanh(softplus(x)); erf_dx = 2/sqrt(pi)*e^(-x^2); sign in {-1, 0, +1} (NaN stays NaN);
// relu(NaN) = NaN; logical_not = (x == 0); invert = bitwise NOT of the int32 value.
//
// The enumerators are in the same order as ir::Act (src/ir/ir.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace nki {

enum class ActFunc : uint8_t {
  Copy, Exp, Log, Tanh, Sigmoid, Relu, Gelu, GeluDx, GeluApprxTanh, GeluApprxSigmoid, Silu,
  SiluDx, Softplus, Mish, Erf, ErfDx, Sign, Abs, Square, Sqrt, Rsqrt, Reciprocal, Sin, Cos, Tan,
  Arctan, Negative, Floor, Ceil, Trunc, LogicalNot, Invert,
};
inline constexpr int kNumActFuncs = 32;

struct ActFuncInfo {
  ActFunc func;
  const char* name;          // nl spelling: "exp", "gelu_apprx_tanh", "copy", ...
  bool in_activation_table;  // in the SDK 2.24 nisa.activation (ScalarE) table, §2.11.2
  // Documented valid input range on ScalarE (outputs are not valid outside it). When
  // `magnitude_range` is set the range applies to |x| (reciprocal: +-[2^-42, 2^42]).
  float valid_lo;
  float valid_hi;
  bool magnitude_range;
};

const ActFuncInfo& act_info(ActFunc f);
inline const char* act_func_name(ActFunc f) { return act_info(f).name; }
// Accepts nl / NumPy spellings with or without a module prefix ("nl.exp", "np.exp", "identity",
// "np.copy", "np.absolute", "np.negative", "bitwise_not", ...).
std::optional<ActFunc> parse_act_func(std::string_view name);

// True when x lies in f's documented valid input range (always true for unrestricted ones).
bool act_input_in_range(ActFunc f, float x);
// Number of inputs outside f's documented valid range (for an optional simulator warning).
size_t count_out_of_range(ActFunc f, const float* in, size_t n);

float act_scalar(ActFunc f, float x);
// out[i] = f(in[i]); in and out may be the same array.
void apply(ActFunc f, const float* in, float* out, size_t n);

// A per-partition operand of a [P, F] instruction: values[p] when `values` is set (a [P, 1]
// tile), else the same `scalar` for every partition.
struct PartitionScalar {
  const float* values = nullptr;
  float scalar = 0.0f;
  float at(size_t p) const { return values ? values[p] : scalar; }
};

// Fused activation over a row-major [partitions, free_size] array:
// out[p, f] = func(in[p, f] * scale[p] + bias[p]), the multiply and add each rounded to fp32.
// in and out may be the same array.
void activation(ActFunc func, const float* in, float* out, size_t partitions, size_t free_size,
                PartitionScalar scale, PartitionScalar bias);

}  // namespace nki
