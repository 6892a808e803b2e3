// APIs lowered to Custom instructions (the table: src/ir/custom_ops.def; operand layouts:
// src/machine/custom_ops.h): statistics,
// top-8 search, gathers, shuffles, random numbers (shared/docs/nki-spec.md §2.9–§2.10).
#include <algorithm>
#include <cmath>

#include "base/diag_codes.h"
#include "ir/custom_ops.h"
#include "nki/api_common.h"
#include "nki/operand_rules.h"

namespace nki::front {

using py::CallArgs;
using py::Interp;

namespace {

int64_t free_size(const TensorObj& t) {
  int64_t f = 1;
  for (size_t i = 1; i < t.shape().size(); ++i) f *= t.shape()[i];
  return f;
}

TensorObj* on_chip_tile(const Ref& r, const std::string& api, const std::string& arg) {
  TensorObj* t = need_tensor(r, api, arg);
  require_on_chip(*t, api, arg);
  return t;
}

// A Custom instruction of kind `op` (its name and engine from ir/custom_ops.def) writing a new
// SBUF tile.
Ref emit_custom(Tracer& t, ir::CustomOp op, std::vector<int64_t> shape, DType dtype,
                std::vector<ir::Operand> srcs, const Ref& mask,
                std::vector<int64_t> int_attrs = {}, std::vector<double> float_attrs = {}) {
  auto res = t.new_tensor(std::move(shape), dtype, ir::Buffer::Sbuf, "");
  const ir::CustomOpInfo& row = ir::custom_op_info(op);
  ir::Instr in;
  in.op = ir::Opcode::Custom;
  in.custom = op;
  in.name = std::string(row.name);
  in.engine = row.engine;
  in.dst = res->view;
  in.srcs = std::move(srcs);
  in.int_attrs = std::move(int_attrs);
  in.float_attrs = std::move(float_attrs);
  in.mask = make_mask(t, mask, res->shape().size());
  res->producer = t.emit(std::move(in));
  return res;
}

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

void same_partitions(const TensorObj& a, const TensorObj& b, const std::string& api) {
  if (a.shape()[0] != b.shape()[0])
    nki_error(diag::Code::err_num_partition_mismatch,
              "number of partitions (dimension 0 size of a tile) mismatch in parameters (" + shape_str(a.shape()) +
                  ", " + shape_str(b.shape()) + ") of '" + api + "'");
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

// The same access read in the order of a transposed iteration space: result dim k walks source
// dim perm[k]. An indirect index access (defined over the same space) is permuted alike.
ir::Access permute_access(const ir::Access& v, const std::vector<size_t>& perm) {
  ir::Access out = v;
  out.shape.clear();
  for (size_t p : perm) out.shape.push_back(v.shape[p]);
  for (auto& col : out.coef) {
    std::vector<int64_t> c(perm.size());
    for (size_t k = 0; k < perm.size(); ++k) c[k] = col[perm[k]];
    col = c;
  }
  if (v.indirect) out.indirect->index = std::make_shared<ir::Access>(permute_access(*v.indirect->index, perm));
  return out;
}

// "DMA Indirect Transpose Constraints" of HEAD nki/api/nki/isa/__init__.py (dma_transpose), for a
// source subscripted with an index tile on its first dimension.
void check_indirect_transpose(Tracer& t, const TensorObj& src) {
  const std::vector<int64_t>& s = src.shape();
  const ir::Access& ix = *src.view.indirect->index;
  const ir::TensorDecl& index_tensor = t.kernel().tensors[ix.tensor];
  if (t.target() != Target::Trn2)
    nki_error(diag::Code::unsupported_on_target, "dma_transpose with indirect indices is available on trn2 and later only",
              "compile with --target trn2 (platform_target='trn2')");
  if (src.buffer() == ir::Buffer::Sbuf || src.buffer() == ir::Buffer::Psum)
    nki_error(diag::Code::err_unsupported_memory, "dma_transpose with indirect indices reads its source from HBM only");
  if (dtype_size(src.dtype()) != 2)
    nki_error(diag::Code::unsupported_dtype, "dma_transpose with indirect indices needs a 2-byte source dtype, got " +
                                       std::string(dtype_name(src.dtype())));
  if (s.back() > 128)
    nki_error(diag::Code::shape_mismatch, "dma_transpose with indirect indices: the source's last dimension must be <= 128, got " +
                                    std::to_string(s.back()));
  if (s.size() == 4 && s[1] != 1 && s[2] != 1)
    nki_error(diag::Code::shape_mismatch, "4-D dma_transpose with indirect indices needs src.shape[1] or src.shape[2] to be 1");
  if (s[0] % 16 != 0)
    nki_error(diag::Code::shape_mismatch, "dma_transpose with indirect indices needs src.shape[0] divisible by 16, got " +
                                    std::to_string(s[0]));
  if (index_tensor.dtype != DType::UInt32)
    nki_error(diag::Code::unsupported_dtype, "dma_transpose indices must be uint32, got " + std::string(dtype_name(index_tensor.dtype)));
  const int64_t rows = s[0];  // one index per gathered row; the index tile is [rows, 1]
  if (rows < 16 || rows > 128)
    nki_error(diag::Code::shape_mismatch, "dma_transpose indices.shape[0] must be in [16, 128] and divisible by 16, got " +
                                    std::to_string(rows));
}

}  // namespace

void add_nisa_custom(Tracer& t, py::ModuleObj& m) {
  m.set("bn_stats", make_fn("bn_stats", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "bn_stats", {"data", "mask", "dtype"}, 1, 1);
    TensorObj* x = on_chip_tile(a[0], "bn_stats", "data");
    if (const int64_t fmax = t.hw().bn_stats_fmax; free_size(*x) > fmax)
      nki_error(diag::Code::bn_stats_fmax, "bn_stats free size " + std::to_string(free_size(*x)) +
                                     " exceeds nl.tile_size.bn_stats_fmax (" + std::to_string(fmax) + ")",
                "call bn_stats on chunks of at most " + std::to_string(fmax) + " elements and aggregate them with nisa.bn_aggr");
    DType out = opt_dtype(a[2]).value_or(x->dtype());
    if (!a[1] || py::is_none(a[1]))
      return emit_custom(t, ir::CustomOp::BnStats, {x->shape()[0], 6}, out, {ir::Operand::of(x->view)}, a[1]);
    // The mask ranges over the data: masked-out elements take no part in the statistics (the
    // SDK 2.24 layernorm tutorial masks the ragged last 512-column chunk of a 1000-column row).
    // Pass the active data and a 0/1 membership tile of the same shape.
    auto data = masked_data(t, x, a[1], 0.0, "nisa.bn_stats");
    auto member = t.new_tensor(x->shape(), DType::Float32, ir::Buffer::Sbuf, "");
    for (double v : {0.0, 1.0}) {
      ir::Instr set;
      set.op = ir::Opcode::Memset;
      set.name = "nisa.bn_stats(mask)";
      set.engine = ir::Engine::Vector;
      set.dst = member->view;
      set.srcs.push_back(ir::Operand::of_imm(v));
      if (v == 1.0) set.mask = make_mask(t, a[1], x->shape().size());
      t.emit(std::move(set));
    }
    return emit_custom(t, ir::CustomOp::BnStats, {x->shape()[0], 6}, out, {ir::Operand::of(data->view), ir::Operand::of(member->view)},
                       nullptr);
  }));
  m.set("bn_aggr", make_fn("bn_aggr", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "bn_aggr", {"data", "mask", "dtype"}, 1, 1);
    TensorObj* x = on_chip_tile(a[0], "bn_aggr", "data");
    if (free_size(*x) % 3 != 0)
      nki_error(diag::Code::bn_aggr_free_size, "bn_aggr input free size must be a multiple of 3, got " + std::to_string(free_size(*x)),
                "pass bn_stats results ([P, 6] each) side by side");
    return emit_custom(t, ir::CustomOp::BnAggr, {x->shape()[0], 2}, opt_dtype(a[2]).value_or(x->dtype()),
                       {ir::Operand::of(x->view)}, a[1]);
  }));
  m.set("max8", make_fn("max8", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "max8", {"src", "mask", "dtype"}, 0, 1);
    TensorObj* x0 = on_chip_tile(a[0], "max8", "src");
    check_top8_free_size(*x0, "max8", "src", 8);
    DType out = opt_dtype(a[2]).value_or(x0->dtype());
    auto x = masked_data(t, x0, a[1], -INFINITY, "nisa.max8");
    return emit_custom(t, ir::CustomOp::Max8, {x->shape()[0], 8}, out, {ir::Operand::of(x->view)}, nullptr);
  }));
  m.set("nc_find_index8", make_fn("nc_find_index8", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "nc_find_index8", {"data", "vals", "mask", "dtype"}, 0, 2);
    TensorObj* x0 = on_chip_tile(a[0], "nc_find_index8", "data");
    check_top8_free_size(*x0, "nc_find_index8", "data", 8);
    auto x = masked_data(t, x0, a[2], NAN, "nisa.nc_find_index8");
    TensorObj* v = on_chip_tile(a[1], "nc_find_index8", "vals");
    same_partitions(*x, *v, "nc_find_index8");
    check_top8_vals(*v, "nc_find_index8");
    DType dt = opt_dtype(a[3]).value_or(DType::UInt32);
    if (dt != DType::UInt32 && dt != DType::UInt16)
      nki_error(diag::Code::unsupported_dtype, "nc_find_index8 dtype must be uint16 or uint32");
    return emit_custom(t, ir::CustomOp::NcFindIndex8, {x->shape()[0], 8}, dt, {ir::Operand::of(x->view), ir::Operand::of(v->view)},
                       nullptr);
  }));
  m.set("nc_match_replace8", make_fn("nc_match_replace8", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "nc_match_replace8", {"data", "vals", "imm", "dst_idx", "mask", "dtype"}, 0, 3);
    TensorObj* x = on_chip_tile(a[0], "nc_match_replace8", "data");
    TensorObj* v = on_chip_tile(a[1], "nc_match_replace8", "vals");
    same_partitions(*x, *v, "nc_match_replace8");
    check_top8_free_size(*x, "nc_match_replace8", "data", 1);
    check_top8_vals(*v, "nc_match_replace8");
    auto imm = py::as_number(a[2]);
    if (!imm) nki_error(diag::Code::invalid_arguments, "nc_match_replace8 imm must be a number");
    std::vector<ir::Operand> srcs = {ir::Operand::of(x->view), ir::Operand::of(v->view)};
    if (a.has(3)) {
      TensorObj* di = on_chip_tile(a[3], "nc_match_replace8", "dst_idx");
      check_writable(t, *di);
      srcs.push_back(ir::Operand::of(di->view));
    }
    return emit_custom(t, ir::CustomOp::NcMatchReplace8, x->shape(), opt_dtype(a[5]).value_or(x->dtype()), srcs, a[4], {}, {*imm});
  }));
  m.set("dropout", make_fn("dropout", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "dropout", {"data", "prob", "mask", "dtype"}, 2, 2);
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
    return emit_custom(t, ir::CustomOp::Dropout, x->shape(), out, {ir::Operand::of(x->view), prob}, a[2]);
  }));
  m.set("nc_stream_shuffle", make_fn("nc_stream_shuffle", [&t](Interp& in, CallArgs& call) -> Ref {
    Args a(call, "nc_stream_shuffle", {"src", "dst", "shuffle_mask", "dtype", "mask"}, 3, 3);
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
    ir::Instr ins;
    ins.op = ir::Opcode::Custom;
    ins.custom = ir::CustomOp::NcStreamShuffle;
    ins.name = "nc_stream_shuffle";
    ins.engine = ir::Engine::Vector;
    ins.dst = dst->view;
    ins.srcs = {ir::Operand::of(src->view)};
    ins.int_attrs = sm;
    ins.mask = make_mask(t, a[4], dst->shape().size());
    t.emit(std::move(ins));
    return py::none();
  }));
  m.set("local_gather", make_fn("local_gather", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "local_gather", {"src_buffer", "index", "num_elem_per_idx", "num_valid_indices", "mask"}, 4, 2);
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
    return emit_custom(t, ir::CustomOp::LocalGather, out_shape, src->dtype(), {ir::Operand::of(src->view), ir::Operand::of(idx->view)},
                       a[4], {E, V});
  }));
}

