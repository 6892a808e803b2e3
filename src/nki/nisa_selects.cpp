// Predicated nisa instructions (SDK 2.24 ISA docstrings; shared/docs/nki-spec.md §2.10.3):
// range_select, tensor_copy_predicated and select_reduce.
#include "base/diag_codes.h"
#include "nki/api_common.h"
#include "nki/custom_emit.h"
#include "nki/nisa_custom_apis.h"
#include "nki/operand_rules.h"

namespace nki::front::nisa {

// range_select [trn2]: keep on_true where comp_op0(range_start + j, bound0[p]) and
// comp_op1(range_start + j, bound1[p]), else on_false_value (spec §2.10.3).
RangeSelect bind_range_select(Tracer& t, py::Interp&, const Args& a) {
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
  return {x, b0, b1, ops[0], ops[1], start, start_expr, on_false, opt_dtype(a[11]).value_or(x->dtype()),
          a.has(6) ? a[6] : nullptr, a[7], a[5], a[10]};
}

Ref emit_range_select(Tracer& t, const RangeSelect& a) {
  auto res = t.new_tensor(a.on_true->shape(), a.dtype, ir::Buffer::Sbuf, "");
  ir::Instr in;
  in.op = ir::Opcode::Custom;
  in.custom = ir::CustomOp::RangeSelect;
  in.name = "range_select";
  in.engine = ir::Engine::Vector;
  in.dst = res->view;
  in.srcs = {ir::Operand::of(a.on_true->view), ir::Operand::of(a.bound0->view), ir::Operand::of(a.bound1->view)};
  in.int_attrs = {a.comp_op0, a.comp_op1, a.range_start};
  in.iota.rest = a.range_start_expr;
  in.float_attrs = {a.on_false};
  if (a.reduce_res) {
    TensorObj* rr = on_chip_tile(a.reduce_res, "range_select", "reduce_res");
    in.reduce_res = rr->view;
    in.reduce_op = op_alu(a.reduce_op).value_or(ir::Alu::Maximum);
    if (*in.reduce_op != ir::Alu::Maximum) nki_error(diag::Code::invalid_alu_op, "range_select reduce_op must be max");
  }
  in.reduce_cmd = accumulator_cmd(a.reduce_cmd, "nisa.range_select");
  in.mask = make_mask(t, a.mask, a.on_true->shape().size());
  res->producer = t.emit(std::move(in));
  return res;
}

// tensor_copy_predicated: dst[i] = src[i] where predicate[i] != 0 (or == 0 with reverse_pred).
TensorCopyPredicated bind_tensor_copy_predicated(Tracer& t, py::Interp&, const Args& a) {
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
  return {dst, pred, src, rev, a[3]};
}

Ref emit_tensor_copy_predicated(Tracer& t, const TensorCopyPredicated& a) {
  ir::Instr in;
  in.op = ir::Opcode::Select;
  in.name = "nisa.tensor_copy_predicated";
  in.engine = ir::Engine::Vector;
  in.dst = a.dst->view;
  ir::Operand keep = ir::Operand::of(a.dst->view);
  in.srcs = {ir::Operand::of(broadcast_access(a.predicate->view, a.dst->shape())), a.reverse_pred ? keep : a.src,
             a.reverse_pred ? a.src : keep};
  in.mask = make_mask(t, a.mask, a.dst->shape().size());
  t.emit(std::move(in), /*accumulation=*/true);
  return py::none();
}

// select_reduce is an SDK 2.26 addition; the current docs' legacy-dialect ISA tests
// (aws-neuron-sdk nki/test) use it, so it is provided beyond the 2.24 surface.
SelectReduce bind_select_reduce(Tracer& t, py::Interp&, const Args& a) {
  TensorObj* dst = on_chip_tile(a[0], "select_reduce", "dst");
  TensorObj* pred = on_chip_tile(a[1], "select_reduce", "predicate");
  check_writable(t, *dst);
  ir::Operand off;
  if (auto n = py::as_number(a[3])) off = ir::Operand::of_imm(*n);
  else {
    TensorObj* f = on_chip_tile(a[3], "select_reduce", "on_false");
    off = ir::Operand::of(broadcast_access(f->view, dst->shape()));
  }
  ir::Operand on_true = operand_for(a[2], dst->shape(), "select_reduce", "on_true");
  SelectReduce r{dst, pred, on_true, off, a.has(7) && t.truthy(a[7]), {}, {}, 0, a[8]};
  if (a.has(4)) {
    r.reduce_res = on_chip_tile(a[4], "select_reduce", "reduce_res")->view;
    r.reduce_op = op_alu(a[6]).value_or(ir::Alu::Maximum);
  }
  r.reduce_cmd = accumulator_cmd(a[5], "nisa.select_reduce");
  return r;
}

Ref emit_select_reduce(Tracer& t, const SelectReduce& a) {
  ir::Instr in;
  in.op = ir::Opcode::Custom;
  in.custom = ir::CustomOp::SelectReduce;
  in.name = "select_reduce";
  in.engine = ir::Engine::Vector;
  in.dst = a.dst->view;
  in.srcs = {ir::Operand::of(broadcast_access(a.predicate->view, a.dst->shape())), a.on_true, a.on_false};
  in.int_attrs = {a.reverse_pred ? 1 : 0};
  in.reduce_res = a.reduce_res;
  in.reduce_op = a.reduce_op;
  in.reduce_cmd = a.reduce_cmd;
  in.mask = make_mask(t, a.mask, a.dst->shape().size());
  t.emit(std::move(in));
  return py::none();
}

}  // namespace nki::front::nisa
