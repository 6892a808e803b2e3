#include "train/fused_axis_templates.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <numeric>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include "train/fused_lines.h"

namespace nki::train {

namespace {

using lines::Access;
using lines::Operand;
using lines::Reference;
using lines::Translation;

const char* kHeader =
    "import neuronxcc.nki as nki\n"
    "import neuronxcc.nki.language as nl\n\n\n";

int64_t product(const std::vector<int64_t>& s, size_t from = 0, size_t to = SIZE_MAX) {
  int64_t p = 1;
  for (size_t i = from; i < std::min(to, s.size()); ++i) p *= s[i];
  return p;
}

std::string tuple_text(const std::vector<int64_t>& s) {
  std::string t = "(";
  for (size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
  return t + (s.size() == 1 ? ",)" : ")");
}

int64_t divisor_at_most(int64_t n, int64_t cap) {
  for (int64_t d = std::min(n, cap); d >= 1; --d)
    if (n % d == 0) return d;
  return 1;
}

// Rows per tile: the largest divisor of `rows` up to 128, or nothing when that leaves tiles of
// a handful of partitions (a prime row count; no masked variant is written here).
std::optional<int64_t> tile_rows(int64_t rows) {
  int64_t p = divisor_at_most(rows, 128);
  if (p < 8 && p != rows) return std::nullopt;
  return p;
}

bool is_float(DType t) { return t == DType::Float32 || t == DType::BFloat16 || t == DType::Float16; }

std::string nl_dtype(DType t) { return std::string("nl.") + dtype_name(t); }

std::string num(int64_t v) { return std::to_string(v); }

// `i * P:(i + 1) * P` for loop variable i.
std::string span(const std::string& i, int64_t p) { return i + " * " + num(p) + ":(" + i + " + 1) * " + num(p); }

std::string regex_quoted(const std::string& s) {
  std::string r;
  for (char c : s) {
    if (std::string("\\^$.|?*+()[]{}").find(c) != std::string::npos) r += '\\';
    r += c;
  }
  return r;
}

// 1 / sqrt(d) written out to full double precision.
std::string fmt_scale(int64_t d) {
  std::ostringstream o;
  o.precision(17);
  o << 1.0 / std::sqrt(static_cast<double>(d));
  return o.str();
}

// Whether a kernel parameter is named like one of a generator's loop indices or tiles.
bool clashes(const std::vector<std::string>& args, std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (std::find(args.begin(), args.end(), n) != args.end()) return true;
  return false;
}

bool has_row_op(const Translation& t) {
  for (const std::string& l : t.body)
    if (l.find("axis=1") != std::string::npos) return true;
  return false;
}

// ---------------------------------------------------------------------------------------------
// forward() around the seed line: prologue lines [0, body) rewrite the first input, the seed
// line `y = ...` is lines[body], the epilogue lines after it rewrite y.

struct Split {
  Reference ref;
  size_t body = 0;
  std::string expr;  // right-hand side of the seed line
};

std::optional<Split> split_reference(const TaskSpec& t) {
  std::optional<Reference> ref = lines::read_reference(t.dir);
  if (!ref || ref->args.size() != t.inputs.size() || ref->args.empty()) return std::nullopt;
  for (const auto& [n, m] : ref->modules)
    if (m.type == "Linear") return std::nullopt;
  for (size_t i = 0; i < ref->lines.size(); ++i)
    if (ref->lines[i].rfind("y = ", 0) == 0) return Split{*ref, i, ref->lines[i].substr(4)};
  return std::nullopt;
}

// Translated lines and the operands they may read.
struct Lines {
  Translation tl;
  std::map<std::string, Operand> ops;
};

bool loadable(DType d) { return is_float(d) || d == DType::Int32; }

// Prologue operands: the first input itself (variable px_<name>), [C] rows (only when the
// tile's free axis is the input's last axis) and [1] scalars.
std::map<std::string, Operand> prologue_ops(const TaskSpec& t, const std::vector<std::string>& args, int64_t C, bool rows_ok) {
  std::vector<TensorSpec> all = t.kernel_args();
  std::map<std::string, Operand> ops;
  ops[all[0].name] = Operand{args[0], "px_" + args[0], Access::Full, all[0].dtype, all[0].shape};
  for (size_t i = 1; i < all.size(); ++i) {
    const TensorSpec& s = all[i];
    if (!is_float(s.dtype)) continue;
    Operand o{args[i], "px_" + args[i], Access::Scalar, s.dtype, s.shape};
    if (rows_ok && s.shape == std::vector<int64_t>{C}) o.access = Access::Row;
    else if (product(s.shape) != 1) continue;
    ops[s.name] = o;
  }
  return ops;
}

// Epilogue operands over the output: tensors of the output's shape (Full), [C] rows (when the
// tile's free axis is the output's last axis) and [1] scalars; the seed's own inputs (the
// first `seed_inputs`) are not among them.
std::map<std::string, Operand> epilogue_ops(const TaskSpec& t, const std::vector<std::string>& args, size_t seed_inputs, int64_t C,
                                            bool rows_ok) {
  std::vector<TensorSpec> all = t.kernel_args();
  const std::vector<int64_t>& o = t.outputs[0].shape;
  std::map<std::string, Operand> ops;
  for (size_t i = seed_inputs; i < all.size(); ++i) {
    const TensorSpec& s = all[i];
    if (!loadable(s.dtype)) continue;
    Operand op{args[i], "t_" + args[i], Access::Full, s.dtype, s.shape};
    if (s.shape == o) op.access = Access::Full;
    else if (rows_ok && s.shape == std::vector<int64_t>{C}) op.access = Access::Row;
    else if (product(s.shape) == 1 && is_float(s.dtype)) op.access = Access::Scalar;
    else continue;
    ops[s.name] = op;
  }
  return ops;
}

// The lines before the seed line, over tiles of row length C; maps_only when the tile's free
// axis is not one whole row of the input (pooling windows, transposed loads).
std::optional<Lines> prologue_of(const Split& sp, std::map<std::string, Operand> ops, int64_t C, bool maps_only) {
  Lines L;
  L.ops = std::move(ops);
  if (sp.body == 0) return L;
  std::optional<Translation> tl = lines::translate_lines(sp.ref, L.ops, C, 0, sp.body, false);
  if (!tl || tl->reduced || (maps_only && has_row_op(*tl))) return std::nullopt;
  L.tl = *tl;
  return L;
}

std::optional<Lines> epilogue_of(const Split& sp, std::map<std::string, Operand> ops, int64_t C, bool maps_only) {
  Lines L;
  L.ops = std::move(ops);
  if (sp.body + 1 >= sp.ref.lines.size()) return L;
  std::optional<Translation> tl = lines::translate_lines(sp.ref, L.ops, C, sp.body + 1, SIZE_MAX, true);
  if (!tl || tl->reduced || (maps_only && has_row_op(*tl))) return std::nullopt;
  L.tl = *tl;
  return L;
}

// `name` viewed with `want` (a reshape when the shapes differ); returns the view's name.
std::string view_of(std::ostringstream& s, const std::string& name, const std::vector<int64_t>& shape,
                    const std::vector<int64_t>& want) {
  if (shape == want) return name;
  std::string v = name + "_v";
  s << "    " << v << " = " << name << ".reshape(" << tuple_text(want) << ")\n";
  return v;
}

// A tile load at `idx`, as float32 into `var`.
void emit_load(std::ostringstream& s, const std::string& var, DType dtype, const std::string& src, const std::string& ind) {
  if (dtype == DType::Float32) {
    s << ind << var << " = nl.load(" << src << ")\n";
  } else {
    s << ind << var << "_h = nl.load(" << src << ")\n";
    s << ind << var << " = nl.copy(" << var << "_h, dtype=nl.float32)\n";
  }
}

void emit_body(std::ostringstream& s, const Translation& tl, const std::string& ind) {
  for (const std::string& l : tl.body) s << ind << l << "\n";
}

// The epilogue's full-tile views (before the loops), keyed by operand name.
std::map<std::string, std::string> epilogue_views(std::ostringstream& s, const Lines& epi, const std::vector<int64_t>& view) {
  std::map<std::string, std::string> v;
  for (const auto& [name, op] : epi.ops)  // (an operand without a parameter is a tile of the kernel's own)
    if (epi.tl.used.count(name) && op.access == Access::Full && !op.arg.empty()) v[name] = view_of(s, op.arg, op.shape, view);
  return v;
}

// Inside the tile loop: the epilogue's full tiles at `idx`, its lines, the store of v.
void emit_epilogue_and_store(std::ostringstream& s, const Lines& epi, const std::map<std::string, std::string>& views,
                             const std::string& out_view, const std::string& idx, const std::string& ind) {
  for (const auto& [name, op] : epi.ops)
    if (views.count(name)) emit_load(s, op.var, op.dtype, views.at(name) + idx, ind);
  emit_body(s, epi.tl, ind);
  s << ind << "nl.store(" << out_view << idx << ", value=v)\n";
}

std::string signature(const std::vector<std::string>& args) {
  std::string s = "@nki.jit\ndef kernel(";
  for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i];
  return s + "):\n";
}

std::string plan_of(const std::string& layout, const Lines& pro, const std::string& seed, const Lines& epi) {
  Translation all;
  all.summary = pro.tl.summary;
  all.summary.push_back(seed);
  all.summary.insert(all.summary.end(), epi.tl.summary.begin(), epi.tl.summary.end());
  return lines::plan_sentence(layout, all);
}

// ---------------------------------------------------------------------------------------------
// Reductions and softmax over a non-last axis d of x = [pre..., A, post..., C]: the output
// rows (the axes after d but the last, else the axes before d) sit on partitions with C on the
// free axis, and a sequential loop walks the A slices, each one a whole [P, C] tile, so the
// prologue runs on every slice and the epilogue on every output tile.

struct AxisOp {
  std::string op;  // sum mean amax amin prod logsumexp std var norm softmax log_softmax rms
  int64_t dim = 0;
  bool keepdim = false;
  bool unbiased = true;
  std::string eps;
};

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

struct PoolOp {
  std::string op;  // max avg lp2
  bool two_d = true;
  int64_t kh = 1, kw = 1;
  int64_t sh = 0, sw = 0;  // strides (0: the window)
  int64_t dil = 1;         // dilation (both axes)
  int64_t pw = 0;          // padding along W
  int64_t adaptive = 0;    // output extent of an adaptive pool (per axis)
  bool mean_hw = false;    // x.mean(dim=(2, 3))
};

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
// Matrix-vector seeds. matvec a[.., M, K] @ v[K, 1]: rows of a on partitions, v broadcast along
// them, a free-axis sum; v[K] @ a[K, N]: TensorE contraction over K on partitions ([K, 1] as
// the stationary operand) into one [1, N] PSUM row; outer(a, b) and diag(d) @ b: a column
// [P, 1] times a row (or a [P, N] tile) broadcast along the free axis.

void add_matvec_kernels(const TaskSpec& t, const std::vector<std::string>& args, const Split& sp,
                        std::vector<TemplateKernel>& out) {
  if (t.inputs.size() < 2 || clashes(args, {"k"})) return;
  const std::string& a0 = sp.ref.args[0];
  const std::string& a1 = sp.ref.args[1];
  const TensorSpec& x0 = t.inputs[0];
  const TensorSpec& x1 = t.inputs[1];
  const TensorSpec& o = t.outputs[0];
  if (!is_float(x0.dtype) || !is_float(x1.dtype) || !is_float(o.dtype)) return;
  std::string form;
  if (sp.expr == "torch.matmul(" + a0 + ", " + a1 + ")" || sp.expr == a0 + " @ " + a1) {
    if (x1.shape.size() == 2 && x1.shape[1] == 1 && x0.shape.size() >= 2) form = "matvec";
    else if (x0.shape.size() == 1 && x1.shape.size() == 2) form = "vecmat";
  } else if (sp.expr == "torch.outer(" + a0 + ", " + a1 + ")") {
    form = "outer";
  } else if (sp.expr == "torch.diag(" + a0 + ") @ " + a1) {
    form = "diag";
  }
  if (form.empty()) return;
  if (form != "matvec" && sp.body != 0) return;  // a prologue on a 1-D operand: not written here
  std::ostringstream s;
  s << kHeader << signature(args);
  s << "    out = nl.ndarray(" << tuple_text(o.shape) << ", dtype=" << nl_dtype(o.dtype) << ", buffer=nl.shared_hbm)\n";
  std::string layout;
  Lines pro;
  std::optional<Lines> epi;
  if (form == "matvec") {
    int64_t K = x0.shape.back(), R = product(x0.shape) / K;
    std::vector<int64_t> want = x0.shape;
    want.back() = 1;
    if (x1.shape[0] != K || o.shape != want || K > 4096) return;
    std::optional<int64_t> P = tile_rows(R);
    if (!P) return;
    std::optional<Lines> pr = prologue_of(sp, prologue_ops(t, args, K, true), K, false);
    if (!pr) return;
    pro = *pr;
    epi = epilogue_of(sp, epilogue_ops(t, args, 2, 1, true), 1, false);
    if (!epi) return;
    std::string xv = view_of(s, args[0], x0.shape, {R, K});
    std::string ov = view_of(s, "out", o.shape, {R, 1});
    std::map<std::string, std::string> ev = epilogue_views(s, *epi, {R, 1});
    lines::emit_broadcast_loads(s, pro.ops, pro.tl.used, *P, K, "    ");
    lines::emit_broadcast_loads(s, epi->ops, epi->tl.used, *P, 1, "    ");
    emit_load(s, "mv_row", x1.dtype, args[1] + ".reshape((1, " + num(K) + "))", "    ");
    s << "    mv_b = mv_row.broadcast_to((" << *P << ", " << K << "))\n";
    s << "    for i in nl.affine_range(" << R / *P << "):\n";
    std::string idx = "[" + span("i", *P) + ", :]", X = "px_" + args[0];
    emit_load(s, X, x0.dtype, xv + idx, "        ");
    emit_body(s, pro.tl, "        ");
    s << "        v = nl.sum(" << X << " * mv_b, axis=1, keepdims=True)\n";
    emit_epilogue_and_store(s, *epi, ev, ov, idx, "        ");
    layout = "a is viewed as [" + num(R) + ", " + num(K) + "] in tiles of " + num(*P) +
             " rows; v is loaded once as a row broadcast to every partition, and each output is a free-axis sum";
  } else if (form == "vecmat") {
    int64_t K = x0.shape[0], N = x1.shape[1];
    if (x1.shape[0] != K || o.shape != std::vector<int64_t>{N} || N > 512) return;
    int64_t KT = divisor_at_most(K, 128);
    if (KT < 8) return;
    epi = epilogue_of(sp, epilogue_ops(t, args, 2, N, true), N, false);
    if (!epi) return;
    std::string ov = view_of(s, "out", o.shape, {1, N});
    std::map<std::string, std::string> ev = epilogue_views(s, *epi, {1, N});
    lines::emit_broadcast_loads(s, epi->ops, epi->tl.used, 1, N, "    ");
    s << "    v_col = " << args[0] << ".reshape((" << K << ", 1))\n";
    s << "    acc = nl.zeros((1, " << N << "), dtype=nl.float32, buffer=nl.psum)\n";
    s << "    for k in nl.affine_range(" << K / KT << "):\n";
    emit_load(s, "vk", x0.dtype, "v_col[" + span("k", KT) + ", :]", "        ");
    emit_load(s, "ak", x1.dtype, args[1] + "[" + span("k", KT) + ", :]", "        ");
    s << "        acc += nl.matmul(vk, ak, transpose_x=True)\n";
    s << "    v = nl.copy(acc, dtype=nl.float32)\n";
    emit_epilogue_and_store(s, *epi, ev, ov, "[0:1, :]", "    ");
    layout = "v [" + num(K) + "] is the stationary [" + num(KT) + ", 1] operand of TensorE, a streams as [" + num(KT) + ", " +
             num(N) + "] chunks, K accumulated in one float32 PSUM row";
  } else {
    // outer / diag: out[M, N] = column (a or d, [M]) times a row b [N] or a tile of b [M, N]
    int64_t M = x0.shape.size() == 1 ? x0.shape[0] : 0;
    bool outer = form == "outer";
    if (M == 0 || (outer ? x1.shape.size() != 1 : (x1.shape.size() != 2 || x1.shape[0] != M))) return;
    int64_t N = outer ? x1.shape[0] : x1.shape[1];
    if (o.shape != std::vector<int64_t>{M, N} || N > 4096) return;
    std::optional<int64_t> P = tile_rows(M);
    if (!P) return;
    epi = epilogue_of(sp, epilogue_ops(t, args, 2, N, true), N, false);
    if (!epi) return;
    std::map<std::string, std::string> ev = epilogue_views(s, *epi, {M, N});
    lines::emit_broadcast_loads(s, epi->ops, epi->tl.used, *P, N, "    ");
    s << "    col_v = " << args[0] << ".reshape((" << M << ", 1))\n";
    if (outer) {
      emit_load(s, "b_row", x1.dtype, args[1] + ".reshape((1, " + num(N) + "))", "    ");
      s << "    b_b = b_row.broadcast_to((" << *P << ", " << N << "))\n";
    }
    s << "    for i in nl.affine_range(" << M / *P << "):\n";
    std::string idx = "[" + span("i", *P) + ", :]";
    emit_load(s, "col", x0.dtype, "col_v" + idx, "        ");
    if (outer) {
      s << "        v = b_b * col\n";
    } else {
      emit_load(s, "b_t", x1.dtype, args[1] + idx, "        ");
      s << "        v = b_t * col\n";
    }
    emit_epilogue_and_store(s, *epi, ev, "out", idx, "        ");
    layout = std::string(outer ? "a" : "d") + " is loaded as [" + num(*P) + ", 1] columns (rows on partitions) and multiplies " +
             (outer ? "b, loaded once as a row broadcast to every partition" : "each [" + num(*P) + ", " + num(N) + "] tile of b");
  }
  s << "    return out\n";
  out.push_back({"fused_axis:" + form, plan_of(layout, pro, form, *epi), s.str()});
}


// ---------------------------------------------------------------------------------------------
// Matrix products: a @ b (a's leading axes flattened into rows), the transposed operands a.T
// and b.T, torch.bmm (per batch, b optionally transposed) and torch.addmm (beta * c + alpha *
// a @ b). K is accumulated in a float32 PSUM tile in chunks of <= 128; the left operand reaches
// TensorE as [K, M]: nl.load_transpose2d of a, or a plain load of a.T's storage; b as [K, N]
// chunks, or transposed blocks of b.T's storage. A prologue on a runs on those transposed
// tiles, so only element-wise prologue lines; an addmm prologue rewrites c on output tiles.

struct MatmulForm {
  bool ta = false, tb = false, batch = false, addmm = false;
  std::string beta, alpha;
};

std::optional<MatmulForm> parse_matmul_line(const std::string& e, const std::vector<std::string>& a) {
  if (a.size() < 2) return std::nullopt;
  auto is = [&](const std::string& l, const std::string& r) { return e == "torch.matmul(" + l + ", " + r + ")" || e == l + " @ " + r; };
  MatmulForm f;
  if (is(a[0], a[1]) || e == "torch.einsum('bijl,lk->bijk', " + a[0] + ", " + a[1] + ")") {
  } else if (is(a[0] + ".T", a[1])) {
    f.ta = true;
  } else if (is(a[0], a[1] + ".T")) {
    f.tb = true;
  } else if (is(a[0] + ".T", a[1] + ".T")) {
    f.ta = f.tb = true;
  } else if (e == "torch.bmm(" + a[0] + ", " + a[1] + ")") {
    f.batch = true;
  } else if (e == "torch.bmm(" + a[0] + ", " + a[1] + ".transpose(1, 2))") {
    f.batch = f.tb = true;
  } else {
    std::smatch m;
    std::string N = "(-?[0-9]+(?:\\.[0-9]+)?)";
    if (a.size() < 3 || !std::regex_match(e, m, std::regex("torch\\.addmm\\(" + regex_quoted(a[0]) + ", " + regex_quoted(a[1]) + ", " +
                                                                  regex_quoted(a[2]) + ", beta=" + N + ", alpha=" + N + "\\)")))
      return std::nullopt;
    f.addmm = true;
    f.beta = m[1].str();
    f.alpha = m[2].str();
  }
  return f;
}

void add_matmul_kernel(const TaskSpec& t, const std::vector<std::string>& args, const Split& sp, const MatmulForm& f,
                       std::vector<TemplateKernel>& out) {
  if (clashes(args, {"m", "n", "k", "j"})) return;
  size_t ia = f.addmm ? 1 : 0, ib = ia + 1;
  if (t.inputs.size() <= ib) return;
  const TensorSpec& A = t.inputs[ia];
  const TensorSpec& B = t.inputs[ib];
  const TensorSpec& o = t.outputs[0];
  if (!is_float(A.dtype) || !is_float(B.dtype) || !is_float(o.dtype)) return;
  int64_t Bt = 1, M = 0, K = 0, N = 0;
  std::vector<int64_t> want;
  if (f.batch) {
    if (A.shape.size() != 3 || B.shape.size() != 3 || A.shape[0] != B.shape[0]) return;
    Bt = A.shape[0];
    M = A.shape[1];
    K = A.shape[2];
    N = f.tb ? B.shape[1] : B.shape[2];
    if ((f.tb ? B.shape[2] : B.shape[1]) != K) return;
    want = {Bt, M, N};
  } else {
    if (B.shape.size() != 2 || A.shape.size() < 2 || (f.ta && A.shape.size() != 2)) return;
    K = f.ta ? A.shape[0] : A.shape.back();
    M = f.ta ? A.shape[1] : product(A.shape) / K;
    N = f.tb ? B.shape[0] : B.shape[1];
    if ((f.tb ? B.shape[1] : B.shape[0]) != K) return;
    if (f.ta) want = {M, N};
    else want.assign(A.shape.begin(), A.shape.end() - 1), want.push_back(N);
  }
  if (o.shape != want) return;
  if (f.addmm && (f.batch || f.ta || f.tb || t.inputs[0].shape != std::vector<int64_t>{M, N} || !is_float(t.inputs[0].dtype))) return;
  std::optional<int64_t> MT = tile_rows(M), KT = tile_rows(K);
  if (!MT || !KT) return;
  std::optional<Lines> epi = epilogue_of(sp, epilogue_ops(t, args, f.addmm ? 3 : 2, N, true), N, false);
  if (!epi) return;
  int64_t NT = has_row_op(epi->tl) ? N : divisor_at_most(N, 512);
  if (NT > 512 || (NT < 8 && NT != N)) return;
  int64_t NS = f.tb ? divisor_at_most(NT, 128) : NT;  // b.T rows per transposed block
  if (NS < 8 && NS != NT) return;
  // addmm: the prologue rewrites c on [MT, NT] output tiles; otherwise a's transposed tiles.
  std::optional<Lines> pro = f.addmm ? prologue_of(sp, prologue_ops(t, args, N, NT == N), N, NT != N)
                                     : prologue_of(sp, prologue_ops(t, args, M, false), M, true);
  if (!pro) return;
  bool cast = (!f.addmm && sp.body > 0) || A.dtype != B.dtype;  // both operands in float32 then

  std::ostringstream s;
  s << kHeader << signature(args);
  s << "    out = nl.ndarray(" << tuple_text(o.shape) << ", dtype=" << nl_dtype(o.dtype) << ", buffer=nl.shared_hbm)\n";
  std::vector<int64_t> ov_shape = f.batch ? std::vector<int64_t>{Bt, M, N} : std::vector<int64_t>{M, N};
  std::string av = f.batch || f.ta ? args[ia] : view_of(s, args[ia], A.shape, {M, K});
  std::string ov = view_of(s, "out", o.shape, ov_shape);
  std::map<std::string, std::string> ev = epilogue_views(s, *epi, ov_shape);
  if (f.addmm) lines::emit_broadcast_loads(s, pro->ops, pro->tl.used, *MT, NT, "    ");
  else lines::emit_broadcast_loads(s, pro->ops, pro->tl.used, *KT, *MT, "    ");
  lines::emit_broadcast_loads(s, epi->ops, epi->tl.used, *MT, NT, "    ");
  std::string ind = "    ", bi;
  if (f.batch) {
    s << ind << "for bi in nl.affine_range(" << Bt << "):\n";
    ind += "    ";
    bi = "bi, ";
  }
  std::string mrow = span("m", *MT), nrow = span("n", NT), krow = span("k", *KT);
  s << ind << "for m in nl.affine_range(" << M / *MT << "):\n";
  s << ind << "    for n in nl.affine_range(" << N / NT << "):\n";
  std::string in = ind + "        ", kin = in + "    ";
  s << in << "acc = nl.zeros((" << *MT << ", " << NT << "), dtype=nl.float32, buffer=nl.psum)\n";
  s << in << "for k in nl.affine_range(" << K / *KT << "):\n";
  std::string lhs_src = f.ta ? "nl.load(" + av + "[" + krow + ", " + mrow + "])" : "nl.load_transpose2d(" + av + "[" + bi + mrow + ", " + krow + "])";
  std::string lhs = "lhs_t", rhs = "rhs";
  if (cast || (!f.addmm && sp.body > 0)) {
    s << kin << "lhs_h = " << lhs_src << "\n";
    lhs = f.addmm ? "lhs_t" : "px_" + args[0];
    s << kin << lhs << " = nl.copy(lhs_h, dtype=nl.float32)\n";
    if (!f.addmm) emit_body(s, pro->tl, kin);
  } else {
    s << kin << "lhs_t = " << lhs_src << "\n";
  }
  std::string rhs_var = cast ? "rhs_h" : "rhs";
  if (!f.tb) {
    s << kin << rhs_var << " = nl.load(" << args[ib] << "[" << bi << krow << ", " << nrow << "])\n";
  } else if (NS == NT) {
    s << kin << rhs_var << " = nl.load_transpose2d(" << args[ib] << "[" << bi << nrow << ", " << krow << "])\n";
  } else {
    s << kin << rhs_var << " = nl.ndarray((" << *KT << ", " << NT << "), dtype=" << nl_dtype(B.dtype) << ", buffer=nl.sbuf)\n";
    s << kin << "for j in nl.affine_range(" << NT / NS << "):\n";
    s << kin << "    " << rhs_var << "[:, j * " << NS << ":(j + 1) * " << NS << "] = nl.load_transpose2d(" << args[ib] << "[" << bi
      << "n * " << NT << " + j * " << NS << ":n * " << NT << " + (j + 1) * " << NS << ", " << krow << "])\n";
  }
  if (cast) s << kin << "rhs = nl.copy(rhs_h, dtype=nl.float32)\n";
  s << kin << "acc += nl.matmul(" << lhs << ", " << rhs << ", transpose_x=True)\n";
  s << in << "v = nl.copy(acc, dtype=nl.float32)\n";
  std::string idx = "[" + bi + mrow + ", " + nrow + "]";
  if (f.addmm) {
    std::string C = "px_" + args[0];
    emit_load(s, C, t.inputs[0].dtype, args[0] + "[" + mrow + ", " + nrow + "]", in);
    emit_body(s, pro->tl, in);
    s << in << "v = " << f.beta << " * " << C << " + " << f.alpha << " * v\n";
  }
  emit_epilogue_and_store(s, *epi, ev, ov, idx, in);
  s << "    return out\n";
  std::string layout = std::string(f.batch ? "per batch, " : "") + "out = " + (f.addmm ? f.beta + " * c + " + f.alpha + " * " : "") +
                       (f.ta ? "a.T" : "a") + " @ " + (f.tb ? "b.T" : "b") + " in tiles of " + num(*MT) + " x " + num(NT) +
                       ", K accumulated in chunks of " + num(*KT) + " in a float32 PSUM tile, the left operand reaching TensorE as [K, M]";
  out.push_back({"fused_axis:matmul", plan_of(layout, *pro, "matmul", *epi), s.str()});
}


// torch.linalg.multi_dot([a, b, c]) = (a @ b) @ c: per [MT, NT] output tile, each [JT, MT]
// block of (a @ b)^T = b^T a^T comes out of TensorE already transposed (b's [K, JT] chunk as
// the stationary operand, a loaded transposed), which is the stationary operand of the second
// product: acc += block^T @ c[JT, NT]. The intermediate stays float32 (torch rounds it to the
// input dtype; within the tolerance of the half-precision dtypes).
void add_chain_kernel(const TaskSpec& t, const std::vector<std::string>& args, const Split& sp, std::vector<TemplateKernel>& out) {
  const std::vector<std::string>& a = sp.ref.args;
  if (a.size() < 3 || sp.body != 0 || sp.expr != "torch.linalg.multi_dot([" + a[0] + ", " + a[1] + ", " + a[2] + "])") return;
  if (clashes(args, {"m", "n", "k", "j"})) return;
  const TensorSpec &A = t.inputs[0], &B = t.inputs[1], &Cm = t.inputs[2];
  const TensorSpec& o = t.outputs[0];
  if (A.shape.size() != 2 || B.shape.size() != 2 || Cm.shape.size() != 2) return;
  int64_t M = A.shape[0], K = A.shape[1], J = B.shape[1], N = Cm.shape[1];
  if (B.shape[0] != K || Cm.shape[0] != J || o.shape != std::vector<int64_t>{M, N}) return;
  if (!is_float(A.dtype) || A.dtype != B.dtype || !is_float(Cm.dtype) || !is_float(o.dtype)) return;
  std::optional<int64_t> MT = tile_rows(M), KT = tile_rows(K), JT = tile_rows(J);
  if (!MT || !KT || !JT) return;
  std::optional<Lines> epi = epilogue_of(sp, epilogue_ops(t, args, 3, N, true), N, false);
  if (!epi) return;
  int64_t NT = has_row_op(epi->tl) ? N : divisor_at_most(N, 512);
  if (NT > 512 || (NT < 8 && NT != N)) return;
  std::ostringstream s;
  s << kHeader << signature(args);
  s << "    out = nl.ndarray(" << tuple_text(o.shape) << ", dtype=" << nl_dtype(o.dtype) << ", buffer=nl.shared_hbm)\n";
  std::map<std::string, std::string> ev = epilogue_views(s, *epi, {M, N});
  lines::emit_broadcast_loads(s, epi->ops, epi->tl.used, *MT, NT, "    ");
  std::string mrow = span("m", *MT), nrow = span("n", NT), krow = span("k", *KT), jrow = span("j", *JT);
  s << "    for m in nl.affine_range(" << M / *MT << "):\n";
  s << "        for n in nl.affine_range(" << N / NT << "):\n";
  s << "            acc = nl.zeros((" << *MT << ", " << NT << "), dtype=nl.float32, buffer=nl.psum)\n";
  s << "            for j in nl.affine_range(" << J / *JT << "):\n";
  s << "                ab_t = nl.zeros((" << *JT << ", " << *MT << "), dtype=nl.float32, buffer=nl.psum)\n";
  s << "                for k in nl.affine_range(" << K / *KT << "):\n";
  s << "                    lhs_t = nl.load_transpose2d(" << args[0] << "[" << mrow << ", " << krow << "])\n";
  s << "                    b_kj = nl.load(" << args[1] << "[" << krow << ", " << jrow << "])\n";
  s << "                    ab_t += nl.matmul(b_kj, lhs_t, transpose_x=True)\n";
  s << "                ab_s = nl.copy(ab_t, dtype=nl.float32)\n";
  emit_load(s, "c_jn", Cm.dtype == DType::Float32 ? DType::Float32 : Cm.dtype, args[2] + "[" + jrow + ", " + nrow + "]",
            "                ");
  s << "                acc += nl.matmul(ab_s, c_jn, transpose_x=True)\n";
  s << "            v = nl.copy(acc, dtype=nl.float32)\n";
  emit_epilogue_and_store(s, *epi, ev, "out", "[" + mrow + ", " + nrow + "]", "            ");
  s << "    return out\n";
  std::string layout = "(a @ b) @ c in [" + num(*MT) + ", " + num(NT) + "] output tiles: blocks of (a @ b)^T [" + num(*JT) + ", " +
                       num(*MT) + "] accumulated over K in chunks of " + num(*KT) +
                       " in PSUM, copied to SBUF in float32, then contracted with c's rows in a second PSUM tile";
  Lines none;
  out.push_back({"fused_axis:matmul_chain", plan_of(layout, none, "multi_dot", *epi), s.str()});
}


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


// softmax(scores) @ v without a mask: scores = s itself (softmax(s) @ v), q @ k^T scaled by
// 1/sqrt(D) (plus an [S, S2] bias), or q^T @ k of transposed storage. Per batch(-head) g and
// tile of queries: the scores [ST, S2] in one PSUM tile (S2 <= 512), a float32 row softmax
// (not yet divided), then P @ v over key blocks of <= 128 with P transposed on TensorE
// (nl.transpose), and the division by the row sums on the [ST, Dv] result.
void add_attention_kernel(const TaskSpec& t, const std::vector<std::string>& args, const Split& sp,
                          std::vector<TemplateKernel>& out) {
  static const std::regex plain(R"(^torch\.softmax\((\w+), dim=-1\) @ (\w+)$)");
  static const std::regex qk(
      R"(^torch\.softmax\((\w+) @ (\w+)\.transpose\(-2, -1\) / math\.sqrt\((\w+)\.shape\[-1\]\)(?: \+ (\w+))?, dim=-1\) @ (\w+)$)");
  static const std::regex qk_mul(
      R"(^torch\.softmax\(torch\.matmul\((\w+), (\w+)\.transpose\(-2, -1\)\) \* \(1\.0 / math\.sqrt\((\w+)\.shape\[-1\]\)\), dim=-1\) @ (\w+)$)");
  static const std::regex qt_k(R"(^torch\.softmax\((\w+)\.transpose\(-2, -1\) @ (\w+) / math\.sqrt\((\w+)\.shape\[-2\]\), dim=-1\) @ (\w+)$)");
  std::smatch m;
  std::string qn, kn, vn, bn;
  bool given = false, q_t_stored = false;
  if (std::regex_match(sp.expr, m, plain)) {
    given = true;
    qn = m[1].str();
    vn = m[2].str();
  } else if (std::regex_match(sp.expr, m, qk) && m[1].str() == m[3].str()) {
    qn = m[1].str(), kn = m[2].str(), bn = m[4].matched ? m[4].str() : "", vn = m[5].str();
  } else if (std::regex_match(sp.expr, m, qk_mul) && m[1].str() == m[3].str()) {
    qn = m[1].str(), kn = m[2].str(), vn = m[4].str();
  } else if (std::regex_match(sp.expr, m, qt_k) && m[1].str() == m[3].str()) {
    qn = m[1].str(), kn = m[2].str(), vn = m[4].str();
    q_t_stored = true;
  } else {
    return;
  }
  const std::vector<std::string>& ra = sp.ref.args;
  auto index_of = [&](const std::string& n) {
    auto it = std::find(ra.begin(), ra.end(), n);
    return it == ra.end() ? -1 : static_cast<int>(it - ra.begin());
  };
  int iq = index_of(qn), ik = given ? -1 : index_of(kn), iv = index_of(vn), ib = bn.empty() ? -1 : index_of(bn);
  // the seed's inputs come first, in the order of the line
  std::vector<int> seed = {iq};
  if (!given) seed.push_back(ik);
  seed.push_back(iv);
  if (!bn.empty()) seed.push_back(ib);
  for (size_t i = 0; i < seed.size(); ++i)
    if (seed[i] != static_cast<int>(i)) return;
  if (!given && sp.body != 0) return;  // prologues only on the given scores
  if (clashes(args, {"g", "j"})) return;
  const TensorSpec &Q = t.inputs[iq], &V = t.inputs[iv];
  const TensorSpec& o = t.outputs[0];
  size_t r = Q.shape.size();
  if (r < 2 || V.shape.size() != r || !is_float(Q.dtype) || !is_float(V.dtype) || !is_float(o.dtype)) return;
  int64_t G = product(Q.shape, 0, r - 2);
  int64_t S = q_t_stored ? Q.shape[r - 1] : Q.shape[r - 2], D = given ? 0 : (q_t_stored ? Q.shape[r - 2] : Q.shape[r - 1]);
  int64_t S2 = given ? Q.shape[r - 1] : 0, Dv = V.shape[r - 1];
  if (!given) {
    const TensorSpec& Kt = t.inputs[ik];
    if (Kt.shape.size() != r || !is_float(Kt.dtype) || product(Kt.shape, 0, r - 2) != G) return;
    S2 = q_t_stored ? Kt.shape[r - 1] : Kt.shape[r - 2];
    if ((q_t_stored ? Kt.shape[r - 2] : Kt.shape[r - 1]) != D) return;
  }
  if (product(V.shape, 0, r - 2) != G || V.shape[r - 2] != S2) return;
  std::vector<int64_t> want(Q.shape.begin(), Q.shape.end() - 2);
  want.push_back(S);
  want.push_back(Dv);
  if (o.shape != want || S2 > 512 || D > 128 || Dv > 512) return;
  if (ib >= 0 && t.inputs[ib].shape != std::vector<int64_t>{S, S2}) return;
  std::optional<int64_t> ST = tile_rows(S);
  int64_t KT = divisor_at_most(S2, 128);
  if (!ST || (KT < 8 && KT != S2)) return;
  std::optional<Lines> pro = prologue_of(sp, prologue_ops(t, args, S2, true), S2, false);
  if (!pro) return;
  std::optional<Lines> epi = epilogue_of(sp, epilogue_ops(t, args, seed.size(), Dv, true), Dv, false);
  if (!epi) return;

  std::ostringstream s;
  s << kHeader << signature(args);
  s << "    out = nl.ndarray(" << tuple_text(o.shape) << ", dtype=" << nl_dtype(o.dtype) << ", buffer=nl.shared_hbm)\n";
  std::vector<int64_t> q3 = q_t_stored ? std::vector<int64_t>{G, D, S} : std::vector<int64_t>{G, S, given ? S2 : D};
  std::string qv = view_of(s, args[iq], Q.shape, q3);
  std::string kv;
  if (!given) kv = view_of(s, args[ik], t.inputs[ik].shape, q_t_stored ? std::vector<int64_t>{G, D, S2} : std::vector<int64_t>{G, S2, D});
  // always a view of its own: the parameter may be named v, the running value of the tile loop
  std::string vv = args[iv] + "_v";
  s << "    " << vv << " = " << args[iv] << ".reshape(" << tuple_text({G, S2, Dv}) << ")\n";
  std::string ov = view_of(s, "out", o.shape, {G, S, Dv});
  std::map<std::string, std::string> ev = epilogue_views(s, *epi, {G, S, Dv});
  lines::emit_broadcast_loads(s, pro->ops, pro->tl.used, *ST, S2, "    ");
  lines::emit_broadcast_loads(s, epi->ops, epi->tl.used, *ST, Dv, "    ");
  std::string rows = span("i", *ST);
  s << "    for g in nl.affine_range(" << G << "):\n";
  std::string ind = "        ";
  if (!given) {
    if (q_t_stored) s << ind << "k_t = nl.load(" << kv << "[g, :, :])\n";
    else s << ind << "k_t = nl.load_transpose2d(" << kv << "[g, :, :])\n";
  }
  s << ind << "for i in nl.affine_range(" << S / *ST << "):\n";
  ind += "    ";
  std::string sc = "px_" + args[iq];
  if (given) {
    emit_load(s, sc, Q.dtype, qv + "[g, " + rows + ", :]", ind);
    emit_body(s, pro->tl, ind);
  } else {
    if (q_t_stored) s << ind << "q_t = nl.load(" << qv << "[g, :, " << rows << "])\n";
    else s << ind << "q_t = nl.load_transpose2d(" << qv << "[g, " << rows << ", :])\n";
    s << ind << "s_ps = nl.zeros((" << *ST << ", " << S2 << "), dtype=nl.float32, buffer=nl.psum)\n";
    s << ind << "s_ps += nl.matmul(q_t, k_t, transpose_x=True)\n";
    sc = "sc";
    s << ind << "sc = nl.copy(s_ps, dtype=nl.float32) * " << fmt_scale(D) << "\n";
    if (ib >= 0) {
      emit_load(s, "bias_t", t.inputs[ib].dtype, args[ib] + "[" + rows + ", :]", ind);
      s << ind << "sc = sc + bias_t\n";
    }
  }
  s << ind << "pe = nl.exp(" << sc << " - nl.max(" << sc << ", axis=1, keepdims=True))\n";
  s << ind << "p_sum = nl.sum(pe, axis=1, keepdims=True)\n";
  s << ind << "o_ps = nl.zeros((" << *ST << ", " << Dv << "), dtype=nl.float32, buffer=nl.psum)\n";
  s << ind << "for j in nl.affine_range(" << S2 / KT << "):\n";
  s << ind << "    p_t = nl.transpose(pe[:, " << span("j", KT) << "])\n";
  emit_load(s, "v_blk", V.dtype, vv + "[g, " + span("j", KT) + ", :]", ind + "    ");
  s << ind << "    o_ps += nl.matmul(p_t, v_blk, transpose_x=True)\n";
  s << ind << "v = nl.copy(o_ps, dtype=nl.float32) / p_sum\n";
  emit_epilogue_and_store(s, *epi, ev, ov, "[g, " + rows + ", :]", ind);
  s << "    return out\n";
  std::string layout = "per batch(-head) of " + num(G) + " and tile of " + num(*ST) + " queries: the scores [" + num(*ST) + ", " +
                       num(S2) + "] " + (given ? "loaded" : "from one TensorE product into PSUM") +
                       ", a float32 row softmax, then P @ v over key blocks of " + num(KT) +
                       " with P transposed on TensorE, divided by the row sums at the end";
  out.push_back({"fused_axis:attention", plan_of(layout, *pro, "softmax(scores) @ v", *epi), s.str()});
}


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

}  // namespace

void add_fused_axis_templates(const TaskSpec& t, const std::vector<std::string>& args, std::vector<TemplateKernel>& out) {
  if (t.outputs.size() != 1 || t.inputs.empty() || args.size() != t.kernel_args().size()) return;
  // the kernels' own names (loop indices, tiles) must not shadow a parameter
  static const std::set<std::string> taken = {"out", "i", "ai", "bo", "bi", "acc", "rhs", "lhs_t",
                                              "col", "col_v", "v_col", "vk", "ak", "b_b", "b_row", "b_t", "mv_row", "mv_b",
                                              "lhs_h", "rhs_h", "ab_t", "ab_s", "b_kj", "c_jn", "wg_t", "ex_t",
                                              "x_t", "lg_ps", "lg", "ge", "h_ps", "k_t", "q_t",
                                              "s_ps", "sc", "bias_t", "pe", "p_sum", "o_ps", "p_t", "v_blk",
                                              "w1_h", "w1_t", "w2_h", "w2_t", "b1_col", "b2_col", "pooled", "h1", "gate",
                                              "vt", "vt_h", "w_col", "vb_col", "u_ps", "ht_h", "u_t", "sc_ps", "a_row",
                                              "y_ps", "a_col", "h_blk", "w1t", "w1t_h", "w3t", "w3t_h", "w2t", "w2t_h",
                                              "b2_b", "b2_b_r", "lnw_b", "lnw_b_r", "lnb_b", "lnb_b_r", "xt", "xt_h", "h1",
                                              "h1_ps", "h1_b", "h3", "h3_ps", "h3_b", "w_rows", "x_rows", "z", "z_mu", "z_d",
                                              "z_var"};
  for (const std::string& a : args)
    if (taken.count(a) || a.rfind("red_", 0) == 0 || a.rfind("px_", 0) == 0 || a.rfind("t_", 0) == 0) return;
  add_chunk_kernel(t, args, out);
  if (!out.empty()) return;
  std::optional<Split> sp = split_reference(t);
  if (!sp) {
    // the forms here with nn.Linear modules
    add_moe_kernel(t, args, out);
    if (out.empty()) add_squeeze_excitation_kernel(t, args, out);
    if (out.empty()) add_attention_pool_kernel(t, args, out);
    if (out.empty()) add_mlp_kernel(t, args, out);
    return;
  }
  if (sp->ref.args[0] != t.inputs[0].name) return;
  const std::string& x = sp->ref.args[0];
  // `v` is the running value of every kernel here; the matrix-vector kernels read a parameter
  // named v only before their loop (matvec's and vecmat's vector), attention through a view
  // made before it, the others not at all.
  if (std::find(args.begin(), args.end(), "v") != args.end()) {
    add_matvec_kernels(t, args, *sp, out);
    if (out.empty()) add_attention_kernel(t, args, *sp, out);
    return;
  }
  if (std::optional<AxisOp> a = parse_axis_line(sp->expr, x)) {
    add_axis_kernel(t, args, *sp, *a, out);
  } else if (std::optional<PoolOp> p = parse_pool_line(sp->expr, x)) {
    add_pool_kernel(t, args, *sp, *p, out);
  } else {
    add_matvec_kernels(t, args, *sp, out);
    if (out.empty())
      if (std::optional<MatmulForm> m = parse_matmul_line(sp->expr, sp->ref.args)) add_matmul_kernel(t, args, *sp, *m, out);
    if (out.empty()) add_chain_kernel(t, args, *sp, out);
    if (out.empty()) add_attention_kernel(t, args, *sp, out);
  }
}

}  // namespace nki::train