void add_nisa_selects(Tracer& t, py::ModuleObj& m) {
  // range_select [trn2]: keep on_true where comp_op0(range_start + j, bound0[p]) and
  // comp_op1(range_start + j, bound1[p]), else on_false_value (spec §2.10.3).
  m.set("range_select", make_fn("range_select", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "range_select", {"on_true_tile", "comp_op0", "comp_op1", "bound0", "bound1", "reduce_cmd", "reduce_res",
                                  "reduce_op", "range_start", "on_false_value", "mask", "dtype"}, 0, 5);
    if (t.target() != Target::Trn2)
      nki_error(diag::Code::unsupported_on_target, "nisa.range_select is available on NeuronCore-v3 (trn2) only",
                "compile with --target trn2 (platform_target='trn2')");
    TensorObj* x = on_chip_tile(a[0], "range_select", "on_true_tile");
    if (!dtype_is_float(x->dtype())) nki_error(diag::Code::unsupported_dtype, "range_select on_true_tile must be a float tile");
    std::vector<int64_t> ops;
    for (int i : {1, 2}) {
      auto op = op_alu(a[i]);
      if (!op || !(*op == ir::Alu::Equal || *op == ir::Alu::Less || *op == ir::Alu::LessEqual ||
                   *op == ir::Alu::Greater || *op == ir::Alu::GreaterEqual))
        nki_error(diag::Code::invalid_alu_op, "range_select comparison operators must be equal, less, less_equal, greater or greater_equal");
      ops.push_back(static_cast<int64_t>(*op));
    }
    // 2.24 docstring: bound0/bound1 hold one FP32 element per partition; range_start is a
    // compile-time integer; on_false_value "must be FP32_MIN FP32 bit pattern".
    TensorObj* b0 = on_chip_tile(a[3], "range_select", "bound0");
    TensorObj* b1 = on_chip_tile(a[4], "range_select", "bound1");
    same_partitions(*x, *b0, "range_select");
    same_partitions(*x, *b1, "range_select");
    for (int i : {3, 4}) {
      const std::string name = i == 3 ? "bound0" : "bound1";
      per_partition(a[i], *x, "range_select", name);
      DType bt = (i == 3 ? b0 : b1)->dtype();
      if (bt != DType::Float32)
        nki_error(diag::Code::unsupported_dtype, name + " of 'range_select' must be float32, got " + dtype_name(bt),
                  "load the bounds as float32 (nl.load(b, dtype=nl.float32))");
    }
    // range_start: a compile-time integer, or an expression of loop indices (the 2.24 doc test
    // test_nki_isa_range_select passes `range_start + i * step` inside an affine loop); it is
    // carried in iota.rest and evaluated per iteration by the simulator.
    int64_t start = 0;
    ir::ScalarExpr start_expr;
    if (a.has(8)) {
      if (auto s = static_int(a[8])) {
        start = *s;
      } else if (auto* ix = dynamic_cast<IndexObj*>(a[8].get()); ix && ix->is_scalar()) {
        start_expr = ix->rest;
      } else {
        nki_error(diag::Code::invalid_arguments,
                  "range_start of 'range_select' must be an integer or an expression of loop indices",
                  "pass e.g. range_start=32 or range_start=base + i * step");
      }
    }
    const double fp32_min = -3.4028234663852886e38;
    double on_false = fp32_min;
    if (a.has(9)) {
      auto v = py::as_number(a[9]);
      if (!v || static_cast<float>(*v) != static_cast<float>(fp32_min))
        nki_error(diag::Code::invalid_arguments, "on_false_value of 'range_select' must be the float32 minimum (-3.4028235e38)",
                  "omit on_false_value (default nl.fp32.min) and post-process the selected tile if another fill is needed");
      on_false = *v;
    }
    auto res = t.new_tensor(x->shape(), opt_dtype(a[11]).value_or(x->dtype()), ir::Buffer::Sbuf, "");
    ir::Instr in;
    in.op = ir::Opcode::Custom;
    in.custom = ir::CustomOp::RangeSelect;
    in.name = "range_select";
    in.engine = ir::Engine::Vector;
    in.dst = res->view;
    in.srcs = {ir::Operand::of(x->view), ir::Operand::of(b0->view), ir::Operand::of(b1->view)};
    in.int_attrs = {ops[0], ops[1], start};
    in.iota.rest = start_expr;
    in.float_attrs = {on_false};
    if (a.has(6)) {
      TensorObj* rr = on_chip_tile(a[6], "range_select", "reduce_res");
      in.reduce_res = rr->view;
      in.reduce_op = op_alu(a[7]).value_or(ir::Alu::Maximum);
      if (*in.reduce_op != ir::Alu::Maximum) nki_error(diag::Code::invalid_alu_op, "range_select reduce_op must be max");
    }
    in.reduce_cmd = accumulator_cmd(a[5], "nisa.range_select");
    in.mask = make_mask(t, a[10], x->shape().size());
    res->producer = t.emit(std::move(in));
    return res;
  }));
  // tensor_copy_predicated: dst[i] = src[i] where predicate[i] != 0 (or == 0 with reverse_pred).
  m.set("tensor_copy_predicated", make_fn("tensor_copy_predicated", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "tensor_copy_predicated", {"src", "dst", "predicate", "mask", "dtype", "reverse_pred"}, 0, 3);
    TensorObj* dst = on_chip_tile(a[1], "tensor_copy_predicated", "dst");
    TensorObj* pred = on_chip_tile(a[2], "tensor_copy_predicated", "predicate");
    if (pred->dtype() != DType::UInt8 && pred->dtype() != DType::UInt16 && pred->dtype() != DType::UInt32 &&
        pred->dtype() != DType::Bool)
      nki_error(diag::Code::unsupported_dtype, "tensor_copy_predicated predicate must be uint8, uint16 or uint32");
    // docstring: src (a tile), dst and predicate occupy the same partitions; src and predicate
    // cannot both be in PSUM.
    require_same_partitions(*dst, "dst", *pred, "predicate", "tensor_copy_predicated");
    if (auto* st = as_tensor(a[0])) {
      require_same_partitions(*dst, "dst", *st, "src", "tensor_copy_predicated");
      if (st->buffer() == ir::Buffer::Psum && pred->buffer() == ir::Buffer::Psum)
        nki_error(diag::Code::err_unsupported_memory, "src and predicate of 'tensor_copy_predicated' are both in PSUM; at most one may be",
                  "copy one of them to SBUF first with nl.copy");
    }
    if (ir::element_count(pred->shape()) != ir::element_count(dst->shape()))
      nki_error(diag::Code::shape_mismatch, "tensor_copy_predicated predicate and dst must have the same elements");
    check_writable(t, *dst);
    ir::Operand src = operand_for(a[0], dst->shape(), "tensor_copy_predicated", "src");
    if (auto* st = as_tensor(a[0]); st && st->dtype() != dst->dtype())
      nki_error(diag::Code::unsupported_dtype, "tensor_copy_predicated src and dst must have the same dtype");
    bool rev = a.has(5) && t.truthy(a[5]);
    ir::Instr in;
    in.op = ir::Opcode::Select;
    in.name = "nisa.tensor_copy_predicated";
    in.engine = ir::Engine::Vector;
    in.dst = dst->view;
    ir::Operand keep = ir::Operand::of(dst->view);
    in.srcs = {ir::Operand::of(broadcast_access(pred->view, dst->shape())), rev ? keep : src, rev ? src : keep};
    in.mask = make_mask(t, a[3], dst->shape().size());
    t.emit(std::move(in), /*accumulation=*/true);
    return py::none();
  }));
  // select_reduce and sequence_bounds are SDK 2.26 additions; the current docs' legacy-dialect ISA
  // tests (aws-neuron-sdk nki/test) use them, so they are provided beyond the 2.24 surface.
  m.set("select_reduce", make_fn("select_reduce", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "select_reduce", {"dst", "predicate", "on_true", "on_false", "reduce_res", "reduce_cmd", "reduce_op",
                                   "reverse_pred", "mask", "dtype"}, 0, 4);
    TensorObj* dst = on_chip_tile(a[0], "select_reduce", "dst");
    TensorObj* pred = on_chip_tile(a[1], "select_reduce", "predicate");
    check_writable(t, *dst);
    ir::Instr in;
    in.op = ir::Opcode::Custom;
    in.custom = ir::CustomOp::SelectReduce;
    in.name = "select_reduce";
    in.engine = ir::Engine::Vector;
    in.dst = dst->view;
    ir::Operand off;
    if (auto n = py::as_number(a[3])) off = ir::Operand::of_imm(*n);
    else {
      TensorObj* f = on_chip_tile(a[3], "select_reduce", "on_false");
      off = ir::Operand::of(broadcast_access(f->view, dst->shape()));
    }
    in.srcs = {ir::Operand::of(broadcast_access(pred->view, dst->shape())),
               operand_for(a[2], dst->shape(), "select_reduce", "on_true"), off};
    in.int_attrs = {a.has(7) && t.truthy(a[7]) ? 1 : 0};
    if (a.has(4)) {
      in.reduce_res = on_chip_tile(a[4], "select_reduce", "reduce_res")->view;
      in.reduce_op = op_alu(a[6]).value_or(ir::Alu::Maximum);
    }
    in.reduce_cmd = accumulator_cmd(a[5], "nisa.select_reduce");
    in.mask = make_mask(t, a[8], dst->shape().size());
    t.emit(std::move(in));
    return py::none();
  }));
  m.set("sequence_bounds", make_fn("sequence_bounds", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "sequence_bounds", {"segment_ids", "dtype"}, 0, 1);
    TensorObj* ids = on_chip_tile(a[0], "sequence_bounds", "segment_ids");
    if (ids->shape().size() != 2 || ids->shape()[0] != 1)
      nki_error(diag::Code::shape_mismatch, "sequence_bounds segment_ids must be a [1, n] tile");
    return emit_custom(t, ir::CustomOp::SequenceBounds, {1, 2, ids->shape()[1]}, opt_dtype(a[1]).value_or(ids->dtype()),
                       {ir::Operand::of(ids->view)}, nullptr);
  }));
  // dma_transpose: 2-D [1,0], 3-D [2,1,0], 4-D [3,1,2,0] into a new SBUF tile (2.24
  // general/nki/api/nki/isa/__init__.py). `axes` and indirect (gather) sources come from the
  // current docs (HEAD nki/api/nki/isa/__init__.py, "DMA Indirect Transpose Constraints"), which
  // the HEAD legacy test test_nki_isa_dma_transpose.py calls through neuronxcc.nki.isa.
  m.set("dma_transpose", make_fn("dma_transpose", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "dma_transpose", {"src", "axes", "mask", "dtype", "dge_mode"}, 1, 1);
    TensorObj* src = need_tensor(a[0], "dma_transpose", "src");
    if (src->buffer() == ir::Buffer::Psum) nki_error(diag::Code::err_unsupported_memory, "dma_transpose reads HBM or SBUF");
    size_t r = src->shape().size();
    std::vector<size_t> perm;
    if (r == 2) perm = {1, 0};
    else if (r == 3) perm = {2, 1, 0};
    else if (r == 4) perm = {3, 1, 2, 0};
    else nki_error(diag::Code::err_exceed_max_supported_dimension, "dma_transpose supports 2-D to 4-D sources");
    if (a.has(1)) {  // "Supported axes are (1, 0), (2, 1, 0), and (3, 1, 2, 0)": the rank's one permutation
      auto* tup = py::cast<py::TupleObj>(a[1]);
      bool ok = tup && tup->items.size() == r;
      for (size_t k = 0; ok && k < r; ++k) ok = py::as_int(tup->items[k]) == static_cast<int64_t>(perm[k]);
      if (!ok)
        nki_error(diag::Code::invalid_arguments, "dma_transpose axes must be (1, 0), (2, 1, 0) or (3, 1, 2, 0) for a " +
                                           std::to_string(r) + "-D source, got " + a[1]->repr());
    }
    if (src->view.indirect) check_indirect_transpose(t, *src);
    std::vector<int64_t> shape;
    for (size_t p : perm) shape.push_back(src->shape()[p]);
    auto res = t.new_tensor(shape, opt_dtype(a[3]).value_or(src->dtype()), ir::Buffer::Sbuf, "");
    ir::Instr in;
    in.op = ir::Opcode::Copy;
    in.name = "nisa.dma_transpose";
    in.engine = ir::Engine::Dma;
    in.dst = res->view;
    in.srcs = {ir::Operand::of(permute_access(src->view, perm))};
    in.mask = make_mask(t, a[2], shape.size());
    res->producer = t.emit(std::move(in));
    return res;
  }));
}

