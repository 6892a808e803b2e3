// nl data movement (SDK 2.24; shared/docs/nki-spec.md §2.4–§2.5): static_cast, load, store,
// load_transpose2d, atomic_rmw, broadcast_to and expand_dims.
#include <cmath>

#include "base/diag_codes.h"
#include "nki/api_common.h"
#include "nki/nl_apis.h"

namespace nki::front::nl {

namespace {

struct StaticCast {
  Ref arr, dtype_arg;
  DType dtype;
};

StaticCast bind_static_cast(Tracer&, py::Interp&, const Args& a) {
  return {a[0], a[1], need_dtype(a[1], "static_cast", "dtype")};
}

// A Python number converts at compile time; a tile is copied into the dtype.
Ref emit_static_cast(Tracer& t, const StaticCast& a) {
  if (auto v = py::as_number(a.arr)) {
    if (dtype_is_int(a.dtype)) return py::make_int(static_cast<int64_t>(std::nearbyint(*v)));
    return std::make_shared<TypedScalarObj>(*v, a.dtype);
  }
  return emit_copy(t, "static_cast", a.arr, a.dtype_arg, nullptr);
}

struct Load {
  TensorObj* src;
  DType dtype;
  Ref mask;
};

Load bind_load(Tracer&, py::Interp&, const Args& a) {
  TensorObj* src = need_tensor(a[0], "load", "src");
  require_hbm(*src, "load", "src");
  return {src, opt_dtype(a[2]).value_or(src->dtype()), a[1]};
}

Ref emit_load(Tracer& t, const Load& a) {
  auto res = t.new_tensor(a.src->shape(), a.dtype, ir::Buffer::Sbuf, "");
  ir::Instr in;
  in.op = ir::Opcode::Copy;
  in.name = "nl.load";
  in.engine = ir::Engine::Dma;
  in.dst = res->view;
  in.srcs.push_back(ir::Operand::of(a.src->view));
  in.mask = make_mask(t, a.mask, a.src->shape().size());
  res->producer = t.emit(std::move(in));
  return res;
}

struct Store {
  TensorObj* dst;
  Ref value, mask;
};

Store bind_store(Tracer&, py::Interp&, const Args& a) {
  TensorObj* dst = need_tensor(a[0], "store", "dst");
  require_hbm(*dst, "store", "dst");
  if (auto* v = as_tensor(a[1])) {
    if (ir::is_hbm(v->buffer()))
      nki_error(diag::Code::err_unsupported_memory,
                "Expected operand 'value' of 'store' to be in address space 'sbuf', but got a tile in 'hbm' instead.",
                "load the data into SBUF first, or copy HBM to HBM with nisa.dma_copy");
  }
  return {dst, a[1], a[2]};
}

Ref emit_store(Tracer& t, const Store& a) {
  assign_into(t, *a.dst, a.value, std::nullopt, "nl.store", a.mask);
  return py::none();
}

struct LoadTranspose2d {
  TensorObj* src;
  DType dtype;
  Ref mask;
};

LoadTranspose2d bind_load_transpose2d(Tracer&, py::Interp&, const Args& a) {
  TensorObj* src = need_tensor(a[0], "load_transpose2d", "src");
  require_hbm(*src, "load_transpose2d", "src");
  if (src->shape().size() != 2)
    nki_error(diag::Code::err_exceed_max_supported_dimension, "load_transpose2d needs a 2-D source, got " + shape_str(src->shape()));
  if (src->view.indirect)
    nki_error(diag::Code::indirect_indices_not_supported, "load_transpose2d does not accept indirect indices");
  return {src, opt_dtype(a[2]).value_or(src->dtype()), a[1]};
}

Ref emit_load_transpose2d(Tracer& t, const LoadTranspose2d& a) {
  std::vector<int64_t> out_shape = {a.src->shape()[1], a.src->shape()[0]};
  auto res = t.new_tensor(out_shape, a.dtype, ir::Buffer::Sbuf, "");
  ir::Access sv = a.src->view;
  sv.shape = out_shape;
  for (auto& col : sv.coef) std::swap(col[0], col[1]);
  ir::Instr in;
  in.op = ir::Opcode::Copy;
  in.name = "nl.load_transpose2d";
  in.engine = ir::Engine::Dma;
  in.dst = res->view;
  in.srcs.push_back(ir::Operand::of(sv));
  in.mask = make_mask(t, a.mask, 2);
  res->producer = t.emit(std::move(in));
  return res;
}

struct AtomicRmw {
  TensorObj* dst;
  ir::Operand value;
  Ref mask;
};

AtomicRmw bind_atomic_rmw(Tracer& t, py::Interp&, const Args& a) {
  TensorObj* dst = need_tensor(a[0], "atomic_rmw", "dst");
  require_hbm(*dst, "atomic_rmw", "dst");
  auto op = op_alu(a[2]);
  if (!op || *op != ir::Alu::Add)
    nki_error(diag::Code::unsupported_operator, "atomic_rmw supports op=np.add only");
  check_writable(t, *dst);
  return {dst, operand_for(a[1], dst->shape(), "atomic_rmw", "value"), a[3]};
}

Ref emit_atomic_rmw(Tracer& t, const AtomicRmw& a) {
  ir::Instr in;
  in.op = ir::Opcode::Copy;
  in.name = "nl.atomic_rmw";
  in.engine = ir::Engine::Dma;
  in.dst = a.dst->view;
  in.rmw = ir::Alu::Add;
  in.srcs.push_back(a.value);
  in.mask = make_mask(t, a.mask, a.dst->shape().size());
  t.emit(std::move(in));
  return py::none();
}

// nl.broadcast_to / nl.expand_dims: the tile method of the same name.
struct TensorMethodCall {
  TensorObj* src;
  Ref arg;
};

TensorMethodCall bind_broadcast_to(Tracer&, py::Interp&, const Args& a) {
  return {need_tensor(a[0], "broadcast_to", "src"), a[1]};
}
TensorMethodCall bind_expand_dims(Tracer&, py::Interp&, const Args& a) {
  return {need_tensor(a[0], "expand_dims", "data"), a[1]};
}

Ref call_method(py::Interp& in, const TensorMethodCall& a, const char* method) {
  Ref m = a.src->getattr(in, method);
  py::CallArgs c;
  c.pos.push_back(a.arg);
  return m->call(in, c);
}
Ref emit_broadcast_to(Tracer&, py::Interp& in, const TensorMethodCall& a) { return call_method(in, a, "broadcast_to"); }
Ref emit_expand_dims(Tracer&, py::Interp& in, const TensorMethodCall& a) { return call_method(in, a, "expand_dims"); }

}  // namespace

const std::vector<ApiRow>& movement_apis() {
  static const std::vector<ApiRow> rows = {
      {"static_cast", {{"arr", "dtype"}, 2, 2}, bind_then_emit(bind_static_cast, emit_static_cast)},
      {"load", {{"src", "mask", "dtype"}, 1, 1}, bind_then_emit(bind_load, emit_load)},
      {"store", {{"dst", "value", "mask"}, 2, 2}, bind_then_emit(bind_store, emit_store)},
      {"load_transpose2d", {{"src", "mask", "dtype"}, 1, 1}, bind_then_emit(bind_load_transpose2d, emit_load_transpose2d)},
      {"atomic_rmw", {{"dst", "value", "op", "mask"}, 3, 3}, bind_then_emit(bind_atomic_rmw, emit_atomic_rmw)},
      {"broadcast_to", {{"src", "shape"}, 1, 2}, bind_then_emit(bind_broadcast_to, emit_broadcast_to)},
      {"expand_dims", {{"data", "axis"}, 2, 2}, bind_then_emit(bind_expand_dims, emit_expand_dims)},
  };
  return rows;
}

}  // namespace nki::front::nl
