// nl APIs lowered to Custom instructions (the table: src/ir/custom_ops.def; operand layouts:
// src/machine/custom_ops.h): device_print, random numbers, gather_flattened, dropout
// (shared/docs/nki-spec.md §2.9). The nisa ones are nisa_custom.cpp and nisa_selects.cpp.
#include "base/diag_codes.h"
#include "nki/api_common.h"
#include "nki/custom_emit.h"

namespace nki::front {

using py::CallArgs;
using py::Interp;

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
