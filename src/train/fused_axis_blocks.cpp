// fused_axis forms of whole nn.Module blocks: dense mixture of experts, squeeze-and-excitation,
// attention pooling and two-layer MLPs.
#include "train/fused_axis_common.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <regex>
#include <sstream>

namespace nki::train::axis {

// ---------------------------------------------------------------------------------------------
// Dense mixture of experts (g = softmax(x @ Wg.T), y[r, o] = sum_e g[r, e] * (x @ E_e.T)[r, o]):
// the gate and every expert share the stationary x^T [T, P], so each row tile takes two
// matmuls, the gate logits [P, E] and all experts at once [P, E * O] against the experts
// loaded transposed side by side once before the loop; the mixture is E column-scaled adds.
void add_moe_kernel(const TaskSpec& t, const std::vector<std::string>& args, std::vector<TemplateKernel>& out) {
  std::optional<Reference> ref = lines::read_reference(t.dir);
  if (!ref || ref->args.size() != 1 || t.inputs.size() != 1 || ref->lines.size() < 3) return;
  if (clashes(args, {"e", "g", "h"})) return;
  static const std::regex gate_line(R"(^g = torch\.softmax\(self\.(\w+)\((\w+)\), dim=-1\)$)");
  static const std::regex mix_line(R"(^h = torch\.einsum\('rt,eot->reo', (\w+), self\.(\w+)\)$)");
  std::smatch gm, mm;
  const std::string& x = ref->args[0];
  if (!std::regex_match(ref->lines[0], gm, gate_line) || !std::regex_match(ref->lines[1], mm, mix_line) ||
      ref->lines[2] != "y = torch.einsum('re,reo->ro', g, h)" || gm[2].str() != x || mm[1].str() != x)
    return;
  auto mod = ref->modules.find(gm[1].str());
  if (mod == ref->modules.end() || mod->second.type != "Linear" || mod->second.bias) return;
  for (const auto& [name, m] : ref->modules)
    if (name != gm[1].str()) return;  // the gate is the only module
  std::vector<TensorSpec> all = t.kernel_args();
  int gi = -1, ei = -1;
  for (size_t i = 1; i < all.size(); ++i) {
    if (all[i].name == gm[1].str() + ".weight") gi = static_cast<int>(i);
    else if (all[i].name == mm[2].str()) ei = static_cast<int>(i);
  }
  const TensorSpec& X = t.inputs[0];
  const TensorSpec& o = t.outputs[0];
  if (gi < 0 || ei < 0 || X.shape.size() != 2 || all[ei].shape.size() != 3 || all[gi].shape.size() != 2) return;
  int64_t R = X.shape[0], T = X.shape[1], E = all[ei].shape[0], O = all[ei].shape[1];
  if (all[ei].shape[2] != T || all[gi].shape != std::vector<int64_t>{E, T} || o.shape != std::vector<int64_t>{R, O}) return;
  if (T > 128 || O > 128 || E * O > 512 || E < 1) return;
  if (!is_float(X.dtype) || all[ei].dtype != X.dtype || all[gi].dtype != X.dtype || !is_float(o.dtype)) return;
  std::optional<int64_t> P = tile_rows(R);
  if (!P) return;
  Split sp{*ref, 2, ref->lines[2].substr(4)};
  std::map<std::string, Operand> eops = epilogue_ops(t, args, 1, O, true);
  eops.erase(all[gi].name);
  eops.erase(all[ei].name);
  std::optional<Lines> epi = epilogue_of(sp, eops, O, false);
  if (!epi) return;
  std::ostringstream s;
  s << kHeader << signature(args);
  s << "    out = nl.ndarray(" << tuple_text(o.shape) << ", dtype=" << nl_dtype(o.dtype) << ", buffer=nl.shared_hbm)\n";
  std::map<std::string, std::string> ev = epilogue_views(s, *epi, {R, O});
  lines::emit_broadcast_loads(s, epi->ops, epi->tl.used, *P, O, "    ");
  s << "    wg_t = nl.load_transpose2d(" << args[gi] << ")\n";
  s << "    ex_t = nl.ndarray((" << T << ", " << E * O << "), dtype=" << nl_dtype(X.dtype) << ", buffer=nl.sbuf)\n";
  s << "    for e in nl.affine_range(" << E << "):\n";
  s << "        ex_t[:, e * " << O << ":(e + 1) * " << O << "] = nl.load_transpose2d(" << args[ei] << "[e])\n";
  s << "    for i in nl.affine_range(" << R / *P << "):\n";
  std::string ind = "        ", idx = "[" + span("i", *P) + ", :]";
  s << ind << "x_t = nl.load_transpose2d(" << args[0] << idx << ")\n";
  s << ind << "lg_ps = nl.zeros((" << *P << ", " << E << "), dtype=nl.float32, buffer=nl.psum)\n";
  s << ind << "lg_ps += nl.matmul(x_t, wg_t, transpose_x=True)\n";
  s << ind << "lg = nl.copy(lg_ps, dtype=nl.float32)\n";
  s << ind << "ge = nl.exp(lg - nl.max(lg, axis=1, keepdims=True))\n";
  s << ind << "g = ge / nl.sum(ge, axis=1, keepdims=True)\n";
  s << ind << "h_ps = nl.zeros((" << *P << ", " << E * O << "), dtype=nl.float32, buffer=nl.psum)\n";
  s << ind << "h_ps += nl.matmul(x_t, ex_t, transpose_x=True)\n";
  s << ind << "h = nl.copy(h_ps, dtype=nl.float32)\n";
  s << ind << "v = h[:, 0:" << O << "] * g[:, 0:1]\n";
  for (int64_t e = 1; e < E; ++e)
    s << ind << "v = v + h[:, " << e * O << ":" << (e + 1) * O << "] * g[:, " << e << ":" << e + 1 << "]\n";
  emit_epilogue_and_store(s, *epi, ev, "out", idx, ind);
  s << "    return out\n";
  std::string layout = "x in tiles of " + num(*P) + " rows, loaded transposed ([" + num(T) +
                       ", P], the stationary operand of both matmuls): gate logits [P, " + num(E) + "] and the " + num(E) +
                       " experts at once [P, " + num(E * O) + "] against the experts loaded transposed once";
  Lines none;
  out.push_back({"fused_axis:moe", plan_of(layout, none, "softmax gate, experts, weighted sum", *epi), s.str()});
}

// ---------------------------------------------------------------------------------------------
// Squeeze-and-excitation, x * sigmoid(fc2(relu(fc1(x.mean(dim=(2, 3))))))[:, :, None, None]:
// per image, channels on partitions and H * W on the free axis, the spatial mean is a free-axis
// sum and both projections stay columns: h = W1 @ pooled and s = W2 @ h come out of TensorE as
// [T, 1] and [C, 1] with the weights loaded transposed as the stationary operands, so the gate
// scales the image tile along its free axis.
void add_squeeze_excitation_kernel(const TaskSpec& t, const std::vector<std::string>& args, std::vector<TemplateKernel>& out) {
  std::optional<Reference> ref = lines::read_reference(t.dir);
  if (!ref || ref->args.empty() || ref->args.size() != t.inputs.size() || ref->lines.empty()) return;
  if (clashes(args, {"bb"})) return;
  const std::string& x = ref->args[0];
  static const std::regex se_line(
      R"(^y = (\w+) \* torch\.sigmoid\(self\.(\w+)\(torch\.relu\(self\.(\w+)\((\w+)\.mean\(dim=\(2, 3\)\)\)\)\)\)\[:, :, None, None\]$)");
  std::smatch m;
  if (!std::regex_match(ref->lines[0], m, se_line) || m[1].str() != x || m[4].str() != x) return;
  std::string f2 = m[2].str(), f1 = m[3].str();
  if (ref->modules.size() != 2 || !ref->modules.count(f1) || !ref->modules.count(f2) || ref->modules.at(f1).type != "Linear" ||
      ref->modules.at(f2).type != "Linear")
    return;
  const TensorSpec& X = t.inputs[0];
  const TensorSpec& o = t.outputs[0];
  if (X.shape.size() != 4 || o.shape != X.shape || !is_float(X.dtype) || !is_float(o.dtype)) return;
  int64_t B = X.shape[0], C = X.shape[1], HW = X.shape[2] * X.shape[3];
  std::vector<TensorSpec> all = t.kernel_args();
  int w1 = -1, b1 = -1, w2 = -1, b2 = -1;
  for (size_t i = 0; i < all.size(); ++i) {
    if (all[i].name == f1 + ".weight") w1 = static_cast<int>(i);
    if (all[i].name == f1 + ".bias") b1 = static_cast<int>(i);
    if (all[i].name == f2 + ".weight") w2 = static_cast<int>(i);
    if (all[i].name == f2 + ".bias") b2 = static_cast<int>(i);
  }
  if (w1 < 0 || w2 < 0 || all[w1].shape.size() != 2 || all[w1].shape[1] != C) return;
  int64_t T = all[w1].shape[0];
  if (all[w2].shape != std::vector<int64_t>{C, T} || C > 128 || T > 128 || HW > 8192) return;
  if (ref->modules.at(f1).bias != (b1 >= 0) || ref->modules.at(f2).bias != (b2 >= 0)) return;
  for (int i : {w1, w2, b1, b2})
    if (i >= 0 && !is_float(all[i].dtype)) return;
  Split sp{*ref, 0, ""};
  std::map<std::string, Operand> eops = epilogue_ops(t, args, 1, HW, false);
  for (int i : {w1, w2, b1, b2})
    if (i >= 0) eops.erase(all[i].name);
  std::optional<Lines> epi = epilogue_of(sp, eops, HW, true);
  if (!epi) return;
  std::ostringstream s;
  s << kHeader << signature(args);
  s << "    out = nl.ndarray(" << tuple_text(o.shape) << ", dtype=" << nl_dtype(o.dtype) << ", buffer=nl.shared_hbm)\n";
  std::vector<int64_t> v3 = {B, C, HW};
  std::string xv = view_of(s, args[0], X.shape, v3);
  std::string ov = view_of(s, "out", o.shape, v3);
  std::map<std::string, std::string> ev = epilogue_views(s, *epi, v3);
  lines::emit_broadcast_loads(s, epi->ops, epi->tl.used, C, HW, "    ");
  s << "    w1_h = nl.load_transpose2d(" << args[w1] << ")\n";
  s << "    w1_t = nl.copy(w1_h, dtype=nl.float32)\n";
  s << "    w2_h = nl.load_transpose2d(" << args[w2] << ")\n";
  s << "    w2_t = nl.copy(w2_h, dtype=nl.float32)\n";
  if (b1 >= 0) emit_load(s, "b1_col", all[b1].dtype, args[b1] + ".reshape((" + num(T) + ", 1))", "    ");
  if (b2 >= 0) emit_load(s, "b2_col", all[b2].dtype, args[b2] + ".reshape((" + num(C) + ", 1))", "    ");
  s << "    for bb in nl.affine_range(" << B << "):\n";
  std::string ind = "        ", X32 = "px_" + args[0];
  emit_load(s, X32, X.dtype, xv + "[bb, :, :]", ind);
  s << ind << "pooled = nl.sum(" << X32 << ", axis=1, keepdims=True) * (1.0 / " << HW << ")\n";
  s << ind << "h_ps = nl.zeros((" << T << ", 1), dtype=nl.float32, buffer=nl.psum)\n";
  s << ind << "h_ps += nl.matmul(w1_t, pooled, transpose_x=True)\n";
  s << ind << "h1 = nl.relu(nl.copy(h_ps, dtype=nl.float32)" << (b1 >= 0 ? " + b1_col" : "") << ")\n";
  s << ind << "s_ps = nl.zeros((" << C << ", 1), dtype=nl.float32, buffer=nl.psum)\n";
  s << ind << "s_ps += nl.matmul(w2_t, h1, transpose_x=True)\n";
  s << ind << "gate = nl.sigmoid(nl.copy(s_ps, dtype=nl.float32)" << (b2 >= 0 ? " + b2_col" : "") << ")\n";
  s << ind << "v = " << X32 << " * gate\n";
  emit_epilogue_and_store(s, *epi, ev, ov, "[bb, :, :]", ind);
  s << "    return out\n";
  std::string layout = "per image, x viewed as [" + num(C) + ", " + num(HW) +
                       "] (channels on partitions): the spatial mean is a free-axis sum, both projections are TensorE "
                       "products that keep the [" + num(T) + ", 1] and [" + num(C) + ", 1] columns, and the sigmoid gate scales the tile";
  Lines none;
  out.push_back({"fused_axis:squeeze_excitation", plan_of(layout, none, "squeeze-excitation gate", *epi), s.str()});
}

// ---------------------------------------------------------------------------------------------
// Attention pooling, a = softmax_S(w(tanh(V(h)))) and y = (a * h).sum(1), per batch row: the
// scores come out of TensorE as one row [1, S] (u^T = V @ h_b^T with the [D, S] transposed
// load streaming, then w @ u^T), so the softmax over the sequence is a free-axis one; the
// weighted sum a^T @ h_b takes a back onto partitions (nl.transpose) in chunks of <= 128
// positions, each contracted with its [SC, D] rows of h_b into one [1, D] PSUM row.
void add_attention_pool_kernel(const TaskSpec& t, const std::vector<std::string>& args, std::vector<TemplateKernel>& out) {
  std::optional<Reference> ref = lines::read_reference(t.dir);
  if (!ref || ref->args.size() != 1 || t.inputs.size() != 1 || ref->lines.size() < 2) return;
  if (clashes(args, {"bb", "j", "k"})) return;
  static const std::regex score_line(R"(^a = torch\.softmax\(self\.(\w+)\(torch\.tanh\(self\.(\w+)\((\w+)\)\)\), dim=1\)$)");
  std::smatch m;
  const std::string& h = ref->args[0];
  if (!std::regex_match(ref->lines[0], m, score_line) || m[3].str() != h || ref->lines[1] != "y = (a * " + h + ").sum(1)") return;
  std::string wn = m[1].str(), vn = m[2].str();
  if (ref->modules.size() != 2 || !ref->modules.count(wn) || !ref->modules.count(vn) || ref->modules.at(wn).type != "Linear" ||
      ref->modules.at(vn).type != "Linear" || ref->modules.at(wn).bias)
    return;
  const TensorSpec& H = t.inputs[0];
  const TensorSpec& o = t.outputs[0];
  if (H.shape.size() != 3 || !is_float(H.dtype) || !is_float(o.dtype)) return;
  int64_t B = H.shape[0], S = H.shape[1], D = H.shape[2];
  std::vector<TensorSpec> all = t.kernel_args();
  int vw = -1, vb = -1, ww = -1;
  for (size_t i = 0; i < all.size(); ++i) {
    if (all[i].name == vn + ".weight") vw = static_cast<int>(i);
    if (all[i].name == vn + ".bias") vb = static_cast<int>(i);
    if (all[i].name == wn + ".weight") ww = static_cast<int>(i);
  }
  if (vw < 0 || ww < 0 || all[vw].shape.size() != 2 || all[vw].shape[1] != D) return;
  int64_t T = all[vw].shape[0];
  if (all[ww].shape != std::vector<int64_t>{1, T} || ref->modules.at(vn).bias != (vb >= 0)) return;
  if (o.shape != std::vector<int64_t>{B, D} || S > 512 || T > 128 || D > 512) return;
  int64_t KT = divisor_at_most(D, 128), SC = divisor_at_most(S, 128);
  if ((KT < 8 && KT != D) || (SC < 8 && SC != S)) return;
  Split sp{*ref, 1, ref->lines[1].substr(4)};
  std::map<std::string, Operand> eops = epilogue_ops(t, args, 1, D, true);
  for (int i : {vw, vb, ww})
    if (i >= 0) eops.erase(all[i].name);
  std::optional<Lines> epi = epilogue_of(sp, eops, D, false);
  if (!epi) return;
  std::ostringstream s;
  s << kHeader << signature(args);
  s << "    out = nl.ndarray(" << tuple_text(o.shape) << ", dtype=" << nl_dtype(o.dtype) << ", buffer=nl.shared_hbm)\n";
  std::map<std::string, std::string> ev = epilogue_views(s, *epi, {B, D});
  lines::emit_broadcast_loads(s, epi->ops, epi->tl.used, 1, D, "    ");
  // V^T [D, T] in chunks of KT rows of D, w^T [T, 1], the V bias as a [T, 1] column
  s << "    vt = nl.ndarray((" << KT << ", " << D / KT << ", " << T << "), dtype=nl.float32, buffer=nl.sbuf)\n";
  s << "    for k in nl.affine_range(" << D / KT << "):\n";
  s << "        vt_h = nl.load_transpose2d(" << args[vw] << "[:, " << span("k", KT) << "])\n";
  s << "        vt[:, k, :] = nl.copy(vt_h, dtype=nl.float32)\n";
  emit_load(s, "w_col", all[ww].dtype, args[ww] + ".reshape((" + num(T) + ", 1))", "    ");
  if (vb >= 0) emit_load(s, "vb_col", all[vb].dtype, args[vb] + ".reshape((" + num(T) + ", 1))", "    ");
  s << "    for bb in nl.affine_range(" << B << "):\n";
  std::string ind = "        ";
  s << ind << "u_ps = nl.zeros((" << T << ", " << S << "), dtype=nl.float32, buffer=nl.psum)\n";
  s << ind << "for k in nl.affine_range(" << D / KT << "):\n";
  s << ind << "    ht_h = nl.load_transpose2d(" << args[0] << "[bb, :, " << span("k", KT) << "])\n";
  s << ind << "    u_ps += nl.matmul(vt[:, k, :], nl.copy(ht_h, dtype=nl.float32), transpose_x=True)\n";
  s << ind << "u_t = nl.tanh(nl.copy(u_ps, dtype=nl.float32)" << (vb >= 0 ? " + vb_col" : "") << ")\n";
  s << ind << "sc_ps = nl.zeros((1, " << S << "), dtype=nl.float32, buffer=nl.psum)\n";
  s << ind << "sc_ps += nl.matmul(w_col, u_t, transpose_x=True)\n";
  s << ind << "sc = nl.copy(sc_ps, dtype=nl.float32)\n";
  s << ind << "pe = nl.exp(sc - nl.max(sc, axis=1, keepdims=True))\n";
  s << ind << "a_row = pe / nl.sum(pe, axis=1, keepdims=True)\n";
  s << ind << "y_ps = nl.zeros((1, " << D << "), dtype=nl.float32, buffer=nl.psum)\n";
  s << ind << "for j in nl.affine_range(" << S / SC << "):\n";
  s << ind << "    a_col = nl.transpose(a_row[:, " << span("j", SC) << "])\n";
  emit_load(s, "h_blk", H.dtype, args[0] + "[bb, " + span("j", SC) + ", :]", ind + "    ");
  s << ind << "    y_ps += nl.matmul(a_col, h_blk, transpose_x=True)\n";
  s << ind << "v = nl.copy(y_ps, dtype=nl.float32)\n";
  emit_epilogue_and_store(s, *epi, ev, "out", "[bb:bb + 1, :]", ind);
  s << "    return out\n";
  std::string layout = "per batch row, the scores over the " + num(S) + " positions as one [1, " + num(S) +
                       "] row from two TensorE products (h loaded transposed), a free-axis softmax, and the weighted sum "
                       "a^T @ h with a transposed back onto partitions in chunks of " + num(SC);
  Lines none;
  out.push_back({"fused_axis:attention_pool", plan_of(layout, none, "attention pooling", *epi), s.str()});
}

// ---------------------------------------------------------------------------------------------
// Two-layer MLPs, y = W2(act(W1 x)) or W2(act(W1 x) * W3 x) (SwiGLU / GeGLU / ReGLU), alone,
// scaled by a per-row weight column (w * mlp) or as a post-LN residual block (LN(x + mlp)).
// Per row tile the hidden activations are made transposed, h^T [JT, MT] = W1 x^T, with W1^T
// and x^T as TensorE operands, so each hidden block is directly the stationary operand of the
// second product (acc [MT, Do] += h^T^T @ W2^T); the weights are loaded transposed once.
void add_mlp_kernel(const TaskSpec& t, const std::vector<std::string>& args, std::vector<TemplateKernel>& out) {
  std::optional<Reference> ref = lines::read_reference(t.dir);
  if (!ref || ref->args.empty() || ref->args.size() != t.inputs.size() || ref->lines.empty()) return;
  if (clashes(args, {"m", "j", "k", "q"})) return;
  const std::string& x = ref->args[0];
  const std::string act = R"((F\.gelu|F\.silu|torch\.relu))";
  const std::string inner = R"(self\.(\w+)\()" + act + R"(\(self\.(\w+)\((\w+)\)\)(?: \* self\.(\w+)\((\w+)\))?\))";
  static const std::regex plain("^y = " + inner + "$");
  static const std::regex scaled("^y = (\\w+) \\* " + inner + "$");
  static const std::regex postln("^y = self\\.(\\w+)\\((\\w+) \\+ " + inner + "\\)$");
  std::smatch m;
  std::string scale_col, ln_name;
  size_t g0 = 1;  // first group of the inner match
  if (std::regex_match(ref->lines[0], m, plain)) {
  } else if (std::regex_match(ref->lines[0], m, scaled)) {
    scale_col = m[1].str();
    g0 = 2;
  } else if (std::regex_match(ref->lines[0], m, postln) && m[2].str() == x) {
    ln_name = m[1].str();
    g0 = 3;
  } else {
    return;
  }
  std::string f2 = m[g0].str(), actf = m[g0 + 1].str(), f1 = m[g0 + 2].str(), in1 = m[g0 + 3].str();
  bool gated = m[g0 + 4].matched;
  std::string f3 = gated ? m[g0 + 4].str() : "", in3 = gated ? m[g0 + 5].str() : x;
  if (in1 != x || in3 != x) return;
  std::vector<std::string> lin = {f1, f2};
  if (gated) lin.push_back(f3);
  for (const std::string& l : lin)
    if (!ref->modules.count(l) || ref->modules.at(l).type != "Linear") return;
  if (!ln_name.empty() && (!ref->modules.count(ln_name) || ref->modules.at(ln_name).type != "LayerNorm")) return;
  if (ref->modules.size() != lin.size() + (ln_name.empty() ? 0 : 1)) return;
  std::vector<TensorSpec> all = t.kernel_args();
  auto find = [&](const std::string& n) {
    for (size_t i = 0; i < all.size(); ++i)
      if (all[i].name == n) return static_cast<int>(i);
    return -1;
  };
  const TensorSpec& X = t.inputs[0];
  const TensorSpec& o = t.outputs[0];
  if (X.shape.size() < 2 || !is_float(X.dtype) || !is_float(o.dtype)) return;
  int64_t D = X.shape.back(), R = product(X.shape) / D;
  int w1 = find(f1 + ".weight"), w2 = find(f2 + ".weight"), w3 = gated ? find(f3 + ".weight") : -1;
  if (w1 < 0 || w2 < 0 || (gated && w3 < 0) || all[w1].shape.size() != 2 || all[w1].shape[1] != D) return;
  int64_t H = all[w1].shape[0];
  if (all[w2].shape.size() != 2 || all[w2].shape[1] != H) return;
  int64_t Do = all[w2].shape[0];
  if (gated && all[w3].shape != all[w1].shape) return;
  int b1 = find(f1 + ".bias"), b2 = find(f2 + ".bias"), b3 = gated ? find(f3 + ".bias") : -1;
  if ((b1 >= 0) != ref->modules.at(f1).bias || (b2 >= 0) != ref->modules.at(f2).bias || (gated && (b3 >= 0) != ref->modules.at(f3).bias))
    return;
  std::vector<int64_t> want = X.shape;
  want.back() = Do;
  if (o.shape != want || Do > 512) return;
  int lw = -1, lb = -1, sc = -1;
  if (!ln_name.empty()) {
    lw = find(ln_name + ".weight"), lb = find(ln_name + ".bias");
    if (lw < 0 || lb < 0 || Do != D || all[lw].shape != std::vector<int64_t>{D}) return;
  }
  if (!scale_col.empty()) {
    sc = find(scale_col);
    if (sc < 0 || sc >= static_cast<int>(t.inputs.size()) || product(all[sc].shape) != R || all[sc].shape.back() != 1) return;
  }
  for (const TensorSpec& a : all)
    if (!is_float(a.dtype)) return;
  std::optional<int64_t> MT = tile_rows(R), KT = tile_rows(D), JT = tile_rows(H);
  int64_t NS = divisor_at_most(Do, 128);
  if (!MT || !KT || !JT || (NS < 8 && NS != Do) || D * H / *KT > 16384 || H * Do / *JT > 16384) return;
  std::string actn = actf == "F.gelu" ? "nl.gelu" : actf == "F.silu" ? "nl.silu" : "nl.relu";
  Split sp{*ref, 0, ""};
  std::map<std::string, Operand> eops = epilogue_ops(t, args, scale_col.empty() ? 1 : 2, Do, true);
  for (int i : {w1, w2, w3, b1, b2, b3, lw, lb})
    if (i >= 0) eops.erase(all[i].name);
  std::optional<Lines> epi = epilogue_of(sp, eops, Do, false);
  if (!epi) return;

  std::ostringstream s;
  s << kHeader << signature(args);
  s << "    out = nl.ndarray(" << tuple_text(o.shape) << ", dtype=" << nl_dtype(o.dtype) << ", buffer=nl.shared_hbm)\n";
  std::string xv = view_of(s, args[0], X.shape, {R, D});
  std::string ov = view_of(s, "out", o.shape, {R, Do});
  std::map<std::string, std::string> ev = epilogue_views(s, *epi, {R, Do});
  lines::emit_broadcast_loads(s, epi->ops, epi->tl.used, *MT, Do, "    ");
  int64_t nk = D / *KT, nj = H / *JT;
  // W^T [D, H] as nk partition chunks of KT rows: wt[:, k, :] = W^T[k-chunk, :]
  auto first_layer = [&](const std::string& name, int w) {
    s << "    " << name << " = nl.ndarray((" << *KT << ", " << nk << ", " << H << "), dtype=nl.float32, buffer=nl.sbuf)\n";
    s << "    for k in nl.affine_range(" << nk << "):\n";
    s << "        for j in nl.affine_range(" << nj << "):\n";
    s << "            " << name << "_h = nl.load_transpose2d(" << args[w] << "[" << span("j", *JT) << ", " << span("k", *KT) << "])\n";
    s << "            " << name << "[:, k, " << span("j", *JT) << "] = nl.copy(" << name << "_h, dtype=nl.float32)\n";
  };
  first_layer("w1t", w1);
  if (gated) first_layer("w3t", w3);
  s << "    w2t = nl.ndarray((" << *JT << ", " << nj << ", " << Do << "), dtype=nl.float32, buffer=nl.sbuf)\n";
  s << "    for j in nl.affine_range(" << nj << "):\n";
  s << "        for q in nl.affine_range(" << Do / NS << "):\n";
  s << "            w2t_h = nl.load_transpose2d(" << args[w2] << "[" << span("q", NS) << ", " << span("j", *JT) << "])\n";
  s << "            w2t[:, j, " << span("q", NS) << "] = nl.copy(w2t_h, dtype=nl.float32)\n";
  auto row_param = [&](const std::string& var, int i, int64_t len) {
    emit_load(s, var + "_r", all[i].dtype, args[i] + ".reshape((1, " + num(len) + "))", "    ");
    s << "    " << var << " = " << var << "_r.broadcast_to((" << *MT << ", " << len << "))\n";
  };
  if (b2 >= 0) row_param("b2_b", b2, Do);
  if (lw >= 0) {
    row_param("lnw_b", lw, D);
    row_param("lnb_b", lb, D);
  }
  s << "    for m in nl.affine_range(" << R / *MT << "):\n";
  std::string ind = "        ", rows = span("m", *MT);
  s << ind << "xt = nl.ndarray((" << *KT << ", " << nk << ", " << *MT << "), dtype=nl.float32, buffer=nl.sbuf)\n";
  s << ind << "for k in nl.affine_range(" << nk << "):\n";
  s << ind << "    xt_h = nl.load_transpose2d(" << xv << "[" << rows << ", " << span("k", *KT) << "])\n";
  s << ind << "    xt[:, k, :] = nl.copy(xt_h, dtype=nl.float32)\n";
  s << ind << "y_ps = nl.zeros((" << *MT << ", " << Do << "), dtype=nl.float32, buffer=nl.psum)\n";
  s << ind << "for j in nl.affine_range(" << nj << "):\n";
  std::string jn = ind + "    ";
  auto hidden = [&](const std::string& var, const std::string& wt, int b) {
    s << jn << var << "_ps = nl.zeros((" << *JT << ", " << *MT << "), dtype=nl.float32, buffer=nl.psum)\n";
    s << jn << "for k in nl.affine_range(" << nk << "):\n";
    s << jn << "    " << var << "_ps += nl.matmul(" << wt << "[:, k, " << span("j", *JT) << "], xt[:, k, :], transpose_x=True)\n";
    s << jn << var << " = nl.copy(" << var << "_ps, dtype=nl.float32)\n";
    if (b >= 0) {
      emit_load(s, var + "_b", all[b].dtype, args[b] + ".reshape((" + num(H) + ", 1))[" + span("j", *JT) + ", :]", jn);
      s << jn << var << " = " << var << " + " << var << "_b\n";
    }
  };
  hidden("h1", "w1t", b1);
  s << jn << "h1 = " << actn << "(h1)\n";
  if (gated) {
    hidden("h3", "w3t", b3);
    s << jn << "h1 = h1 * h3\n";
  }
  s << jn << "y_ps += nl.matmul(h1, w2t[:, j, :], transpose_x=True)\n";
  s << ind << "v = nl.copy(y_ps, dtype=nl.float32)\n";
  if (b2 >= 0) s << ind << "v = v + b2_b\n";
  if (sc >= 0) {
    emit_load(s, "w_rows", all[sc].dtype, args[sc] + ".reshape((" + num(R) + ", 1))[" + rows + ", :]", ind);
    s << ind << "v = w_rows * v\n";
  }
  if (lw >= 0) {
    emit_load(s, "x_rows", X.dtype, xv + "[" + rows + ", :]", ind);
    s << ind << "z = x_rows + v\n";
    s << ind << "z_mu = nl.sum(z, axis=1, keepdims=True) * (1.0 / " << D << ")\n";
    s << ind << "z_d = z - z_mu\n";
    s << ind << "z_var = nl.sum(z_d * z_d, axis=1, keepdims=True) * (1.0 / " << D << ")\n";
    s << ind << "v = z_d * nl.rsqrt(z_var + " << ref->modules.at(ln_name).eps << ") * lnw_b + lnb_b\n";
  }
  emit_epilogue_and_store(s, *epi, ev, ov, "[" + rows + ", :]", ind);
  s << "    return out\n";
  std::string layout = "x in tiles of " + num(*MT) + " rows; the hidden layer (" + num(H) + ") made transposed in blocks of " + num(*JT) +
                       " (W1^T and x^T as TensorE operands, K in chunks of " + num(*KT) +
                       "), each block the stationary operand of the second product into one [" + num(*MT) + ", " + num(Do) +
                       "] PSUM tile; weights loaded transposed once";
  Lines none;
  std::string what = std::string(gated ? "gated " : "") + "MLP" + (sc >= 0 ? " scaled per row" : "") + (lw >= 0 ? ", residual and LayerNorm" : "");
  out.push_back({"fused_axis:mlp", plan_of(layout, none, what, *epi), s.str()});
}

}  // namespace nki::train::axis
