// APIs lowered to Custom instructions (conventions: src/machine/custom_ops.h): statistics,
// top-8 search, gathers, shuffles, random numbers (shared/docs/nki-spec.md §2.9–§2.10).
#include <cmath>

#include "nki/api_common.h"

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

Ref emit_custom(Tracer& t, const std::string& name, std::vector<int64_t> shape, DType dtype,
                std::vector<ir::Operand> srcs, const Ref& mask, ir::Engine engine,
                std::vector<int64_t> int_attrs = {}, std::vector<double> float_attrs = {}) {
  auto res = t.new_tensor(std::move(shape), dtype, ir::Buffer::Sbuf, "");
  ir::Instr in;
  in.op = ir::Opcode::Custom;
  in.name = name;
  in.engine = engine;
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

void same_partitions(const TensorObj& a, const TensorObj& b, const std::string& api) {
  if (a.shape()[0] != b.shape()[0])
    nki_error("err_num_partition_mismatch",
              "number of partitions (dimension 0 size of a tile) mismatch in parameters (" + shape_str(a.shape()) +
                  ", " + shape_str(b.shape()) + ") of '" + api + "'");
}

}  // namespace

void add_nisa_custom(Tracer& t, py::ModuleObj& m) {
  m.set("bn_stats", make_fn("bn_stats", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "bn_stats", {"data", "mask", "dtype"}, 1, 1);
    TensorObj* x = on_chip_tile(a[0], "bn_stats", "data");
    if (free_size(*x) > 512)
      nki_error("bn_stats_fmax", "bn_stats free size " + std::to_string(free_size(*x)) +
                                     " exceeds nl.tile_size.bn_stats_fmax (512)",
                "call bn_stats on chunks of at most 512 elements and aggregate them with nisa.bn_aggr");
    return emit_custom(t, "bn_stats", {x->shape()[0], 6}, opt_dtype(a[2]).value_or(x->dtype()),
                       {ir::Operand::of(x->view)}, a[1], ir::Engine::Vector);
  }));
  m.set("bn_aggr", make_fn("bn_aggr", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "bn_aggr", {"data", "mask", "dtype"}, 1, 1);
    TensorObj* x = on_chip_tile(a[0], "bn_aggr", "data");
    if (free_size(*x) % 3 != 0)
      nki_error("bn_aggr_free_size", "bn_aggr input free size must be a multiple of 3, got " + std::to_string(free_size(*x)),
                "pass bn_stats results ([P, 6] each) side by side");
    return emit_custom(t, "bn_aggr", {x->shape()[0], 2}, opt_dtype(a[2]).value_or(x->dtype()),
                       {ir::Operand::of(x->view)}, a[1], ir::Engine::Vector);
  }));
  m.set("max8", make_fn("max8", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "max8", {"src", "mask", "dtype"}, 0, 1);
    TensorObj* x0 = on_chip_tile(a[0], "max8", "src");
    int64_t f = free_size(*x0);
    if (f < 8 || f > 16384)
      nki_error("max8_free_size", "max8 needs between 8 and 16384 elements per partition, got " + std::to_string(f));
    DType out = opt_dtype(a[2]).value_or(x0->dtype());
    auto x = masked_data(t, x0, a[1], -INFINITY, "nisa.max8");
    return emit_custom(t, "max8", {x->shape()[0], 8}, out, {ir::Operand::of(x->view)}, nullptr, ir::Engine::Vector);
  }));
  m.set("nc_find_index8", make_fn("nc_find_index8", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "nc_find_index8", {"data", "vals", "mask", "dtype"}, 0, 2);
    auto x = masked_data(t, on_chip_tile(a[0], "nc_find_index8", "data"), a[2], NAN, "nisa.nc_find_index8");
    TensorObj* v = on_chip_tile(a[1], "nc_find_index8", "vals");
    same_partitions(*x, *v, "nc_find_index8");
    if (free_size(*v) != 8) nki_error("find_index8_vals", "nc_find_index8 vals must hold exactly 8 values per partition");
    DType dt = opt_dtype(a[3]).value_or(DType::UInt32);
    if (dt != DType::UInt32 && dt != DType::UInt16)
      nki_error("unsupported_dtype", "nc_find_index8 dtype must be uint16 or uint32");
    return emit_custom(t, "nc_find_index8", {x->shape()[0], 8}, dt, {ir::Operand::of(x->view), ir::Operand::of(v->view)},
                       nullptr, ir::Engine::Vector);
  }));
  m.set("nc_match_replace8", make_fn("nc_match_replace8", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "nc_match_replace8", {"data", "vals", "imm", "dst_idx", "mask", "dtype"}, 0, 3);
    TensorObj* x = on_chip_tile(a[0], "nc_match_replace8", "data");
    TensorObj* v = on_chip_tile(a[1], "nc_match_replace8", "vals");
    same_partitions(*x, *v, "nc_match_replace8");
    auto imm = py::as_number(a[2]);
    if (!imm) nki_error("invalid_arguments", "nc_match_replace8 imm must be a number");
    std::vector<ir::Operand> srcs = {ir::Operand::of(x->view), ir::Operand::of(v->view)};
    if (a.has(3)) {
      TensorObj* di = on_chip_tile(a[3], "nc_match_replace8", "dst_idx");
      check_writable(t, *di);
      srcs.push_back(ir::Operand::of(di->view));
    }
    return emit_custom(t, "nc_match_replace8", x->shape(), opt_dtype(a[5]).value_or(x->dtype()), srcs, a[4],
                       ir::Engine::Vector, {}, {*imm});
  }));
  m.set("dropout", make_fn("dropout", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "dropout", {"data", "prob", "mask", "dtype"}, 2, 2);
    TensorObj* x = on_chip_tile(a[0], "dropout", "data");
    return emit_custom(t, "dropout", x->shape(), opt_dtype(a[3]).value_or(x->dtype()),
                       {ir::Operand::of(x->view), operand_for(a[1], x->shape(), "dropout", "prob")}, a[2],
                       ir::Engine::Vector);
  }));
  m.set("nc_stream_shuffle", make_fn("nc_stream_shuffle", [&t](Interp& in, CallArgs& call) -> Ref {
    Args a(call, "nc_stream_shuffle", {"src", "dst", "shuffle_mask", "dtype", "mask"}, 3, 3);
    TensorObj* src = on_chip_tile(a[0], "nc_stream_shuffle", "src");
    TensorObj* dst = on_chip_tile(a[1], "nc_stream_shuffle", "dst");
    std::vector<int64_t> sm;
    for (const Ref& r : a[2]->iterate(in)) {
      auto v = static_int(r);
      if (!v || *v < 0 || (*v > 31 && *v != 255))
        nki_error("shuffle_mask", "nc_stream_shuffle mask entries must be 0..31 or 255");
      sm.push_back(*v);
    }
    if (sm.empty() || sm.size() > 32) nki_error("shuffle_mask", "nc_stream_shuffle takes a mask of up to 32 entries");
    if (src->dtype() != dst->dtype() || free_size(*src) != free_size(*dst))
      nki_error("shape_mismatch", "nc_stream_shuffle src and dst need the same dtype and elements per partition");
    check_writable(t, *dst);
    ir::Instr ins;
    ins.op = ir::Opcode::Custom;
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
      nki_error("err_unsupported_memory", "local_gather runs on GpSimd, which reads SBUF only");
    same_partitions(*src, *idx, "local_gather");
    int64_t P = src->shape()[0];
    if (P % 16 != 0) nki_error("local_gather_partitions", "local_gather needs a multiple of 16 partitions");
    int64_t E = a.has(2) ? static_int(a[2]).value_or(0) : 1;
    if (E != 1 && E != 2 && E != 4 && E != 8 && E != 16 && E != 32)
      nki_error("local_gather_elems", "local_gather num_elem_per_idx must be 1, 2, 4, 8, 16 or 32");
    int64_t J = free_size(*idx);
    int64_t V = a.has(3) ? static_int(a[3]).value_or(0) : 16 * J;
    if (V <= 0 || V > 16 * J) nki_error("local_gather_indices", "local_gather num_valid_indices must be in 1..16*J");
    // Output: one row of V gathered positions x E elements per partition; when every index is
    // valid it keeps the index tile's free shape (e.g. [128, 4, 16] indices, E=4 -> [128, 4, 16, 4]).
    std::vector<int64_t> out_shape = {P, V * E};
    if (V == J && idx->shape().size() > 1) {
      out_shape = idx->shape();
      if (E > 1) out_shape.push_back(E);
    }
    return emit_custom(t, "local_gather", out_shape, src->dtype(), {ir::Operand::of(src->view), ir::Operand::of(idx->view)},
                       a[4], ir::Engine::GpSimd, {E, V});
  }));
}

