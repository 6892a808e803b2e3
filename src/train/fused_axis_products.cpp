// fused_axis forms built on TensorE products: matrix-vector, matrix products and chains, and
// unmasked attention.
#include "train/fused_axis_common.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <regex>
#include <sstream>

namespace nki::train::axis {

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

// ---------------------------------------------------------------------------------------------
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

// ---------------------------------------------------------------------------------------------
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

}  // namespace nki::train::axis
