// Custom instructions, dispatched on Instr::custom (the table: ir/custom_ops.def; operand
// conventions: machine/custom_ops.h).
#include "machine/custom_ops.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string_view>

#include "base/diag_codes.h"
#include "machine/engine_math.h"
#include "machine/ops.h"
#include "machine/ops_common.h"

namespace nki::machine {

namespace {

// An operand gathered in full over its own iteration space, as [P, F].
struct Mat {
  Scratch<float> v;
  int64_t P = 1, F = 1;
  int tensor = -1;
  float at(int64_t p, int64_t f) const { return v[static_cast<size_t>(p * F + f)]; }
};

const ir::Operand& src(ExecContext& cx, const ir::Instr& in, size_t i) {
  if (in.srcs.size() <= i || in.srcs[i].is_imm)
    cx.fail(diag::Code::sim_bad_ir, "'" + in.name + "' needs a tensor operand #" + std::to_string(i));
  return in.srcs[i];
}

void dims(const std::vector<int64_t>& shape, int64_t& P, int64_t& F) {
  const int64_t n = ir::element_count(shape);
  P = shape.empty() ? 1 : shape[0];
  F = P > 0 ? n / P : 0;
}

Mat load_mat(ExecContext& cx, const ir::Access& a) {
  Mat m;
  View v = resolve(cx, a, nullptr);
  dims(a.shape, m.P, m.F);
  m.v = scratch<float>(cx, v.count());
  m.tensor = v.tensor;
  cx.note_uninit(gather_f32(v, nullptr, m.v.data()), v.tensor);
  return m;
}

struct Dst {
  View view;
  ActiveSet act;
  int64_t P = 1, F = 1;
};

Dst dst_of(ExecContext& cx, const ir::Instr& in) {
  Dst d;
  d.act = eval_mask(cx.env, in.mask, in.dst.shape);
  if (d.act.kind == ActiveSet::None) {  // nothing is written; keep a view for dtype/shape
    d.act.kind = ActiveSet::Some;
    d.act.bits.assign(static_cast<size_t>(ir::element_count(in.dst.shape)), 0);
  }
  d.view = resolve(cx, in.dst, d.act.ptr());
  dims(in.dst.shape, d.P, d.F);
  return d;
}

void need_dst(ExecContext& cx, const ir::Instr& in, const Dst& d, int64_t P, int64_t F) {
  if (d.P * d.F != P * F)
    cx.fail(diag::Code::sim_bad_ir, "'" + in.name + "' destination has " + std::to_string(d.P * d.F) +
                              " elements, expected " + std::to_string(P) + "x" +
                              std::to_string(F));
}

void store(const Dst& d, const Scratch<float>& out) {
  if (d.act.kind == ActiveSet::None) return;
  scatter_f32(d.view, d.act.ptr(), out.data());
}

constexpr int64_t kAllOnes = 0xFFFFFFFFLL;

// ---- batch-norm statistics ----
void bn_stats(ExecContext& cx, const ir::Instr& in) {
  Mat x = load_mat(cx, src(cx, in, 0).access);
  // Optional srcs[1]: 0/1 membership of each data element (bn_stats(mask=...)).
  const bool has_member = in.srcs.size() > 1;
  Mat member;
  if (has_member) member = load_mat(cx, src(cx, in, 1).access);
  auto active = [&](int64_t p, int64_t f) { return !has_member || member.at(p, f) != 0.0f; };
  Dst d = dst_of(cx, in);
  need_dst(cx, in, d, x.P, 6);
  auto out = scratch<float>(cx, x.P * 6);
  for (int64_t p = 0; p < x.P; ++p)
    for (int parity = 0; parity < 2; ++parity) {
      float n = 0, sum = 0;
      for (int64_t f = parity; f < x.F; f += 2) {
        if (!active(p, f)) continue;
        sum += x.at(p, f);
        n += 1;
      }
      float mean = n > 0 ? sum / n : 0.0f, m2 = 0;
      for (int64_t f = parity; f < x.F; f += 2) {
        if (!active(p, f)) continue;
        float dlt = x.at(p, f) - mean;
        m2 += dlt * dlt;
      }
      out[static_cast<size_t>(p * 6 + parity * 3)] = n;
      out[static_cast<size_t>(p * 6 + parity * 3 + 1)] = mean;
      out[static_cast<size_t>(p * 6 + parity * 3 + 2)] = m2;  // var * count
    }
  store(d, out);
}

void bn_aggr(ExecContext& cx, const ir::Instr& in) {
  Mat s = load_mat(cx, src(cx, in, 0).access);
  if (s.F % 3 != 0) cx.fail(diag::Code::sim_bad_ir, "bn_aggr input free size must be a multiple of 3");
  Dst d = dst_of(cx, in);
  need_dst(cx, in, d, s.P, 2);
  auto out = scratch<float>(cx, s.P * 2);
  for (int64_t p = 0; p < s.P; ++p) {
    float n = 0, weighted = 0;
    for (int64_t g = 0; g < s.F; g += 3) {
      n += s.at(p, g);
      weighted += s.at(p, g) * s.at(p, g + 1);
    }
    float mean = n > 0 ? weighted / n : 0.0f, m2 = 0;
    for (int64_t g = 0; g < s.F; g += 3) {
      float dlt = s.at(p, g + 1) - mean;
      m2 += s.at(p, g + 2) + s.at(p, g) * dlt * dlt;
    }
    out[static_cast<size_t>(p * 2)] = mean;
    out[static_cast<size_t>(p * 2 + 1)] = n > 0 ? m2 / n : 0.0f;
  }
  store(d, out);
}

// ---- top-8 family ----
void max8(ExecContext& cx, const ir::Instr& in) {
  Mat x = load_mat(cx, src(cx, in, 0).access);
  if (x.F < 8) cx.fail(diag::Code::sim_bad_ir, "max8 needs at least 8 elements per partition");
  Dst d = dst_of(cx, in);
  need_dst(cx, in, d, x.P, 8);
  auto out = scratch<float>(cx, x.P * 8);
  std::vector<float> row(static_cast<size_t>(x.F));
  for (int64_t p = 0; p < x.P; ++p) {
    std::copy(x.v.data() + p * x.F, x.v.data() + (p + 1) * x.F, row.begin());
    std::partial_sort(row.begin(), row.begin() + 8, row.end(), std::greater<float>());
    std::copy(row.begin(), row.begin() + 8, out.data() + p * 8);
  }
  store(d, out);
}

// First index >= `from` in row p where data == v; -1 when absent.
int64_t find_in_row(const Mat& x, int64_t p, float v, int64_t from) {
  for (int64_t f = from; f < x.F; ++f)
    if (x.at(p, f) == v) return f;
  return -1;
}

void nc_find_index8(ExecContext& cx, const ir::Instr& in) {
  Mat x = load_mat(cx, src(cx, in, 0).access);
  Mat vals = load_mat(cx, src(cx, in, 1).access);
  if (vals.F != 8 || vals.P != x.P) cx.fail(diag::Code::sim_bad_ir, "nc_find_index8 needs vals [P, 8]");
  Dst d = dst_of(cx, in);
  need_dst(cx, in, d, x.P, 8);
  auto out = scratch<int64_t>(cx, x.P * 8);
  for (int64_t p = 0; p < x.P; ++p)
    for (int64_t j = 0; j < 8; ++j) {
      // A value repeated among vals finds the occurrence after the previous one.
      int64_t from = 0;
      for (int64_t i = 0; i < j; ++i)
        if (vals.at(p, i) == vals.at(p, j) && out[static_cast<size_t>(p * 8 + i)] != kAllOnes)
          from = out[static_cast<size_t>(p * 8 + i)] + 1;
      int64_t f = find_in_row(x, p, vals.at(p, j), from);
      out[static_cast<size_t>(p * 8 + j)] = f < 0 ? kAllOnes : f;
    }
  if (d.act.kind != ActiveSet::None) scatter_i64(d.view, d.act.ptr(), out.data());
}

void nc_match_replace8(ExecContext& cx, const ir::Instr& in) {
  Mat x = load_mat(cx, src(cx, in, 0).access);
  Mat vals = load_mat(cx, src(cx, in, 1).access);
  if (vals.F != 8 || vals.P != x.P) cx.fail(diag::Code::sim_bad_ir, "nc_match_replace8 needs vals [P, 8]");
  if (in.float_attrs.empty()) cx.fail(diag::Code::sim_bad_ir, "nc_match_replace8 needs float_attrs[0] = imm");
  const float imm = static_cast<float>(in.float_attrs[0]);
  Dst d = dst_of(cx, in);
  need_dst(cx, in, d, x.P, x.F);
  auto idx = scratch<int64_t>(cx, x.P * 8);
  for (int64_t p = 0; p < x.P; ++p)
    for (int64_t j = 7; j >= 0; --j) {  // hardware order: last value first
      int64_t f = find_in_row(x, p, vals.at(p, j), 0);
      idx[static_cast<size_t>(p * 8 + j)] = f < 0 ? kAllOnes : f;
      if (f >= 0) x.v[static_cast<size_t>(p * x.F + f)] = imm;
    }
  store(d, x.v);
  if (in.srcs.size() > 2 && !in.srcs[2].is_imm) {
    const ir::Access& ia = in.srcs[2].access;
    if (ir::element_count(ia.shape) != x.P * 8)
      cx.fail(diag::Code::sim_bad_ir, "nc_match_replace8 dst_idx must have [P, 8] elements");
    View iv = resolve(cx, ia, nullptr);
    scatter_i64(iv, nullptr, idx.data());
  }
}

// ---- gathers ----
void gather_flattened(ExecContext& cx, const ir::Instr& in) {
  const ir::Access& da = src(cx, in, 0).access;
  View dv = resolve(cx, da, nullptr);
  int64_t P, F;
  dims(da.shape, P, F);
  const ir::Access& ia = src(cx, in, 1).access;
  View iv = resolve(cx, ia, nullptr);
  int64_t IP, G;
  dims(ia.shape, IP, G);
  if (IP != P) cx.fail(diag::Code::sim_bad_ir, "gather_flattened operands need the same partition count");
  Dst d = dst_of(cx, in);
  need_dst(cx, in, d, P, G);
  auto idx = scratch<int64_t>(cx, P * G);
  cx.note_uninit(gather_i64(iv, nullptr, idx.data()), iv.tensor);
  const bool ints = is_int(dv.dtype) && is_int(d.view.dtype);
  if (ints) {
    auto data = scratch<int64_t>(cx, P * F);
    cx.note_uninit(gather_i64(dv, nullptr, data.data()), dv.tensor);
    auto out = scratch<int64_t>(cx, P * G);
    for (int64_t p = 0; p < P; ++p)
      for (int64_t j = 0; j < G; ++j) {
        int64_t k = idx[static_cast<size_t>(p * G + j)];
        out[static_cast<size_t>(p * G + j)] =
            (k >= 0 && k < F) ? data[static_cast<size_t>(p * F + k)] : kUninitIntSentinel;
      }
    if (d.act.kind != ActiveSet::None) scatter_i64(d.view, d.act.ptr(), out.data());
    return;
  }
  auto data = scratch<float>(cx, P * F);
  cx.note_uninit(gather_f32(dv, nullptr, data.data()), dv.tensor);
  auto out = scratch<float>(cx, P * G);
  for (int64_t p = 0; p < P; ++p)
    for (int64_t j = 0; j < G; ++j) {
      int64_t k = idx[static_cast<size_t>(p * G + j)];
      out[static_cast<size_t>(p * G + j)] = (k >= 0 && k < F)
                                                ? data[static_cast<size_t>(p * F + k)]
                                                : std::numeric_limits<float>::quiet_NaN();
    }
  store(d, out);
}

// Raw-byte [P, F] buffer of an operand (bit-exact moves between equal dtypes).
struct RawMat {
  Scratch<uint8_t> v;
  int64_t P = 1, F = 1;
  size_t es = 4;
};

RawMat load_raw(ExecContext& cx, const View& v, const std::vector<int64_t>& shape,
                const uint8_t* mask = nullptr) {
  RawMat m;
  dims(shape, m.P, m.F);
  m.es = v.elem_size;
  m.v = scratch<uint8_t>(cx, v.count() * static_cast<int64_t>(m.es));
  cx.note_uninit(gather_raw(v, mask, m.v.data()), v.tensor);
  return m;
}

void local_gather(ExecContext& cx, const ir::Instr& in) {
  const ir::Access& sa = src(cx, in, 0).access;
  View sv = resolve(cx, sa, nullptr);
  RawMat s = load_raw(cx, sv, sa.shape);
  const ir::Access& ia = src(cx, in, 1).access;
  View iv = resolve(cx, ia, nullptr);
  int64_t IP, J;
  dims(ia.shape, IP, J);
  if (IP != s.P || s.P % 16 != 0)
    cx.fail(diag::Code::sim_bad_ir, "local_gather needs equal partition counts that are multiples of 16");
  auto idx = scratch<int64_t>(cx, IP * J);
  cx.note_uninit(gather_i64(iv, nullptr, idx.data()), iv.tensor);
  const int64_t E = in.int_attrs.size() > 0 ? in.int_attrs[0] : 1;
  const int64_t V = in.int_attrs.size() > 1 && in.int_attrs[1] > 0 ? in.int_attrs[1] : 16 * J;
  if (V > 16 * J) cx.fail(diag::Code::sim_bad_ir, "local_gather num_valid_indices exceeds the indices");
  Dst d = dst_of(cx, in);
  need_dst(cx, in, d, s.P, V * E);
  if (d.view.dtype != sv.dtype)
    cx.fail(diag::Code::sim_bad_ir, "local_gather destination dtype must match the source (no cast)");
  auto out = scratch<uint8_t>(cx, s.P * V * E * static_cast<int64_t>(s.es));
  std::memset(out.data(), 0, static_cast<size_t>(out.size()));
  for (int64_t c = 0; c < s.P / 16; ++c) {
    std::vector<int64_t> order;  // partition-first (column-major) over the core's 16 partitions
    for (int64_t j = 0; j < J && static_cast<int64_t>(order.size()) < V; ++j)
      for (int64_t i = 0; i < 16 && static_cast<int64_t>(order.size()) < V; ++i)
        order.push_back(idx[static_cast<size_t>((c * 16 + i) * J + j)]);
    for (int64_t i = 0; i < 16; ++i) {
      const int64_t p = c * 16 + i;
      for (int64_t v = 0; v < V; ++v)
        for (int64_t e = 0; e < E; ++e) {
          const int64_t from = order[static_cast<size_t>(v)] + e;
          if (from < 0 || from >= s.F) continue;  // out of range: undefined, left zero
          std::memcpy(out.data() + ((p * V + v) * E + e) * static_cast<int64_t>(s.es),
                      s.v.data() + (p * s.F + from) * static_cast<int64_t>(s.es), s.es);
        }
    }
  }
  if (d.act.kind != ActiveSet::None) scatter_raw(d.view, d.act.ptr(), out.data());
}

void nc_stream_shuffle(ExecContext& cx, const ir::Instr& in) {
  const ir::Access& sa = src(cx, in, 0).access;
  View sv = resolve(cx, sa, nullptr);
  Dst d = dst_of(cx, in);
  if (d.act.kind == ActiveSet::None) return;
  int64_t SP, SF;
  dims(sa.shape, SP, SF);
  if (SF != d.F) cx.fail(diag::Code::sim_bad_ir, "nc_stream_shuffle needs equal elements per partition");
  std::vector<int64_t> mask(in.int_attrs.begin(), in.int_attrs.end());
  mask.resize(32, 255);
  const bool raw = sv.dtype == d.view.dtype;
  // Start from the destination's current contents (mask 255 keeps a partition unchanged).
  const size_t es = raw ? sv.elem_size : sizeof(float);
  auto cur = scratch<uint8_t>(cx, d.P * d.F * static_cast<int64_t>(es));
  auto srcb = scratch<uint8_t>(cx, SP * SF * static_cast<int64_t>(es));
  if (raw) {
    gather_raw(d.view, nullptr, cur.data());
    cx.note_uninit(gather_raw(sv, nullptr, srcb.data()), sv.tensor);
  } else {
    gather_f32(d.view, nullptr, reinterpret_cast<float*>(cur.data()));
    cx.note_uninit(gather_f32(sv, nullptr, reinterpret_cast<float*>(srcb.data())), sv.tensor);
  }
  const size_t row = static_cast<size_t>(d.F) * es;
  for (int64_t p = 0; p < d.P; ++p) {
    const int64_t m = mask[static_cast<size_t>(p % 32)];
    if (m == 255) continue;
    const int64_t from = (p / 32) * 32 + m;
    if (from < 0 || from >= SP) cx.fail(diag::Code::sim_bad_ir, "nc_stream_shuffle mask entry out of range");
    std::memcpy(cur.data() + static_cast<size_t>(p) * row, srcb.data() + static_cast<size_t>(from) * row, row);
  }
  if (raw)
    scatter_raw(d.view, d.act.ptr(), cur.data());
  else
    scatter_f32(d.view, d.act.ptr(), reinterpret_cast<const float*>(cur.data()));
}

// ---- cross-partition and layout ----
void tensor_partition_reduce(ExecContext& cx, const ir::Instr& in) {
  const ir::Access& a = src(cx, in, 0).access;
  Dst d = dst_of(cx, in);
  int64_t P, F;
  dims(a.shape, P, F);
  need_dst(cx, in, d, 1, F);
  if (is_bitvec(in.alu0)) {
    View v = resolve(cx, a, nullptr);
    auto x = scratch<int64_t>(cx, P * F);
    cx.note_uninit(gather_i64(v, nullptr, x.data()), v.tensor);
    auto out = scratch<int64_t>(cx, F);
    for (int64_t f = 0; f < F; ++f) {
      int64_t acc = alu_identity_i64(in.alu0);
      for (int64_t p = 0; p < P; ++p) acc = alu_scalar_i64(in.alu0, acc, x[static_cast<size_t>(p * F + f)]);
      out[static_cast<size_t>(f)] = acc;
    }
    if (d.act.kind != ActiveSet::None) scatter_i64(d.view, d.act.ptr(), out.data());
    return;
  }
  Mat x = load_mat(cx, a);
  auto out = scratch<float>(cx, F);
  for (int64_t f = 0; f < F; ++f) {
    float acc = alu_identity(in.alu0);
    for (int64_t p = 0; p < P; ++p) acc = alu_scalar(in.alu0, acc, x.at(p, f));
    out[static_cast<size_t>(f)] = acc;
  }
  store(d, out);
}

void transpose(ExecContext& cx, const ir::Instr& in) {
  const ir::Access& a = src(cx, in, 0).access;
  Dst d = dst_of(cx, in);
  int64_t P, F;
  dims(a.shape, P, F);
  need_dst(cx, in, d, F, P);
  const bool via_matmul = in.engine == ir::Engine::Tensor && cx.opt.target == Target::Trn1;
  View v = resolve(cx, a, nullptr);
  if (!via_matmul && v.dtype == d.view.dtype) {
    RawMat x = load_raw(cx, v, a.shape);
    auto out = scratch<uint8_t>(cx, P * F * static_cast<int64_t>(x.es));
    for (int64_t p = 0; p < P; ++p)
      for (int64_t f = 0; f < F; ++f)
        std::memcpy(out.data() + (f * P + p) * static_cast<int64_t>(x.es),
                    x.v.data() + (p * F + f) * static_cast<int64_t>(x.es), x.es);
    if (d.act.kind != ActiveSet::None) scatter_raw(d.view, d.act.ptr(), out.data());
    return;
  }
  Mat x = load_mat(cx, a);
  auto out = scratch<float>(cx, P * F);
  for (int64_t f = 0; f < F; ++f)
    for (int64_t p = 0; p < P; ++p) {
      if (!via_matmul) {
        out[static_cast<size_t>(f * P + p)] = x.at(p, f);
        continue;
      }
      // out[f, p] = sum_k x[k, f] * I[k, p] in fp32: non-finite inputs contaminate.
      float acc = 0.0f;
      for (int64_t k = 0; k < P; ++k) acc += x.at(k, f) * (k == p ? 1.0f : 0.0f);
      out[static_cast<size_t>(f * P + p)] = acc;
    }
  store(d, out);
}

// ---- random numbers ----
void rand_fill(ExecContext& cx, const ir::Instr& in) {
  Dst d = dst_of(cx, in);
  auto out = scratch<float>(cx, d.P * d.F);
  for (float& x : out) x = cx.rng.uniform();
  store(d, out);
}

void random_seed(ExecContext& cx, const ir::Instr& in) {
  if (in.srcs.empty()) cx.fail(diag::Code::sim_bad_ir, "random_seed needs a seed operand");
  double seed = 0;
  if (in.srcs[0].is_imm) {
    seed = in.srcs[0].imm;
  } else {
    Mat s = load_mat(cx, in.srcs[0].access);
    seed = s.v.size() > 0 ? s.v[0] : 0.0;
  }
  cx.rng.seed = static_cast<uint64_t>(static_cast<int64_t>(seed)) * 0x9e3779b97f4a7c15ULL + 1;
  cx.rng.counter = 0;
}

void dropout(ExecContext& cx, const ir::Instr& in) {
  Dst d = dst_of(cx, in);
  const int64_t n = d.P * d.F;
  F32In x = load_f32(cx, src(cx, in, 0), in.dst.shape, nullptr, nullptr);
  const ir::Operand prob_imm = ir::Operand::of_imm(0.0);
  F32In prob = load_f32(cx, in.srcs.size() > 1 ? in.srcs[1] : prob_imm, in.dst.shape, nullptr,
                        nullptr);
  auto out = scratch<float>(cx, n);
  for (int64_t i = 0; i < n; ++i) {
    const float u = cx.rng.uniform();
    out[static_cast<size_t>(i)] = u < prob.p[prob.scalar ? 0 : i] ? 0.0f : x.p[x.scalar ? 0 : i];
  }
  store(d, out);
}

// ---- selects with accumulator reductions ----
bool cmp_f32(ExecContext& cx, int64_t op, float a, float b) {
  switch (static_cast<ir::Alu>(op)) {
    case ir::Alu::Equal: return a == b;
    case ir::Alu::NotEqual: return a != b;
    case ir::Alu::Less: return a < b;
    case ir::Alu::LessEqual: return a <= b;
    case ir::Alu::Greater: return a > b;
    case ir::Alu::GreaterEqual: return a >= b;
    default: cx.fail(diag::Code::sim_bad_ir, "range_select comparison must be a comparison operator");
  }
}

void range_select(ExecContext& cx, const ir::Instr& in) {
  if (in.int_attrs.size() < 2 || in.float_attrs.empty())
    cx.fail(diag::Code::sim_bad_ir, "range_select needs int_attrs {comp_op0, comp_op1[, range_start]} "
                          "and float_attrs {on_false_value}");
  Mat t = load_mat(cx, src(cx, in, 0).access);
  Mat b0 = load_mat(cx, src(cx, in, 1).access);
  Mat b1 = load_mat(cx, src(cx, in, 2).access);
  Dst d = dst_of(cx, in);
  need_dst(cx, in, d, t.P, t.F);
  // range_start: a constant (int_attrs[2]) plus a loop-index expression (iota.rest), e.g.
  // `range_start=base + i * step` inside an affine loop (2.24 doc test test_nki_isa_range_select).
  const int64_t start = (in.int_attrs.size() > 2 ? in.int_attrs[2] : 0) + cx.env.eval(in.iota.rest);
  const float on_false = static_cast<float>(in.float_attrs[0]);
  auto out = scratch<float>(cx, t.P * t.F);
  for (int64_t p = 0; p < t.P; ++p) {
    const float lo = b0.v[static_cast<size_t>(p * b0.F)], hi = b1.v[static_cast<size_t>(p * b1.F)];
    for (int64_t j = 0; j < t.F; ++j) {
      const float idx = static_cast<float>(start + j);  // compared in fp32
      const bool keep = cmp_f32(cx, in.int_attrs[0], idx, lo) && cmp_f32(cx, in.int_attrs[1], idx, hi);
      out[static_cast<size_t>(p * t.F + j)] = keep ? t.at(p, j) : on_false;
    }
  }
  store(d, out);
  if (in.reduce_res || in.reduce_cmd != 0)
    accumulate_registers(cx, in, out.data(), d.act.ptr(), t.P, t.F, in.reduce_cmd);
}

void select_reduce(ExecContext& cx, const ir::Instr& in) {
  Mat pred = load_mat(cx, src(cx, in, 0).access);
  Dst d = dst_of(cx, in);
  const int64_t n = d.P * d.F;
  if (pred.P * pred.F != n) cx.fail(diag::Code::sim_bad_ir, "select_reduce predicate must match dst");
  F32In on_true = load_f32(cx, in.srcs.size() > 1 ? in.srcs[1] : ir::Operand::of_imm(0.0),
                           in.dst.shape, nullptr, nullptr);
  F32In on_false = load_f32(cx, in.srcs.size() > 2 ? in.srcs[2] : ir::Operand::of_imm(0.0),
                            in.dst.shape, nullptr, nullptr);
  const bool reverse = !in.int_attrs.empty() && in.int_attrs[0] != 0;
  auto out = scratch<float>(cx, n);
  for (int64_t i = 0; i < n; ++i) {
    const bool c = (pred.v[static_cast<size_t>(i)] != 0.0f) != reverse;
    out[static_cast<size_t>(i)] = c ? on_true.p[on_true.scalar ? 0 : i] : on_false.p[on_false.scalar ? 0 : i];
  }
  store(d, out);
  if (in.reduce_res || in.reduce_cmd != 0)
    accumulate_registers(cx, in, out.data(), d.act.ptr(), d.P, d.F, in.reduce_cmd);
}

// tensor_scalar_cumulative (post-2.24; aws-neuron-sdk HEAD nki/api/nki/isa/__init__.py): a
// running op1-fold of op0(src, imm0) along each partition's free elements, every prefix written
// to dst. The fold state is the Vector engine's accumulator register, so a following
// reduce_cmd=reduce instruction continues from where this one stopped.
void tensor_scalar_cumulative(ExecContext& cx, const ir::Instr& in) {
  if (in.int_attrs.size() < 3 || in.srcs.size() < 3)
    cx.fail(diag::Code::sim_bad_ir, "tensor_scalar_cumulative needs srcs {src, imm0, imm1} and int_attrs {op0, op1, reduce_cmd}");
  Mat x = load_mat(cx, src(cx, in, 0).access);
  Dst d = dst_of(cx, in);
  need_dst(cx, in, d, x.P, x.F);
  F32In imm0 = load_f32(cx, in.srcs[1], in.dst.shape, nullptr, nullptr);
  F32In imm1 = load_f32(cx, in.srcs[2], in.dst.shape, nullptr, nullptr);
  const auto op0 = static_cast<ir::Alu>(in.int_attrs[0]);
  const auto op1 = static_cast<ir::Alu>(in.int_attrs[1]);
  const int64_t cmd = in.int_attrs[2];
  std::vector<float>& regs = cx.regs.of(ir::Engine::Vector);
  if (static_cast<int64_t>(regs.size()) < x.P) regs.resize(static_cast<size_t>(x.P), 0.0f);
  auto out = scratch<float>(cx, x.P * x.F);
  const uint8_t* m = d.act.ptr();
  for (int64_t p = 0; p < x.P; ++p) {
    float& reg = regs[static_cast<size_t>(p)];
    // reset_reduce: the identity of op1 (0 for add and subtract); load_reduce: imm1; reduce: keep.
    if (cmd == 3) reg = alu_identity(op1);
    else if (cmd == 4) reg = imm1.p[imm1.scalar ? 0 : p * x.F];
    for (int64_t f = 0; f < x.F; ++f) {
      const size_t i = static_cast<size_t>(p * x.F + f);
      if (m && !m[i]) continue;  // masked-out elements neither fold nor write
      const float v = alu_scalar(op0, x.v[i], imm0.p[imm0.scalar ? 0 : i]);
      reg = alu_scalar(op1, v, reg);  // the docstring's order: reg = op1(op0(src, imm0), reg)
      out[i] = reg;
    }
  }
  store(d, out);
}

void sequence_bounds(ExecContext& cx, const ir::Instr& in) {
  Mat ids = load_mat(cx, src(cx, in, 0).access);
  const int64_t n = ids.P * ids.F;
  Dst d = dst_of(cx, in);
  need_dst(cx, in, d, 2, n);
  auto out = scratch<float>(cx, 2 * n);
  for (int64_t i = 0; i < n; ++i) {
    const float id = ids.v[static_cast<size_t>(i)];
    int64_t first = n, last = -1;
    if (id != 0.0f) {
      first = i;
      while (first > 0 && ids.v[static_cast<size_t>(first - 1)] == id) --first;
      last = i + 1;
      while (last < n && ids.v[static_cast<size_t>(last)] == id) ++last;
    }
    out[static_cast<size_t>(i)] = static_cast<float>(first);
    out[static_cast<size_t>(n + i)] = static_cast<float>(last);
  }
  store(d, out);
}

// ---- debugging ----
void device_print(ExecContext& cx, const ir::Instr& in, std::string_view prefix) {
  Mat x = load_mat(cx, src(cx, in, 0).access);
  const ir::Access& a = in.srcs[0].access;
  std::string text(prefix);
  text += " [";
  for (size_t i = 0; i < a.shape.size(); ++i) text += (i ? ", " : "") + std::to_string(a.shape[i]);
  text += "] ";
  constexpr int64_t kMaxValues = 256;
  const int64_t n = x.v.size();
  for (int64_t i = 0; i < n && i < kMaxValues; ++i) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%s%.7g", i ? " " : "", static_cast<double>(x.v[static_cast<size_t>(i)]));
    text += buf;
  }
  if (n > kMaxValues) text += " ... (" + std::to_string(n) + " values)";
  cx.warnings.push_back(
      make_diagnostic(Severity::Note, diag::Code::device_print, text, cx.k.file, in.loc));
}

}  // namespace

