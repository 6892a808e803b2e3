// nisa.tensor_scalar_cumulative: a post-2.24 Vector Engine instruction that the current
// aws-neuron-sdk docs (HEAD nki/api/nki/isa/__init__.py, tensor_scalar_cumulative) document and
// whose legacy-dialect doc test (HEAD nki/test/test_nki_isa_tensor_scalar_cumulative.py) calls
// through neuronxcc.nki.isa. Provided beyond the SDK 2.24 surface, like select_reduce.
//
// Semantics (docstring pseudocode), per partition p of src [P, F]:
//   reset_reduce: reg = identity(op1); load_reduce: reg = imm1; reduce: reg keeps its value
//   for j in 0..F-1: reg = op1(op0(src[p, j], imm0), reg); dst[p, j] = reg
// reg is the Vector Engine accumulator register shared with range_select, select_reduce and
// tensor_scalar_reduce. Lowered to the Custom instruction of the same name (machine/custom_ops.h).
#include "base/diag_codes.h"
#include "nki/api_common.h"
#include "nki/nisa_custom_apis.h"

namespace nki::front {

namespace {

constexpr int64_t kReduce = 2, kResetReduce = 3, kLoadReduce = 4;  // nisa.reduce_cmd values

// "Input / output dtypes are restricted to BF16, FP16, FP32, FP8, UINT8, UINT16, INT8, INT16".
bool cumulative_dtype_ok(DType d) {
  switch (d) {
    case DType::BFloat16: case DType::Float16: case DType::Float32: case DType::Float8E4M3:
    case DType::Float8E5M2: case DType::UInt8: case DType::UInt16: case DType::Int8: case DType::Int16:
      return true;
    default:
      return false;
  }
}

// imm0 / imm1: "Scalar or vector value ... Must be FP32 datatype": a number or a float32 [P, 1]
// tile, broadcast along the free dimension of `shape`.
ir::Operand fp32_scalar_or_vector(const Ref& v, const std::vector<int64_t>& shape, const std::string& arg) {
  if (auto n = py::as_number(v)) return ir::Operand::of_imm(*n);
  TensorObj* t = need_tensor(v, "tensor_scalar_cumulative", arg);
  require_on_chip(*t, "tensor_scalar_cumulative", arg);
  if (t->view.indirect)
    nki_error(diag::Code::indirect_indices_not_supported, "tensor_scalar_cumulative " + arg + " does not support tensor indirection");
  if (t->dtype() != DType::Float32)
    nki_error(diag::Code::unsupported_dtype, "tensor_scalar_cumulative " + arg + " must be float32, got " +
                                       std::string(dtype_name(t->dtype())));
  if (t->shape()[0] != shape[0] || ir::element_count(t->shape()) != t->shape()[0])
    nki_error(diag::Code::tensor_scalar_operand_shape,
              "'" + arg + "' of 'tensor_scalar_cumulative' must be a scalar or a [" + std::to_string(shape[0]) +
                  ", 1] vector, got " + shape_str(t->shape()),
              "pass one float32 value per partition as a [P, 1] tile");
  ir::Access b = t->view;  // keep the partition coefficient, zero every free coefficient
  b.shape = shape;
  for (auto& row : b.coef) {
    int64_t c0 = row.empty() ? 0 : row[0];
    row.assign(shape.size(), 0);
    row[0] = c0;
  }
  return ir::Operand::of(b);
}

}  // namespace

int accumulator_cmd(const Ref& r, const std::string& api) {
  if (!r || py::is_none(r)) return 0;
  const int64_t cmd = static_int(r).value_or(-1);
  if (cmd == kLoadReduce)
    nki_error(diag::Code::unsupported_api, api + "(reduce_cmd=load_reduce) is not supported: load_reduce is documented only for "
                                       "tensor_scalar_cumulative");
  if (cmd < 0 || cmd > kResetReduce)
    nki_error(diag::Code::invalid_arguments, api + " reduce_cmd must be a nisa.reduce_cmd value");
  return static_cast<int>(cmd);
}

namespace nisa {

TensorScalarCumulative bind_tensor_scalar_cumulative(Tracer& t, py::Interp&, const Args& a) {
  const std::string api = "tensor_scalar_cumulative";
  TensorObj* dst = need_tensor(a[0], api, "dst");
  require_on_chip(*dst, api, "dst");
  TensorObj* src = need_tensor(a[1], api, "src");
  require_on_chip(*src, api, "src");
  check_writable(t, *dst);
  for (TensorObj* x : {src, dst})
    if (!cumulative_dtype_ok(x->dtype()))
      nki_error(diag::Code::unsupported_dtype, "tensor_scalar_cumulative input/output dtype must be bf16, fp16, fp32, fp8, "
                                     "uint8, uint16, int8 or int16, got " + std::string(dtype_name(x->dtype())));
  if (dst->shape() != src->shape())
    nki_error(diag::Code::shape_mismatch, "tensor_scalar_cumulative dst " + shape_str(dst->shape()) +
                                    " must have the shape of src " + shape_str(src->shape()));
  auto op0 = op_alu(a[2]);
  if (!op0 || *op0 == ir::Alu::BitwiseAnd || *op0 == ir::Alu::BitwiseOr || *op0 == ir::Alu::BitwiseXor ||
      *op0 == ir::Alu::LeftShift || *op0 == ir::Alu::RightShift)
    nki_error(diag::Code::invalid_alu_op, "tensor_scalar_cumulative op0 must be an arithmetic operator (e.g. add, multiply, max)");
  auto op1 = op_alu(a[3]);
  if (!op1 || !(*op1 == ir::Alu::Add || *op1 == ir::Alu::Subtract || *op1 == ir::Alu::Multiply ||
                *op1 == ir::Alu::Maximum || *op1 == ir::Alu::Minimum))
    nki_error(diag::Code::invalid_alu_op, "tensor_scalar_cumulative op1 must be add, subtract, multiply, max or min");
  const int64_t cmd = a.has(6) ? static_int(a[6]).value_or(-1) : kResetReduce;
  if (cmd != kReduce && cmd != kResetReduce && cmd != kLoadReduce)
    nki_error(diag::Code::invalid_arguments, "tensor_scalar_cumulative reduce_cmd must be reset_reduce, reduce or load_reduce",
              "the docstring defines the accumulator only for these three commands");
  if (cmd == kLoadReduce && !a.has(5))
    nki_error(diag::Code::invalid_arguments, "tensor_scalar_cumulative with reduce_cmd=load_reduce needs imm1 (the initial "
                                   "accumulator value)");
  ir::Operand imm0 = fp32_scalar_or_vector(a[4], src->shape(), "imm0");
  ir::Operand imm1 = a.has(5) ? fp32_scalar_or_vector(a[5], src->shape(), "imm1") : ir::Operand::of_imm(0.0);
  return {dst, src, *op0, *op1, imm0, imm1, cmd};
}

Ref emit_tensor_scalar_cumulative(Tracer& t, const TensorScalarCumulative& a) {
  ir::Instr in;
  in.op = ir::Opcode::Custom;
  in.custom = ir::CustomOp::TensorScalarCumulative;
  in.name = "tensor_scalar_cumulative";
  in.engine = ir::Engine::Vector;
  in.dst = a.dst->view;
  in.srcs = {ir::Operand::of(a.src->view), a.imm0, a.imm1};
  in.int_attrs = {static_cast<int64_t>(a.op0), static_cast<int64_t>(a.op1), a.reduce_cmd};
  t.emit(std::move(in));
  return py::none();
}

}  // namespace nisa

}  // namespace nki::front
