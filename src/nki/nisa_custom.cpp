// nisa instructions lowered to Custom instructions (SDK 2.24 ISA docstrings; the table:
// src/ir/custom_ops.def; operand layouts: src/machine/custom_ops.h): statistics (bn_stats,
// bn_aggr), top-8 search (max8, nc_find_index8, nc_match_replace8), dropout, shuffles, gathers
// and sequence_bounds (shared/docs/nki-spec.md §2.10).
#include <algorithm>
#include <cmath>

#include "base/diag_codes.h"
#include "nki/api_common.h"
#include "nki/custom_emit.h"
#include "nki/nisa_custom_apis.h"
#include "nki/operand_rules.h"

namespace nki::front::nisa {

namespace {

// A mask on the data operand of a search instruction (max8, nc_find_index8) limits which
// elements take part: copy the active elements into a scratch tile pre-filled with `fill`, a
// value that cannot win the search.
std::shared_ptr<TensorObj> masked_data(Tracer& t, TensorObj* x, const Ref& mask, double fill, const std::string& api) {
  if (!mask || py::is_none(mask)) return std::make_shared<TensorObj>(*x);
  auto tmp = t.new_tensor(x->shape(), DType::Float32, ir::Buffer::Sbuf, "");
  ir::Instr set;
  set.op = ir::Opcode::Memset;
  set.name = api + "(mask fill)";
  set.engine = ir::Engine::Vector;
  set.dst = tmp->view;
  set.srcs.push_back(ir::Operand::of_imm(fill));
  t.emit(std::move(set));
  ir::Instr cp;
  cp.op = ir::Opcode::Copy;
  cp.name = api + "(masked data)";
  cp.engine = ir::Engine::Vector;
  cp.dst = tmp->view;
  cp.srcs.push_back(ir::Operand::of(x->view));
  cp.mask = make_mask(t, mask, x->shape().size());
  t.emit(std::move(cp));
  return tmp;
}

// max8 / nc_find_index8 / nc_match_replace8 read at most 16,384 elements per partition; max8 and
// nc_find_index8 need at least 8 (2.24 ISA docstrings). The vals of the latter two hold exactly
// 8 values per partition.
void check_top8_free_size(const TensorObj& x, const std::string& api, const std::string& arg, int64_t min) {
  int64_t f = free_size(x);
  if (f < min || f > 16384)
    nki_error(diag::Code::max8_free_size,
              "'" + arg + "' of '" + api + "' has " + std::to_string(f) + " elements per partition; it must have " +
                  (min > 1 ? "between " + std::to_string(min) + " and " : "at most ") + "16384",
              "split or pad the free dimension to the documented range");
}

void check_top8_vals(const TensorObj& v, const std::string& api) {
  if (free_size(v) != 8)
    nki_error(diag::Code::find_index8_vals,
              "vals of '" + api + "' must hold exactly 8 values per partition, got " + shape_str(v.shape()),
              "pass a [P, 8] tile, e.g. the result of nisa.max8");
}


// nc_stream_shuffle constraint 3 (2.24 docstring): with num_active_partitions =
// ceil(max(src, dst partitions) / 32) * 32, the start partitions of src and dst must be 0 for 96/128
// active partitions, 0 or 64 for 64, and a multiple of 32 for 32.
void check_shuffle_start(const TensorObj& src, const TensorObj& dst) {
  int64_t active = (std::max(src.shape()[0], dst.shape()[0]) + 31) / 32 * 32;
  int64_t step = active >= 96 ? 128 : active;
  for (const TensorObj* x : {&src, &dst}) {
    const ir::Access& v = x->view;
    if (v.offset.empty() || !v.offset[0].is_constant()) continue;  // runtime start: not known here
    int64_t start = v.offset[0].constant;
    if (start % step != 0)
      nki_error(diag::Code::shuffle_start_partition,
                std::string(x == &src ? "src" : "dst") + " of 'nc_stream_shuffle' starts at partition " +
                    std::to_string(start) + "; with " + std::to_string(active) +
                    " active partitions the start partition must be a multiple of " + std::to_string(step) +
                    (step == 128 ? " (i.e. 0)" : ""),
                "start src and dst at a quadrant boundary allowed for that many partitions (0/32/64/96 for 32, 0/64 for 64, 0 above)");
  }
}


}  // namespace

BnStats bind_bn_stats(Tracer& t, py::Interp&, const Args& a) {
  TensorObj* x = on_chip_tile(a[0], "bn_stats", "data");
  if (const int64_t fmax = t.hw().bn_stats_fmax; free_size(*x) > fmax)
    nki_error(diag::Code::bn_stats_fmax, "bn_stats free size " + std::to_string(free_size(*x)) +
                                   " exceeds nl.tile_size.bn_stats_fmax (" + std::to_string(fmax) + ")",
              "call bn_stats on chunks of at most " + std::to_string(fmax) + " elements and aggregate them with nisa.bn_aggr");
  return {x, opt_dtype(a[2]).value_or(x->dtype()), a[1]};
}

Ref emit_bn_stats(Tracer& t, const BnStats& a) {
  TensorObj* x = a.data;
  if (!a.mask || py::is_none(a.mask))
    return emit_custom(t, ir::CustomOp::BnStats, {x->shape()[0], 6}, a.dtype, {ir::Operand::of(x->view)}, a.mask);
  // The mask ranges over the data: masked-out elements take no part in the statistics (the
  // SDK 2.24 layernorm tutorial masks the ragged last 512-column chunk of a 1000-column row).
  // Pass the active data and a 0/1 membership tile of the same shape.
  auto data = masked_data(t, x, a.mask, 0.0, "nisa.bn_stats");
  auto member = t.new_tensor(x->shape(), DType::Float32, ir::Buffer::Sbuf, "");
  for (double v : {0.0, 1.0}) {
    ir::Instr set;
    set.op = ir::Opcode::Memset;
    set.name = "nisa.bn_stats(mask)";
    set.engine = ir::Engine::Vector;
    set.dst = member->view;
    set.srcs.push_back(ir::Operand::of_imm(v));
    if (v == 1.0) set.mask = make_mask(t, a.mask, x->shape().size());
    t.emit(std::move(set));
  }
  return emit_custom(t, ir::CustomOp::BnStats, {x->shape()[0], 6}, a.dtype,
                     {ir::Operand::of(data->view), ir::Operand::of(member->view)}, nullptr);
}

BnAggr bind_bn_aggr(Tracer&, py::Interp&, const Args& a) {
  TensorObj* x = on_chip_tile(a[0], "bn_aggr", "data");
  if (free_size(*x) % 3 != 0)
    nki_error(diag::Code::bn_aggr_free_size, "bn_aggr input free size must be a multiple of 3, got " + std::to_string(free_size(*x)),
              "pass bn_stats results ([P, 6] each) side by side");
  return {x, opt_dtype(a[2]).value_or(x->dtype()), a[1]};
}

Ref emit_bn_aggr(Tracer& t, const BnAggr& a) {
  return emit_custom(t, ir::CustomOp::BnAggr, {a.data->shape()[0], 2}, a.dtype, {ir::Operand::of(a.data->view)}, a.mask);
}

Max8 bind_max8(Tracer&, py::Interp&, const Args& a) {
  TensorObj* x0 = on_chip_tile(a[0], "max8", "src");
  check_top8_free_size(*x0, "max8", "src", 8);
  return {x0, opt_dtype(a[2]).value_or(x0->dtype()), a[1]};
}

Ref emit_max8(Tracer& t, const Max8& a) {
  auto x = masked_data(t, a.src, a.mask, -INFINITY, "nisa.max8");
  return emit_custom(t, ir::CustomOp::Max8, {x->shape()[0], 8}, a.dtype, {ir::Operand::of(x->view)}, nullptr);
}

NcFindIndex8 bind_nc_find_index8(Tracer&, py::Interp&, const Args& a) {
  TensorObj* x0 = on_chip_tile(a[0], "nc_find_index8", "data");
  check_top8_free_size(*x0, "nc_find_index8", "data", 8);
  return {x0, a[1], a[2], a[3]};
}

Ref emit_nc_find_index8(Tracer& t, const NcFindIndex8& a) {
  auto x = masked_data(t, a.data, a.mask, NAN, "nisa.nc_find_index8");
  TensorObj* v = on_chip_tile(a.vals, "nc_find_index8", "vals");
  same_partitions(*x, *v, "nc_find_index8");
  check_top8_vals(*v, "nc_find_index8");
  DType dt = opt_dtype(a.dtype).value_or(DType::UInt32);
  if (dt != DType::UInt32 && dt != DType::UInt16)
    nki_error(diag::Code::unsupported_dtype, "nc_find_index8 dtype must be uint16 or uint32");
  return emit_custom(t, ir::CustomOp::NcFindIndex8, {x->shape()[0], 8}, dt, {ir::Operand::of(x->view), ir::Operand::of(v->view)},
                     nullptr);
}

NcMatchReplace8 bind_nc_match_replace8(Tracer& t, py::Interp&, const Args& a) {
  TensorObj* x = on_chip_tile(a[0], "nc_match_replace8", "data");
  TensorObj* v = on_chip_tile(a[1], "nc_match_replace8", "vals");
  same_partitions(*x, *v, "nc_match_replace8");
  check_top8_free_size(*x, "nc_match_replace8", "data", 1);
  check_top8_vals(*v, "nc_match_replace8");
  auto imm = py::as_number(a[2]);
  if (!imm) nki_error(diag::Code::invalid_arguments, "nc_match_replace8 imm must be a number");
  TensorObj* di = nullptr;
  if (a.has(3)) {
    di = on_chip_tile(a[3], "nc_match_replace8", "dst_idx");
    check_writable(t, *di);
  }
  return {x, v, *imm, di, opt_dtype(a[5]).value_or(x->dtype()), a[4]};
}

Ref emit_nc_match_replace8(Tracer& t, const NcMatchReplace8& a) {
  std::vector<ir::Operand> srcs = {ir::Operand::of(a.data->view), ir::Operand::of(a.vals->view)};
  if (a.dst_idx) srcs.push_back(ir::Operand::of(a.dst_idx->view));
  return emit_custom(t, ir::CustomOp::NcMatchReplace8, a.data->shape(), a.dtype, srcs, a.mask, {}, {a.imm});
}

Dropout bind_dropout(Tracer&, py::Interp&, const Args& a) {
  TensorObj* x = on_chip_tile(a[0], "dropout", "data");
  // 2.24 docstring: prob is a scalar or a (data.shape[0], 1) tile; with integer data the prob
  // tile must be float32 and the output dtype must match the input dtype.
  ir::Operand prob = per_partition(a[1], *x, "dropout", "prob");
  DType out = opt_dtype(a[3]).value_or(x->dtype());
  if (!dtype_is_float(x->dtype())) {
    if (auto* pt = as_tensor(a[1]); pt && pt->dtype() != DType::Float32)
      nki_error(diag::Code::unsupported_dtype,
                "prob of 'dropout' on " + std::string(dtype_name(x->dtype())) + " data must be float32, got " +
                    dtype_name(pt->dtype()),
                "load the probabilities as float32 (nl.load(p, dtype=nl.float32))");
    if (out != x->dtype())
      nki_error(diag::Code::unsupported_dtype,
                "'dropout' on " + std::string(dtype_name(x->dtype())) + " data must output the same dtype, got dtype=" +
                    dtype_name(out),
                "drop dtype= and convert the result afterwards (nisa.tensor_copy(..., dtype=...))");
  }
  return {x, prob, out, a[2]};
}

Ref emit_dropout(Tracer& t, const Dropout& a) {
  return emit_custom(t, ir::CustomOp::Dropout, a.data->shape(), a.dtype, {ir::Operand::of(a.data->view), a.prob}, a.mask);
}

NcStreamShuffle bind_nc_stream_shuffle(Tracer& t, py::Interp& in, const Args& a) {
  TensorObj* src = on_chip_tile(a[0], "nc_stream_shuffle", "src");
  TensorObj* dst = on_chip_tile(a[1], "nc_stream_shuffle", "dst");
  std::vector<int64_t> sm;
  for (const Ref& r : a[2]->iterate(in)) {
    auto v = static_int(r);
    if (!v || *v < 0 || (*v > 31 && *v != 255))
      nki_error(diag::Code::shuffle_mask, "nc_stream_shuffle mask entries must be 0..31 or 255");
    sm.push_back(*v);
  }
  // 2.24 docstring: "shuffle_mask is a 32-element list".
  if (sm.size() != 32)
    nki_error(diag::Code::shuffle_mask, "shuffle_mask of 'nc_stream_shuffle' must have 32 entries, got " + std::to_string(sm.size()),
              "give one source partition (0..31, or 255 to keep dst) for each of the 32 partitions of a quadrant");
  if (src->dtype() != dst->dtype() || free_size(*src) != free_size(*dst))
    nki_error(diag::Code::shape_mismatch, "nc_stream_shuffle src and dst need the same dtype and elements per partition");
  check_shuffle_start(*src, *dst);
  check_writable(t, *dst);
  return {src, dst, sm, a[4]};
}

Ref emit_nc_stream_shuffle(Tracer& t, const NcStreamShuffle& a) {
  ir::Instr ins;
  ins.op = ir::Opcode::Custom;
  ins.custom = ir::CustomOp::NcStreamShuffle;
  ins.name = "nc_stream_shuffle";
  ins.engine = ir::Engine::Vector;
  ins.dst = a.dst->view;
  ins.srcs = {ir::Operand::of(a.src->view)};
  ins.int_attrs = a.shuffle_mask;
  ins.mask = make_mask(t, a.mask, a.dst->shape().size());
  t.emit(std::move(ins));
  return py::none();
}

LocalGather bind_local_gather(Tracer&, py::Interp&, const Args& a) {
  TensorObj* src = need_tensor(a[0], "local_gather", "src_buffer");
  TensorObj* idx = need_tensor(a[1], "local_gather", "index");
  if (src->buffer() != ir::Buffer::Sbuf || idx->buffer() != ir::Buffer::Sbuf)
    nki_error(diag::Code::err_unsupported_memory, "local_gather runs on GpSimd, which reads SBUF only");
  same_partitions(*src, *idx, "local_gather");
  // 2.24 docstring: "The indices in index tile must be uint16 types".
  if (idx->dtype() != DType::UInt16)
    nki_error(diag::Code::unsupported_dtype, "index of 'local_gather' must be uint16, got " + std::string(dtype_name(idx->dtype())),
              "load or convert the indices as nl.uint16");
  int64_t P = src->shape()[0];
  if (P % 16 != 0) nki_error(diag::Code::local_gather_partitions, "local_gather needs a multiple of 16 partitions");
  int64_t E = a.has(2) ? static_int(a[2]).value_or(0) : 1;
  if (E != 1 && E != 2 && E != 4 && E != 8 && E != 16 && E != 32)
    nki_error(diag::Code::local_gather_elems, "local_gather num_elem_per_idx must be 1, 2, 4, 8, 16 or 32");
  int64_t J = free_size(*idx);
  int64_t V = a.has(3) ? static_int(a[3]).value_or(0) : 16 * J;
  if (V <= 0 || V > 16 * J) nki_error(diag::Code::local_gather_indices, "local_gather num_valid_indices must be in 1..16*J");
  // 2.24 docstring constraint 3: "The number of indices for gather per core must be less than or equal to 4096."
  if (V > 4096)
    nki_error(diag::Code::local_gather_indices,
              "'local_gather' gathers " + std::to_string(V) + " indices per GpSimd core (16 partitions); at most 4096 are allowed",
              "split the gather into several local_gather calls of <= 4096 indices per 16 partitions");
  // Output: V gathered positions x E elements per partition. When every index of a core's
  // 16 x J block is used, the positions come in the block's column-major order, i.e. shape
  // [P, J, 16, E] (the 2.24 ISA test: [128, 4] indices, E = 4 -> [128, 4, 16, 4]).
  std::vector<int64_t> out_shape = {P, V * E};
  if (V == 16 * J) {
    out_shape = {P, J, 16};
    if (E > 1) out_shape.push_back(E);
  }
  return {src, idx, E, V, out_shape, a[4]};
}

Ref emit_local_gather(Tracer& t, const LocalGather& a) {
  return emit_custom(t, ir::CustomOp::LocalGather, a.out_shape, a.src->dtype(),
                     {ir::Operand::of(a.src->view), ir::Operand::of(a.index->view)}, a.mask,
                     {a.elems_per_index, a.valid_indices});
}

// sequence_bounds is an SDK 2.26 addition; the current docs' legacy-dialect ISA tests
// (aws-neuron-sdk nki/test) use it, so it is provided beyond the 2.24 surface.
SequenceBounds bind_sequence_bounds(Tracer&, py::Interp&, const Args& a) {
  TensorObj* ids = on_chip_tile(a[0], "sequence_bounds", "segment_ids");
  if (ids->shape().size() != 2 || ids->shape()[0] != 1)
    nki_error(diag::Code::shape_mismatch, "sequence_bounds segment_ids must be a [1, n] tile");
  return {ids, opt_dtype(a[1]).value_or(ids->dtype())};
}

Ref emit_sequence_bounds(Tracer& t, const SequenceBounds& a) {
  return emit_custom(t, ir::CustomOp::SequenceBounds, {1, 2, a.segment_ids->shape()[1]}, a.dtype,
                     {ir::Operand::of(a.segment_ids->view)}, nullptr);
}

}  // namespace nki::front::nisa