void add_nl_custom(Tracer& t, py::ModuleObj& m) {
  m.set("device_print", make_fn("device_print", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "device_print", {"prefix", "x", "mask"}, 2, 2);
    const std::string* prefix = py::as_string(a[0]);
    TensorObj* x = need_tensor(a[1], "device_print", "x");
    ir::Instr in;
    in.op = ir::Opcode::Custom;
    in.custom = ir::CustomOp::DevicePrint;
    in.name = "device_print#" + (prefix ? *prefix : std::string());
    in.engine = ir::Engine::Vector;
    in.dst = x->view;  // read only: the printer never writes its destination
    in.srcs = {ir::Operand::of(x->view)};
    t.emit(std::move(in), /*accumulation=*/true);
    return py::none();
  }));
  m.set("random_seed", make_fn("random_seed", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "random_seed", {"seed", "mask"}, 1, 1);
    auto scratch = t.new_tensor({1, 1}, DType::UInt32, ir::Buffer::Sbuf, "");
    ir::Instr in;
    in.op = ir::Opcode::Custom;
    in.custom = ir::CustomOp::RandomSeed;
    in.name = "random_seed";
    in.engine = ir::Engine::GpSimd;
    in.dst = scratch->view;
    in.srcs = {operand_for(a[0], {1, 1}, "random_seed", "seed")};
    t.emit(std::move(in));
    return py::none();
  }));
  m.set("gather_flattened", make_fn("gather_flattened", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "gather_flattened", {"data", "indices", "mask", "dtype"}, 2, 2);
    TensorObj* x = on_chip_tile(a[0], "gather_flattened", "data");
    TensorObj* ix = on_chip_tile(a[1], "gather_flattened", "indices");
    same_partitions(*x, *ix, "gather_flattened");
    // 2.24 docstring: "Both data and indices must be 2-, 3-, or 4-dimensional. The indices tensor
    // must contain uint32 values."
    for (auto [tile, arg] : {std::pair{x, "data"}, std::pair{ix, "indices"}})
      if (tile->shape().size() > 4)
        nki_error(diag::Code::err_exceed_max_supported_dimension,
                  "argument '" + std::string(arg) + "' " + shape_str(tile->shape()) + " of 'gather_flattened' has rank " +
                      std::to_string(tile->shape().size()) + "; at most 4 dimensions are supported",
                  "reshape the tile to at most 4 dimensions (the free dimensions are flattened anyway)");
    if (ix->dtype() != DType::UInt32)
      nki_error(diag::Code::unsupported_dtype, "indices of 'gather_flattened' must be uint32, got " + std::string(dtype_name(ix->dtype())),
                "load the indices as uint32 (nl.load(idx, dtype=nl.uint32))");
    return emit_custom(t, ir::CustomOp::GatherFlattened, ix->shape(), opt_dtype(a[3]).value_or(x->dtype()),
                       {ir::Operand::of(x->view), ir::Operand::of(ix->view)}, a[2]);
  }));
  m.set("dropout", make_fn("dropout", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "dropout", {"x", "rate", "dtype", "mask"}, 2, 2);
    TensorObj* x = on_chip_tile(a[0], "dropout", "x");
    // 2.24 docstring: rate is "a scalar value or a tile with 1 element".
    if (auto* r = as_tensor(a[1]); r && ir::element_count(r->shape()) != 1)
      nki_error(diag::Code::tensor_scalar_operand_shape,
                "rate of 'dropout' must be a scalar or a tile with 1 element, got " + shape_str(r->shape()),
                "pass one probability (a Python float or a [1, 1] tile); for per-partition rates use nisa.dropout");
    return emit_custom(t, ir::CustomOp::Dropout, x->shape(), opt_dtype(a[2]).value_or(x->dtype()),
                       {ir::Operand::of(x->view), operand_for(a[1], x->shape(), "dropout", "rate")}, a[3]);
  }));
  m.set("rand", make_fn("rand", [&t](Interp& in, CallArgs& call) -> Ref {
    Args a(call, "rand", {"shape", "dtype"}, 2, 1);
    std::vector<int64_t> shape = need_shape(in, a[0], "rand");
    DType dt = a.has(1) ? need_dtype(a[1], "rand", "dtype") : DType::Float32;
    return emit_custom(t, ir::CustomOp::Rand, shape, dt, {}, nullptr);
  }));
}

}  // namespace nki::front
