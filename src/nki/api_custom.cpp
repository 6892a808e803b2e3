// nl APIs lowered to Custom instructions (the table: src/ir/custom_ops.def; operand layouts:
// src/machine/custom_ops.h): device_print, random numbers, gather_flattened, dropout
// (shared/docs/nki-spec.md §2.9). The nisa ones are nisa_custom.cpp and nisa_selects.cpp.
#include "base/diag_codes.h"
#include "nki/api_common.h"
#include "nki/custom_emit.h"
#include "nki/nl_apis.h"

namespace nki::front::nl {

namespace {

struct DevicePrint {
  const std::string* prefix;
  TensorObj* x;
};

DevicePrint bind_device_print(Tracer&, py::Interp&, const Args& a) {
  const std::string* prefix = py::as_string(a[0]);
  return {prefix, need_tensor(a[1], "device_print", "x")};
}

Ref emit_device_print(Tracer& t, const DevicePrint& a) {
  ir::Instr in;
  in.op = ir::Opcode::Custom;
  in.custom = ir::CustomOp::DevicePrint;
  in.name = "device_print#" + (a.prefix ? *a.prefix : std::string());
  in.engine = ir::Engine::Vector;
  in.dst = a.x->view;  // read only: the printer never writes its destination
  in.srcs = {ir::Operand::of(a.x->view)};
  t.emit(std::move(in), /*accumulation=*/true);
  return py::none();
}

struct RandomSeed {
  Ref seed;
};

RandomSeed bind_random_seed(Tracer&, py::Interp&, const Args& a) { return {a[0]}; }

// The seed is converted (and checked) after the scratch tile is created, as it always was.
Ref emit_random_seed(Tracer& t, const RandomSeed& a) {
  auto scratch = t.new_tensor({1, 1}, DType::UInt32, ir::Buffer::Sbuf, "");
  ir::Instr in;
  in.op = ir::Opcode::Custom;
  in.custom = ir::CustomOp::RandomSeed;
  in.name = "random_seed";
  in.engine = ir::Engine::GpSimd;
  in.dst = scratch->view;
  in.srcs = {operand_for(a.seed, {1, 1}, "random_seed", "seed")};
  t.emit(std::move(in));
  return py::none();
}

struct GatherFlattened {
  TensorObj* data;
  TensorObj* indices;
  DType dtype;
  Ref mask;
};

GatherFlattened bind_gather_flattened(Tracer&, py::Interp&, const Args& a) {
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
  return {x, ix, opt_dtype(a[3]).value_or(x->dtype()), a[2]};
}

Ref emit_gather_flattened(Tracer& t, const GatherFlattened& a) {
  return emit_custom(t, ir::CustomOp::GatherFlattened, a.indices->shape(), a.dtype,
                     {ir::Operand::of(a.data->view), ir::Operand::of(a.indices->view)}, a.mask);
}

struct Dropout {
  TensorObj* x;
  ir::Operand rate;
  DType dtype;
  Ref mask;
};

Dropout bind_dropout(Tracer&, py::Interp&, const Args& a) {
  TensorObj* x = on_chip_tile(a[0], "dropout", "x");
  // 2.24 docstring: rate is "a scalar value or a tile with 1 element".
  if (auto* r = as_tensor(a[1]); r && ir::element_count(r->shape()) != 1)
    nki_error(diag::Code::tensor_scalar_operand_shape,
              "rate of 'dropout' must be a scalar or a tile with 1 element, got " + shape_str(r->shape()),
              "pass one probability (a Python float or a [1, 1] tile); for per-partition rates use nisa.dropout");
  return {x, operand_for(a[1], x->shape(), "dropout", "rate"), opt_dtype(a[2]).value_or(x->dtype()), a[3]};
}

Ref emit_dropout(Tracer& t, const Dropout& a) {
  return emit_custom(t, ir::CustomOp::Dropout, a.x->shape(), a.dtype, {ir::Operand::of(a.x->view), a.rate}, a.mask);
}

struct Rand {
  std::vector<int64_t> shape;
  DType dtype;
};

Rand bind_rand(Tracer&, py::Interp& in, const Args& a) {
  std::vector<int64_t> shape = need_shape(in, a[0], "rand");
  return {shape, a.has(1) ? need_dtype(a[1], "rand", "dtype") : DType::Float32};
}

Ref emit_rand(Tracer& t, const Rand& a) { return emit_custom(t, ir::CustomOp::Rand, a.shape, a.dtype, {}, nullptr); }

}  // namespace

const std::vector<ApiRow>& custom_apis() {
  static const std::vector<ApiRow> rows = {
      {"device_print", {{"prefix", "x", "mask"}, 2, 2}, bind_then_emit(bind_device_print, emit_device_print)},
      {"random_seed", {{"seed", "mask"}, 1, 1}, bind_then_emit(bind_random_seed, emit_random_seed)},
      {"gather_flattened", {{"data", "indices", "mask", "dtype"}, 2, 2},
       bind_then_emit(bind_gather_flattened, emit_gather_flattened)},
      {"dropout", {{"x", "rate", "dtype", "mask"}, 2, 2}, bind_then_emit(bind_dropout, emit_dropout)},
      {"rand", {{"shape", "dtype"}, 2, 1}, bind_then_emit(bind_rand, emit_rand)},
  };
  return rows;
}

}  // namespace nki::front::nl
