// Element-wise nisa instructions (SDK 2.24): tensor_tensor, tensor_scalar, scalar_tensor_tensor,
// tensor_tensor_scan and reciprocal.
#include "base/diag_codes.h"
#include "base/dtype_promote.h"
#include "nki/api_common.h"
#include "nki/nisa_apis.h"
#include "nki/nisa_rules.h"
#include "nki/operand_rules.h"

namespace nki::front::nisa {

namespace {

// tensor_scalar docstring: bitvec operators must run on the Vector Engine; GpSimd is "only allowed
// for rsqrt" (not an ALU operator here, so never for op0/op1); the trn2 Scalar Engine supports only
// (multiply, add), (multiply, None) and (add, None).
void check_tensor_scalar_engine(Tracer& t, ir::Engine e, ir::Alu op0, std::optional<ir::Alu> op1) {
  if (e == ir::Engine::Unknown || e == ir::Engine::Vector) return;
  const std::string en = ir::engine_name(e);
  if (is_bitvec(op0) || (op1 && is_bitvec(*op1)))
    nki_error(diag::Code::tensor_scalar_engine, "bitvec operators of 'tensor_scalar' must run on the Vector Engine, not " + en,
              "drop engine= (or pass nisa.vector_engine)");
  if (e == ir::Engine::GpSimd)
    nki_error(diag::Code::tensor_scalar_engine, "'tensor_scalar' on the GpSimd Engine is only allowed for rsqrt, got op0=" +
                                          std::string(ir::alu_name(op0)),
              "drop engine= (or pass nisa.vector_engine)");
  if (e == ir::Engine::Scalar && t.target() == Target::Trn2) {
    bool ok = (op0 == ir::Alu::Multiply && (!op1 || *op1 == ir::Alu::Add)) || (op0 == ir::Alu::Add && !op1);
    if (!ok)
      nki_error(diag::Code::tensor_scalar_engine,
                "the trn2 Scalar Engine runs 'tensor_scalar' only with (multiply, add), (multiply, None) or (add, None), got (" +
                    std::string(ir::alu_name(op0)) + ", " + (op1 ? ir::alu_name(*op1) : "None") + ")",
                "use the Vector Engine (drop engine=) for other operators");
  }
}

}  // namespace

TensorTensor bind_tensor_tensor(Tracer&, py::Interp&, const Args& a) {
  TensorObj* x = need_tensor(a[0], "tensor_tensor", "data1");
  TensorObj* y = need_tensor(a[1], "tensor_tensor", "data2");
  require_on_chip(*x, "tensor_tensor", "data1");
  require_on_chip(*y, "tensor_tensor", "data2");
  not_both_psum(*x, *y, "tensor_tensor");
  if (x->shape()[0] != y->shape()[0])
    nki_error(diag::Code::err_num_partition_mismatch,
              "number of partitions (dimension 0 size of a tile) mismatch in parameters (data1" + shape_str(x->shape()) +
                  ", data2" + shape_str(y->shape()) + ") of 'tensor_tensor'",
              "broadcast explicitly with .broadcast_to, or use nisa.tensor_scalar for a per-partition operand");
  if (ir::element_count(x->shape()) != ir::element_count(y->shape()))
    nki_error(diag::Code::shape_mismatch, "tensor_tensor operands must have the same number of elements per partition: data1" +
                                    shape_str(x->shape()) + ", data2" + shape_str(y->shape()));
  ir::Alu op = need_alu(a[2], "tensor_tensor", "op");
  ir::Engine e = engine_of(a[5], op == ir::Alu::Power ? ir::Engine::GpSimd : ir::Engine::Vector);
  if (y->shape() != x->shape()) {
    // same element count, different shape: read y in x's iteration order
    nki_error(diag::Code::unsupported_api, "nisa.tensor_tensor with differently shaped operands is not supported by this simulator yet",
              "reshape the operands to the same shape");
  }
  return {a[0], a[1], op, a[3], a[4], e};
}

Ref emit_tensor_tensor(Tracer& t, const TensorTensor& a) {
  return emit_binary(t, "nisa.tensor_tensor", a.data1, a.data2, a.op, a.dtype, a.mask, false, a.engine);
}

TensorScalar bind_tensor_scalar(Tracer& t, py::Interp&, const Args& a) {
  TensorObj* x = need_tensor(a[0], "tensor_scalar", "data");
  require_on_chip(*x, "tensor_scalar", "data");
  ir::Alu op0 = need_alu(a[1], "tensor_scalar", "op0");
  bool has1 = a.has(4) || a.has(5);
  if (a.has(4) != a.has(5))
    nki_error(diag::Code::invalid_arguments, "tensor_scalar op1 and operand1 must both be given or both be None");
  ir::Engine eng = engine_of(a[9], ir::Engine::Unknown);
  check_tensor_scalar_engine(t, eng, op0, has1 ? op_alu(a[4]) : std::nullopt);
  bool rev0 = a.has(3) && t.truthy(a[3]);
  bool rev1 = a.has(6) && t.truthy(a[6]);
  TensorScalar r{x, op0, per_partition(a[2], *x, "tensor_scalar", "operand0"), rev0, {}, {}, rev1,
                 opt_dtype(a[7]).value_or(x->dtype()), eng == ir::Engine::Unknown ? ir::Engine::Vector : eng, a[8]};
  if (has1) {
    ir::Alu op1 = need_alu(a[4], "tensor_scalar", "op1");
    if (is_bitvec(op0) != is_bitvec(op1))
      nki_error(diag::Code::invalid_alu_op, "tensor_scalar op0 and op1 must both be arithmetic or both be bitvec operators");
    r.op1 = op1;
    r.operand1 = per_partition(a[5], *x, "tensor_scalar", "operand1");
  }
  if (is_bitvec(op0) && !dtype_is_int(x->dtype()))
    nki_error(diag::Code::invalid_alu_op, "bitvec operators need integer tiles, got " + std::string(dtype_name(x->dtype())));
  return r;
}

Ref emit_tensor_scalar(Tracer& t, const TensorScalar& a) {
  ir::Instr in;
  in.op = ir::Opcode::Alu;
  in.name = "nisa.tensor_scalar";
  in.engine = a.engine;
  in.alu0 = a.op0;
  ir::Operand d = ir::Operand::of(a.data->view);
  in.srcs.push_back(a.reverse0 ? a.operand0 : d);
  in.srcs.push_back(a.reverse0 ? d : a.operand0);
  if (a.op1) {
    in.has_second = true;
    in.alu1 = *a.op1;
    in.srcs.push_back(*a.operand1);
    in.int_attrs = {0, a.reverse1 ? 1 : 0};
  }
  auto res = t.new_tensor(a.data->shape(), a.dtype, ir::Buffer::Sbuf, "");
  in.dst = res->view;
  in.mask = make_mask(t, a.mask, a.data->shape().size());
  res->producer = t.emit(std::move(in));
  return res;
}

ScalarTensorTensor bind_scalar_tensor_tensor(Tracer& t, py::Interp&, const Args& a) {
  TensorObj* x = need_tensor(a[0], "scalar_tensor_tensor", "data");
  require_on_chip(*x, "scalar_tensor_tensor", "data");
  TensorObj* y = need_tensor(a[4], "scalar_tensor_tensor", "operand1");
  require_on_chip(*y, "scalar_tensor_tensor", "operand1");
  not_both_psum(*x, *y, "scalar_tensor_tensor");
  // docstring: "data input can be an SBUF or PSUM tile of 2D shape"; operand1 has data's shape.
  if (x->shape().size() != 2)
    nki_error(diag::Code::err_exceed_max_supported_dimension,
              "parameter 'data" + shape_str(x->shape()) + "' of 'scalar_tensor_tensor' exceeds the max supported number of dimensions of 2",
              "index or reshape data to a 2-D [P, F] tile");
  require_same_partitions(*x, "data", *y, "operand1", "scalar_tensor_tensor");
  if (y->shape() != x->shape())
    nki_error(diag::Code::shape_mismatch, "scalar_tensor_tensor operand1 must have data's shape " + shape_str(x->shape()) +
                                    ", got " + shape_str(y->shape()));
  ir::Alu op0 = need_alu(a[1], "scalar_tensor_tensor", "op0");
  ir::Alu op1 = need_alu(a[3], "scalar_tensor_tensor", "op1");
  bool rev0 = a.has(5) && t.truthy(a[5]);
  bool rev1 = a.has(6) && t.truthy(a[6]);
  ir::Operand s0 = per_partition(a[2], *x, "scalar_tensor_tensor", "operand0");
  return {x, op0, op1, s0, y, rev0, rev1, opt_dtype(a[7]).value_or(promote(x->dtype(), y->dtype())), a[8]};
}

Ref emit_scalar_tensor_tensor(Tracer& t, const ScalarTensorTensor& a) {
  ir::Instr in;
  in.op = ir::Opcode::Alu;
  in.name = "nisa.scalar_tensor_tensor";
  in.engine = ir::Engine::Vector;
  in.alu0 = a.op0;
  in.alu1 = a.op1;
  in.has_second = true;
  ir::Operand d = ir::Operand::of(a.data->view);
  in.srcs.push_back(a.reverse0 ? a.operand0 : d);
  in.srcs.push_back(a.reverse0 ? d : a.operand0);
  in.srcs.push_back(ir::Operand::of(a.operand1->view));
  in.int_attrs = {0, a.reverse1 ? 1 : 0};
  auto res = t.new_tensor(a.data->shape(), a.dtype, ir::Buffer::Sbuf, "");
  in.dst = res->view;
  in.mask = make_mask(t, a.mask, a.data->shape().size());
  res->producer = t.emit(std::move(in));
  return res;
}

TensorTensorScan bind_tensor_tensor_scan(Tracer& t, py::Interp&, const Args& a) {
  TensorObj* x = need_tensor(a[0], "tensor_tensor_scan", "data0");
  TensorObj* y = need_tensor(a[1], "tensor_tensor_scan", "data1");
  require_on_chip(*x, "tensor_tensor_scan", "data0");
  require_on_chip(*y, "tensor_tensor_scan", "data1");
  not_both_psum(*x, *y, "tensor_tensor_scan");
  require_same_partitions(*x, "data0", *y, "data1", "tensor_tensor_scan");
  if (x->shape() != y->shape())
    nki_error(diag::Code::shape_mismatch, "tensor_tensor_scan data0 and data1 must have the same shape");
  ir::Alu op0 = need_alu(a[3], "tensor_tensor_scan", "op0");
  ir::Alu op1 = need_alu(a[4], "tensor_tensor_scan", "op1");
  // docstring: op0 and op1 are binary arithmetic operators.
  for (auto [op, arg] : {std::pair<ir::Alu, const char*>{op0, "op0"}, {op1, "op1"}})
    if (is_bitvec(op))
      nki_error(diag::Code::invalid_alu_op, std::string("'") + arg + "' of 'tensor_tensor_scan' must be an arithmetic operator, got " +
                                      ir::alu_name(op));
  ir::Operand initial = per_partition(a[2], *x, "tensor_tensor_scan", "initial");
  bool rev0 = a.has(5) && t.truthy(a[5]);
  bool rev1 = a.has(6) && t.truthy(a[6]);
  return {x, y, op0, op1, initial, rev0, rev1, opt_dtype(a[7]).value_or(promote(x->dtype(), y->dtype())), a[8]};
}

Ref emit_tensor_tensor_scan(Tracer& t, const TensorTensorScan& a) {
  ir::Instr in;
  in.op = ir::Opcode::Scan;
  in.name = "nisa.tensor_tensor_scan";
  in.engine = ir::Engine::Vector;
  in.alu0 = a.op0;
  in.alu1 = a.op1;
  in.srcs.push_back(ir::Operand::of(a.data0->view));
  in.srcs.push_back(ir::Operand::of(a.data1->view));
  in.srcs.push_back(a.initial);
  in.int_attrs = {a.reverse0 ? 1 : 0, a.reverse1 ? 1 : 0};
  auto res = t.new_tensor(a.data0->shape(), a.dtype, ir::Buffer::Sbuf, "");
  in.dst = res->view;
  in.mask = make_mask(t, a.mask, a.data0->shape().size());
  res->producer = t.emit(std::move(in));
  return res;
}

Reciprocal bind_reciprocal(Tracer&, py::Interp&, const Args& a) { return {a[0], a[1], a[2]}; }

Ref emit_reciprocal(Tracer& t, const Reciprocal& a) {
  return emit_unary(t, "nisa.reciprocal", a.data, ir::Act::Reciprocal, a.dtype, a.mask);
}

}  // namespace nki::front::nisa
