// nisa.activation and nisa.activation_reduce (SDK 2.24): op(data * scale + bias) on the Scalar
// Engine, optionally reducing along the free axes into reduce_res.
#include "base/diag_codes.h"
#include "nki/api_common.h"
#include "nki/nisa_apis.h"
#include "nki/operand_rules.h"

namespace nki::front::nisa {

namespace {

// Both APIs bind to these arguments (activation_reduce fixes reduce_cmd to reset_reduce and
// has no reduce_cmd parameter).
Activation bind_any_activation(Tracer& t, const std::string& api, const Ref& op, const Ref& data, const Ref& bias,
                               const Ref& scale, const Ref& reduce_op, const Ref& reduce_res, int reduce_cmd,
                               const Ref& mask, const Ref& dtype) {
  auto f = op_act(op);
  if (!f) {
    if (auto al = op_alu(op); al && (*al == ir::Alu::Add || *al == ir::Alu::Multiply))
      nki_error(diag::Code::invalid_activation, "'" + api + "' op must be an activation function, got " + op->repr(),
                "use nisa.tensor_scalar for arithmetic with a scalar");
    nki_error(diag::Code::invalid_activation, "'" + api + "' op must be an activation function (nl.exp, nl.tanh, np.exp, ...), got " +
                                        (op ? op->repr() : std::string("None")));
  }
  Activation a{api, *f, need_tensor(data, api, "data"), ir::Operand::of_imm(1.0), {}, {}, {}, 0, DType::Float32, mask};
  TensorObj* x = a.data;
  require_on_chip(*x, api, "data");
  if (scale && !py::is_none(scale)) {
    if (auto n = py::as_number(scale)) {
      a.scale = ir::Operand::of_imm(*n);
    } else if (auto* st = as_tensor(scale)) {
      int64_t free = 1;
      for (size_t i = 1; i < st->shape().size(); ++i) free *= st->shape()[i];
      if (st->shape()[0] != x->shape()[0] || free != 1)
        nki_error(diag::Code::err_activation_scale_scalar_or_vector,
                  "Scale parameter of activation must be either a scalar value or a 1D vector spanning the partition dimension, got " +
                      shape_str(st->shape()),
                  "pass a Python float or a [P, 1] float32 tile");
      if (st->dtype() != DType::Float32)
        nki_error(diag::Code::err_activation_scale_invalid_type,
                  "Scale parameter of activation must be a scalar or vector of type float32, got " +
                      std::string(dtype_name(st->dtype())),
                  "cast the scale tile to nl.float32");
      a.scale = per_partition(scale, *x, api, "scale");
    } else {
      nki_error(diag::Code::err_activation_scale_scalar_or_vector, "Scale parameter of activation must be a scalar or a [P, 1] tile");
    }
  }
  if ((!bias || py::is_none(bias)) && t.direct_alloc)
    nki_error(diag::Code::err_bias_tensor_must_be_specified_in_allocation,
              "in a kernel with direct allocation the bias argument of '" + api + "' must also be specified",
              "pass bias=<an allocated [P, 1] float32 tile>");
  if (bias && !py::is_none(bias)) {
    auto* bt = as_tensor(bias);
    if (!bt) nki_error(diag::Code::activation_bias_not_tile, "activation bias must be a [P, 1] tile, not a scalar",
                       "materialise the bias as a [P, 1] float32 tile (e.g. nl.full((P, 1), value, nl.float32))");
    if (bt->dtype() != DType::Float32 && bt->dtype() != DType::Float16 && bt->dtype() != DType::BFloat16)
      nki_error(diag::Code::err_activation_bias_invalid_type,
                "Bias parameter of activation or activation_reduce must be a vector of type float32, float16, or bfloat16, got " +
                    std::string(dtype_name(bt->dtype())));
    // activation docstring: a bias vector has data's partition count and one element per partition.
    a.bias = per_partition(bias, *x, api, "bias", diag::name(diag::Code::activation_bias_shape));
  }
  if (reduce_res && !py::is_none(reduce_res)) {
    TensorObj* rr = need_tensor(reduce_res, api, "reduce_res");
    require_on_chip(*rr, api, "reduce_res");
    check_reduce_res(*rr, *x, api);
    auto rop = op_alu(reduce_op);
    if (!rop) nki_error(diag::Code::invalid_alu_op, "'" + api + "' needs reduce_op (e.g. nl.add) with reduce_res");
    if (t.target() == Target::Trn1 && *rop != ir::Alu::Add)
      nki_error(diag::Code::invalid_alu_op, "on NeuronCore-v2 the activation reduction supports add only");
    a.reduce_op = *rop;
    a.reduce_res = rr->view;
    a.reduce_cmd = reduce_cmd;
  } else if (reduce_cmd != 0) {
    auto rop = op_alu(reduce_op);
    a.reduce_op = rop.value_or(ir::Alu::Add);
    a.reduce_cmd = reduce_cmd;
  }
  a.dtype = opt_dtype(dtype).value_or(x->dtype());
  return a;
}

}  // namespace

Activation bind_activation(Tracer& t, py::Interp&, const Args& a) {
  int cmd = accumulator_cmd(a[6], "nisa.activation");
  return bind_any_activation(t, "nisa.activation", a[0], a[1], a[2], a[3], a[4], a[5], cmd, a[7], a[8]);
}

Activation bind_activation_reduce(Tracer& t, py::Interp&, const Args& a) {
  return bind_any_activation(t, "nisa.activation_reduce", a[0], a[1], a[4], a[5], a[2], a[3], 3, a[6], a[7]);
}

Ref emit_activation(Tracer& t, const Activation& a) {
  ir::Instr in;
  in.op = ir::Opcode::Activation;
  in.name = a.api;
  in.engine = ir::Engine::Scalar;
  in.act = a.op;
  in.srcs.push_back(ir::Operand::of(a.data->view));
  in.srcs.push_back(a.scale);
  if (a.bias) in.srcs.push_back(*a.bias);
  in.reduce_op = a.reduce_op;
  in.reduce_res = a.reduce_res;
  in.reduce_cmd = a.reduce_cmd;
  auto res = t.new_tensor(a.data->shape(), a.dtype, ir::Buffer::Sbuf, "");
  in.dst = res->view;
  in.mask = make_mask(t, a.mask, a.data->shape().size());
  res->producer = t.emit(std::move(in));
  return res;
}

}  // namespace nki::front::nisa
