#include "train/fused_scan_templates.h"

#include <string>
#include <vector>

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

}  // namespace

void add_fused_scan_templates(const TaskSpec& t, const std::vector<std::string>& args, std::vector<TemplateKernel>& out) {
  if (t.inputs.empty()) return;
  const std::vector<int64_t>& xs = t.inputs[0].shape;
  static const std::vector<RowLineRule> scans = make_scan_rules(), wide = make_wide_scan_rules(),
                                        rank2 = make_rank2_rules(), masks = make_mask_rules();
  RowExtension scan{"fused_scan", {}};
  append(scan.rules, scans);
  if (!xs.empty() && xs.back() >= 2) append(scan.rules, wide);
  if (xs.size() == 2) append(scan.rules, rank2);
  add_fused_row_templates(t, args, out, &scan);
  if (!out.empty()) return;
  // Masks (possibly with scans): the kernel walks matrices, named apart for the funnel.
  RowExtension mask{"fused_mask", {}};
  for (const RowLineRule& r : masks) mask.rules.push_back(&r);
  mask.rules.insert(mask.rules.end(), scan.rules.begin(), scan.rules.end());
  add_fused_row_templates(t, args, out, &mask);
}

}  // namespace nki::train
