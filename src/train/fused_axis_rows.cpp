// fused_axis forms over rows of the input: reductions and softmax over a non-last axis, pooling,
// and the gated halves of the last axis.
#include "train/fused_axis_common.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <regex>
#include <sstream>

namespace nki::train::axis {

// ---------------------------------------------------------------------------------------------
// Reductions and softmax over a non-last axis d of x = [pre..., A, post..., C]: the output
// rows (the axes after d but the last, else the axes before d) sit on partitions with C on the
// free axis, and a sequential loop walks the A slices, each one a whole [P, C] tile, so the
// prologue runs on every slice and the epilogue on every output tile.

std::optional<AxisOp> parse_axis_line(const std::string& e, const std::string& x) {
  std::string X = regex_quoted(x), D = "(-?[0-9]+)";
  std::smatch m;
  AxisOp a;
  if (std::regex_match(e, m, std::regex("torch\\.(sum|mean|amax|amin|prod|logsumexp|std|var)\\(" + X + ", dim=" + D +
                                        "(, keepdim=True)?\\)"))) {
    a.op = m[1].str();
    a.dim = std::stoll(m[2].str());
    a.keepdim = m[3].matched;
  } else if (std::regex_match(e, m, std::regex("torch\\.(std|var)\\(" + X + ", dim=" + D + ", unbiased=False\\)"))) {
    a.op = m[1].str();
    a.dim = std::stoll(m[2].str());
    a.unbiased = false;
  } else if (std::regex_match(e, m, std::regex("torch\\.(argmax|argmin)\\(" + X + ", dim=" + D + "\\)\\.to\\(torch\\.int32\\)"))) {
    a.op = m[1].str();
    a.dim = std::stoll(m[2].str());
  } else if (std::regex_match(e, m, std::regex("torch\\.linalg\\.vector_norm\\(" + X + ", dim=" + D + "\\)"))) {
    a.op = "norm";
    a.dim = std::stoll(m[1].str());
  } else if (std::regex_match(e, m, std::regex("torch\\.(softmax|log_softmax)\\(" + X + ", dim=" + D + "\\)"))) {
    a.op = m[1].str();
    a.dim = std::stoll(m[2].str());
  } else if (std::regex_match(e, m, std::regex(X + " / torch\\.sqrt\\(torch\\.mean\\(" + X + " \\* " + X + ", dim=" + D +
                                               ", keepdim=True\\) \\+ ([0-9]+(?:\\.[0-9]+)?(?:e-?[0-9]+)?)\\)"))) {
    a.op = "rms";
    a.dim = std::stoll(m[1].str());
    a.eps = m[2].str();
  } else {
    return std::nullopt;
  }
  return a;
}

bool same_shape_op(const std::string& op) { return op == "softmax" || op == "log_softmax" || op == "rms"; }

void add_axis_kernel(const TaskSpec& t, const std::vector<std::string>& args, const Split& sp, const AxisOp& op,
                     std::vector<TemplateKernel>& out) {
  const TensorSpec& x = t.inputs[0];
  const std::vector<int64_t>& S = x.shape;
  int64_t n = static_cast<int64_t>(S.size());
  if (n < 2 || !is_float(x.dtype)) return;
  int64_t d = op.dim < 0 ? op.dim + n : op.dim;
  if (d < 0 || d >= n - 1) return;  // the last axis is the row table's
  int64_t Bo = product(S, 0, d), A = S[d], Mr = product(S, d + 1, n - 1), C = S.back();
  if (C > 2048 || A < 2) return;
  bool same = same_shape_op(op.op);
  std::vector<int64_t> want = S;
  if (!same) {
    if (op.keepdim) want[d] = 1;
    else want.erase(want.begin() + d);
  }
  const TensorSpec& o = t.outputs[0];
  bool index_op = op.op == "argmax" || op.op == "argmin";
  if (index_op && sp.body + 1 < sp.ref.lines.size()) return;  // lines over an index output: not written
  if (o.shape != want || (index_op ? o.dtype != DType::Int32 : !is_float(o.dtype))) return;
  // Rows on partitions: the axes between d and the last when there are any, else those before d.
  bool mid_rows = Mr > 1;
  int64_t rows = mid_rows ? Mr : Bo;
  std::optional<int64_t> P = tile_rows(rows);
  if (!P) return;
  bool b_loop = mid_rows && Bo > 1;
  std::vector<int64_t> xv_shape = mid_rows ? (Bo > 1 ? std::vector<int64_t>{Bo, A, Mr, C} : std::vector<int64_t>{A, Mr, C})
                                           : std::vector<int64_t>{Bo, A, C};
  std::vector<int64_t> red_shape = mid_rows ? (Bo > 1 ? std::vector<int64_t>{Bo, Mr, C} : std::vector<int64_t>{Mr, C})
                                            : std::vector<int64_t>{Bo, C};
  std::string r = span("i", *P);
  auto in_idx = [&](const std::string& a) {
    if (mid_rows) return "[" + std::string(b_loop ? "bo, " : "") + a + ", " + r + ", :]";
    return "[" + r + ", " + a + ", :]";
  };
  std::string red_idx = mid_rows ? "[" + std::string(b_loop ? "bo, " : "") + r + ", :]" : "[" + r + ", :]";
  std::vector<int64_t> ov_shape = same ? xv_shape : red_shape;

  std::optional<Lines> pro = prologue_of(sp, prologue_ops(t, args, C, true), C, false);
  if (!pro) return;
  std::optional<Lines> epi = epilogue_of(sp, epilogue_ops(t, args, 1, C, true), C, false);
  if (!epi) return;

  std::ostringstream s;
  s << kHeader << (index_op ? "import neuronxcc.nki.isa as nisa\n\n\n" : "") << signature(args);
  s << "    out = nl.ndarray(" << tuple_text(o.shape) << ", dtype=" << nl_dtype(o.dtype) << ", buffer=nl.shared_hbm)\n";
  std::string xv = view_of(s, args[0], S, xv_shape);
  std::string ov = view_of(s, "out", o.shape, ov_shape);
  std::map<std::string, std::string> ev = epilogue_views(s, *epi, ov_shape);
  lines::emit_broadcast_loads(s, pro->ops, pro->tl.used, *P, C, "    ");
  lines::emit_broadcast_loads(s, epi->ops, epi->tl.used, *P, C, "    ");
  std::string ind = "    ";
  if (b_loop) {
    s << ind << "for bo in nl.affine_range(" << Bo << "):\n";
    ind += "    ";
  }
  s << ind << "for i in nl.affine_range(" << rows / *P << "):\n";
  ind += "    ";
  const std::string X = "px_" + args[0];
  std::string tile = "(" + num(*P) + ", " + num(C) + ")";
  // The slice at axis index `a` with the prologue applied, in X.
  auto slice = [&](const std::string& a, const std::string& in) {
    emit_load(s, X, x.dtype, xv + in_idx(a), in);
    emit_body(s, pro->tl, in);
  };
  // acc = op over every slice (zeros, then acc = f(acc, g(X))); `first` starts from slice 0.
  auto fold = [&](const std::string& acc, const std::string& fn, const std::string& g, bool from_first) {
    if (from_first) {
      s << ind << acc << " = nl.ndarray(" << tile << ", dtype=nl.float32, buffer=nl.sbuf)\n";
      slice("0", ind);
      s << ind << acc << "[...] = nl.copy(" << g << ")\n";
      s << ind << "for ai in nl.sequential_range(1, " << A << "):\n";
    } else {
      s << ind << acc << " = nl.zeros(" << tile << ", dtype=nl.float32, buffer=nl.sbuf)\n";
      s << ind << "for ai in nl.sequential_range(" << A << "):\n";
    }
    slice("ai", ind + "    ");
    s << ind << "    " << acc << "[...] = " << fn << "(" << acc << ", " << g << ")\n";
  };
  std::string invA = "(1.0 / " + num(A) + ")";
  const std::string& k = op.op;
  if (k == "sum" || k == "mean" || k == "norm") {
    fold("red_acc", "nl.add", k == "norm" ? X + " * " + X : X, false);
    s << ind << "v = " << (k == "sum" ? "red_acc" : k == "mean" ? "red_acc * " + invA : "nl.sqrt(red_acc)") << "\n";
  } else if (k == "amax" || k == "amin" || k == "prod") {
    fold("red_acc", k == "amax" ? "nl.maximum" : k == "amin" ? "nl.minimum" : "nl.multiply", X, true);
    s << ind << "v = red_acc\n";
  } else if (k == "var" || k == "std") {
    // two passes (the mean, then the squared deviations), as torch does, not E[x^2] - E[x]^2
    fold("red_acc", "nl.add", X, false);
    s << ind << "red_mu = red_acc * " << invA << "\n";
    fold("red_sq", "nl.add", "(" + X + " - red_mu) * (" + X + " - red_mu)", false);
    std::string var = "red_sq * (1.0 / " + num(op.unbiased ? A - 1 : A) + ")";
    s << ind << "v = " << (k == "std" ? "nl.sqrt(" + var + ")" : var) << "\n";
  } else if (k == "logsumexp" || k == "softmax" || k == "log_softmax") {
    fold("red_mx", "nl.maximum", X, true);
    fold("red_acc", "nl.add", "nl.exp(" + X + " - red_mx)", false);
    if (k == "logsumexp") s << ind << "v = nl.log(red_acc) + red_mx\n";
    else if (k == "log_softmax") s << ind << "red_ls = nl.log(red_acc)\n";
  } else if (index_op) {
    // the running extreme and its index; a strict comparison keeps the first of equal values,
    // as torch does, and the loop index enters as a [1, 1] iota broadcast to the tile
    bool mx = k == "argmax";
    s << ind << "red_mx = nl.ndarray(" << tile << ", dtype=nl.float32, buffer=nl.sbuf)\n";
    slice("0", ind);
    s << ind << "red_mx[...] = nl.copy(" << X << ")\n";
    s << ind << "red_ix = nl.zeros(" << tile << ", dtype=nl.float32, buffer=nl.sbuf)\n";
    s << ind << "for ai in nl.sequential_range(1, " << A << "):\n";
    std::string in = ind + "    ";
    slice("ai", in);
    s << in << "red_at = nisa.iota(ai, dtype=nl.float32).broadcast_to(" << tile << ")\n";
    s << in << "red_ix[...] = nl.where(" << (mx ? "nl.greater(" : "nl.less(") << X << ", red_mx), red_at, red_ix)\n";
    s << in << "red_mx[...] = " << (mx ? "nl.maximum" : "nl.minimum") << "(red_mx, " << X << ")\n";
    s << ind << "v = nl.copy(red_ix, dtype=nl.int32)\n";
  } else if (k == "rms") {
    fold("red_acc", "nl.add", X + " * " + X, false);
    s << ind << "red_den = nl.sqrt(red_acc * " << invA << " + " << op.eps << ")\n";
  } else {
    return;
  }
  if (same) {
    // one more pass over the slices, each written to its own place of the output
    s << ind << "for ai in nl.affine_range(" << A << "):\n";
    std::string in = ind + "    ";
    slice("ai", in);
    if (k == "softmax") s << in << "v = nl.exp(" << X << " - red_mx) / red_acc\n";
    else if (k == "log_softmax") s << in << "v = (" << X << " - red_mx) - red_ls\n";
    else s << in << "v = " << X << " / red_den\n";
    emit_epilogue_and_store(s, *epi, ev, ov, in_idx("ai"), in);
  } else {
    emit_epilogue_and_store(s, *epi, ev, ov, red_idx, ind);
  }
  s << "    return out\n";
  std::string layout = "x is viewed as " + tuple_text(xv_shape) + "; tiles of " + num(*P) + " rows of " + num(C) +
                       " (rows on partitions) and a sequential loop over the " + num(A) + " slices of axis " + num(d) +
                       (same ? " (statistics first, then every slice normalised and stored)" : ", accumulated in float32 SBUF tiles");
  out.push_back({same ? "fused_axis:softmax" : "fused_axis:reduce", plan_of(layout, *pro, k + " over axis " + num(d), *epi), s.str()});
}

// ---------------------------------------------------------------------------------------------
// Pooling. When the windows tile H exactly (stride == window, no dilation), every output row
// of the [lead * Ho, Wo] view reads kh whole input rows, which are contiguous: one
// [P, kh * W] load per tile holds all its windows. Otherwise (a 2-D pool with another stride,
// a dilation, or a ragged H) each image is one tile of Ho output rows, loaded kh times as
// the strided row sets [i * dh :: sh] of the image. Along W (the only axis of a 1-D pool) any
// stride, dilation and padding: window element (i, j) of output columns lo..hi is a strided
// slice of the row tile, and columns whose element falls in the padding skip it (max pooling
// pads with -inf, average pooling counts the padding, as torch's count_include_pad=True).
// Global pools (one window per whole row) reduce the free axis.

std::optional<PoolOp> parse_pool_line(const std::string& e, const std::string& x) {
  std::string X = regex_quoted(x), K = "([0-9]+)";
  std::smatch m;
  PoolOp p;
  if (std::regex_match(e, m, std::regex("F\\.(max|avg)_pool([12])d\\(" + X + ", " + K + "\\)"))) {
    p.op = m[1].str();
    p.two_d = m[2].str() == "2";
    p.kw = std::stoll(m[3].str());
    p.kh = p.two_d ? p.kw : 1;
  } else if (std::regex_match(e, m, std::regex("F\\.(max|avg)_pool1d\\(" + X + ", " + K + ", stride=" + K + "(?:, padding=" + K + ")?\\)"))) {
    p.op = m[1].str();
    p.two_d = false;
    p.kw = std::stoll(m[2].str());
    p.sw = std::stoll(m[3].str());
    p.pw = m[4].matched ? std::stoll(m[4].str()) : 0;
  } else if (std::regex_match(e, m, std::regex("F\\.max_pool2d\\(" + X + ", " + K + ", stride=" + K + "(?:, dilation=" + K + ")?\\)"))) {
    p.op = "max";
    p.kh = p.kw = std::stoll(m[1].str());
    p.sh = p.sw = std::stoll(m[2].str());
    p.dil = m[3].matched ? std::stoll(m[3].str()) : 1;
  } else if (std::regex_match(e, m, std::regex("F\\.(max|avg)_pool2d\\(" + X + ", \\(" + K + ", " + K + "\\)\\)"))) {
    p.op = m[1].str();
    p.kh = std::stoll(m[2].str());
    p.kw = std::stoll(m[3].str());
  } else if (std::regex_match(e, m, std::regex("F\\.lp_pool([12])d\\(" + X + ", 2(?:\\.0)?, " + K + "\\)"))) {
    p.op = "lp2";
    p.two_d = m[1].str() == "2";
    p.kw = std::stoll(m[2].str());
    p.kh = p.two_d ? p.kw : 1;
  } else if (std::regex_match(e, m, std::regex("F\\.adaptive_(max|avg)_pool([12])d\\(" + X + ", " + K + "\\)"))) {
    p.op = m[1].str();
    p.two_d = m[2].str() == "2";
    p.adaptive = std::stoll(m[3].str());
  } else if (e == x + ".mean(dim=(2, 3))" || e == x + ".mean(dim=(-2, -1))") {
    p.op = "avg";
    p.mean_hw = true;
  } else {
    return std::nullopt;
  }
  return p;
}

void add_pool_kernel(const TaskSpec& t, const std::vector<std::string>& args, const Split& sp, PoolOp p,
                     std::vector<TemplateKernel>& out) {
  const TensorSpec& x = t.inputs[0];
  const std::vector<int64_t>& S = x.shape;
  size_t n = S.size();
  if (!is_float(x.dtype) || n < (p.two_d ? 3u : 2u) || (p.mean_hw && n != 4) || clashes(args, {"l"})) return;
  int64_t H = p.two_d ? S[n - 2] : 1, W = S[n - 1];
  size_t lead_axes = p.two_d ? n - 2 : n - 1;
  int64_t lead = product(S, 0, lead_axes);
  if (p.mean_hw) p.kh = H, p.kw = W;
  if (p.adaptive > 0) {
    // adaptive pooling over an extent divisible by the output extent is a plain pool
    if ((p.two_d && H % p.adaptive) || W % p.adaptive) return;
    p.kh = p.two_d ? H / p.adaptive : 1;
    p.kw = W / p.adaptive;
  }
  if (p.sh == 0) p.sh = p.kh;
  if (p.sw == 0) p.sw = p.kw;
  // torch: padding at most half the window; floor division drops a ragged tail
  int64_t span_h = p.dil * (p.kh - 1) + 1, span_w = p.dil * (p.kw - 1) + 1;
  if (p.kh < 1 || p.kw < 1 || p.kh * p.kw < 2 || 2 * p.pw > p.kw || H < span_h || W + 2 * p.pw < span_w) return;
  if (p.pw > 0 && p.op != "max" && p.op != "avg") return;
  int64_t Ho = (H - span_h) / p.sh + 1, Wo = (W + 2 * p.pw - span_w) / p.sw + 1;
  std::vector<int64_t> want(S.begin(), S.begin() + lead_axes);
  if (!p.mean_hw) {
    if (p.two_d) want.push_back(Ho);
    want.push_back(Wo);
  }
  const TensorSpec& o = t.outputs[0];
  if (o.shape != want || !is_float(o.dtype)) return;
  // contiguous: each output row's windows are kh whole input rows in a row
  bool contiguous = p.kh == 1 || (p.sh == p.kh && p.dil == 1 && H % p.kh == 0);
  int64_t R = contiguous ? lead * Ho : Ho, F = contiguous ? p.kh * W : W;
  bool whole_rows = contiguous && Wo == 1 && p.kw == W && p.pw == 0;  // every window is a whole tile row
  if (F > 4096 || R > 128 * 1024 || (!whole_rows && p.kh * p.kw > 64)) return;
  std::optional<int64_t> P = contiguous ? tile_rows(R) : std::optional<int64_t>(Ho);
  if (!P || *P > 128) return;
  // The tile's free axis is one input row unless it holds kh of them.
  bool in_rows = !contiguous || p.kh == 1;
  std::optional<Lines> pro = prologue_of(sp, prologue_ops(t, args, W, in_rows), W, !in_rows);
  if (!pro) return;
  bool out_rows = !o.shape.empty() && o.shape.back() == Wo;  // the output's last axis is the free axis
  std::optional<Lines> epi = epilogue_of(sp, epilogue_ops(t, args, 1, Wo, out_rows), Wo, !out_rows);
  if (!epi) return;
  // Output columns lo..hi whose window element j along W falls inside the row (not the padding).
  struct Part {
    int64_t lo, hi, start;
  };
  std::vector<Part> parts;
  for (int64_t j = 0; j < p.kw; ++j) {
    int64_t off = j * p.dil - p.pw;
    int64_t lo = 0;
    while (lo < Wo && p.sw * lo + off < 0) ++lo;
    int64_t hi = Wo - 1;
    while (hi >= lo && p.sw * hi + off > W - 1) --hi;
    if (hi < lo) continue;
    parts.push_back({lo, hi, p.sw * lo + off});
  }
  size_t full = parts.size();
  for (size_t q = 0; q < parts.size() && full == parts.size(); ++q)
    if (parts[q].lo == 0 && parts[q].hi == Wo - 1) full = q;
  if (!whole_rows && full == parts.size()) return;  // no element every window has

  std::ostringstream s;
  s << kHeader << signature(args);
  s << "    out = nl.ndarray(" << tuple_text(o.shape) << ", dtype=" << nl_dtype(o.dtype) << ", buffer=nl.shared_hbm)\n";
  std::vector<int64_t> ov_shape = contiguous ? std::vector<int64_t>{R, Wo} : std::vector<int64_t>{lead, Ho, Wo};
  std::string xv = view_of(s, args[0], S, contiguous ? std::vector<int64_t>{R, F} : std::vector<int64_t>{lead, H, W});
  std::string ov = view_of(s, "out", o.shape, ov_shape);
  std::map<std::string, std::string> ev = epilogue_views(s, *epi, ov_shape);
  lines::emit_broadcast_loads(s, pro->ops, pro->tl.used, *P, W, "    ");
  lines::emit_broadcast_loads(s, epi->ops, epi->tl.used, *P, Wo, "    ");
  const std::string ind = "        ", X = "px_" + args[0];
  std::string idx = contiguous ? "[" + span("i", *P) + ", :]" : "[l, :, :]";
  s << "    for " << (contiguous ? "i" : "l") << " in nl.affine_range(" << (contiguous ? R / *P : lead) << "):\n";
  // The tile holding window row i: the one load, or the image's rows i * dil :: sh.
  auto row_tile = [&](int64_t i) {
    if (contiguous) return X;
    std::string var = X + "_r" + num(i);
    int64_t first = i * p.dil;
    emit_load(s, X, x.dtype, xv + "[l, " + num(first) + ":" + num(first + p.sh * (Ho - 1) + 1) + ":" + num(p.sh) + ", :]", ind);
    emit_body(s, pro->tl, ind);
    s << ind << var << " = " << X << "\n";
    return var;
  };
  if (contiguous) {
    emit_load(s, X, x.dtype, xv + idx, ind);
    emit_body(s, pro->tl, ind);
  }
  int64_t win = p.kh * p.kw;
  std::string inv = "(1.0 / " + num(win) + ")";
  if (whole_rows) {
    if (p.op == "max") s << ind << "v = nl.max(" << X << ", axis=1, keepdims=True)\n";
    else if (p.op == "avg") s << ind << "v = nl.sum(" << X << ", axis=1, keepdims=True) * " << inv << "\n";
    else s << ind << "v = nl.sqrt(nl.sum(" << X << " * " << X << ", axis=1, keepdims=True))\n";
  } else {
    std::string fn = p.op == "max" ? "nl.maximum" : "nl.add";
    auto slice_of = [&](const std::string& tile, const Part& q, int64_t i) {
      int64_t base = contiguous ? i * W : 0;
      std::string sl = tile + "[:, " + num(base + q.start) + ":" + num(base + q.start + (q.hi - q.lo) * p.sw + 1) + ":" + num(p.sw) + "]";
      return p.op == "lp2" ? sl + " * " + sl : sl;
    };
    for (int64_t i = 0; i < p.kh; ++i) {
      std::string tile = row_tile(i);
      if (i == 0) {
        s << ind << "v = nl.ndarray((" << *P << ", " << Wo << "), dtype=nl.float32, buffer=nl.sbuf)\n";
        s << ind << "v[...] = nl.copy(" << slice_of(tile, parts[full], 0) << ")\n";
      }
      for (size_t q = 0; q < parts.size(); ++q) {
        if (i == 0 && q == full) continue;
        const Part& pt = parts[q];
        std::string cols = pt.lo == 0 && pt.hi == Wo - 1 ? "" : "[:, " + num(pt.lo) + ":" + num(pt.hi + 1) + "]";
        std::string dst = cols.empty() ? "v[...]" : "v" + cols;
        s << ind << dst << " = " << fn << "(v" << cols << ", " << slice_of(tile, pt, i) << ")\n";
      }
    }
    if (p.op == "avg") s << ind << "v = v * " << inv << "\n";
    if (p.op == "lp2") s << ind << "v = nl.sqrt(v)\n";
  }
  emit_epilogue_and_store(s, *epi, ev, ov, idx, ind);
  s << "    return out\n";
  std::string layout =
      contiguous ? "x is viewed as [" + num(R) + ", " + num(F) + "] (each output row's " + num(p.kh) +
                       " input rows, contiguous, on one partition) in tiles of " + num(*P) + " rows"
                 : "per image of the " + num(lead) + ", the " + num(Ho) + " output rows on partitions and the " + num(p.kh) +
                       " window rows loaded as strided row sets of the image";
  layout += std::string("; the ") + num(win) + " elements of every window are " +
            (whole_rows ? "the whole free axis" : "strided slices of the row tiles");
  std::string name = std::string(p.op == "lp2" ? "lp" : p.op) + " pool " + num(p.kh) + "x" + num(p.kw) +
                     (p.sw != p.kw || p.sh != p.kh || p.pw || p.dil > 1
                          ? " stride " + num(p.sw) + " padding " + num(p.pw) + " dilation " + num(p.dil)
                          : "");
  out.push_back({"fused_axis:pool", plan_of(layout, *pro, name, *epi), s.str()});
}

// ---------------------------------------------------------------------------------------------
// Gated halves of the last axis: `a, b = x.chunk(2, dim=-1)` followed by lines over a and b
// (swiglu_split: F.silu(a) * b, ...), or F.glu(x, dim=-1) = a * sigmoid(b). One [P, C] load per
// tile of x rows; a and b are its two column halves, so every line stays a row line.
void add_chunk_kernel(const TaskSpec& t, const std::vector<std::string>& args, std::vector<TemplateKernel>& out) {
  std::optional<Reference> ref = lines::read_reference(t.dir);
  if (!ref || ref->args.empty() || ref->args.size() != t.inputs.size() || clashes(args, {"ck_a", "ck_b", "v"})) return;
  for (const auto& [n, md] : ref->modules)
    if (md.type == "Linear") return;
  const std::string& x = ref->args[0];
  static const std::regex chunk_line(R"(^(\w+), (\w+) = (\w+)\.chunk\(2, dim=-1\)$)");
  size_t ci = 0;
  std::smatch m;
  bool glu = false;
  for (; ci < ref->lines.size(); ++ci) {
    if (std::regex_match(ref->lines[ci], m, chunk_line) && m[3].str() == x) break;
    if (ref->lines[ci] == "y = F.glu(" + x + ", dim=-1)") {
      glu = true;
      break;
    }
  }
  if (ci == ref->lines.size()) return;
  const TensorSpec& X = t.inputs[0];
  const TensorSpec& o = t.outputs[0];
  if (X.shape.size() < 2 || !is_float(X.dtype) || !is_float(o.dtype)) return;
  int64_t C = X.shape.back(), R = product(X.shape) / C, C2 = C / 2;
  std::vector<int64_t> want = X.shape;
  want.back() = C2;
  if (C % 2 || o.shape != want || C > 4096) return;
  std::optional<int64_t> P = tile_rows(R);
  if (!P) return;
  Split sp{*ref, ci, ""};
  std::optional<Lines> pro = prologue_of(sp, prologue_ops(t, args, C, true), C, false);
  if (!pro) return;
  std::map<std::string, Operand> ops = epilogue_ops(t, args, 1, C2, true);
  if (!glu) {
    ops[m[1].str()] = Operand{"", "ck_a", Access::Full, DType::Float32, want};
    ops[m[2].str()] = Operand{"", "ck_b", Access::Full, DType::Float32, want};
  }
  Lines post;
  post.ops = ops;
  std::optional<Translation> tl = lines::translate_lines(*ref, post.ops, C2, ci + 1, SIZE_MAX, glu);
  if (!tl || tl->reduced) return;
  bool assigns_y = glu;
  for (const std::string& l : tl->body) assigns_y = assigns_y || l.rfind("v = ", 0) == 0;
  if (!assigns_y) return;
  post.tl = *tl;
  std::ostringstream s;
  s << kHeader << signature(args);
  s << "    out = nl.ndarray(" << tuple_text(o.shape) << ", dtype=" << nl_dtype(o.dtype) << ", buffer=nl.shared_hbm)\n";
  std::string xv = view_of(s, args[0], X.shape, {R, C});
  std::string ov = view_of(s, "out", o.shape, {R, C2});
  std::map<std::string, std::string> ev = epilogue_views(s, post, {R, C2});
  lines::emit_broadcast_loads(s, pro->ops, pro->tl.used, *P, C, "    ");
  lines::emit_broadcast_loads(s, post.ops, post.tl.used, *P, C2, "    ");
  s << "    for i in nl.affine_range(" << R / *P << "):\n";
  std::string ind = "        ", idx = "[" + span("i", *P) + ", :]", Xv = "px_" + args[0];
  emit_load(s, Xv, X.dtype, xv + idx, ind);
  emit_body(s, pro->tl, ind);
  s << ind << "ck_a = " << Xv << "[:, 0:" << C2 << "]\n";
  s << ind << "ck_b = " << Xv << "[:, " << C2 << ":" << C << "]\n";
  if (glu) s << ind << "v = ck_a * nl.sigmoid(ck_b)\n";
  emit_epilogue_and_store(s, post, ev, ov, idx, ind);
  s << "    return out\n";
  std::string layout = "x viewed as [" + num(R) + ", " + num(C) + "] in tiles of " + num(*P) + " rows; the two halves of each row (" +
                       num(C2) + " columns each) are column slices of the tile";
  out.push_back({"fused_axis:halves", plan_of(layout, *pro, glu ? "glu" : "chunk into halves", post), s.str()});
}

}  // namespace nki::train::axis
