// Reductions: Reduce (tensor_reduce / nl.sum ...), Scan (tensor_tensor_scan) and the engines'
// accumulator registers (activation / tensor_scalar_reduce reduce_res).
#include <algorithm>

#include "base/diag_codes.h"
#include "machine/engine_math.h"
#include "machine/reduce.h"
#include "machine/ops.h"
#include "machine/ops_common.h"

namespace nki::machine {

void accumulate_registers(ExecContext& cx, const ir::Instr& in, const float* values,
                          const uint8_t* mask, int64_t P, int64_t F, int reduce_cmd) {
  const ir::Alu op = in.reduce_op.value_or(ir::Alu::Add);
  std::vector<float>& regs = cx.regs.of(in.engine);
  if (static_cast<int64_t>(regs.size()) < P) regs.resize(static_cast<size_t>(P), 0.0f);
  // reduce_cmd: idle=0 (leave), reset=1 (identity), reduce=2 (fold), reset_reduce=3 (both).
  if (reduce_cmd == 1 || reduce_cmd == 3)
    std::fill(regs.begin(), regs.begin() + P, alu_identity(op));
  if (reduce_cmd == 2 || reduce_cmd == 3) {
    for (int64_t p = 0; p < P; ++p) {
      float r = regs[static_cast<size_t>(p)];
      const float* row = values + p * F;
      const uint8_t* mrow = mask ? mask + p * F : nullptr;
      if (!mrow) {
        r = fold(static_cast<AluOp>(op), r, row, static_cast<size_t>(F));
      } else {
        for (int64_t f = 0; f < F; ++f)
          if (mrow[f]) r = alu_scalar(op, r, row[f]);
      }
      regs[static_cast<size_t>(p)] = r;
    }
  }
  if (!in.reduce_res) return;
  const ir::Access& ra = *in.reduce_res;
  if (ir::element_count(ra.shape) != P)
    cx.fail(diag::Code::sim_bad_ir, "reduce_res must have one element per partition (" + std::to_string(P) +
                              "), its access has " +
                              std::to_string(ir::element_count(ra.shape)));
  View rv = resolve(cx, ra, nullptr);
  scatter_f32(rv, nullptr, regs.data());
}

void exec_reduce(ExecContext& cx, const ir::Instr& in) {
  if (in.srcs.empty() || in.srcs[0].is_imm) cx.fail(diag::Code::sim_bad_ir, "reduce needs a tensor operand");
  const ir::Access& sa = in.srcs[0].access;
  const size_t r = sa.shape.size();
  std::vector<bool> reduced(r, false);
  for (int ax : in.axes) {
    if (ax < 0 || ax >= static_cast<int>(r))
      cx.fail(diag::Code::sim_bad_ir, "reduce axis " + std::to_string(ax) + " out of range");
    reduced[static_cast<size_t>(ax)] = true;
  }
  // Permute the source so kept dims come first and reduced dims last (row-major within each):
  // every output element then folds one contiguous scratch row, left to right.
  std::vector<size_t> perm;
  for (size_t j = 0; j < r; ++j)
    if (!reduced[j]) perm.push_back(j);
  for (size_t j = 0; j < r; ++j)
    if (reduced[j]) perm.push_back(j);
  std::vector<int64_t> pshape(r);
  for (size_t j = 0; j < r; ++j) pshape[j] = sa.shape[perm[j]];
  int64_t kept = 1, red = 1;
  for (size_t j = 0; j < r; ++j) (reduced[j] ? red : kept) *= sa.shape[j];

  // The mask ranges over the source iteration space (the instruction's full space).
  std::optional<ir::Mask> pmask;
  if (in.mask) {
    pmask = *in.mask;
    for (ir::Predicate& p : pmask->terms) {
      std::vector<int64_t> c(r, 0);
      for (size_t j = 0; j < r; ++j)
        if (perm[j] < p.coef.size()) c[j] = p.coef[perm[j]];
      p.coef = c;
    }
  }
  ActiveSet act = eval_mask(cx.env, pmask, pshape);
  if (act.kind == ActiveSet::None) return;
  const uint8_t* m = act.ptr();

  ir::Access pa = sa;
  pa.shape = pshape;
  for (auto& row : pa.coef) {
    std::vector<int64_t> c(r);
    for (size_t j = 0; j < r; ++j) c[j] = row[perm[j]];
    row = c;
  }
  View src = resolve(cx, pa, m, false, Use::Read);
  if (ir::element_count(in.dst.shape) != kept)
    cx.fail(diag::Code::sim_bad_ir, "reduce destination has " +
                              std::to_string(ir::element_count(in.dst.shape)) +
                              " elements, expected " + std::to_string(kept));
  // Output rows with no active input stay unchanged.
  std::vector<uint8_t> dmask;
  if (m) {
    dmask.assign(static_cast<size_t>(kept), 0);
    for (int64_t o = 0; o < kept; ++o)
      for (int64_t i = 0; i < red; ++i)
        if (m[o * red + i]) {
          dmask[static_cast<size_t>(o)] = 1;
          break;
        }
  }
  View dst = resolve(cx, in.dst, m ? dmask.data() : nullptr);
  const uint8_t* dm = m ? dmask.data() : nullptr;

  if (is_bitvec(in.alu0)) {
    auto buf = scratch<int64_t>(cx, kept * red);
    cx.note_uninit(gather_i64(src, m, buf.data()), src.tensor);
    auto out = scratch<int64_t>(cx, kept);
    for (int64_t o = 0; o < kept; ++o) {
      int64_t acc = alu_identity_i64(in.alu0);
      for (int64_t i = 0; i < red; ++i)
        if (!m || m[o * red + i]) acc = alu_scalar_i64(in.alu0, acc, buf[static_cast<size_t>(o * red + i)]);
      out[static_cast<size_t>(o)] = acc;
    }
    scatter_i64(dst, dm, out.data());
    return;
  }
  auto buf = scratch<float>(cx, kept * red);
  cx.note_uninit(gather_f32(src, m, buf.data()), src.tensor);
  auto out = scratch<float>(cx, kept);
  const float id = alu_identity(in.alu0);
  for (int64_t o = 0; o < kept; ++o) {
    const float* row = buf.data() + o * red;
    float acc = id;
    if (m) {
      for (int64_t i = 0; i < red; ++i)
        if (m[o * red + i]) acc = alu_scalar(in.alu0, acc, row[i]);
    } else {
      acc = fold(static_cast<AluOp>(in.alu0), acc, row, static_cast<size_t>(red));
    }
    out[static_cast<size_t>(o)] = in.negate ? -acc : acc;
  }
  scatter_f32(dst, dm, out.data());
}

void exec_scan(ExecContext& cx, const ir::Instr& in) {
  if (in.srcs.size() < 3)
    cx.fail(diag::Code::sim_bad_ir, "scan needs data0, data1 and initial operands");
  const auto& shape = in.dst.shape;
  ActiveSet act = eval_mask(cx.env, in.mask, shape);
  if (act.kind == ActiveSet::None) return;
  const uint8_t* m = act.ptr();
  View dst = resolve(cx, in.dst, m);
  const int64_t n = dst.count();
  const int64_t P = shape.empty() ? 1 : shape[0];
  const int64_t F = P ? n / P : 0;
  F32In d0 = load_f32(cx, in.srcs[0], shape, m, nullptr);
  F32In d1 = load_f32(cx, in.srcs[1], shape, m, nullptr);
  // initial: an immediate, a [P,1] operand, or one broadcast to the full shape (zero coefs).
  std::vector<float> init(static_cast<size_t>(P));
  const ir::Operand& io = in.srcs[2];
  if (io.is_imm) {
    std::fill(init.begin(), init.end(), static_cast<float>(io.imm));
  } else {
    View iv = resolve(cx, io.access, nullptr, false, Use::Read);
    std::vector<float> tmp(static_cast<size_t>(iv.count()));
    cx.note_uninit(gather_f32(iv, nullptr, tmp.data()), iv.tensor);
    int64_t per = P ? iv.count() / P : 0;
    for (int64_t p = 0; p < P; ++p) init[static_cast<size_t>(p)] = tmp[static_cast<size_t>(p * per)];
  }
  // Optional reverse flags: int_attrs[0] = reverse0 (data0 is op0's rhs), int_attrs[1] =
  // reverse1 (data1 is op1's lhs).
  const bool rev0 = in.int_attrs.size() > 0 && in.int_attrs[0];
  const bool rev1 = in.int_attrs.size() > 1 && in.int_attrs[1];
  F32Out out = prepare_out(cx, dst, m);
  std::vector<float> res(static_cast<size_t>(n));
  for (int64_t p = 0; p < P; ++p) {
    float r = init[static_cast<size_t>(p)];
    for (int64_t f = 0; f < F; ++f) {
      int64_t i = p * F + f;
      float a = d0.p[d0.scalar ? 0 : i], b = d1.p[d1.scalar ? 0 : i];
      float t = rev0 ? alu_scalar(in.alu0, r, a) : alu_scalar(in.alu0, a, r);
      r = rev1 ? alu_scalar(in.alu1, b, t) : alu_scalar(in.alu1, t, b);
      res[static_cast<size_t>(i)] = r;
    }
  }
  std::copy(res.begin(), res.end(), out.p);
  finish(dst, m, out);
}

}  // namespace nki::machine