void add_nl_custom(Tracer& t, py::ModuleObj& m) {
  m.set("gather_flattened", make_fn("gather_flattened", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "gather_flattened", {"data", "indices", "mask", "dtype"}, 2, 2);
    TensorObj* x = on_chip_tile(a[0], "gather_flattened", "data");
    TensorObj* ix = on_chip_tile(a[1], "gather_flattened", "indices");
    same_partitions(*x, *ix, "gather_flattened");
    if (!dtype_is_int(ix->dtype())) nki_error("unsupported_dtype", "gather_flattened indices must be integers (uint32)");
    return emit_custom(t, "gather_flattened", ix->shape(), opt_dtype(a[3]).value_or(x->dtype()),
                       {ir::Operand::of(x->view), ir::Operand::of(ix->view)}, a[2], ir::Engine::GpSimd);
  }));
  m.set("dropout", make_fn("dropout", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "dropout", {"x", "rate", "dtype", "mask"}, 2, 2);
    TensorObj* x = on_chip_tile(a[0], "dropout", "x");
    return emit_custom(t, "dropout", x->shape(), opt_dtype(a[2]).value_or(x->dtype()),
                       {ir::Operand::of(x->view), operand_for(a[1], x->shape(), "dropout", "rate")}, a[3],
                       ir::Engine::Vector);
  }));
  m.set("rand", make_fn("rand", [&t](Interp& in, CallArgs& call) -> Ref {
    Args a(call, "rand", {"shape", "dtype"}, 2, 1);
    std::vector<int64_t> shape = need_shape(in, a[0], "rand");
    DType dt = a.has(1) ? need_dtype(a[1], "rand", "dtype") : DType::Float32;
    return emit_custom(t, "rand", shape, dt, {}, nullptr, ir::Engine::GpSimd);
  }));
}

}  // namespace nki::front
