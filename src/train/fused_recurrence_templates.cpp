#include "train/fused_recurrence_templates.h"

#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "train/fused_templates.h"
#include "train/kernel_text.h"

namespace nki::train {

namespace {

// The minGRU recurrence (seed mingru_scan_block) over the sequence axis of x [B, S, K]:
// z = sigmoid(x Wz^T + bz), hh = x Wh^T + bh, h_t = (1 - z_t) h_{t-1} + z_t hh_t from h = 0.
// Per batch row the projections come out of TensorE transposed ([N, S]: W^T [K, N] stationary,
// x_b^T [K, S] moving), so the sequence is the free axis and the recurrence is one
// tensor_tensor_scan (op0 = multiply by 1 - z, op1 = add z * hh); nl.transpose turns h back to
// [S, N], where the epilogue lines run as row lines of width N.

// The per-batch blocks (index ib) of the out-shaped operands of an epilogue, loaded and made float32.
void emit_tail_loads(std::ostringstream& s, const RowTail& tail, const std::vector<std::string>& args, const std::string& ind) {
  for (const RowTail::Load& l : tail.full_loads) {
    s << ind << l.var << "_h = nl.load(" << args[l.arg] << "[ib])\n";
    s << ind << l.var << " = nl.copy(" << l.var << "_h, dtype=nl.float32)\n";
  }
}

void add_mingru_templates(const TaskSpec& t, const std::vector<std::string>& args, std::vector<TemplateKernel>& out) {
  if (t.inputs.size() != 1 || t.outputs.size() != 1) return;
  const TensorSpec& x = t.inputs[0];
  if (x.shape.size() != 3) return;
  std::optional<ForwardLines> f = read_forward(t.dir);
  if (!f || f->args.size() != 1 || f->lines.size() < 8) return;
  const std::vector<std::string>& L = f->lines;
  std::smatch m0, m1, m2, m5;
  static const std::regex zl(R"(^(\w+) = torch\.sigmoid\(self\.(\w+)\((\w+)\)\)$)");
  static const std::regex hl(R"(^(\w+) = self\.(\w+)\((\w+)\)$)");
  static const std::regex h0(R"(^(\w+) = torch\.zeros\((\w+)\.shape\[0\], ([0-9]+)\)$)");
  static const std::regex step(R"(^(\w+) = \(1 - (\w+)\[:, t\]\) \* (\w+) \+ (\w+)\[:, t\] \* (\w+)\[:, t\]$)");
  const std::string& xn = f->args[0];
  if (!std::regex_match(L[0], m0, zl) || !std::regex_match(L[1], m1, hl) || !std::regex_match(L[2], m2, h0) ||
      !std::regex_match(L[5], m5, step))
    return;
  std::string z = m0[1], zm = m0[2], hh = m1[1], hm = m1[2], h = m2[1];
  if (m0[3] != xn || m1[3] != xn || m2[2] != xn || z == hh || z == h || hh == h || zm == hm) return;
  if (L[3] != "outs = []" || L[4] != "for t in range(" + xn + ".shape[1]):" || m5[1] != h || m5[2] != z || m5[3] != h ||
      m5[4] != z || m5[5] != hh || L[6] != "outs.append(" + h + ")" || L[7] != "y = torch.stack(outs, dim=1)")
    return;
  int64_t B = x.shape[0], S = x.shape[1], K = x.shape[2];
  std::vector<TensorSpec> all = t.kernel_args();
  auto find = [&](const std::string& n) {
    for (size_t i = 0; i < all.size(); ++i)
      if (all[i].name == n) return static_cast<int>(i);
    return -1;
  };
  int wz = find(zm + ".weight"), bz = find(zm + ".bias"), wh = find(hm + ".weight"), bh = find(hm + ".bias");
  if (wz < 0 || bz < 0 || wh < 0 || bh < 0 || all[wz].shape.size() != 2) return;
  int64_t N = all[wz].shape[0];
  if (all[wz].shape != std::vector<int64_t>{N, K} || all[wh].shape != all[wz].shape || all[bz].shape != std::vector<int64_t>{N} ||
      all[bh].shape != all[bz].shape || m2[3].str() != std::to_string(N))
    return;
  if (t.outputs[0].shape != std::vector<int64_t>{B, S, N} || S > 128 || N > 128) return;
  int64_t KT = 128;
  while (KT > 1 && K % KT) --KT;
  if (KT < 8) return;
  std::optional<RowTail> tail =
      translate_row_tail(t, args, 8, S, N, t.outputs[0].shape, {all[0].name, all[wz].name, all[bz].name, all[wh].name, all[bh].name});
  if (!tail) return;
  std::ostringstream s;
  s << "import neuronxcc.nki as nki\nimport neuronxcc.nki.language as nl\nimport neuronxcc.nki.isa as nisa\n\n\n@nki.jit\ndef kernel(";
  for (size_t i = 0; i < args.size(); ++i) s << (i ? ", " : "") << args[i];
  s << "):\n";
  s << "    out = nl.ndarray((" << B << ", " << S << ", " << N << "), dtype=nl." << dtype_name(t.outputs[0].dtype)
    << ", buffer=nl.shared_hbm)\n";
  // the biases as per-partition columns of the transposed [N, S] projections
  for (auto [idx, v] : {std::pair<int, const char*>{bz, "bz"}, {bh, "bh"}}) {
    s << "    " << v << "_h = nl.load(" << args[idx] << ".reshape((" << N << ", 1)))\n";
    s << "    " << v << " = nl.copy(" << v << "_h, dtype=nl.float32)\n";
  }
  for (const std::string& l : tail->setup) s << "    " << l << "\n";
  std::string kk = "k * " + std::to_string(KT) + ":(k + 1) * " + std::to_string(KT);
  s << "    for ib in nl.affine_range(" << B << "):\n";
  s << "        accz = nl.zeros((" << N << ", " << S << "), dtype=nl.float32, buffer=nl.psum)\n";
  s << "        acch = nl.zeros((" << N << ", " << S << "), dtype=nl.float32, buffer=nl.psum)\n";
  s << "        for k in nl.affine_range(" << K / KT << "):\n";
  s << "            xt = nl.load_transpose2d(" << args[0] << "[ib, :, " << kk << "])\n";
  s << "            wzt = nl.load_transpose2d(" << args[wz] << "[:, " << kk << "])\n";
  s << "            wht = nl.load_transpose2d(" << args[wh] << "[:, " << kk << "])\n";
  s << "            accz += nl.matmul(wzt, xt, transpose_x=True)\n";
  s << "            acch += nl.matmul(wht, xt, transpose_x=True)\n";
  s << "        z = nl.sigmoid(nl.copy(accz, dtype=nl.float32) + bz)\n";
  s << "        hh = nl.copy(acch, dtype=nl.float32) + bh\n";
  s << "        hs = nisa.tensor_tensor_scan(1.0 - z, z * hh, initial=0.0, op0=nl.multiply, op1=nl.add)\n";
  s << "        v = nl.copy(nl.transpose(hs), dtype=nl.float32)\n";
  emit_tail_loads(s, *tail, args, "        ");
  for (const std::string& l : tail->body) s << "        " << l << "\n";
  s << "        nl.store(out[ib], value=v)\n";
  s << "    return out\n";
  std::string plan = "Per batch row, z = sigmoid(x Wz^T + bz) and hh = x Wh^T + bh come out of TensorE as [" + std::to_string(N) +
                     ", " + std::to_string(S) + "] tiles (K = " + std::to_string(K) + " accumulated in PSUM in chunks of " +
                     std::to_string(KT) +
                     "), the recurrence h_t = (1 - z_t) h_{t-1} + z_t hh_t is one nisa.tensor_tensor_scan along the sequence, "
                     "and h is transposed back to [" + std::to_string(S) + ", " + std::to_string(N) + "]" +
                     (tail->body.empty() ? "" : " for the epilogue lines") + " and stored.";
  out.push_back({"fused_scan:mingru", plan, s.str()});
}

// ---------------------------------------------------------------------------------------------
// The selective scan (seed selective_scan, Mamba's S6 recurrence) of x, delta [B, D, L] with
// bmat, cmat [B, Nst, L] and a = -exp(a_log) [D, Nst]: per state n the recurrence
// h_n[d, t] = exp(delta[d, t] a[d, n]) h_n[d, t-1] + delta[d, t] bmat[n, t] x[d, t] runs along t
// (the free axis, D on partitions) as one tensor_tensor_scan, and y = sum_n h_n * cmat[n, t];
// the Nst states are unrolled (nl.static_range). The epilogue lines are row lines of width L.

void add_selective_scan_templates(const TaskSpec& t, const std::vector<std::string>& args, std::vector<TemplateKernel>& out) {
  if (t.inputs.size() < 4 || t.outputs.size() != 1 || t.parameters.size() < 1) return;
  std::optional<ForwardLines> f = read_forward(t.dir);
  if (!f || f->args.size() != t.inputs.size() || f->lines.size() < 8) return;
  const std::vector<std::string>& L = f->lines;
  const std::string &X = f->args[0], &Dl = f->args[1], &Bm = f->args[2], &Cm = f->args[3];
  std::smatch m0, m1, m4;
  static const std::regex al(R"(^(\w+) = -torch\.exp\(self\.(\w+)\)$)");
  static const std::regex h0(R"(^(\w+) = torch\.zeros\((\w+)\.shape\[0\], (\w+)\.shape\[1\], (\w+)\.shape\[1\]\)$)");
  static const std::regex dal(R"(^(\w+) = torch\.exp\((\w+)\[:, :, t, None\] \* (\w+)\)$)");
  if (!std::regex_match(L[0], m0, al) || !std::regex_match(L[1], m1, h0) || !std::regex_match(L[4], m4, dal)) return;
  std::string A = m0[1], H = m1[1], DA = m4[1];
  if (m1[2] != X || m1[3] != X || m1[4] != A || m4[2] != Dl || m4[3] != A || A == H || A == DA || H == DA) return;
  if (L[2] != "outs = []" || L[3] != "for t in range(" + X + ".shape[-1]):" ||
      L[5] != H + " = " + DA + " * " + H + " + " + Dl + "[:, :, t, None] * " + Bm + "[:, None, :, t] * " + X + "[:, :, t, None]" ||
      L[6] != "outs.append((" + H + " * " + Cm + "[:, None, :, t]).sum(-1))" || L[7] != "y = torch.stack(outs, dim=-1)")
    return;
  const std::vector<int64_t>& xs = t.inputs[0].shape;
  if (xs.size() != 3 || t.inputs[1].shape != xs) return;
  int64_t B = xs[0], D = xs[1], Lt = xs[2];
  std::vector<TensorSpec> all = t.kernel_args();
  int ia = -1;
  for (size_t i = 0; i < all.size(); ++i)
    if (all[i].name == m0[2].str()) ia = static_cast<int>(i);
  if (ia < 0 || all[ia].shape.size() != 2 || all[ia].shape[0] != D) return;
  int64_t Ns = all[ia].shape[1];
  std::vector<int64_t> bs = {B, Ns, Lt};
  if (t.inputs[2].shape != bs || t.inputs[3].shape != bs || t.outputs[0].shape != xs) return;
  if (D > 128 || Ns > 64 || Lt > 2048) return;
  for (size_t i = 0; i < 4; ++i)
    if (!is_float(t.inputs[i].dtype)) return;
  std::optional<RowTail> tail = translate_row_tail(t, args, 8, D, Lt, xs, {all[0].name, all[1].name, all[2].name, all[3].name, all[ia].name});
  if (!tail) return;
  std::ostringstream s;
  s << "import neuronxcc.nki as nki\nimport neuronxcc.nki.language as nl\nimport neuronxcc.nki.isa as nisa\n\n\n@nki.jit\ndef kernel(";
  for (size_t i = 0; i < args.size(); ++i) s << (i ? ", " : "") << args[i];
  s << "):\n";
  s << "    out = nl.ndarray((" << B << ", " << D << ", " << Lt << "), dtype=nl." << dtype_name(t.outputs[0].dtype)
    << ", buffer=nl.shared_hbm)\n";
  s << "    al_h = nl.load(" << args[ia] << ")\n";
  s << "    a_neg = nl.negative(nl.exp(nl.copy(al_h, dtype=nl.float32)))\n";
  for (const std::string& l : tail->setup) s << "    " << l << "\n";
  s << "    for ib in nl.affine_range(" << B << "):\n";
  s << "        x_b = nl.copy(nl.load(" << args[0] << "[ib]), dtype=nl.float32)\n";
  s << "        d_b = nl.copy(nl.load(" << args[1] << "[ib]), dtype=nl.float32)\n";
  s << "        dx_b = d_b * x_b\n";
  s << "        v = nl.zeros((" << D << ", " << Lt << "), dtype=nl.float32)\n";
  s << "        for n in nl.static_range(" << Ns << "):\n";
  s << "            b_n = nl.copy(nl.load(" << args[2] << "[ib, n:n + 1, :]), dtype=nl.float32).broadcast_to((" << D << ", " << Lt << "))\n";
  s << "            c_n = nl.copy(nl.load(" << args[3] << "[ib, n:n + 1, :]), dtype=nl.float32).broadcast_to((" << D << ", " << Lt << "))\n";
  s << "            h_n = nisa.tensor_tensor_scan(nl.exp(d_b * a_neg[:, n:n + 1]), dx_b * b_n, initial=0.0, op0=nl.multiply, op1=nl.add)\n";
  s << "            v = v + h_n * c_n\n";
  emit_tail_loads(s, *tail, args, "        ");
  for (const std::string& l : tail->body) s << "        " << l << "\n";
  s << "        nl.store(out[ib], value=v)\n";
  s << "    return out\n";
  std::string plan = "Per batch row, with the " + std::to_string(D) + " channels on partitions and the " + std::to_string(Lt) +
                     " steps on the free axis, each of the " + std::to_string(Ns) +
                     " states is one nisa.tensor_tensor_scan h_n[t] = exp(delta[t] a[:, n]) h_n[t-1] + delta[t] bmat[n, t] x[t] "
                     "(the states unrolled with nl.static_range), accumulated as y += h_n * cmat[n]" +
                     (tail->body.empty() ? "" : ", then the epilogue lines") + ", and stored.";
  out.push_back({"fused_scan:selective", plan, s.str()});
}

// The exponential moving average of the ema_scan seed along the last axis:
// h_t = a h_{t-1} + (1 - a) x_t from h = 0, for every row of x viewed as [R, L]: one
// tensor_tensor_scan per 128-row tile (data0 the constant a, data1 = (1 - a) x), then the
// epilogue lines as row lines of width L.
void add_ema_templates(const TaskSpec& t, const std::vector<std::string>& args, std::vector<TemplateKernel>& out) {
  if (t.inputs.size() < 1 || t.outputs.size() != 1) return;
  std::optional<ForwardLines> f = read_forward(t.dir);
  if (!f || f->has_modules || f->args.size() != t.inputs.size() || f->lines.size() < 6) return;
  const std::vector<std::string>& L = f->lines;
  const std::string& X = f->args[0];
  std::smatch m0, m3;
  static const std::regex h0(R"(^(\w+) = torch\.zeros_like\((\w+)\[\.\.\., 0\]\)$)");
  static const std::regex step(R"(^(\w+) = ([0-9]*\.[0-9]+) \* (\w+) \+ \(1\.0 - ([0-9]*\.[0-9]+)\) \* (\w+)\[\.\.\., t\]$)");
  if (!std::regex_match(L[0], m0, h0) || !std::regex_match(L[3], m3, step)) return;
  std::string H = m0[1], a = m3[2];
  if (m0[2] != X || m3[1] != H || m3[3] != H || m3[4] != a || m3[5] != X || H == X || H == "y") return;
  if (L[1] != "outs = []" || L[2] != "for t in range(" + X + ".shape[-1]):" || L[4] != "outs.append(" + H + ")" ||
      L[5] != "y = torch.stack(outs, dim=-1)")
    return;
  const std::vector<int64_t>& xs = t.inputs[0].shape;
  if (xs.empty() || t.outputs[0].shape != xs || !is_float(t.inputs[0].dtype) || !is_float(t.outputs[0].dtype)) return;
  int64_t Lt = xs.back(), R = 1;
  for (size_t i = 0; i + 1 < xs.size(); ++i) R *= xs[i];
  if (Lt > 4096) return;
  bool ragged = R > 128 && R % 128 != 0;
  int64_t P = R < 128 ? R : 128;
  std::optional<RowTail> tail = translate_row_tail(t, args, 6, P, Lt, xs, {t.inputs[0].name});
  if (!tail) return;
  std::ostringstream s;
  s << "import neuronxcc.nki as nki\nimport neuronxcc.nki.language as nl\nimport neuronxcc.nki.isa as nisa\n\n\n@nki.jit\ndef kernel(";
  for (size_t i = 0; i < args.size(); ++i) s << (i ? ", " : "") << args[i];
  s << "):\n";
  s << "    out = nl.ndarray(" << "(";
  for (size_t d = 0; d < xs.size(); ++d) s << (d ? ", " : "") << xs[d];
  s << (xs.size() == 1 ? ",)" : ")") << ", dtype=nl." << dtype_name(t.outputs[0].dtype) << ", buffer=nl.shared_hbm)\n";
  // every [R, L] operand (x, the output, full-shape epilogue operands) through a 2-D view
  auto view = [&](const std::string& name) {
    if (xs.size() == 2) return name;
    s << "    " << name << "_2d = " << name << ".reshape((" << R << ", " << Lt << "))\n";
    return name + "_2d";
  };
  std::string xv = view(args[0]), ov = view("out");
  std::vector<std::string> fv;
  for (const RowTail::Load& l : tail->full_loads) fv.push_back(view(args[l.arg]));
  for (const std::string& l : tail->setup) s << "    " << l << "\n";
  s << "    P = " << (R < 128 ? std::to_string(R) : "nl.tile_size.pmax") << "\n";
  std::string idx = "[i * P:(i + 1) * P, :]", mask;
  if (ragged) {
    s << "    ip = nl.arange(P)[:, None]\n    jf = nl.arange(" << Lt << ")[None, :]\n";
    idx = "[rows, jf]";
    mask = ", mask=(rows < " + std::to_string(R) + ")";
  }
  s << "    for i in nl.affine_range(" << (R + P - 1) / P << "):\n";
  if (ragged) s << "        rows = i * P + ip\n";
  s << "        x_t = nl.copy(nl.load(" << xv << idx << mask << "), dtype=nl.float32)\n";
  for (size_t k = 0; k < fv.size(); ++k)
    s << "        " << tail->full_loads[k].var << " = nl.copy(nl.load(" << fv[k] << idx << mask << "), dtype=nl.float32)\n";
  s << "        decay = nl.full((P, " << Lt << "), " << a << ", dtype=nl.float32)\n";
  s << "        v = nisa.tensor_tensor_scan(decay, x_t * (1.0 - " << a << "), initial=0.0, op0=nl.multiply, op1=nl.add)\n";
  for (const std::string& l : tail->body) s << "        " << l << "\n";
  s << "        nl.store(" << ov << idx << ", value=v" << mask << ")\n";
  s << "    return out\n";
  std::string plan = "x is viewed as [" + std::to_string(R) + ", " + std::to_string(Lt) +
                     "] (rows on partitions) in tiles of up to 128 rows" + (ragged ? ", the ragged last tile masked" : "") +
                     "; the moving average h_t = " + a + " h_{t-1} + (1 - " + a +
                     ") x_t is one nisa.tensor_tensor_scan along each row" + (tail->body.empty() ? "" : ", then the epilogue lines") +
                     ", stored once per tile.";
  out.push_back({"fused_scan:ema", plan, s.str()});
}

}  // namespace

void add_fused_recurrence_templates(const TaskSpec& t, const std::vector<std::string>& args,
                                    std::vector<TemplateKernel>& out) {
  add_mingru_templates(t, args, out);
  if (out.empty()) add_selective_scan_templates(t, args, out);
  if (out.empty()) add_ema_templates(t, args, out);
}

}  // namespace nki::train
