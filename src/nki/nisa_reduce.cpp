// Reducing nisa instructions (SDK 2.24): tensor_reduce (free axes), tensor_partition_reduce
// (the partition axis) and tensor_scalar_reduce (tensor_scalar with a free-axis reduction).
#include "base/diag_codes.h"
#include "nki/api_common.h"
#include "nki/nisa_apis.h"
#include "nki/nisa_rules.h"
#include "nki/operand_rules.h"

namespace nki::front::nisa {

TensorReduce bind_tensor_reduce(Tracer& t, py::Interp&, const Args& a) {
  ir::Alu op = need_alu(a[0], "tensor_reduce", "op");
  if (TensorObj* x = as_tensor(a[1])) require_int_for_bitvec(op, *x, "tensor_reduce", "data");
  bool negate = a.has(5) && t.truthy(a[5]);
  bool keep = a.has(6) && t.truthy(a[6]);
  return {op, a[1], a[2], a[4], a[3], negate, keep};
}

Ref emit_tensor_reduce(Tracer& t, const TensorReduce& a) {
  return emit_reduce(t, "nisa.tensor_reduce", a.data, a.op, a.axis, a.dtype, a.mask, a.keepdims, a.negate);
}

TensorPartitionReduce bind_tensor_partition_reduce(Tracer&, py::Interp&, const Args& a) {
  ir::Alu op = need_alu(a[0], "tensor_partition_reduce", "op");
  TensorObj* x = need_tensor(a[1], "tensor_partition_reduce", "data");
  require_on_chip(*x, "tensor_partition_reduce", "data");
  require_gpsimd_readable(*x, "tensor_partition_reduce", "data");
  // docstring: "the reduction operator (add, max, bitwise_or, bitwise_and)".
  require_alu_in(op, {ir::Alu::Add, ir::Alu::Maximum, ir::Alu::BitwiseOr, ir::Alu::BitwiseAnd},
                 "tensor_partition_reduce", "op", "add, max, bitwise_or or bitwise_and");
  require_int_for_bitvec(op, *x, "tensor_partition_reduce", "data");
  return {op, x, opt_dtype(a[3]).value_or(x->dtype()), a[2]};
}

Ref emit_tensor_partition_reduce(Tracer& t, const TensorPartitionReduce& a) {
  std::vector<int64_t> shape = a.data->shape();
  shape[0] = 1;
  auto res = t.new_tensor(shape, a.dtype, ir::Buffer::Sbuf, "");
  ir::Instr in;
  in.op = ir::Opcode::Reduce;
  in.name = "nisa.tensor_partition_reduce";
  in.engine = ir::Engine::GpSimd;
  in.alu0 = a.op;
  in.axes = {0};
  in.dst = res->view;
  in.srcs.push_back(ir::Operand::of(a.data->view));
  in.mask = make_mask(t, a.mask, a.data->shape().size());
  res->producer = t.emit(std::move(in));
  return res;
}

TensorScalarReduce bind_tensor_scalar_reduce(Tracer& t, py::Interp&, const Args& a) {
  TensorObj* x = need_tensor(a[0], "tensor_scalar_reduce", "data");
  require_on_chip(*x, "tensor_scalar_reduce", "data");
  ir::Alu op0 = need_alu(a[1], "tensor_scalar_reduce", "op0");
  if (is_bitvec(op0)) nki_error(diag::Code::invalid_alu_op, "tensor_scalar_reduce op0 must be an arithmetic operator");
  ir::Alu rop = need_alu(a[3], "tensor_scalar_reduce", "reduce_op");
  // docstring: "The reduce_op can be any of nl.add, nl.subtract, nl.multiply, nl.max or nl.min".
  require_alu_in(rop, {ir::Alu::Add, ir::Alu::Subtract, ir::Alu::Multiply, ir::Alu::Maximum, ir::Alu::Minimum},
                 "tensor_scalar_reduce", "reduce_op", "add, subtract, multiply, max or min");
  TensorObj* rr = need_tensor(a[4], "tensor_scalar_reduce", "reduce_res");
  require_on_chip(*rr, "tensor_scalar_reduce", "reduce_res");
  check_reduce_res(*rr, *x, "tensor_scalar_reduce");
  if (a.has(5) && t.truthy(a[5]))
    nki_error(diag::Code::unsupported_api, "tensor_scalar_reduce reverse0=True is not supported (documented as not supported yet)");
  ir::Operand s0 = per_partition(a[2], *x, "tensor_scalar_reduce", "operand0");
  return {x, op0, s0, rop, rr, opt_dtype(a[6]).value_or(x->dtype()), a[7]};
}

Ref emit_tensor_scalar_reduce(Tracer& t, const TensorScalarReduce& a) {
  ir::Instr in;
  in.op = ir::Opcode::Alu;
  in.name = "nisa.tensor_scalar_reduce";
  in.engine = ir::Engine::Vector;
  in.alu0 = a.op0;
  in.srcs.push_back(ir::Operand::of(a.data->view));
  in.srcs.push_back(a.operand0);
  in.reduce_op = a.reduce_op;
  in.reduce_res = a.reduce_res->view;
  in.reduce_cmd = 3;
  auto res = t.new_tensor(a.data->shape(), a.dtype, ir::Buffer::Sbuf, "");
  in.dst = res->view;
  in.mask = make_mask(t, a.mask, a.data->shape().size());
  res->producer = t.emit(std::move(in));
  return res;
}

}  // namespace nki::front::nisa
