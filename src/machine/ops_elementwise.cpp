// Element-wise instructions: Copy (DMA / tensor_copy), Alu, Activation, Memset, Iota, Select.
#include <cmath>
#include <cstring>

#include "base/diag_codes.h"
#include "base/dtype_convert.h"
#include "machine/engine_math.h"
#include "machine/ops.h"
#include "machine/ops_common.h"

namespace nki::machine {

namespace {

void need_srcs(ExecContext& cx, const ir::Instr& in, size_t n) {
  if (in.srcs.size() < n)
    cx.fail(diag::Code::sim_bad_ir, "'" + in.name + "' (" + ir::opcode_name(in.op) + ") needs " +
                              std::to_string(n) + " operand(s), got " +
                              std::to_string(in.srcs.size()));
}

// Merges dropped (oob_skip) elements of src/dst into one activity mask so both sides skip them.
const uint8_t* merge_dropped(View& src, View& dst, const uint8_t* m, std::vector<uint8_t>& keep) {
  if (src.dropped.empty() && dst.dropped.empty()) return m;
  const int64_t n = dst.count();
  keep.assign(static_cast<size_t>(n), 1);
  for (int64_t f = 0; f < n; ++f) {
    size_t i = static_cast<size_t>(f);
    if ((m && !m[f]) || (!src.dropped.empty() && src.dropped[i]) ||
        (!dst.dropped.empty() && dst.dropped[i]))
      keep[i] = 0;
  }
  src.dropped.clear();
  dst.dropped.clear();
  return keep.data();
}

bool imm_is_integral(double v) { return std::isfinite(v) && std::nearbyint(v) == v && std::fabs(v) < 9e15; }

void rmw_elementwise(ExecContext& cx, const View& dst, const uint8_t* m, ir::Alu op,
                     const float* v) {
  bool uninit = false;
  for_each_run(dst, m, [&](int64_t flat, int64_t off, int64_t stride, int64_t len) {
    for (int64_t i = 0; i < len; ++i) {
      const int64_t e = off + i * stride;
      uint8_t* p = dst.data + e * static_cast<int64_t>(dst.elem_size);
      if (dst.shadow) uninit |= !dst.shadow[e];
      float cur;
      convert_to_f32(dst.dtype, p, &cur, 1);
      float r = alu_scalar(op, cur, v[flat + i]);
      convert_f32_to(dst.dtype, &r, p, 1);
      if (dst.shadow) dst.shadow[e] = 1;
    }
  });
  cx.note_uninit(uninit, dst.tensor);
}

// Copy elision (see Memory::alias_to): a plain DMA of a contiguous HBM run onto the whole of an
// on-chip tile, with no mask, conversion or read-modify-write, is recorded instead of performed.
// Only HBM sources qualify: compute engines never write HBM, so an engine cannot write the
// source of a deferred tile while it reads that tile through a Use::Read view.
bool defer_copy(ExecContext& cx, const ir::Instr& in, const View& src, const View& dst,
                const uint8_t* m) {
  if (in.rmw || m != nullptr || !cx.mem.elision_enabled()) return false;
  if (src.dtype != dst.dtype || !src.contiguous() || !dst.contiguous() || dst.base != 0) return false;
  const int droot = cx.mem.root(dst.tensor);
  if (droot != dst.tensor || src.store_root < 0 || src.store_root == droot) return false;
  const ir::TensorDecl& dd = cx.k.tensors[static_cast<size_t>(droot)];
  const ir::TensorDecl& sd = cx.k.tensors[static_cast<size_t>(src.store_root)];
  if (dd.buffer != ir::Buffer::Sbuf || !ir::is_hbm(sd.buffer)) return false;
  if (dst.count() != cx.mem.storage(droot).elements || src.count() != dst.count()) return false;
  cx.mem.alias_to(droot, src.store_root, src.base);
  return true;
}

}  // namespace

void exec_copy(ExecContext& cx, const ir::Instr& in) {
  need_srcs(cx, in, 1);
  const auto& shape = in.dst.shape;
  ActiveSet act = eval_mask(cx.env, in.mask, shape);
  if (act.kind == ActiveSet::None) return;
  const uint8_t* m = act.ptr();
  View dst = resolve(cx, in.dst, m, in.oob_skip, Use::Peek);
  const int64_t n = dst.count();
  const ir::Operand& s0 = in.srcs[0];

  if (s0.is_imm) {
    cx.mem.prepare_write(in.dst.tensor);  // nl.store(dst, value=scalar) and friends
    if (is_int(dst.dtype) && imm_is_integral(s0.imm) && (!in.rmw || is_bitvec(*in.rmw))) {
      auto v = scratch<int64_t>(cx, n);
      std::fill(v.begin(), v.end(), static_cast<int64_t>(s0.imm));
      if (in.rmw) {
        auto d = scratch<int64_t>(cx, n);
        cx.note_uninit(gather_i64(dst, m, d.data()), dst.tensor);
        alu_i64(*in.rmw, d.data(), false, v.data(), false, v.data(), n);
      }
      scatter_i64(dst, m, v.data());
      return;
    }
    auto v = scratch<float>(cx, n);
    std::fill(v.begin(), v.end(), static_cast<float>(s0.imm));
    if (in.rmw) {
      auto d = scratch<float>(cx, n);
      cx.note_uninit(gather_f32(dst, m, d.data()), dst.tensor);
      alu_f32(*in.rmw, d.data(), false, v.data(), false, v.data(), n);
    }
    scatter_f32(dst, m, v.data());
    return;
  }

  View src = operand_view(cx, s0.access, shape, m, in.oob_skip);
  std::vector<uint8_t> keep;
  m = merge_dropped(src, dst, m, keep);
  if (defer_copy(cx, in, src, dst, m)) return;
  // From here on the destination is written. If it is the source of a deferred copy that `src`
  // reads, `src` still points at the old bytes, which every path below reads in full before it
  // writes (copy_raw_direct refuses views on the same storage).
  cx.mem.prepare_write(in.dst.tensor);

  // ScalarE on NC-v2 always converts through fp32, even between equal integer dtypes.
  const bool scalar_fp32 = in.engine == ir::Engine::Scalar && cx.opt.target == Target::Trn1 &&
                           is_int(src.dtype);
  if (!in.rmw && src.dtype == dst.dtype && !scalar_fp32) {
    // Bit-exact copy (spec §7.3: no conversion when dtypes are equal).
    const size_t es = dst.elem_size;
    if (m == nullptr && copy_raw_direct(src, dst)) return;
    auto tmp = scratch<uint8_t>(cx, n * static_cast<int64_t>(es));
    cx.note_uninit(gather_raw(src, m, tmp.data()), src.tensor);
    scatter_raw(dst, m, tmp.data());
    return;
  }
  const bool indirect_rmw = in.rmw && !dst.indirect.empty();
  const bool both_int = is_int(src.dtype) && is_int(dst.dtype);
  const bool int_op = !in.rmw || is_bitvec(*in.rmw) || *in.rmw == ir::Alu::Add;
  const bool bitvec_rmw = in.rmw && is_bitvec(*in.rmw);
  if (!indirect_rmw && !scalar_fp32 && ((both_int && int_op) || bitvec_rmw)) {
    // Integer to integer: exact 64-bit arithmetic, saturating on store.
    auto v = scratch<int64_t>(cx, n);
    cx.note_uninit(gather_i64(src, m, v.data()), src.tensor);
    if (in.rmw) {
      auto d = scratch<int64_t>(cx, n);
      cx.note_uninit(gather_i64(dst, m, d.data()), dst.tensor);
      alu_i64(*in.rmw, d.data(), false, v.data(), false, v.data(), n);
    }
    scatter_i64(dst, m, v.data());
    return;
  }
  auto v = scratch<float>(cx, n);
  cx.note_uninit(gather_f32(src, m, v.data()), src.tensor);
  if (indirect_rmw) {
    // Indirect read-modify-write (atomic_rmw, dma_copy with dst_rmw_op): several elements may
    // hit the same address, so update one element at a time in order.
    rmw_elementwise(cx, dst, m, *in.rmw, v.data());
    return;
  }
  if (in.rmw) {
    auto d = scratch<float>(cx, n);
    cx.note_uninit(gather_f32(dst, m, d.data()), dst.tensor);
    alu_f32(*in.rmw, d.data(), false, v.data(), false, v.data(), n);
  }
  scatter_f32(dst, m, v.data());
}

void exec_alu(ExecContext& cx, const ir::Instr& in) {
  need_srcs(cx, in, in.alu0 == ir::Alu::Bypass ? 1 : 2);
  if (in.has_second) need_srcs(cx, in, 3);
  const auto& shape = in.dst.shape;
  ActiveSet act = eval_mask(cx.env, in.mask, shape);
  if (act.kind == ActiveSet::None) return;
  const uint8_t* m = act.ptr();
  View dst = resolve(cx, in.dst, m);
  const int64_t n = dst.count();
  const ir::Operand zero = ir::Operand::of_imm(0.0);
  const ir::Operand& a = in.srcs[0];
  const ir::Operand& b = in.srcs.size() > 1 ? in.srcs[1] : zero;
  // int_attrs[1] != 0: the second operator takes its operands the other way round,
  // alu1(src2, alu0(src0, src1)) (nisa.tensor_scalar / scalar_tensor_tensor reverse1: "operand1
  // is the lhs of op1", general/nki/api/nki/isa/__init__.py). reverse0 swaps srcs[0] and srcs[1]
  // in the builder.
  const bool reverse1 = in.has_second && in.int_attrs.size() > 1 && in.int_attrs[1] != 0;

  bool bitvec = is_bitvec(in.alu0) || (in.has_second && is_bitvec(in.alu1));
  bool all_int = is_int(dst.dtype);
  for (const ir::Operand& o : in.srcs)
    if (!o.is_imm && !is_int(cx.mem.storage_dtype(o.access.tensor))) all_int = false;
  // Bitvec operators work on integer bits; GpSimd integer arithmetic is exact (spec §7.3).
  if (bitvec || (in.engine == ir::Engine::GpSimd && all_int)) {
    I64In A = load_i64(cx, a, shape, m), B = load_i64(cx, b, shape, m);
    I64In C;
    if (in.has_second) C = load_i64(cx, in.srcs[2], shape, m);
    auto out = scratch<int64_t>(cx, n);
    alu_i64(in.alu0, A.buf.data(), A.scalar, B.buf.data(), B.scalar, out.data(), n);
    if (in.has_second) {
      if (reverse1) alu_i64(in.alu1, C.buf.data(), C.scalar, out.data(), false, out.data(), n);
      else alu_i64(in.alu1, out.data(), false, C.buf.data(), C.scalar, out.data(), n);
    }
    scatter_i64(dst, m, out.data());
    if (in.reduce_res) {
      std::vector<float> f(out.begin(), out.end());
      int64_t P = shape.empty() ? 1 : shape[0];
      accumulate_registers(cx, in, f.data(), m, P, P ? n / P : 0,
                           in.reduce_cmd == 0 ? 3 : in.reduce_cmd);
    }
    return;
  }
  F32In A = load_f32(cx, a, shape, m, &dst);
  F32In B = load_f32(cx, b, shape, m, &dst);
  F32In C;
  if (in.has_second) C = load_f32(cx, in.srcs[2], shape, m, &dst, /*allow_same_layout=*/false);
  F32Out out = prepare_out(cx, dst, m);
  alu_f32(in.alu0, A.p, A.scalar, B.p, B.scalar, out.p, n);
  if (in.has_second) {
    if (reverse1) alu_f32(in.alu1, C.p, C.scalar, out.p, false, out.p, n);
    else alu_f32(in.alu1, out.p, false, C.p, C.scalar, out.p, n);
  }
  finish(dst, m, out);
  if (in.reduce_res) {  // tensor_scalar_reduce: a fresh reduction each time (reset_reduce)
    int64_t P = shape.empty() ? 1 : shape[0];
    accumulate_registers(cx, in, out.p, m, P, P ? n / P : 0,
                         in.reduce_cmd == 0 ? 3 : in.reduce_cmd);
  }
}

void exec_activation(ExecContext& cx, const ir::Instr& in) {
  need_srcs(cx, in, 1);
  const auto& shape = in.dst.shape;
  ActiveSet act = eval_mask(cx.env, in.mask, shape);
  if (act.kind == ActiveSet::None) return;
  const uint8_t* m = act.ptr();
  View dst = resolve(cx, in.dst, m);
  const int64_t n = dst.count();
  const int64_t P = shape.empty() ? 1 : shape[0];

  if (in.act == ir::Act::Invert && is_int(dst.dtype)) {  // bitwise NOT on integer bits
    I64In s = load_i64(cx, in.srcs[0], shape, m);
    auto out = scratch<int64_t>(cx, n);
    for (int64_t i = 0; i < n; ++i) {
      int64_t x = s.buf[s.scalar ? 0 : static_cast<size_t>(i)];
      switch (dst.dtype) {
        case DType::Bool: out[static_cast<size_t>(i)] = x == 0; break;
        case DType::UInt8: out[static_cast<size_t>(i)] = (~x) & 0xff; break;
        case DType::UInt16: out[static_cast<size_t>(i)] = (~x) & 0xffff; break;
        case DType::UInt32: out[static_cast<size_t>(i)] = (~x) & 0xffffffffLL; break;
        default: out[static_cast<size_t>(i)] = ~x;
      }
    }
    scatter_i64(dst, m, out.data());
    return;
  }

  F32In src = load_f32(cx, in.srcs[0], shape, m, &dst);
  const ir::Operand one = ir::Operand::of_imm(1.0);
  const ir::Operand& scale_op = in.srcs.size() > 1 ? in.srcs[1] : one;
  F32In scale = load_f32(cx, scale_op, shape, m, &dst);
  F32In bias;
  bool has_bias = in.srcs.size() > 2;
  if (has_bias) bias = load_f32(cx, in.srcs[2], shape, m, &dst);
  F32Out out = prepare_out(cx, dst, m);
  if (scale.scalar && scale.p[0] == 1.0f) {
    if (src.scalar)
      std::fill(out.p, out.p + n, src.p[0]);
    else if (out.p != src.p)
      std::memcpy(out.p, src.p, static_cast<size_t>(n) * sizeof(float));
  } else {
    alu_f32(ir::Alu::Multiply, src.p, src.scalar, scale.p, scale.scalar, out.p, n);
  }
  if (has_bias) alu_f32(ir::Alu::Add, out.p, false, bias.p, bias.scalar, out.p, n);
  act_f32(in.act, out.p, out.p, n);
  // Rounding to the destination happens on store; the reduction sees the fp32 results.
  // out.p keeps the fp32 values after the store (scratch, or fp32 storage written in place).
  finish(dst, m, out);
  if (in.reduce_op || in.reduce_res)
    accumulate_registers(cx, in, out.p, m, P, P ? n / P : 0, in.reduce_cmd);
}

void exec_memset(ExecContext& cx, const ir::Instr& in) {
  need_srcs(cx, in, 1);
  if (!in.srcs[0].is_imm) cx.fail(diag::Code::sim_bad_ir, "memset needs an immediate value");
  const auto& shape = in.dst.shape;
  ActiveSet act = eval_mask(cx.env, in.mask, shape);
  if (act.kind == ActiveSet::None) return;
  const uint8_t* m = act.ptr();
  View dst = resolve(cx, in.dst, m);
  const int64_t n = dst.count();
  const double v = in.srcs[0].imm;
  if (is_int(dst.dtype) && imm_is_integral(v)) {
    auto buf = scratch<int64_t>(cx, n);
    std::fill(buf.begin(), buf.end(), static_cast<int64_t>(v));
    scatter_i64(dst, m, buf.data());
    return;
  }
  F32Out out = prepare_out(cx, dst, m);
  std::fill(out.p, out.p + n, static_cast<float>(v));
  finish(dst, m, out);
}

// nisa.register_* (nki/api/nki/isa/__init__.py): a 32-bit scalar moved between registers and
// one tensor element. A load reads the element as an integer (its dtype's value, rounded).
void exec_register(ExecContext& cx, const ir::Instr& in) {
  auto reg = [&](int r) -> int32_t& {
    if (r < 0 || r >= static_cast<int>(cx.vregs.size())) cx.fail(diag::Code::sim_bad_ir, "register index out of range");
    return cx.vregs[static_cast<size_t>(r)];
  };
  switch (in.reg_op) {
    case ir::RegOp::Set: reg(in.reg_dst) = static_cast<int32_t>(in.reg_imm); return;
    case ir::RegOp::Move: reg(in.reg_dst) = reg(in.reg_src); return;
    case ir::RegOp::Load: {
      need_srcs(cx, in, 1);
      I64In v = load_i64(cx, in.srcs[0], in.srcs[0].access.shape, nullptr);
      reg(in.reg_dst) = static_cast<int32_t>(v.buf[0]);
      return;
    }
    case ir::RegOp::Store: {
      View dst = resolve(cx, in.dst, nullptr);
      const int64_t value = reg(in.reg_src);
      scatter_i64(dst, nullptr, &value);
      return;
    }
  }
}

void exec_iota(ExecContext& cx, const ir::Instr& in) {
  const auto& shape = in.dst.shape;
  ActiveSet act = eval_mask(cx.env, in.mask, shape);
  if (act.kind == ActiveSet::None) return;
  const uint8_t* m = act.ptr();
  View dst = resolve(cx, in.dst, m);
  const int64_t n = dst.count();
  auto buf = scratch<int64_t>(cx, n);
  const int64_t rest = cx.env.eval(in.iota.rest);
  std::vector<int64_t> k(shape.size(), 0);
  for (int64_t f = 0; f < n; ++f) {
    int64_t v = rest;
    for (size_t j = 0; j < in.iota.coef.size() && j < k.size(); ++j) v += in.iota.coef[j] * k[j];
    buf[static_cast<size_t>(f)] = v;
    for (size_t d = shape.size(); d-- > 0;) {
      if (++k[d] < shape[d]) break;
      k[d] = 0;
    }
  }
  scatter_i64(dst, m, buf.data());
}

void exec_select(ExecContext& cx, const ir::Instr& in) {
  // With select_pred: srcs = {on_true, on_false} (or a placeholder condition first when 3
  // operands are given). Without: srcs = {condition, on_true, on_false}.
  const bool affine = in.select_pred.has_value();
  need_srcs(cx, in, affine ? 2 : 3);
  const size_t t_idx = (affine && in.srcs.size() == 2) ? 0 : 1;
  const ir::Operand& on_true = in.srcs[t_idx];
  const ir::Operand& on_false = in.srcs[t_idx + 1];
  const auto& shape = in.dst.shape;
  ActiveSet act = eval_mask(cx.env, in.mask, shape);
  if (act.kind == ActiveSet::None) return;
  const uint8_t* m = act.ptr();
  View dst = resolve(cx, in.dst, m);
  const int64_t n = dst.count();

  auto cond = scratch<uint8_t>(cx, n);
  if (affine) {
    const ir::Predicate& p = *in.select_pred;
    const int64_t rest = cx.env.eval(p.rest);
    std::vector<int64_t> k(shape.size(), 0);
    for (int64_t f = 0; f < n; ++f) {
      int64_t v = rest;
      for (size_t j = 0; j < p.coef.size() && j < k.size(); ++j) v += p.coef[j] * k[j];
      cond[static_cast<size_t>(f)] = compare(p.cmp, v);
      for (size_t d = shape.size(); d-- > 0;) {
        if (++k[d] < shape[d]) break;
        k[d] = 0;
      }
    }
  } else {
    F32In c = load_f32(cx, in.srcs[0], shape, m, nullptr);
    for (int64_t f = 0; f < n; ++f) cond[static_cast<size_t>(f)] = c.p[c.scalar ? 0 : f] != 0.0f;
  }

  auto int_operand = [&](const ir::Operand& o) {
    return o.is_imm ? imm_is_integral(o.imm) : is_int(cx.mem.storage_dtype(o.access.tensor));
  };
  if (is_int(dst.dtype) && int_operand(on_true) && int_operand(on_false)) {
    I64In T = load_i64(cx, on_true, shape, m), F = load_i64(cx, on_false, shape, m);
    auto out = scratch<int64_t>(cx, n);
    for (int64_t f = 0; f < n; ++f)
      out[static_cast<size_t>(f)] = cond[static_cast<size_t>(f)]
                                        ? T.buf[T.scalar ? 0 : static_cast<size_t>(f)]
                                        : F.buf[F.scalar ? 0 : static_cast<size_t>(f)];
    scatter_i64(dst, m, out.data());
    return;
  }
  F32In T = load_f32(cx, on_true, shape, m, &dst), F = load_f32(cx, on_false, shape, m, &dst);
  F32Out out = prepare_out(cx, dst, m);
  for (int64_t f = 0; f < n; ++f)
    out.p[f] = cond[static_cast<size_t>(f)] ? T.p[T.scalar ? 0 : f] : F.p[F.scalar ? 0 : f];
  finish(dst, m, out);
}

}  // namespace nki::machine
