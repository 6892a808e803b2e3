#include "train/templates.h"

#include "train/kernel_text.h"

#include "train/fused_axis_templates.h"
#include "train/fused_scan_templates.h"
#include "train/fused_templates.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <sstream>

namespace nki::train {

namespace {

const char* kHeader =
    "import neuronxcc.nki as nki\n"
    "import neuronxcc.nki.language as nl\n\n\n";

std::string signature_line(const std::vector<std::string>& args) {
  std::string s = "@nki.jit\ndef kernel(";
  for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i];
  return s + "):\n";
}

// ---------------------------------------------------------------------------------------------
// Row kernels: every input viewed as [R, C] (rows = all leading axes, C = the last axis), one
// 128-row tile at a time (the last one masked when R % 128 != 0); `body` computes `y` from the
// float32 tiles x0, x1, ...; the output is viewed as [R, C] or [R, 1] (a row reduction).

struct RowSpec {
  std::vector<std::string> body;  // Python lines (no indentation) ending in `y = ...`
  bool reduce = false;            // output is one value per row
  std::vector<std::string> extra_setup;  // lines before the loop (e.g. a weight row load)
};

RowSpec body_of(std::vector<std::string> lines, bool reduce = false) {
  RowSpec r;
  r.body = std::move(lines);
  r.reduce = reduce;
  return r;
}

std::string row_kernel(const TaskSpec& t, const std::vector<std::string>& args, const RowSpec& rs, size_t n_inputs) {
  const TensorSpec& x = t.inputs[0];
  const TensorSpec& o = t.outputs[0];
  int64_t C = x.shape.back();
  int64_t R = product(x.shape) / C;
  bool ragged = R > 128 && R % 128 != 0;
  int64_t P = R < 128 ? R : 128;
  int64_t tiles = (R + P - 1) / P;
  int64_t oc = rs.reduce ? 1 : C;
  std::ostringstream s;
  s << kHeader << signature_line(args);
  s << "    out = nl.ndarray(" << tuple_text(o.shape) << ", dtype=" << nl_dtype(o.dtype) << ", buffer=nl.shared_hbm)\n";
  std::vector<std::string> views;
  for (size_t i = 0; i < n_inputs; ++i) {
    if (t.inputs[i].shape.size() == 2) {
      views.push_back(args[i]);
    } else {
      views.push_back(args[i] + "_2d");
      s << "    " << views.back() << " = " << args[i] << ".reshape((" << R << ", " << C << "))\n";
    }
  }
  std::string ov = "out";
  if (o.shape != std::vector<int64_t>{R, oc}) {
    ov = "out_2d";
    s << "    out_2d = out.reshape((" << R << ", " << oc << "))\n";
  }
  for (const std::string& l : rs.extra_setup) s << "    " << l << "\n";
  s << "    P = " << (R < 128 ? std::to_string(R) : "nl.tile_size.pmax") << "\n";
  std::string in_idx, out_idx, mask;
  if (ragged) {
    s << "    ip = nl.arange(P)[:, None]\n";
    s << "    jf = nl.arange(" << C << ")[None, :]\n";
    if (rs.reduce) s << "    jo = nl.arange(1)[None, :]\n";
    in_idx = "[rows, jf]";
    out_idx = rs.reduce ? "[rows, jo]" : "[rows, jf]";
    mask = ", mask=(rows < " + std::to_string(R) + ")";
  } else {
    in_idx = "[i * P:(i + 1) * P, :]";
    out_idx = in_idx;
  }
  s << "    for i in nl.affine_range(" << tiles << "):\n";
  if (ragged) s << "        rows = i * P + ip\n";
  for (size_t i = 0; i < n_inputs; ++i) {
    std::string xi = "x" + std::to_string(i);
    if (t.inputs[i].dtype == DType::Float32) {
      s << "        " << xi << " = nl.load(" << views[i] << in_idx << mask << ")\n";
    } else {
      s << "        t" << i << " = nl.load(" << views[i] << in_idx << mask << ")\n";
      s << "        " << xi << " = nl.copy(t" << i << ", dtype=nl.float32)\n";
    }
  }
  for (const std::string& l : rs.body) s << "        " << l << "\n";
  s << "        nl.store(" << ov << out_idx << ", value=y" << mask << ")\n";
  s << "    return out\n";
  return s.str();
}

// Unary element-wise families: candidate bodies over x0 (several when a constant is a guess).
const std::map<std::string, std::vector<std::string>>& unary_bodies() {
  static const std::map<std::string, std::vector<std::string>> m = {
      {"relu", {"y = nl.relu(x0)"}},
      {"exp", {"y = nl.exp(x0)"}},
      {"log", {"y = nl.log(x0)"}},
      {"tanh", {"y = nl.tanh(x0)"}},
      {"sigmoid", {"y = nl.sigmoid(x0)"}},
      {"rsqrt", {"y = nl.rsqrt(x0)"}},
      {"sqrt", {"y = nl.sqrt(x0)"}},
      {"abs", {"y = nl.abs(x0)"}},
      {"neg", {"y = nl.negative(x0)"}},
      {"square", {"y = nl.square(x0)"}},
      {"gelu", {"y = nl.gelu(x0)", "y = nl.gelu_apprx_tanh(x0)"}},
      {"gelu_tanh", {"y = nl.gelu_apprx_tanh(x0)"}},
      {"silu", {"y = nl.silu(x0)"}},
      {"swish", {"y = nl.silu(x0)"}},
      {"mish", {"y = nl.mish(x0)"}},
      {"softplus", {"y = nl.softplus(x0)"}},
      {"relu6", {"y = nl.minimum(nl.relu(x0), 6.0)"}},
      {"hardtanh", {"y = nl.minimum(nl.maximum(x0, -1.0), 1.0)"}},
      {"hardsigmoid", {"y = nl.minimum(nl.maximum(x0 * (1.0 / 6.0) + 0.5, 0.0), 1.0)"}},
      {"hardswish", {"y = x0 * nl.minimum(nl.maximum(x0 + 3.0, 0.0), 6.0) * (1.0 / 6.0)"}},
      {"softsign", {"y = x0 / (nl.abs(x0) + 1.0)"}},
      {"tanhshrink", {"y = x0 - nl.tanh(x0)"}},
      {"logsigmoid", {"y = nl.log(nl.sigmoid(x0))"}},
      {"leaky_relu", {"y = nl.maximum(x0, x0 * 0.01)", "y = nl.maximum(x0, x0 * 0.1)", "y = nl.maximum(x0, x0 * 0.2)"}},
      {"elu", {"y = nl.maximum(x0, 0.0) + nl.minimum(nl.exp(x0) - 1.0, 0.0)"}},
  };
  return m;
}

const std::map<std::string, std::string>& binary_bodies() {
  static const std::map<std::string, std::string> m = {
      {"add", "y = x0 + x1"},          {"sub", "y = x0 - x1"},          {"subtract", "y = x0 - x1"},
      {"mul", "y = x0 * x1"},          {"multiply", "y = x0 * x1"},     {"div", "y = x0 / x1"},
      {"maximum", "y = nl.maximum(x0, x1)"}, {"minimum", "y = nl.minimum(x0, x1)"},
  };
  return m;
}

// Row reductions over the last axis (output: one value per row).
// (By value: template_candidates runs on several threads at once.)
std::map<std::string, std::vector<std::string>> reduce_bodies(int64_t C) {
  std::map<std::string, std::vector<std::string>> m;
  std::string inv_c = "(1.0 / " + std::to_string(C) + ")";
  std::string inv_c1 = "(1.0 / " + std::to_string(C > 1 ? C - 1 : 1) + ")";
  m = {
      {"sum_lastdim", {"y = nl.sum(x0, axis=1, keepdims=True)"}},
      {"max_lastdim", {"y = nl.max(x0, axis=1, keepdims=True)"}},
      {"min_lastdim", {"y = nl.min(x0, axis=1, keepdims=True)"}},
      {"mean_lastdim", {"y = nl.sum(x0, axis=1, keepdims=True) * " + inv_c}},
      {"l2norm_lastdim", {"y = nl.sqrt(nl.sum(x0 * x0, axis=1, keepdims=True))"}},
      {"var_lastdim",
       {"mean = nl.sum(x0, axis=1, keepdims=True) * " + inv_c, "d = x0 - mean",
        "y = nl.sum(d * d, axis=1, keepdims=True) * " + inv_c1}},
      {"logsumexp",
       {"m = nl.max(x0, axis=1, keepdims=True)", "s = nl.sum(nl.exp(x0 - m), axis=1, keepdims=True)",
        "y = nl.log(s) + m"}},
  };
  return m;
}

// Same-shape row transforms (softmax variants, normalisations without parameters).
std::map<std::string, std::vector<std::string>> normalize_bodies(int64_t C) {
  std::string inv_c = "(1.0 / " + std::to_string(C) + ")";
  return {
      {"softmax",
       {"m = nl.max(x0, axis=1, keepdims=True)", "e = nl.exp(x0 - m)", "s = nl.sum(e, axis=1, keepdims=True)",
        "y = e / s"}},
      {"log_softmax",
       {"m = nl.max(x0, axis=1, keepdims=True)", "d = x0 - m", "s = nl.sum(nl.exp(d), axis=1, keepdims=True)",
        "y = d - nl.log(s)"}},
      {"softmin",
       {"m = nl.min(x0, axis=1, keepdims=True)", "e = nl.exp(m - x0)", "s = nl.sum(e, axis=1, keepdims=True)",
        "y = e / s"}},
      {"l2_normalize",
       {"n = nl.sqrt(nl.sum(x0 * x0, axis=1, keepdims=True))", "y = x0 / nl.maximum(n, 1e-12)"}},
      {"l1_normalize", {"n = nl.sum(nl.abs(x0), axis=1, keepdims=True)", "y = x0 / nl.maximum(n, 1e-12)"}},
      {"max_subtract", {"y = x0 - nl.max(x0, axis=1, keepdims=True)"}},
      {"layernorm_noaffine",
       {"mean = nl.sum(x0, axis=1, keepdims=True) * " + inv_c, "d = x0 - mean",
        "var = nl.sum(d * d, axis=1, keepdims=True) * " + inv_c, "y = d * nl.rsqrt(var + 1e-05)"}},
  };
}

std::string plan_for(const std::string& kind, const TaskSpec& t) {
  const TensorSpec& x = t.inputs[0];
  int64_t C = x.shape.back();
  int64_t R = product(x.shape) / C;
  std::string rows = "The input is viewed as [" + std::to_string(R) + ", " + std::to_string(C) +
                     "] (rows on partitions) and processed in tiles of up to 128 rows";
  if (R > 128 && R % 128) rows += ", masking the ragged last tile";
  return rows + "; " + kind + " is computed in float32 and stored to the output.";
}

bool all_same_shape(const TaskSpec& t, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (t.inputs[i].shape != t.outputs[0].shape || !is_float(t.inputs[i].dtype)) return false;
  return true;
}

bool row_shape_ok(const TaskSpec& t) {
  if (t.inputs.empty() || t.outputs.size() != 1) return false;
  const TensorSpec& x = t.inputs[0];
  if (x.shape.size() < 2 || !is_float(x.dtype) || !is_float(t.outputs[0].dtype)) return false;
  return x.shape.back() <= 8192;  // a whole row per partition fits SBUF comfortably
}

void add_row_templates(const TaskSpec& t, const std::vector<std::string>& args, std::vector<TemplateKernel>& out) {
  if (!row_shape_ok(t)) return;
  const TensorSpec& x = t.inputs[0];
  int64_t C = x.shape.back();
  int64_t R = product(x.shape) / C;
  const std::string& f = t.family;
  size_t n_in = t.inputs.size();
  bool no_params = t.parameters.empty() && t.buffers.empty();
  if (no_params && n_in == 1 && all_same_shape(t, 1)) {
    auto u = unary_bodies().find(f);
    if (u != unary_bodies().end())
      for (const std::string& b : u->second) out.push_back({"unary:" + f, plan_for(f, t), row_kernel(t, args, body_of({b}), 1)});
    auto nb = normalize_bodies(C);
    auto n = nb.find(f);
    if (n != nb.end()) out.push_back({"row_norm:" + f, plan_for(f, t), row_kernel(t, args, body_of(n->second), 1)});
  }
  if (no_params && n_in == 2 && all_same_shape(t, 2)) {
    auto b = binary_bodies().find(f);
    if (b != binary_bodies().end()) out.push_back({"binary:" + f, plan_for(f, t), row_kernel(t, args, body_of({b->second}), 2)});
  }
  if (no_params && n_in == 1 && product(t.outputs[0].shape) == R) {
    const auto rb = reduce_bodies(C);
    auto r = rb.find(f);
    if (r != rb.end()) {
      RowSpec rs = body_of(r->second, true);
      out.push_back({"row_reduce:" + f, plan_for(f, t), row_kernel(t, args, rs, 1)});
    }
  }
  // RMSNorm with a weight of the row length: x * rsqrt(mean(x^2) + eps) * w.
  if (f == "rmsnorm" && n_in == 1 && t.parameters.size() == 1 && t.parameters[0].shape == std::vector<int64_t>{C} &&
      t.outputs[0].shape == x.shape) {
    std::vector<std::string> eps = {"1e-06", "1e-05", "1e-08"};
    for (const std::string& e : eps) {
      RowSpec rs;
      rs.extra_setup = {"w_row = nl.load(" + args[1] + ".reshape((1, " + std::to_string(C) + ")))",
                        "w32 = nl.copy(w_row, dtype=nl.float32)"};
      std::string p = R < 128 ? std::to_string(R) : "128";
      rs.body = {"ms = nl.sum(x0 * x0, axis=1, keepdims=True) * (1.0 / " + std::to_string(C) + ")",
                 "y = x0 * nl.rsqrt(ms + " + e + ") * w32.broadcast_to((" + p + ", " + std::to_string(C) + "))"};
      out.push_back({"row_norm:rmsnorm", plan_for("rmsnorm", t), row_kernel(t, args, rs, 1)});
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Matrix multiplication: out[M, N] = a[M, K] @ b[K, N] (family matmul), or x[M, K] @ W[N, K]^T
// + bias[N] with an activation (nn.Linear families). PSUM accumulation over K tiles of <= 128;
// A (and W) arrive transposed through nl.load_transpose2d. Tiles divide the extents exactly.

std::string matmul_kernel(const TaskSpec& t, const std::vector<std::string>& args, bool linear,
                          const std::string& act) {
  int64_t M = t.inputs[0].shape[0], K = t.inputs[0].shape[1];
  int64_t N = t.outputs[0].shape[1];
  int64_t MT = divisor_at_most(M, 128), KT = divisor_at_most(K, 128), NT = divisor_at_most(N, linear ? 128 : 512);
  std::ostringstream s;
  s << kHeader << signature_line(args);
  s << "    out = nl.ndarray(" << tuple_text(t.outputs[0].shape) << ", dtype=" << nl_dtype(t.outputs[0].dtype)
    << ", buffer=nl.shared_hbm)\n";
  s << "    for m in nl.affine_range(" << M / MT << "):\n";
  s << "        for n in nl.affine_range(" << N / NT << "):\n";
  s << "            acc = nl.zeros((" << MT << ", " << NT << "), dtype=nl.float32, buffer=nl.psum)\n";
  s << "            for k in nl.affine_range(" << K / KT << "):\n";
  std::string mrow = "m * " + std::to_string(MT) + ":(m + 1) * " + std::to_string(MT);
  std::string nrow = "n * " + std::to_string(NT) + ":(n + 1) * " + std::to_string(NT);
  std::string krow = "k * " + std::to_string(KT) + ":(k + 1) * " + std::to_string(KT);
  s << "                lhs_t = nl.load_transpose2d(" << args[0] << "[" << mrow << ", " << krow << "])\n";
  if (linear)
    s << "                rhs = nl.load_transpose2d(" << args[1] << "[" << nrow << ", " << krow << "])\n";
  else
    s << "                rhs = nl.load(" << args[1] << "[" << krow << ", " << nrow << "])\n";
  s << "                acc += nl.matmul(lhs_t, rhs, transpose_x=True)\n";
  s << "            y = nl.copy(acc, dtype=nl.float32)\n";
  if (linear && args.size() >= 3) {
    s << "            b_row = nl.load(" << args[2] << ".reshape((1, " << N << "))[0:1, " << nrow << "])\n";
    s << "            y = nl.add(y, b_row.broadcast_to((" << MT << ", " << NT << ")))\n";
  }
  if (!act.empty()) s << "            y = " << act << "\n";
  s << "            nl.store(out[" << mrow << ", " << nrow << "], value=y)\n";
  s << "    return out\n";
  return s.str();
}

void add_matmul_templates(const TaskSpec& t, const std::vector<std::string>& args, std::vector<TemplateKernel>& out) {
  if (t.outputs.size() != 1 || t.outputs[0].shape.size() != 2 || t.inputs.empty()) return;
  const TensorSpec& a = t.inputs[0];
  if (a.shape.size() != 2 || !is_float(a.dtype)) return;
  int64_t M = a.shape[0], K = a.shape[1], N = t.outputs[0].shape[1];
  if (t.outputs[0].shape[0] != M) return;
  const std::string& f = t.family;
  std::string plan = "out = " + std::string(f == "matmul" ? "a @ b" : "x @ W.T + b") + ": tiles of " +
                     std::to_string(divisor_at_most(M, 128)) + " rows, contraction over K in chunks of " +
                     std::to_string(divisor_at_most(K, 128)) +
                     " accumulated in a float32 PSUM tile, the left operand loaded transposed.";
  if (f == "matmul" && t.inputs.size() == 2 && t.parameters.empty() && t.inputs[1].shape == std::vector<int64_t>{K, N}) {
    out.push_back({"gemm:plain", plan, matmul_kernel(t, args, false, "")});
    return;
  }
  // nn.Linear-based families: one input, parameters weight [N, K] and bias [N].
  bool linear = t.inputs.size() == 1 && t.parameters.size() == 2 && t.parameters[0].shape == std::vector<int64_t>{N, K} &&
                t.parameters[1].shape == std::vector<int64_t>{N} && t.buffers.empty();
  if (!linear) return;
  std::vector<std::pair<std::string, std::string>> acts;
  auto has = [&](const char* w) { return f.find(w) != std::string::npos; };
  if (f == "linear") acts = {{"none", ""}};
  else if (has("bias_relu") || f == "linear_relu") acts = {{"relu", "nl.relu(y)"}};
  else if (has("bias_gelu")) acts = {{"gelu", "nl.gelu(y)"}, {"gelu_tanh", "nl.gelu_apprx_tanh(y)"}};
  else if (has("bias_silu") || has("bias_swish")) acts = {{"silu", "nl.silu(y)"}};
  else if (f == "gemm_bias_act")
    acts = {{"relu", "nl.relu(y)"}, {"gelu", "nl.gelu(y)"}, {"silu", "nl.silu(y)"}, {"sigmoid", "nl.sigmoid(y)"},
            {"tanh", "nl.tanh(y)"}, {"gelu_tanh", "nl.gelu_apprx_tanh(y)"}};
  for (const auto& [name, expr] : acts)
    out.push_back({"gemm:bias+" + name, plan + (expr.empty() ? "" : " The bias is added and " + name + " applied before the store."),
                   matmul_kernel(t, args, true, expr)});
}

// ---------------------------------------------------------------------------------------------
// Transposes: out[C, R] = x[R, C]^T (and per batch for [B, R, C] -> [B, C, R]).

void add_transpose_templates(const TaskSpec& t, const std::vector<std::string>& args, std::vector<TemplateKernel>& out) {
  if (t.inputs.size() != 1 || t.outputs.size() != 1 || !t.parameters.empty()) return;
  const auto& xs = t.inputs[0].shape;
  const auto& os = t.outputs[0].shape;
  bool two = xs.size() == 2 && os == std::vector<int64_t>{xs[1], xs[0]};
  bool three = xs.size() == 3 && os == std::vector<int64_t>{xs[0], xs[2], xs[1]};
  if (!(two || three) || !(t.family == "transpose2d" || t.family == "transpose" || t.family == "permute021")) return;
  int64_t R = xs[xs.size() - 2], C = xs.back();
  int64_t RT = divisor_at_most(R, 128), CT = divisor_at_most(C, 128);
  std::ostringstream s;
  s << kHeader << signature_line(args);
  s << "    out = nl.ndarray(" << tuple_text(os) << ", dtype=" << nl_dtype(t.outputs[0].dtype) << ", buffer=nl.shared_hbm)\n";
  std::string ind = "    ", bi;
  if (three) {
    s << "    for b in nl.affine_range(" << xs[0] << "):\n";
    ind = "        ";
    bi = "b, ";
  }
  s << ind << "for r in nl.affine_range(" << R / RT << "):\n";
  s << ind << "    for c in nl.affine_range(" << C / CT << "):\n";
  std::string rr = "r * " + std::to_string(RT) + ":(r + 1) * " + std::to_string(RT);
  std::string cc = "c * " + std::to_string(CT) + ":(c + 1) * " + std::to_string(CT);
  s << ind << "        t = nl.load_transpose2d(" << args[0] << "[" << bi << rr << ", " << cc << "])\n";
  s << ind << "        nl.store(out[" << bi << cc << ", " << rr << "], value=t)\n";
  s << "    return out\n";
  out.push_back({"layout:transpose", "Each [" + std::to_string(RT) + ", " + std::to_string(CT) +
                                         "] block is loaded transposed (nl.load_transpose2d) and stored at the mirrored position.",
                 s.str()});
}

}  // namespace

std::vector<TemplateKernel> template_candidates(const TaskSpec& task, const std::vector<std::string>& arg_names) {
  std::vector<TemplateKernel> out;
  if (arg_names.size() != task.kernel_args().size()) return out;
  add_row_templates(task, arg_names, out);
  add_matmul_templates(task, arg_names, out);
  add_transpose_templates(task, arg_names, out);
  // Synthesised tasks (seed + fused lines): written from reference.py's forward() itself.
  if (out.empty()) add_fused_row_templates(task, arg_names, out);
  if (out.empty()) add_fused_linear_templates(task, arg_names, out);
  if (out.empty()) add_fused_scan_templates(task, arg_names, out);
  // The purpose-built axis / product / block kernels first, the general split translation as the
  // fallback candidate when they have none or theirs does not verify.
  if (out.empty()) {
    add_fused_axis_templates(task, arg_names, out);
    add_linear_chain_templates(task, arg_names, out);
  }
  return out;
}

std::string template_coverage_text() {
  std::string s = "unary element-wise:";
  for (const auto& [k, v] : unary_bodies()) s += " " + k;
  s += "\nbinary element-wise:";
  for (const auto& [k, v] : binary_bodies()) s += " " + k;
  s += "\nrow reductions (last axis):";
  for (const auto& [k, v] : reduce_bodies(2)) s += " " + k;
  s += "\nrow transforms:";
  for (const auto& [k, v] : normalize_bodies(2)) s += " " + k;
  s += " rmsnorm\nmatmul: matmul, linear, gemm_bias_act, *bias_relu*, *bias_gelu*, *bias_silu*\n"
       "layout: transpose2d, transpose, permute021\n"
       "synthesised (any family): forward() lines of element-wise maps, row norms / softmax / reductions,\n"
       "  nn.LayerNorm, BatchNorm1d (eval), PReLU, one nn.Linear (optionally after RMSNorm) with fused epilogues\n"
       "synthesised, split translation: nested lines cut into one statement per operation; chains of\n"
       "  nn.Linear calls and products with input matrices (a @ b, b.T, torch.matmul, multi_dot, batched)\n"
       "synthesised, across rows (fused_axis): sum/mean/amax/amin/prod/var/std/logsumexp/vector_norm/argmax/argmin,\n"
       "  softmax/log_softmax and RMS over a non-last axis; max/avg/lp pooling (1-D any stride and padding, 2-D\n"
       "  without H padding, adaptive on divisible extents, global); matvec, vecmat, outer, diag @ b; a @ b,\n"
       "  a.T / b.T, bmm, addmm, multi_dot of three; unmasked softmax(scores) @ v attention; dense MoE combine;\n"
       "  squeeze-excitation; attention pooling; two-layer and gated MLPs (alone, row-scaled, post-LN);\n"
       "  gated halves of the last axis (x.chunk(2, dim=-1), F.glu);\n"
       "  each with the row table's prologue and epilogue lines\n"
       "synthesised, scans and masks (fused_scan, fused_mask, fused_tuple): last-axis scans (cumsum and its exclusive /\n"
       "  reverse / masked / scaled / running-mean forms, cumprod, cummax, cummin, logcumsumexp), triangular masks of\n"
       "  the last two axes (tril, triu, masked_fill of a triu / tril / band mask, causal softmax and log_softmax),\n"
       "  torch.renorm of 2-D rows, F.instance_norm of [B, C, L]; tuple-returning row seeds: layernorm_stats,\n"
       "  fused_add_rmsnorm, aminmax_last; recurrences: mingru_scan_block, selective_scan, ema_scan (then any\n"
       "  epilogue of the table)\n";
  return s;
}

}  // namespace nki::train