void exec_custom(ExecContext& cx, const ir::Instr& in) {
  switch (in.custom) {
    case ir::CustomOp::DevicePrint: {
      std::string_view prefix;  // text after '#' in the name: device_print's prefix
      if (auto hash = std::string_view(in.name).find('#'); hash != std::string_view::npos)
        prefix = std::string_view(in.name).substr(hash + 1);
      return device_print(cx, in, prefix);
    }
    case ir::CustomOp::BnStats: return bn_stats(cx, in);
    case ir::CustomOp::BnAggr: return bn_aggr(cx, in);
    case ir::CustomOp::Max8: return max8(cx, in);
    case ir::CustomOp::NcFindIndex8: return nc_find_index8(cx, in);
    case ir::CustomOp::NcMatchReplace8: return nc_match_replace8(cx, in);
    case ir::CustomOp::GatherFlattened: return gather_flattened(cx, in);
    case ir::CustomOp::LocalGather: return local_gather(cx, in);
    case ir::CustomOp::NcStreamShuffle: return nc_stream_shuffle(cx, in);
    case ir::CustomOp::TensorPartitionReduce: return tensor_partition_reduce(cx, in);
    case ir::CustomOp::Transpose:
    case ir::CustomOp::NcTranspose: return transpose(cx, in);
    case ir::CustomOp::Rand: return rand_fill(cx, in);
    case ir::CustomOp::RandomSeed: return random_seed(cx, in);
    case ir::CustomOp::Dropout: return dropout(cx, in);
    case ir::CustomOp::RangeSelect: return range_select(cx, in);
    case ir::CustomOp::SelectReduce: return select_reduce(cx, in);
    case ir::CustomOp::SequenceBounds: return sequence_bounds(cx, in);
    case ir::CustomOp::TensorScalarCumulative: return tensor_scalar_cumulative(cx, in);
    case ir::CustomOp::None: break;
  }
  cx.fail(diag::Code::sim_unsupported,
          "the simulator does not implement custom instruction '" + in.name + "'",
          "see src/machine/custom_ops.h for the supported names");
}

}  // namespace nki::machine
