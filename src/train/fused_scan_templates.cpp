#include "train/fused_scan_templates.h"

#include <numeric>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "train/fused_recurrence_templates.h"
#include "train/fused_templates.h"

namespace nki::train {

namespace {

// nisa.tensor_tensor_scan computes, per partition, r[i] = op1(op0(data0[i], r[i-1]), data1[i])
// from r[-1] = initial (general/nki/api/nki/isa/__init__.py, SDK 2.24), in float32. With the
// row on the free axis of one tile that is a prefix scan of each row:
//   cumsum:  op0 = add, data1 = 0       r[i] = x[i] + r[i-1]
//   cumprod: op0 = multiply, data1 = 0  r[i] = x[i] * r[i-1], initial 1
//   cummax:  op0 = op1 = maximum, data0 = data1 = x, initial = x[:, 0] (so r[0] = x[0] exactly)
const char* kCumsum = "nisa.tensor_tensor_scan($1, nl.zeros_like($1), initial=0.0, op0=nl.add, op1=nl.add)";

std::vector<RowLineRule> make_scan_rules() {
  std::string cumsum = kCumsum;
  auto cumsum_of = [&](const std::string& x) {  // kCumsum over another operand text
    std::string c = cumsum;
    for (size_t p = c.find("$1"); p != std::string::npos; p = c.find("$1", p + x.size())) c.replace(p, 2, x);
    return c;
  };
  return {
      {row_rule_regex("torch.cumsum({o}, dim=-1)"), {"@ = " + cumsum}},
      {row_rule_regex("torch.cumsum({o}, dim=-1) / math.sqrt({=1}.shape[-1])"), {"@ = " + cumsum + " * #RSQRTC"}},
      // running mean: the divisor 1, 2, ..., C is itself the cumsum of ones (exact in float32)
      {row_rule_regex("torch.cumsum({o}, dim=-1) / torch.arange(1, {=1}.shape[-1] + 1, dtype={=1}.dtype)"),
       {"z% = nl.zeros_like($1)", "n% = nisa.tensor_tensor_scan(z% + 1.0, z%, initial=0.0, op0=nl.add, op1=nl.add)",
        "@ = nisa.tensor_tensor_scan($1, z%, initial=0.0, op0=nl.add, op1=nl.add) / n%"}},
      {row_rule_regex("torch.cumsum({o}, dim=-1) - {=1}"), {"@ = " + cumsum + " - $1"}},
      // the mask of masked_cumsum is an int tensor: x * (mask > 0) keeps x where mask > 0
      {row_rule_regex("torch.cumsum({o} * ({o} > 0), dim=-1)"),
       {"s% = $1 * nl.where(nl.greater($2, 0.0), $2 * 0.0 + 1.0, $2 * 0.0)", "@ = " + cumsum_of("s%")}},
      // suffix sum: sum_{j >= i} x[j] = total - cumsum[i] + x[i]
      {row_rule_regex("torch.flip(torch.cumsum(torch.flip({o}, dims=[-1]), dim=-1), dims=[-1])"),
       {"c% = " + cumsum, "@ = $1 - c% + nl.sum($1, axis=1, keepdims=True)"}},
      {row_rule_regex("torch.cumprod({o}, dim=-1)"),
       {"@ = nisa.tensor_tensor_scan($1, nl.zeros_like($1), initial=1.0, op0=nl.multiply, op1=nl.add)"}},
      {row_rule_regex("torch.cummax({o}, dim=-1).values"),
       {"@ = nisa.tensor_tensor_scan($1, $1, initial=$1[:, 0:1], op0=nl.maximum, op1=nl.maximum)"}},
      {row_rule_regex("torch.cummin({o}, dim=-1).values"),
       {"@ = nisa.tensor_tensor_scan($1, $1, initial=$1[:, 0:1], op0=nl.minimum, op1=nl.minimum)"}},
  };
}

// logcumsumexp without overflow or underflow: with m[i] the running max, s[i] = sum_{j <= i}
// exp(x[j] - m[i]) obeys s[i] = s[i-1] * exp(m[i-1] - m[i]) + exp(x[i] - m[i]) (one scan), and
// the result is log(s[i]) + m[i]. m[i-1] comes from a copy of m shifted by one column.
// Needs a row of at least 2 (the shifted copy).
std::vector<RowLineRule> make_wide_scan_rules() {
  return {
      {row_rule_regex("torch.logcumsumexp({o}, dim=-1)"),
       {"m% = nisa.tensor_tensor_scan($1, $1, initial=$1[:, 0:1], op0=nl.maximum, op1=nl.maximum)",
        "mp% = nl.ndarray((P, #C), dtype=nl.float32, buffer=nl.sbuf)", "mp%[:, 0:1] = nl.copy(m%[:, 0:1])",
        "mp%[:, 1:#C] = nl.copy(m%[:, 0:#C1])",
        "s% = nisa.tensor_tensor_scan(nl.exp(mp% - m%), nl.exp($1 - m%), initial=0.0, op0=nl.multiply, op1=nl.add)",
        "@ = nl.log(s%) + m%"}},
  };
}

// torch.renorm(x, 2, 0, maxnorm) rescales each slice along axis 0 (a row, for 2-D x) whose L2
// norm exceeds maxnorm by maxnorm / (norm + 1e-7) (ATen's renorm scale factor); others stay.
std::vector<RowLineRule> make_rank2_rules() {
  return {
      {row_rule_regex("torch.renorm({o}, 2, 0, {n})"),
       {"n% = nl.sqrt(nl.sum($1 * $1, axis=1, keepdims=True))",
        "f% = nl.where(nl.greater(n%, $2), nl.reciprocal(n% + 1e-07) * $2, n% * 0.0 + 1.0)", "@ = $1 * f%"}},
  };
}

// F.instance_norm of x [B, C, L] normalises each (batch, channel) signal over L, the last axis:
// a row norm (biased variance, eps 1e-5 unless given). Rank 3 only (for [B, C, H, W] it spans
// two axes).
std::vector<RowLineRule> make_rank3_rules() {
  auto norm = [](const std::string& eps) {
    return std::vector<std::string>{"mu% = nl.sum($1, axis=1, keepdims=True) * (1.0 / #C)", "d% = $1 - mu%",
                                    "var% = nl.sum(d% * d%, axis=1, keepdims=True) * (1.0 / #C)",
                                    "@ = d% * nl.rsqrt(var% + " + eps + ")"};
  };
  return {{row_rule_regex("F.instance_norm({o})"), norm("1e-05")}, {row_rule_regex("F.instance_norm({o}, eps={n})"), norm("$2")}};
}

// Triangular masks over the last two axes: #I is the row index within the matrix, #J the column.
// torch.ones(S, C).triu(k) is true where j - i >= k, .tril(k) where j - i <= k; masked_fill
// writes the fill value there. nisa.affine_select keeps on_true_tile where its affine
// predicate holds and writes on_false_value elsewhere, so each mask is one select.
std::string ones_mask(const std::string& tri) {
  return "torch.ones({=1}.shape[-2], {=1}.shape[-1], dtype=torch.bool)." + tri;
}

// The most negative float32: every finite entry kept by the mask is >= it, so a row max over
// the selected tile is the max over the kept entries.
const char* kLowest = "-3.4028234663852886e+38";

std::vector<RowLineRule> make_mask_rules() {
  std::string triu_k = ones_mask("triu({n})"), tril_k = ones_mask("tril({n})");
  std::string low = kLowest;
  return {
      {row_rule_regex("{o}.masked_fill(" + triu_k + ", {n})"),
       {"@ = nisa.affine_select(pred=(#J < #I + $2), on_true_tile=$1, on_false_value=$3)"}},
      {row_rule_regex("{o}.masked_fill(" + tril_k + ", {n})"),
       {"@ = nisa.affine_select(pred=(#J > #I + $2), on_true_tile=$1, on_false_value=$3)"}},
      // a band: both selects write the same fill value
      {row_rule_regex("{o}.masked_fill(" + triu_k + " | " + tril_k + ", {n})"),
       {"b% = nisa.affine_select(pred=(#J < #I + $2), on_true_tile=$1, on_false_value=$4)",
        "@ = nisa.affine_select(pred=(#J > #I + $3), on_true_tile=b%, on_false_value=$4)"}},
      {row_rule_regex("torch.tril({o})"), {"@ = nisa.affine_select(pred=(#J <= #I), on_true_tile=$1, on_false_value=0.0)"}},
      {row_rule_regex("torch.triu({o})"), {"@ = nisa.affine_select(pred=(#J >= #I), on_true_tile=$1, on_false_value=0.0)"}},
      {row_rule_regex("torch.tril({o}, diagonal={n})"),
       {"@ = nisa.affine_select(pred=(#J <= #I + $2), on_true_tile=$1, on_false_value=0.0)"}},
      {row_rule_regex("torch.triu({o}, diagonal={n})"),
       {"@ = nisa.affine_select(pred=(#J >= #I + $2), on_true_tile=$1, on_false_value=0.0)"}},
      // causal softmax with -inf: the masked entries are exactly 0 after exp, so they are
      // selected away after the exp (an overflowing exp of a masked entry is discarded too);
      // triu(1) keeps the diagonal, so no row is empty
      {row_rule_regex("torch.softmax({o}.masked_fill(" + ones_mask("triu(1)") + ", float('-inf')), dim=-1)"),
       {"s% = nisa.affine_select(pred=(#J <= #I), on_true_tile=$1, on_false_value=" + low + ")",
        "m% = nl.max(s%, axis=1, keepdims=True)",
        "e% = nisa.affine_select(pred=(#J <= #I), on_true_tile=nl.exp($1 - m%), on_false_value=0.0)",
        "@ = e% / nl.sum(e%, axis=1, keepdims=True)"}},
      // a finite fill value takes part in the softmax like any other entry
      {row_rule_regex("torch.softmax({o}.masked_fill(" + triu_k + ", {n}), dim=-1)"),
       {"s% = nisa.affine_select(pred=(#J < #I + $2), on_true_tile=$1, on_false_value=$3)",
        "m% = nl.max(s%, axis=1, keepdims=True)", "e% = nl.exp(s% - m%)", "@ = e% / nl.sum(e%, axis=1, keepdims=True)"}},
      {row_rule_regex("torch.log_softmax({o}.masked_fill(" + triu_k + ", {n}), dim=-1)"),
       {"s% = nisa.affine_select(pred=(#J < #I + $2), on_true_tile=$1, on_false_value=$3)",
        "m% = nl.max(s%, axis=1, keepdims=True)", "d% = s% - m%",
        "@ = d% - nl.log(nl.sum(nl.exp(d%), axis=1, keepdims=True))"}},
  };
}

void append(std::vector<const RowLineRule*>& to, const std::vector<RowLineRule>& rules) {
  for (const RowLineRule& r : rules) to.push_back(&r);
}

// ---------------------------------------------------------------------------------------------
// Row seeds whose forward() returns a tuple (layernorm_stats, fused_add_rmsnorm, aminmax_last):
// each is recognised as a whole forward() (names and eps read from its lines) and written as one
// row kernel with a store per output. Any other line, or a fused pattern, means no candidate.

struct TupleOut {
  std::string value;  // expression over the float32 tiles
  bool per_row;       // one value per row (stored through an [R, 1] view)
};

struct TupleForm {
  std::string what;
  std::vector<std::string> body;  // statements over t_<input> (and w_row for a [C] weight)
  std::vector<TupleOut> outs;
  int weight = -1;  // kernel argument index of a [C] weight, or -1
};

std::string fmt(int64_t v) { return std::to_string(v); }

std::optional<TupleForm> tuple_form(const TaskSpec& t, const ForwardLines& f, int64_t C) {
  const std::vector<std::string>& L = f.lines;
  std::smatch m0, m1, m2;
  std::string inv = "(1.0 / " + fmt(C) + ")";
  static const std::regex ln_mu(R"(^(\w+) = (\w+)\.mean\(-1\)$)");
  static const std::regex ln_rs(R"(^(\w+) = torch\.rsqrt\((\w+)\.var\(-1, unbiased=False\) \+ ([0-9.e-]+)\)$)");
  static const std::regex ln_y(R"(^y = \(\((\w+) - (\w+)\[:, None\]\) \* (\w+)\[:, None\], (\w+), (\w+)\)$)");
  if (f.args.size() == 1 && L.size() == 3 && t.inputs[0].shape.size() == 2 && std::regex_match(L[0], m0, ln_mu) &&
      std::regex_match(L[1], m1, ln_rs) && std::regex_match(L[2], m2, ln_y)) {
    std::string x = f.args[0], mu = m0[1], rs = m1[1];
    if (m0[2] != x || m1[2] != x || m2[1] != x || m2[2] != mu || m2[3] != rs || m2[4] != mu || m2[5] != rs || mu == rs) return std::nullopt;
    TupleForm tf{"layernorm statistics", {}, {}, -1};
    tf.body = {"mu = nl.sum(t_x0, axis=1, keepdims=True) * " + inv, "d = t_x0 - mu",
               "rs = nl.rsqrt(nl.sum(d * d, axis=1, keepdims=True) * " + inv + " + " + m1[3].str() + ")"};
    tf.outs = {{"d * rs", false}, {"mu", true}, {"rs", true}};
    return tf;
  }
  static const std::regex add(R"(^(\w+) = (\w+) \+ (\w+)$)");
  static const std::regex rms_y(
      R"(^y = \((\w+) \* torch\.rsqrt\((\w+)\.pow\(2\)\.mean\(-1, keepdim=True\) \+ ([0-9.e-]+)\) \* self\.(\w+), (\w+)\)$)");
  if (f.args.size() == 2 && L.size() == 2 && std::regex_match(L[0], m0, add) && std::regex_match(L[1], m1, rms_y)) {
    std::string h = m0[1];
    if (m0[2] != f.args[0] || m0[3] != f.args[1] || m1[1] != h || m1[2] != h || m1[5] != h || h == "y") return std::nullopt;
    std::vector<TensorSpec> all = t.kernel_args();
    int w = -1;
    for (size_t i = 0; i < all.size(); ++i)
      if (all[i].name == m1[4].str()) w = static_cast<int>(i);
    if (w < 2 || all.size() != 3 || all[w].shape != std::vector<int64_t>{C}) return std::nullopt;
    TupleForm tf{"residual add and RMSNorm", {}, {}, w};
    tf.body = {"h = t_x0 + t_x1", "ms = nl.sum(h * h, axis=1, keepdims=True) * " + inv};
    tf.outs = {{"h * nl.rsqrt(ms + " + m1[3].str() + ") * w_row", false}, {"h", false}};
    return tf;
  }
  static const std::regex amm(R"(^(\w+), (\w+) = torch\.aminmax\((\w+), dim=-1\)$)");
  static const std::regex pair(R"(^y = \((\w+), (\w+)\)$)");
  if (f.args.size() == 1 && L.size() == 2 && std::regex_match(L[0], m0, amm) && std::regex_match(L[1], m1, pair)) {
    if (m0[3] != f.args[0] || m1[1] != m0[1] || m1[2] != m0[2] || m0[1] == m0[2]) return std::nullopt;
    TupleForm tf{"row min and max", {}, {{"nl.min(t_x0, axis=1, keepdims=True)", true}, {"nl.max(t_x0, axis=1, keepdims=True)", true}}, -1};
    return tf;
  }
  return std::nullopt;
}

void add_tuple_row_templates(const TaskSpec& t, const std::vector<std::string>& args, std::vector<TemplateKernel>& out) {
  if (t.inputs.empty() || t.outputs.size() < 2) return;
  const std::vector<int64_t>& xs = t.inputs[0].shape;
  if (xs.size() < 2 || xs.back() > 4096) return;
  for (const TensorSpec& i : t.inputs)
    if (i.shape != xs || (i.dtype != DType::Float32 && i.dtype != DType::BFloat16 && i.dtype != DType::Float16)) return;
  std::optional<ForwardLines> f = read_forward(t.dir);
  if (!f || f->has_modules || f->args.size() != t.inputs.size()) return;
  int64_t C = xs.back();
  int64_t R = std::accumulate(xs.begin(), xs.end(), int64_t{1}, std::multiplies<int64_t>()) / C;
  std::optional<TupleForm> tf = tuple_form(t, *f, C);
  if (!tf || tf->outs.size() != t.outputs.size()) return;
  if (t.kernel_args().size() != t.inputs.size() + (tf->weight >= 0 ? 1 : 0)) return;
  for (size_t k = 0; k < tf->outs.size(); ++k) {
    const TensorSpec& o = t.outputs[k];
    int64_t n = std::accumulate(o.shape.begin(), o.shape.end(), int64_t{1}, std::multiplies<int64_t>());
    if (tf->outs[k].per_row ? n != R : o.shape != xs) return;
    if (o.dtype != DType::Float32 && o.dtype != DType::BFloat16 && o.dtype != DType::Float16) return;
  }
  bool ragged = R > 128 && R % 128 != 0;
  int64_t P = R < 128 ? R : 128;
  std::ostringstream s;
  s << "import neuronxcc.nki as nki\nimport neuronxcc.nki.language as nl\n\n\n@nki.jit\ndef kernel(";
  for (size_t i = 0; i < args.size(); ++i) s << (i ? ", " : "") << args[i];
  s << "):\n";
  std::vector<std::string> ov;
  for (size_t k = 0; k < tf->outs.size(); ++k) {
    const TensorSpec& o = t.outputs[k];
    std::string name = "out" + fmt(static_cast<int64_t>(k));
    s << "    " << name << " = nl.ndarray((";
    for (size_t d = 0; d < o.shape.size(); ++d) s << (d ? ", " : "") << o.shape[d];
    s << (o.shape.size() == 1 ? ",)" : ")") << ", dtype=nl." << dtype_name(o.dtype) << ", buffer=nl.shared_hbm)\n";
    std::vector<int64_t> want = {R, tf->outs[k].per_row ? 1 : C};
    ov.push_back(name);
    if (o.shape != want) {
      ov.back() = name + "_2d";
      s << "    " << ov.back() << " = " << name << ".reshape((" << want[0] << ", " << want[1] << "))\n";
    }
  }
  std::vector<std::string> iv;
  for (size_t i = 0; i < t.inputs.size(); ++i) {
    iv.push_back(args[i]);
    if (xs.size() != 2) {
      iv.back() = args[i] + "_2d";
      s << "    " << iv.back() << " = " << args[i] << ".reshape((" << R << ", " << C << "))\n";
    }
  }
  if (tf->weight >= 0) {
    s << "    w_h = nl.load(" << args[tf->weight] << ".reshape((1, " << C << ")))\n";
    s << "    w_row = nl.copy(w_h, dtype=nl.float32).broadcast_to((" << P << ", " << C << "))\n";
  }
  s << "    P = " << (R < 128 ? fmt(R) : "nl.tile_size.pmax") << "\n";
  std::string full = "[i * P:(i + 1) * P, :]", col = full, mask;
  if (ragged) {
    s << "    ip = nl.arange(P)[:, None]\n    jf = nl.arange(" << C << ")[None, :]\n    jo = nl.arange(1)[None, :]\n";
    full = "[rows, jf]";
    col = "[rows, jo]";
    mask = ", mask=(rows < " + fmt(R) + ")";
  }
  s << "    for i in nl.affine_range(" << (R + P - 1) / P << "):\n";
  if (ragged) s << "        rows = i * P + ip\n";
  for (size_t i = 0; i < t.inputs.size(); ++i) {
    std::string v = "t_x" + fmt(static_cast<int64_t>(i));
    if (t.inputs[i].dtype == DType::Float32) {
      s << "        " << v << " = nl.load(" << iv[i] << full << mask << ")\n";
    } else {
      s << "        " << v << "_h = nl.load(" << iv[i] << full << mask << ")\n";
      s << "        " << v << " = nl.copy(" << v << "_h, dtype=nl.float32)\n";
    }
  }
  for (const std::string& l : tf->body) s << "        " << l << "\n";
  for (size_t k = 0; k < tf->outs.size(); ++k)
    s << "        nl.store(" << ov[k] << (tf->outs[k].per_row ? col : full) << ", value=" << tf->outs[k].value << mask << ")\n";
  s << "    return ";
  for (size_t k = 0; k < ov.size(); ++k) s << (k ? ", " : "") << "out" << k;
  s << "\n";
  std::string plan = "The input is viewed as [" + fmt(R) + ", " + fmt(C) + "] (rows on partitions) in tiles of up to 128 rows" +
                     (ragged ? ", the ragged last tile masked" : "") + "; the " + tf->what +
                     " are computed in float32 per tile and each of the " + fmt(static_cast<int64_t>(ov.size())) +
                     " outputs is stored from it.";
  out.push_back({"fused_tuple:rows", plan, s.str()});
}

}  // namespace

void add_fused_scan_templates(const TaskSpec& t, const std::vector<std::string>& args, std::vector<TemplateKernel>& out) {
  if (t.inputs.empty()) return;
  if (t.outputs.size() > 1) {
    add_tuple_row_templates(t, args, out);
    return;
  }
  add_fused_recurrence_templates(t, args, out);
  if (!out.empty()) return;
  const std::vector<int64_t>& xs = t.inputs[0].shape;
  static const std::vector<RowLineRule> scans = make_scan_rules(), wide = make_wide_scan_rules(),
                                        rank2 = make_rank2_rules(), rank3 = make_rank3_rules(), masks = make_mask_rules();
  RowExtension scan{"fused_scan", {}};
  append(scan.rules, scans);
  if (!xs.empty() && xs.back() >= 2) append(scan.rules, wide);
  if (xs.size() == 2) append(scan.rules, rank2);
  if (xs.size() == 3) append(scan.rules, rank3);
  add_fused_row_templates(t, args, out, &scan);
  if (!out.empty()) return;
  // Masks (possibly with scans): the kernel walks matrices, named apart for the funnel.
  RowExtension mask{"fused_mask", {}};
  for (const RowLineRule& r : masks) mask.rules.push_back(&r);
  mask.rules.insert(mask.rules.end(), scan.rules.begin(), scan.rules.end());
  add_fused_row_templates(t, args, out, &mask);
}

}  // namespace nki::train
