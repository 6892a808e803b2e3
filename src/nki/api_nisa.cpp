// neuronxcc.nki.isa (nisa) for SDK 2.24: shared/docs/nki-spec.md §2.10–§2.11.
#include "base/diag_codes.h"
#include "base/dtype_promote.h"
#include "nki/api_common.h"
#include "nki/operand_rules.h"

namespace nki::front {

using py::CallArgs;
using py::Interp;

namespace {

// nisa enums are plain integers in the legacy API (engine, reduce_cmd, oob_mode, dge_mode).
std::shared_ptr<py::ModuleObj> make_enum(const std::string& name,
                                         std::initializer_list<std::pair<const char*, int64_t>> values) {
  auto m = std::make_shared<py::ModuleObj>(name);
  for (auto& [k, v] : values) m->set(k, py::make_int(v));
  return m;
}

ir::Engine engine_of(const Ref& r, ir::Engine dflt) {
  auto v = r && !py::is_none(r) ? py::as_int(r) : std::nullopt;
  if (!v) return dflt;
  switch (*v) {
    case 1: return ir::Engine::Tensor;
    case 2: return ir::Engine::Scalar;
    case 3: return ir::Engine::GpSimd;
    case 5: return ir::Engine::Vector;
    case 6: return ir::Engine::Sync;
    default: return dflt;
  }
}

ir::Alu need_alu(const Ref& r, const std::string& api, const std::string& arg) {
  if (auto a = op_alu(r)) return *a;
  nki_error(diag::Code::invalid_alu_op, "'" + arg + "' of '" + api + "' must be an ALU operator such as nl.add or np.multiply, got " +
                                  (r ? r->repr() : std::string("None")));
}

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

void not_both_psum(const TensorObj& a, const TensorObj& b, const std::string& api) {
  if (a.buffer() == ir::Buffer::Psum && b.buffer() == ir::Buffer::Psum)
    nki_error(diag::Code::err_unsupported_memory, "both input tiles of '" + api + "' are in PSUM; at most one may be",
              "copy one operand to SBUF first with nl.copy");
}

}  // namespace

void add_nisa_custom(Tracer& t, py::ModuleObj& m);
void add_nisa_selects(Tracer& t, py::ModuleObj& m);
void add_nisa_cumulative(Tracer& t, py::ModuleObj& m);

// [P, F1, F2, ...] -> a new [P, F1*F2*...] tile holding the same elements in row-major order.
// The hardware folds the free axes into the access pattern; the simulator stages a copy.
std::shared_ptr<TensorObj> collapse_free_axes(Tracer& t, const TensorObj& x) {
  const auto& shape = x.shape();
  size_t r = shape.size();
  int64_t f = 1;
  for (size_t j = 1; j < r; ++j) f *= shape[j];
  auto res = t.new_tensor({shape[0], f}, x.dtype(), x.buffer(), "");
  ir::Access dst = res->view;
  dst.shape = shape;
  dst.coef.assign(2, std::vector<int64_t>(r, 0));
  dst.coef[0][0] = 1;
  int64_t stride = 1;
  for (size_t j = r; j-- > 1;) {
    dst.coef[1][j] = stride;
    stride *= shape[j];
  }
  ir::Instr in;
  in.op = ir::Opcode::Copy;
  in.name = "nisa.nc_transpose";
  in.engine = ir::Engine::Vector;
  in.dst = dst;
  in.srcs.push_back(ir::Operand::of(x.view));
  t.emit(std::move(in));
  return res;
}

std::shared_ptr<py::ModuleObj> make_nisa_module(Tracer& t) {
  auto m = std::make_shared<py::ModuleObj>("neuronxcc.nki.isa");
  auto engine = make_enum("nisa.engine", {{"unknown", 0}, {"tensor", 1}, {"scalar", 2}, {"gpsimd", 3},
                                          {"vector", 5}, {"sync", 6}});
  m->set("engine", engine);
  m->set("unknown_engine", py::make_int(0));
  m->set("tensor_engine", py::make_int(1));
  m->set("scalar_engine", py::make_int(2));
  m->set("gpsimd_engine", py::make_int(3));
  m->set("vector_engine", py::make_int(5));
  m->set("dma_engine", py::make_int(7));
  // load_reduce (4) is post-2.24 (HEAD nki/api/nki/isa/__init__.py, reduce_cmd); only
  // tensor_scalar_cumulative accepts it.
  m->set("reduce_cmd", make_enum("nisa.reduce_cmd", {{"idle", 0}, {"reset", 1}, {"reduce", 2}, {"reset_reduce", 3},
                                                     {"load_reduce", 4}}));
  m->set("oob_mode", make_enum("nisa.oob_mode", {{"error", 0}, {"skip", 1}}));
  m->set("dge_mode", make_enum("nisa.dge_mode", {{"none", 0}, {"swdge", 1}, {"hwdge", 2}, {"unknown", 3}}));
  m->set("nc_version", make_enum("nisa.nc_version", {{"gen2", 2}, {"gen3", 3}}));
  auto fp32 = std::make_shared<py::ModuleObj>("nisa.fp32");
  fp32->set("min", py::make_float(-3.4028234663852886e38));
  m->set("fp32", fp32);
  m->set("get_nc_version", make_fn("get_nc_version", [&t](Interp&, CallArgs&) -> Ref {
    return py::make_int(t.hw().nc_version);
  }));

  m->set("nc_matmul", make_fn("nc_matmul", [&t](Interp& in, CallArgs& call) -> Ref {
    Args a(call, "nc_matmul", {"stationary", "moving", "is_stationary_onezero", "is_moving_onezero", "is_transpose",
                               "tile_position", "tile_size", "mask", "perf_mode"}, 2, 2);
    TensorObj* st = need_tensor(a[0], "nc_matmul", "stationary");
    TensorObj* mv = need_tensor(a[1], "nc_matmul", "moving");
    if (a.has(8)) {
      const std::string* pm = py::as_string(a[8]);
      if (!pm || *pm != "double_row_gen3")
        nki_error(diag::Code::unsupported_api, "nisa.nc_matmul(perf_mode=" + (a[8] ? a[8]->repr() : std::string()) +
                                         ") is not supported by this simulator yet");
      if (t.target() != Target::Trn2)
        nki_error(diag::Code::unsupported_on_target, "nc_matmul perf_mode='double_row_gen3' needs NeuronCore-v3 (trn2)");
      // stationary [K, 2, M], moving [K, 2, N]: result [M, N] = sum over k and the row pair.
      if (st->shape().size() != 3 || mv->shape().size() != 3 || st->shape()[1] != 2 || mv->shape()[1] != 2)
        nki_error(diag::Code::shape_mismatch, "double-row nc_matmul needs stationary [K, 2, M] and moving [K, 2, N] tiles");
      auto row = [](const TensorObj& x, int64_t l) {
        TensorObj v = x;
        ir::Access& acc = v.view;
        for (size_t d = 0; d < acc.offset.size(); ++d)
          acc.offset[d].constant += acc.coef[d][1] * l;
        acc.shape = {x.shape()[0], x.shape()[2]};
        for (auto& col : acc.coef) col = {col[0], col[2]};
        return v;
      };
      TensorObj s0 = row(*st, 0), m0 = row(*mv, 0), s1 = row(*st, 1), m1 = row(*mv, 1);
      Ref res = emit_matmul(t, "nisa.nc_matmul", s0, m0, a[7]);
      Ref second = emit_matmul(t, "nisa.nc_matmul", s1, m1, a[7]);
      assign_into(t, *as_tensor(res), second, ir::Alu::Add, "nisa.nc_matmul");
      as_tensor(res)->producer = -1;
      return res;
    }
    bool has_pos = a.has(5) && py::cast<py::SeqObj>(a[5]) && a[5]->len(in) > 0;
    bool has_size = a.has(6) && py::cast<py::SeqObj>(a[6]) && a[6]->len(in) > 0;
    if (has_pos != has_size)
      nki_error(diag::Code::nc_matmul_tile_args, "nc_matmul tile_position and tile_size must be given together",
                "pass both tile_position=(row, col) and tile_size=(rows, cols), or neither");
    if (has_size) {
      // nc_matmul docstring: values of both tuples are multiples of 32 (ints or affine expressions:
      // only compile-time constants are checked), tile_size >= the accessed stationary tile, and on
      // NeuronCore-v2 the row and column sizes cannot both be 32 (read as "not both").
      std::vector<int64_t> size;
      for (const Ref& r : a[6]->iterate(in)) {
        auto v = static_int(r);
        if (!v || *v % 32 != 0 || *v <= 0 || *v > 128)
          nki_error(diag::Code::nc_matmul_tile_args, "nc_matmul tile_size entries must be multiples of 32 up to 128");
        size.push_back(*v);
      }
      for (const Ref& r : a[5]->iterate(in)) {
        auto v = static_int(r);
        if (v && (*v % 32 != 0 || *v < 0 || *v >= 128))
          nki_error(diag::Code::nc_matmul_tile_args, "nc_matmul tile_position entries must be multiples of 32 below 128, got " +
                                               std::to_string(*v));
      }
      if (size.size() == 2 && st->shape().size() == 2 && (size[0] < st->shape()[0] || size[1] < st->shape()[1]))
        nki_error(diag::Code::nc_matmul_tile_args, "nc_matmul tile_size (" + std::to_string(size[0]) + ", " +
                                             std::to_string(size[1]) + ") is smaller than the stationary tile " +
                                             shape_str(st->shape()),
                  "tile_size must cover the stationary tile: rows >= its partitions, columns >= its free size");
      if (size.size() == 2 && size[0] == 32 && size[1] == 32 && t.target() == Target::Trn1)
        nki_error(diag::Code::nc_matmul_tile_args, "nc_matmul tile_size cannot be (32, 32) on NeuronCore-v2 (trn1)",
                  "use a 64-wide PE tile on trn1");
    }
    return emit_matmul(t, "nisa.nc_matmul", *st, *mv, a[7]);
  }));
  m->set("nc_transpose", make_fn("nc_transpose", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "nc_transpose", {"data", "mask", "dtype", "engine"}, 1, 1);
    TensorObj* x = need_tensor(a[0], "nc_transpose", "data");
    require_on_chip(*x, "nc_transpose", "data");
    // "If the data tile has more than one free axes, this API implicitly collapses all free axes
    // into one axis" (nc_transpose docstring).
    std::shared_ptr<TensorObj> flat;
    if (x->shape().size() > 2) {
      flat = collapse_free_axes(t, *x);
      x = flat.get();
    }
    ir::Engine e = engine_of(a[3], ir::Engine::Unknown);
    bool chosen = e == ir::Engine::Unknown;
    if (chosen) {
      bool small = x->shape().size() == 2 && x->shape()[0] <= 32 && x->shape()[1] <= 32;
      e = small ? ir::Engine::Vector : ir::Engine::Tensor;
    }
    if (e == ir::Engine::Vector && x->shape().size() == 2 && (x->shape()[0] > 32 || x->shape()[1] > 32))
      nki_error(diag::Code::nc_transpose_vector_limit,
                "nc_transpose on the vector engine supports tiles up to [32, 32], got " + shape_str(x->shape()),
                "use engine=nisa.tensor_engine for tiles up to [128, 128]");
    if (e == ir::Engine::Tensor && x->buffer() != ir::Buffer::Sbuf)
      nki_error(diag::Code::err_unsupported_memory, "nc_transpose on the tensor engine reads SBUF only, got a tile in psum");
    Ref res = emit_transpose(t, "nisa.nc_transpose", *x, a[2],
                             e == ir::Engine::Tensor ? ir::Buffer::Psum : ir::Buffer::Sbuf, e);
    if (chosen) t.compiler_placed.insert(t.storage_of(as_tensor(res)->view.tensor));
    return res;
  }));

  auto activation = [&t](const std::string& api, Args& a, const Ref& op, const Ref& data, const Ref& bias,
                         const Ref& scale, const Ref& reduce_op, const Ref& reduce_res, int reduce_cmd,
                         const Ref& mask, const Ref& dtype) -> Ref {
    auto f = op_act(op);
    if (!f) {
      if (auto al = op_alu(op); al && (*al == ir::Alu::Add || *al == ir::Alu::Multiply))
        nki_error(diag::Code::invalid_activation, "'" + api + "' op must be an activation function, got " + op->repr(),
                  "use nisa.tensor_scalar for arithmetic with a scalar");
      nki_error(diag::Code::invalid_activation, "'" + api + "' op must be an activation function (nl.exp, nl.tanh, np.exp, ...), got " +
                                          (op ? op->repr() : std::string("None")));
    }
    TensorObj* x = need_tensor(data, api, "data");
    require_on_chip(*x, api, "data");
    ir::Operand sc = ir::Operand::of_imm(1.0);
    if (scale && !py::is_none(scale)) {
      if (auto n = py::as_number(scale)) {
        sc = ir::Operand::of_imm(*n);
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
        sc = per_partition(scale, *x, api, "scale");
      } else {
        nki_error(diag::Code::err_activation_scale_scalar_or_vector, "Scale parameter of activation must be a scalar or a [P, 1] tile");
      }
    }
    ir::Instr in;
    in.op = ir::Opcode::Activation;
    in.name = api;
    in.engine = ir::Engine::Scalar;
    in.act = *f;
    in.srcs.push_back(ir::Operand::of(x->view));
    in.srcs.push_back(sc);
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
      in.srcs.push_back(per_partition(bias, *x, api, "bias", diag::name(diag::Code::activation_bias_shape)));
    }
    if (reduce_res && !py::is_none(reduce_res)) {
      TensorObj* rr = need_tensor(reduce_res, api, "reduce_res");
      require_on_chip(*rr, api, "reduce_res");
      check_reduce_res(*rr, *x, api);
      auto rop = op_alu(reduce_op);
      if (!rop) nki_error(diag::Code::invalid_alu_op, "'" + api + "' needs reduce_op (e.g. nl.add) with reduce_res");
      if (t.target() == Target::Trn1 && *rop != ir::Alu::Add)
        nki_error(diag::Code::invalid_alu_op, "on NeuronCore-v2 the activation reduction supports add only");
      in.reduce_op = *rop;
      in.reduce_res = rr->view;
      in.reduce_cmd = reduce_cmd;
    } else if (reduce_cmd != 0) {
      auto rop = op_alu(reduce_op);
      in.reduce_op = rop.value_or(ir::Alu::Add);
      in.reduce_cmd = reduce_cmd;
    }
    DType out = opt_dtype(dtype).value_or(x->dtype());
    auto res = t.new_tensor(x->shape(), out, ir::Buffer::Sbuf, "");
    in.dst = res->view;
    in.mask = make_mask(t, mask, x->shape().size());
    (void)a;
    res->producer = t.emit(std::move(in));
    return res;
  };
  m->set("activation", make_fn("activation", [activation](Interp&, CallArgs& call) -> Ref {
    Args a(call, "activation", {"op", "data", "bias", "scale", "reduce_op", "reduce_res", "reduce_cmd", "mask", "dtype"}, 2, 2);
    int cmd = accumulator_cmd(a[6], "nisa.activation");
    return activation("nisa.activation", a, a[0], a[1], a[2], a[3], a[4], a[5], cmd, a[7], a[8]);
  }));
  m->set("activation_reduce", make_fn("activation_reduce", [activation](Interp&, CallArgs& call) -> Ref {
    Args a(call, "activation_reduce", {"op", "data", "reduce_op", "reduce_res", "bias", "scale", "mask", "dtype"}, 2, 4);
    return activation("nisa.activation_reduce", a, a[0], a[1], a[4], a[5], a[2], a[3], 3, a[6], a[7]);
  }));

  m->set("tensor_tensor", make_fn("tensor_tensor", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "tensor_tensor", {"data1", "data2", "op", "dtype", "mask", "engine"}, 3, 3);
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
    Ref yv = a[1];
    if (y->shape() != x->shape()) {
      // same element count, different shape: read y in x's iteration order
      nki_error(diag::Code::unsupported_api, "nisa.tensor_tensor with differently shaped operands is not supported by this simulator yet",
                "reshape the operands to the same shape");
    }
    return emit_binary(t, "nisa.tensor_tensor", a[0], yv, op, a[3], a[4], false, e);
  }));

  m->set("tensor_scalar", make_fn("tensor_scalar", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "tensor_scalar", {"data", "op0", "operand0", "reverse0", "op1", "operand1", "reverse1", "dtype", "mask", "engine"}, 7, 3);
    TensorObj* x = need_tensor(a[0], "tensor_scalar", "data");
    require_on_chip(*x, "tensor_scalar", "data");
    ir::Alu op0 = need_alu(a[1], "tensor_scalar", "op0");
    bool has1 = a.has(4) || a.has(5);
    if (a.has(4) != a.has(5))
      nki_error(diag::Code::invalid_arguments, "tensor_scalar op1 and operand1 must both be given or both be None");
    ir::Engine eng = engine_of(a[9], ir::Engine::Unknown);
    check_tensor_scalar_engine(t, eng, op0, has1 ? op_alu(a[4]) : std::nullopt);
    ir::Instr in;
    in.op = ir::Opcode::Alu;
    in.name = "nisa.tensor_scalar";
    in.engine = eng == ir::Engine::Unknown ? ir::Engine::Vector : eng;
    in.alu0 = op0;
    bool rev0 = a.has(3) && t.truthy(a[3]);
    bool rev1 = a.has(6) && t.truthy(a[6]);
    ir::Operand d = ir::Operand::of(x->view);
    ir::Operand s0 = per_partition(a[2], *x, "tensor_scalar", "operand0");
    in.srcs.push_back(rev0 ? s0 : d);
    in.srcs.push_back(rev0 ? d : s0);
    DType out = opt_dtype(a[7]).value_or(x->dtype());
    if (has1) {
      ir::Alu op1 = need_alu(a[4], "tensor_scalar", "op1");
      if (is_bitvec(op0) != is_bitvec(op1))
        nki_error(diag::Code::invalid_alu_op, "tensor_scalar op0 and op1 must both be arithmetic or both be bitvec operators");
      in.has_second = true;
      in.alu1 = op1;
      in.srcs.push_back(per_partition(a[5], *x, "tensor_scalar", "operand1"));
      in.int_attrs = {0, rev1 ? 1 : 0};
    }
    if (is_bitvec(op0) && !dtype_is_int(x->dtype()))
      nki_error(diag::Code::invalid_alu_op, "bitvec operators need integer tiles, got " + std::string(dtype_name(x->dtype())));
    auto res = t.new_tensor(x->shape(), out, ir::Buffer::Sbuf, "");
    in.dst = res->view;
    in.mask = make_mask(t, a[8], x->shape().size());
    res->producer = t.emit(std::move(in));
    return res;
  }));

  m->set("scalar_tensor_tensor", make_fn("scalar_tensor_tensor", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "scalar_tensor_tensor", {"data", "op0", "operand0", "op1", "operand1", "reverse0", "reverse1", "dtype", "mask"}, 0, 5);
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
    ir::Instr in;
    in.op = ir::Opcode::Alu;
    in.name = "nisa.scalar_tensor_tensor";
    in.engine = ir::Engine::Vector;
    in.alu0 = need_alu(a[1], "scalar_tensor_tensor", "op0");
    in.alu1 = need_alu(a[3], "scalar_tensor_tensor", "op1");
    in.has_second = true;
    bool rev0 = a.has(5) && t.truthy(a[5]);
    bool rev1 = a.has(6) && t.truthy(a[6]);
    ir::Operand d = ir::Operand::of(x->view);
    ir::Operand s0 = per_partition(a[2], *x, "scalar_tensor_tensor", "operand0");
    in.srcs.push_back(rev0 ? s0 : d);
    in.srcs.push_back(rev0 ? d : s0);
    in.srcs.push_back(ir::Operand::of(y->view));
    in.int_attrs = {0, rev1 ? 1 : 0};
    DType out = opt_dtype(a[7]).value_or(promote(x->dtype(), y->dtype()));
    auto res = t.new_tensor(x->shape(), out, ir::Buffer::Sbuf, "");
    in.dst = res->view;
    in.mask = make_mask(t, a[8], x->shape().size());
    res->producer = t.emit(std::move(in));
    return res;
  }));

  m->set("tensor_reduce", make_fn("tensor_reduce", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "tensor_reduce", {"op", "data", "axis", "mask", "dtype", "negate", "keepdims"}, 3, 3);
    ir::Alu op = need_alu(a[0], "tensor_reduce", "op");
    if (TensorObj* x = as_tensor(a[1])) require_int_for_bitvec(op, *x, "tensor_reduce", "data");
    bool negate = a.has(5) && t.truthy(a[5]);
    bool keep = a.has(6) && t.truthy(a[6]);
    return emit_reduce(t, "nisa.tensor_reduce", a[1], op, a[2], a[4], a[3], keep, negate);
  }));
  m->set("tensor_partition_reduce", make_fn("tensor_partition_reduce", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "tensor_partition_reduce", {"op", "data", "mask", "dtype"}, 2, 2);
    ir::Alu op = need_alu(a[0], "tensor_partition_reduce", "op");
    TensorObj* x = need_tensor(a[1], "tensor_partition_reduce", "data");
    require_on_chip(*x, "tensor_partition_reduce", "data");
    require_gpsimd_readable(*x, "tensor_partition_reduce", "data");
    // docstring: "the reduction operator (add, max, bitwise_or, bitwise_and)".
    require_alu_in(op, {ir::Alu::Add, ir::Alu::Maximum, ir::Alu::BitwiseOr, ir::Alu::BitwiseAnd},
                   "tensor_partition_reduce", "op", "add, max, bitwise_or or bitwise_and");
    require_int_for_bitvec(op, *x, "tensor_partition_reduce", "data");
    std::vector<int64_t> shape = x->shape();
    shape[0] = 1;
    auto res = t.new_tensor(shape, opt_dtype(a[3]).value_or(x->dtype()), ir::Buffer::Sbuf, "");
    ir::Instr in;
    in.op = ir::Opcode::Reduce;
    in.name = "nisa.tensor_partition_reduce";
    in.engine = ir::Engine::GpSimd;
    in.alu0 = op;
    in.axes = {0};
    in.dst = res->view;
    in.srcs.push_back(ir::Operand::of(x->view));
    in.mask = make_mask(t, a[2], x->shape().size());
    res->producer = t.emit(std::move(in));
    return res;
  }));
  m->set("tensor_copy", make_fn("tensor_copy", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "tensor_copy", {"src", "mask", "dtype", "engine"}, 1, 1);
    ir::Engine e = engine_of(a[3], ir::Engine::Vector);
    TensorObj* x = need_tensor(a[0], "tensor_copy", "src");
    if (e == ir::Engine::GpSimd && x->buffer() == ir::Buffer::Psum)
      nki_error(diag::Code::err_unsupported_memory, "GpSimd cannot access PSUM (tensor_copy with engine=gpsimd)");
    return emit_copy(t, "nisa.tensor_copy", a[0], a[2], a[1], ir::Buffer::Sbuf, e);
  }));
  m->set("reciprocal", make_fn("reciprocal", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "reciprocal", {"data", "dtype", "mask"}, 1, 1);
    Ref r = emit_unary(t, "nisa.reciprocal", a[0], ir::Act::Reciprocal, a[1], a[2]);
    return r;
  }));
  m->set("iota", make_fn("iota", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "iota", {"expr", "dtype", "mask"}, 2, 2);
    DType dt = need_dtype(a[1], "iota", "dtype");
    ir::Predicate p;
    std::vector<int64_t> shape;
    if (auto v = py::as_int(a[0])) {
      shape = {1, 1};
      p.coef = {0, 0};
      p.rest = ir::ScalarExpr::of(*v);
    } else if (auto* ix = as_index(a[0])) {
      shape = ix->shape;
      p.coef = ix->coef;
      p.rest = ix->rest;
      if (shape.empty()) {
        shape = {1, 1};
        p.coef = {0, 0};
      } else if (shape.size() == 1) {
        nki_error(diag::Code::err_1d_arange_not_supported, "nisa.iota of a 1-D arange is not supported",
                  "lift it to 2-D: nl.arange(n)[None, :] or nl.arange(n)[:, None]");
      }
    } else {
      nki_error(diag::Code::invalid_arguments, "nisa.iota needs an index expression (nl.arange / nl.mgrid / loop index)");
    }
    auto res = t.new_tensor(shape, dt, ir::Buffer::Sbuf, "");
    ir::Instr in;
    in.op = ir::Opcode::Iota;
    in.name = "nisa.iota";
    in.engine = ir::Engine::GpSimd;
    in.iota = p;
    in.dst = res->view;
    in.mask = make_mask(t, a[2], shape.size());
    res->producer = t.emit(std::move(in));
    return res;
  }));
  m->set("memset", make_fn("memset", [&t](Interp& inp, CallArgs& call) -> Ref {
    Args a(call, "memset", {"shape", "value", "dtype", "mask", "engine"}, 3, 3);
    std::vector<int64_t> shape = need_shape(inp, a[0], "memset");
    auto v = py::as_number(a[1]);
    if (!v) nki_error(diag::Code::invalid_arguments, "nisa.memset value must be a compile-time number");
    auto res = t.new_tensor(shape, need_dtype(a[2], "memset", "dtype"), ir::Buffer::Sbuf, "");
    ir::Instr in;
    in.op = ir::Opcode::Memset;
    in.name = "nisa.memset";
    in.engine = engine_of(a[4], ir::Engine::Vector);
    in.dst = res->view;
    in.srcs.push_back(ir::Operand::of_imm(*v));
    in.mask = make_mask(t, a[3], shape.size());
    res->producer = t.emit(std::move(in));
    return res;
  }));
  m->set("affine_select", make_fn("affine_select", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "affine_select", {"pred", "on_true_tile", "on_false_value", "mask", "dtype"}, 3, 3);
    auto* p = dynamic_cast<PredObj*>(a[0].get());
    if (!p || p->terms.size() != 1)
      nki_error(diag::Code::invalid_arguments, "affine_select pred must be a single affine comparison of nl.arange/nl.mgrid indices",
                "e.g. pred=(i_f <= i_p); & / | combinations are not supported");
    TensorObj* x = need_tensor(a[1], "affine_select", "on_true_tile");
    require_on_chip(*x, "affine_select", "on_true_tile");
    // No GpSimd-cannot-read-PSUM rejection here, although the docstring runs affine_select on
    // GpSimd: the official nki-samples flash attention kernel (src/nki_samples/reference/
    // attention.py, flash_fwd, exercised on hardware by its CI) passes the matmul's PSUM tile
    // straight to affine_select, so the 2.24 compiler accepts it. Rejecting would be a false error.
    // docstring: "any float or 8-bit/16-bit integer data types for both the input data tile and output tile".
    for (DType d : {x->dtype(), opt_dtype(a[4]).value_or(x->dtype())})
      if (!dtype_is_float(d) && dtype_size(d) > 2)
        nki_error(diag::Code::unsupported_dtype, "affine_select supports float or 8/16-bit integer tiles, got " +
                                           std::string(dtype_name(d)),
                  "convert the tile (e.g. nl.copy(x, dtype=nl.float32)) or pass dtype=nl.float32");
    auto fv = py::as_number(a[2]);
    if (!fv) nki_error(diag::Code::invalid_arguments, "affine_select on_false_value must be a number");
    auto m2 = make_mask(t, a[0], x->shape().size());
    auto res = t.new_tensor(x->shape(), opt_dtype(a[4]).value_or(x->dtype()), ir::Buffer::Sbuf, "");
    ir::Instr in;
    in.op = ir::Opcode::Select;
    in.name = "nisa.affine_select";
    in.engine = ir::Engine::GpSimd;
    in.select_pred = m2->terms[0];
    in.dst = res->view;
    in.srcs.push_back(ir::Operand::of_imm(1.0));  // unused condition slot (select_pred decides)
    in.srcs.push_back(ir::Operand::of(x->view));
    in.srcs.push_back(ir::Operand::of_imm(*fv));
    in.mask = make_mask(t, a[3], x->shape().size());
    res->producer = t.emit(std::move(in));
    return res;
  }));
  m->set("tensor_tensor_scan", make_fn("tensor_tensor_scan", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "tensor_tensor_scan", {"data0", "data1", "initial", "op0", "op1", "reverse0", "reverse1", "dtype", "mask"}, 7, 5);
    TensorObj* x = need_tensor(a[0], "tensor_tensor_scan", "data0");
    TensorObj* y = need_tensor(a[1], "tensor_tensor_scan", "data1");
    require_on_chip(*x, "tensor_tensor_scan", "data0");
    require_on_chip(*y, "tensor_tensor_scan", "data1");
    not_both_psum(*x, *y, "tensor_tensor_scan");
    require_same_partitions(*x, "data0", *y, "data1", "tensor_tensor_scan");
    if (x->shape() != y->shape())
      nki_error(diag::Code::shape_mismatch, "tensor_tensor_scan data0 and data1 must have the same shape");
    ir::Instr in;
    in.op = ir::Opcode::Scan;
    in.name = "nisa.tensor_tensor_scan";
    in.engine = ir::Engine::Vector;
    in.alu0 = need_alu(a[3], "tensor_tensor_scan", "op0");
    in.alu1 = need_alu(a[4], "tensor_tensor_scan", "op1");
    // docstring: op0 and op1 are binary arithmetic operators.
    for (auto [op, arg] : {std::pair<ir::Alu, const char*>{in.alu0, "op0"}, {in.alu1, "op1"}})
      if (is_bitvec(op))
        nki_error(diag::Code::invalid_alu_op, std::string("'") + arg + "' of 'tensor_tensor_scan' must be an arithmetic operator, got " +
                                        ir::alu_name(op));
    in.srcs.push_back(ir::Operand::of(x->view));
    in.srcs.push_back(ir::Operand::of(y->view));
    in.srcs.push_back(per_partition(a[2], *x, "tensor_tensor_scan", "initial"));
    in.int_attrs = {a.has(5) && t.truthy(a[5]) ? 1 : 0, a.has(6) && t.truthy(a[6]) ? 1 : 0};
    auto res = t.new_tensor(x->shape(), opt_dtype(a[7]).value_or(promote(x->dtype(), y->dtype())), ir::Buffer::Sbuf, "");
    in.dst = res->view;
    in.mask = make_mask(t, a[8], x->shape().size());
    res->producer = t.emit(std::move(in));
    return res;
  }));
  m->set("tensor_scalar_reduce", make_fn("tensor_scalar_reduce", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "tensor_scalar_reduce", {"data", "op0", "operand0", "reduce_op", "reduce_res", "reverse0", "dtype", "mask"}, 0, 5);
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
    ir::Instr in;
    in.op = ir::Opcode::Alu;
    in.name = "nisa.tensor_scalar_reduce";
    in.engine = ir::Engine::Vector;
    in.alu0 = op0;
    in.srcs.push_back(ir::Operand::of(x->view));
    in.srcs.push_back(per_partition(a[2], *x, "tensor_scalar_reduce", "operand0"));
    in.reduce_op = rop;
    in.reduce_res = rr->view;
    in.reduce_cmd = 3;
    auto res = t.new_tensor(x->shape(), opt_dtype(a[6]).value_or(x->dtype()), ir::Buffer::Sbuf, "");
    in.dst = res->view;
    in.mask = make_mask(t, a[7], x->shape().size());
    res->producer = t.emit(std::move(in));
    return res;
  }));
  m->set("dma_copy", make_fn("dma_copy", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "dma_copy", {"dst", "src", "mask", "dst_rmw_op", "oob_mode", "dge_mode"}, 0, 2);
    TensorObj* dst = need_tensor(a[0], "dma_copy", "dst");
    TensorObj* src = need_tensor(a[1], "dma_copy", "src");
    for (auto [tile, arg] : {std::pair<TensorObj*, const char*>{dst, "dst"}, {src, "src"}}) {
      if (tile->buffer() == ir::Buffer::Psum)
        nki_error(diag::Code::err_unsupported_memory, std::string("dma_copy ") + arg + " must be in HBM or SBUF, got a tile in psum");
    }
    if (dst->shape() != src->shape() && ir::element_count(dst->shape()) != ir::element_count(src->shape()))
      nki_error(diag::Code::shape_mismatch, "dma_copy dst" + shape_str(dst->shape()) + " and src" + shape_str(src->shape()) +
                                      " have different sizes");
    // The 2.24 docstring (general/nki/api/nki/isa/__init__.py, dma_copy) sets no shape rule: views
    // of different shapes with the same element count are copied in row-major element order (the
    // executor reads an operand with dst's element count in flat order).
    check_writable(t, *dst);
    ir::Instr in;
    in.op = ir::Opcode::Copy;
    in.name = "nisa.dma_copy";
    in.engine = ir::Engine::Dma;
    in.dst = dst->view;
    in.srcs.push_back(ir::Operand::of(src->view));
    if (a.has(3)) {
      auto rop = op_alu(a[3]);
      if (!rop || *rop != ir::Alu::Add) nki_error(diag::Code::invalid_alu_op, "dma_copy dst_rmw_op supports np.add only");
      in.rmw = *rop;
    }
    in.oob_skip = a.has(4) && static_int(a[4]).value_or(0) == 1;
    // dma_copy docstring: "If dst_rmw_op is specified, only oob_mode=oob_mode.error is allowed";
    // "HWDGE is only supported for NeuronCore-v3+".
    if (in.rmw && in.oob_skip)
      nki_error(diag::Code::dma_copy_args, "dma_copy with dst_rmw_op allows only oob_mode=nisa.oob_mode.error",
                "drop oob_mode=nisa.oob_mode.skip, or drop dst_rmw_op");
    if (a.has(5) && static_int(a[5]).value_or(0) == 2 && t.target() == Target::Trn1)
      nki_error(diag::Code::dma_copy_args, "dma_copy dge_mode=nisa.dge_mode.hwdge needs NeuronCore-v3 (trn2)",
                "use the default dge_mode on trn1");
    in.mask = make_mask(t, a[2], dst->shape().size());
    t.emit(std::move(in));
    return py::none();
  }));

  m->set("tensor_copy_dynamic_src", make_fn("tensor_copy_dynamic_src", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "tensor_copy_dynamic_src", {"src", "mask", "dtype", "engine"}, 1, 1);
    TensorObj* src = need_tensor(a[0], "tensor_copy_dynamic_src", "src");
    if (!ir::is_on_chip(src->buffer()))
      nki_error(diag::Code::err_unsupported_memory, "tensor_copy_dynamic_src copies between on-chip tiles");
    auto res = t.new_tensor(src->shape(), opt_dtype(a[2]).value_or(src->dtype()), ir::Buffer::Sbuf, "");
    ir::Instr in;
    in.op = ir::Opcode::Copy;
    in.name = "nisa.tensor_copy_dynamic_src";
    in.engine = engine_of(a[3], ir::Engine::Vector);
    in.dst = res->view;
    in.srcs.push_back(ir::Operand::of(src->view));
    in.mask = make_mask(t, a[1], src->shape().size());
    res->producer = t.emit(std::move(in));
    return res;
  }));
  m->set("tensor_copy_dynamic_dst", make_fn("tensor_copy_dynamic_dst", [&t](Interp&, CallArgs& call) -> Ref {
    Args a(call, "tensor_copy_dynamic_dst", {"dst", "src", "mask", "dtype", "engine"}, 0, 2);
    TensorObj* dst = need_tensor(a[0], "tensor_copy_dynamic_dst", "dst");
    TensorObj* src = need_tensor(a[1], "tensor_copy_dynamic_dst", "src");
    require_on_chip(*src, "tensor_copy_dynamic_dst", "src");
    if (!ir::is_on_chip(dst->buffer()))
      nki_error(diag::Code::err_unsupported_memory, "tensor_copy_dynamic_dst copies between on-chip tiles");
    if (ir::element_count(dst->shape()) != ir::element_count(src->shape()))
      nki_error(diag::Code::shape_mismatch, "tensor_copy_dynamic_dst src and dst must have the same number of elements");
    check_writable(t, *dst);
    ir::Instr in;
    in.op = ir::Opcode::Copy;
    in.name = "nisa.tensor_copy_dynamic_dst";
    in.engine = engine_of(a[4], ir::Engine::Vector);
    in.dst = dst->view;
    in.srcs.push_back(ir::Operand::of(broadcast_access(src->view, dst->shape())));
    in.mask = make_mask(t, a[2], dst->shape().size());
    t.emit(std::move(in));
    return py::none();
  }));
  add_nisa_custom(t, *m);
  add_nisa_selects(t, *m);
  add_nisa_cumulative(t, *m);
  for (const char* n : {"bn_stats", "bn_aggr", "max8", "nc_find_index8", "nc_match_replace8", "local_gather",
                        "nc_stream_shuffle", "dropout", "range_select", "tensor_copy_predicated",
                        "tensor_copy_dynamic_src", "tensor_copy_dynamic_dst", "dma_transpose"}) {
    if (!m->find(n)) m->set(n, unsupported_api(std::string("nisa.") + n));
  }
  m->set("builtin_custom_op", unsupported_api("nisa.builtin_custom_op",
                                              "it runs a GpSimd library binary (lib_file_name), whose code the "
                                              "simulator does not have"));
  return m;
}

}  // namespace nki::front
