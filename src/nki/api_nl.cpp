// neuronxcc.nki.language (nl) for SDK 2.24: shared/docs/nki-spec.md §2.2–§2.9.
#include <limits>

#include "base/diag_codes.h"
#include "ir/scalar_expr.h"
#include "nki/api_common.h"
#include "nki/check_alloc.h"
#include "nki/ndarray.h"
#include "nki/nl_apis.h"

namespace nki::front {

using py::CallArgs;
using py::Interp;

// ------------------------------------------------------------------ shared helpers
Ref unsupported_api(const std::string& qualified, const std::string& reason) {
  return make_fn(qualified, [qualified, reason](Interp&, CallArgs&) -> Ref {
    nki_error(diag::Code::unsupported_api,
              qualified + " is not supported by this simulator" + (reason.empty() ? " yet" : ": " + reason),
              "see docs/api-coverage.md for the implemented APIs");
  });
}

std::optional<ir::Alu> op_alu(const Ref& r) {
  if (auto* f = dynamic_cast<OpFnObj*>(r.get())) return f->alu;
  return std::nullopt;
}
std::optional<ir::Act> op_act(const Ref& r) {
  if (auto* f = dynamic_cast<OpFnObj*>(r.get())) return f->act;
  return std::nullopt;
}

std::shared_ptr<OpFnObj> make_alu_fn(Tracer& t, const std::string& qualified, ir::Alu op) {
  std::string api = qualified.substr(qualified.rfind('.') + 1);
  auto f = std::make_shared<OpFnObj>(qualified, [&t, api, op](Interp&, CallArgs& call) -> Ref {
    bool mod_style = api == "fmod" || api == "mod";
    Args a(call, api, {"x", "y", "dtype", "mask"}, mod_style ? 4 : 2, 2);
    return emit_binary(t, api, a[0], a[1], op, a[2], a[3], /*allow_partition_broadcast=*/true,
                       op == ir::Alu::Power ? ir::Engine::GpSimd : ir::Engine::Vector);
  });
  f->alu = op;
  return f;
}

std::shared_ptr<OpFnObj> make_act_fn(Tracer& t, const std::string& qualified, ir::Act fn) {
  std::string api = qualified.substr(qualified.rfind('.') + 1);
  auto f = std::make_shared<OpFnObj>(qualified, [&t, api, fn](Interp&, CallArgs& call) -> Ref {
    Args a(call, api, {"x", "dtype", "mask"}, 1, 1);
    if (t.direct_alloc && fn != ir::Act::Negative && fn != ir::Act::Floor && fn != ir::Act::Ceil &&
        fn != ir::Act::Trunc && fn != ir::Act::Invert && fn != ir::Act::LogicalNot)
      nki_error(diag::Code::err_bias_tensor_must_be_specified_in_allocation,
                "nl." + api + " lowers to an activation without a bias, but in a kernel with direct allocation the "
                "bias argument must also be specified",
                "call nisa.activation(op=nl." + api + ", data=..., bias=<allocated [P, 1] tile>)");
    if (is_scalar_value(a[0])) {
      // nl.* on a Python scalar: evaluate at compile time (used in host-side constant math).
      nki_error(diag::Code::expected_tile, "'" + api + "' needs a tile operand, got a Python number",
                "use the math module for compile-time scalars");
    }
    return emit_unary(t, api, a[0], fn, a[1], a[2]);
  });
  f->act = fn;
  return f;
}

std::shared_ptr<OpFnObj> make_reduce_fn(Tracer& t, const std::string& qualified, ir::Alu op) {
  std::string api = qualified.substr(qualified.rfind('.') + 1);
  auto f = std::make_shared<OpFnObj>(qualified, [&t, api, op](Interp&, CallArgs& call) -> Ref {
    Args a(call, api, {"x", "axis", "dtype", "mask", "keepdims"}, 2, 2);
    bool keep = a.has(4) && t.truthy(a[4]);
    return emit_reduce(t, api, a[0], op, a[1], a[2], a[3], keep);
  });
  f->alu = op;
  return f;
}

void add_dtypes(py::ModuleObj& m, bool numpy_names) {
  struct Entry { const char* name; DType d; };
  static const Entry entries[] = {
      {"bool_", DType::Bool},         {"int8", DType::Int8},         {"int16", DType::Int16},
      {"int32", DType::Int32},        {"uint8", DType::UInt8},       {"uint16", DType::UInt16},
      {"uint32", DType::UInt32},      {"float16", DType::Float16},   {"float32", DType::Float32},
      {"bfloat16", DType::BFloat16},  {"tfloat32", DType::TFloat32}, {"float8_e4m3", DType::Float8E4M3},
      {"float8_e5m2", DType::Float8E5M2},
  };
  for (const Entry& e : entries) {
    if (numpy_names && (e.d == DType::BFloat16 || e.d == DType::TFloat32 || e.d == DType::Float8E4M3 ||
                        e.d == DType::Float8E5M2))
      continue;  // numpy 1.24 has none of these
    m.set(e.name, std::make_shared<DTypeObj>(e.d));
  }
  if (numpy_names) {
    m.set("bool", std::make_shared<DTypeObj>(DType::Bool));
    m.set("half", std::make_shared<DTypeObj>(DType::Float16));
    m.set("single", std::make_shared<DTypeObj>(DType::Float32));
  }
}

std::shared_ptr<RangeDriver> make_range(Tracer& t, const std::string& api, CallArgs& a, ir::LoopKind kind) {
  if (a.pos.empty() || a.pos.size() > 3)
    nki_error(diag::Code::invalid_arguments, api + "() takes 1 to 3 integer arguments");
  std::vector<int64_t> v;
  for (const Ref& r : a.pos) {
    auto i = static_int(r);
    if (!i)
      nki_error(diag::Code::dynamic_loop_bound, api + "() bounds must be compile-time integers, got " + r->repr(),
                "loop bounds come from tensor shapes and Python integers");
    v.push_back(*i);
  }
  auto d = std::make_shared<RangeDriver>();
  d->tracer = &t;
  d->kind = kind;
  if (v.size() == 1) d->stop = v[0];
  else {
    d->start = v[0];
    d->stop = v[1];
    if (v.size() == 3) d->step = v[2];
  }
  if (d->step == 0) nki_error(diag::Code::invalid_arguments, api + "() step must not be zero");
  return d;
}

namespace nl {

CreateTensor bind_create(Tracer& t, const std::string& api, Interp& in, const Ref& shape_ref, const Ref& dtype,
                         const Ref& buffer, const Ref& name, std::optional<double> fill) {
  if (!t.tracing()) t.api_outside_kernel("nl." + api);
  int pdim = 0;
  std::vector<int64_t> shape = need_shape(in, shape_ref, api, &pdim);
  DType dt = need_dtype(dtype, api, "dtype");
  ir::Buffer buf = ir::Buffer::Sbuf;
  if (buffer && !py::is_none(buffer)) {
    auto* b = dynamic_cast<BufferObj*>(buffer.get());
    if (!b) nki_error(diag::Code::invalid_buffer, "buffer of '" + api + "' must be nl.sbuf, nl.psum, nl.hbm, nl.private_hbm or nl.shared_hbm");
    buf = b->buffer;
    if (b->direct_alloc && fill)
      nki_error(diag::Code::err_tensor_creation_on_scratchpad_with_init_value_not_supported,
                "tensors with direct allocation cannot be created with an initial value ('" + api + "')",
                "create it with nl.ndarray and write the values with an instruction (e.g. nisa.memset)");
  }
  if (ir::is_hbm(buf) && fill)
    nki_error(diag::Code::err_hbm_tensor_with_init_value_not_supported,
              "HBM tensors cannot be created with an initial value ('" + api + "')",
              "create it with nl.ndarray(..., buffer=nl.shared_hbm) and nl.store the values into it");
  if (ir::is_on_chip(buf) && static_cast<int>(shape.size()) - pdim < 2)
    nki_error(diag::Code::insufficient_rank,
              "on-chip tensors need a partition dimension and at least one free dimension, got shape " +
                  shape_str(shape),
              "write (128, 1) instead of (128,)");
  // A direct-allocation buffer makes the whole kernel a direct-allocation one, from here on
  // (also when a later rule below rejects this call).
  auto* b = dynamic_cast<BufferObj*>(buffer.get());
  if (b && b->direct_alloc) t.direct_alloc = true;
  if (buf == ir::Buffer::SharedHbm && (t.in_loop_or_branch() || t.call_depth() > 1))
    nki_error(diag::Code::err_shared_hbm_must_in_kernel_level,
              "shared_hbm tensors must be created at the top level of the kernel function, not inside a loop, "
              "a branch or a helper function",
              "move the nl.ndarray(..., buffer=nl.shared_hbm) before the loop");
  if (buf == ir::Buffer::Psum) {
    int64_t free_bytes = static_cast<int64_t>(dtype_size(dt));
    for (size_t i = pdim + 1; i < shape.size(); ++i) free_bytes *= shape[i];
    // 2.24: "[TC#2] For tiles in PSUM, the F dimension size must not exceed
    // nki.tile_size.psum_fmax == 512", and the allocation is a tile (general/nki/programming_model.rst,
    // "Tile size considerations"). Counted in bytes, one 2 KiB bank: the direct-allocation guide
    // states the limit as 2 KiB per tile (general/nki/nki_direct_allocation_guide.rst).
    // The current dialect states TC#2 for the tiles single instructions process, and deprecates
    // psum_fmax as "not the free-dim size per partition" (nki/api/nki/language/__init__.py,
    // tile_size): a wider PSUM tensor is not shown invalid there, only an instruction's PSUM
    // operand beyond one bank (nisa.nc_matmul: moving free size, and matmul_psum_bank_crossing).
    if (free_bytes > t.hw().psum_bank_bytes && !t.allocations_are_tiles())
      t.warn(diag::Code::psum_tensor_spans_banks,
             "PSUM tensor of shape " + shape_str(shape) + " and dtype " + dtype_name(dt) + " spans " +
                 std::to_string((free_bytes + t.hw().psum_bank_bytes - 1) / t.hw().psum_bank_bytes) + " of the " +
                 std::to_string(t.hw().psum_banks) + " PSUM banks of each partition",
             "each instruction must read or write it within one 2 KiB bank (e.g. one nc_matmul per 512-fp32 slice)");
    else if (free_bytes > t.hw().psum_bank_bytes)
      nki_error(diag::Code::psum_fmax,
                "PSUM tile of shape " + shape_str(shape) + " and dtype " + dtype_name(dt) + " needs " +
                    std::to_string(free_bytes) + " bytes per partition, more than one " +
                    std::to_string(t.hw().psum_bank_bytes / 1024) + " KiB PSUM bank",
                "keep PSUM tiles to at most nl.tile_size.psum_fmax (" + std::to_string(t.hw().psum_fmax) +
                    ") float32 elements per partition");
  }
  std::string nm;
  if (name && py::as_string(name)) nm = *py::as_string(name);
  const BufferObj* placed = b && b->direct_alloc && b->placement && ir::is_on_chip(buf) ? b : nullptr;
  return {api, shape, pdim, dt, buf, placed, nm, fill};
}

Ref emit_create(Tracer& t, const CreateTensor& a) {
  auto res = t.new_tensor(a.shape, a.dtype, a.buffer, a.name, a.partition_dim);
  if (a.placed)
    t.direct_tensors.push_back(place_direct_tensor(t, *a.placed->placement, a.buffer, a.shape, a.partition_dim, a.dtype,
                                                   res->view.tensor));
  if (a.fill) {
    ir::TensorDecl& d = t.kernel().tensors[res->view.tensor];
    d.init = *a.fill == 0.0 ? ir::TensorInit::Zeros : ir::TensorInit::Fill;
    d.fill_value = *a.fill;
    // Initialisation is an instruction where the tensor is created, so a tile created inside a
    // loop is re-initialised on every iteration.
    ir::Instr in_;
    in_.op = ir::Opcode::Memset;
    in_.name = a.api;
    in_.engine = ir::Engine::Vector;
    in_.dst = res->view;
    in_.srcs.push_back(ir::Operand::of_imm(*a.fill));
    t.emit(std::move(in_));
  }
  return res;
}

}  // namespace nl

Ref create_tensor(Tracer& t, const std::string& api, Interp& in, const Ref& shape, const Ref& dtype, const Ref& buffer,
                  const Ref& name, std::optional<double> fill) {
  return nl::emit_create(t, nl::bind_create(t, api, in, shape, dtype, buffer, name, fill));
}

namespace {

struct FinfoObj : py::Obj {
  double min, max, eps, tiny;
  std::string type_name() const override { return "finfo"; }
  Ref getattr(Interp& in, const std::string& n) override {
    if (n == "min") return py::make_float(min);
    if (n == "max") return py::make_float(max);
    if (n == "eps") return py::make_float(eps);
    if (n == "tiny" || n == "smallest_normal") return py::make_float(tiny);
    return py::Obj::getattr(in, n);
  }
};

// nl.mgrid[0:128, 0:512]
struct MgridFactory : py::Obj {
  Tracer* t = nullptr;
  std::string type_name() const override { return "mgrid"; }
  Ref getitem(Interp&, const Ref& key) override {
    std::vector<Ref> keys;
    if (auto* tup = py::cast<py::TupleObj>(key)) keys = tup->items;
    else keys.push_back(key);
    std::vector<int64_t> shape, starts, steps;
    for (const Ref& k : keys) {
      auto* s = py::cast<py::SliceObj>(k);
      if (!s) nki_error(diag::Code::invalid_index, "nl.mgrid takes slices, e.g. nl.mgrid[0:128, 0:512]");
      int64_t lo = py::is_none(s->lower) ? 0 : static_int(s->lower).value_or(INT64_MIN);
      auto hi = static_int(s->upper);
      int64_t st = py::is_none(s->step) ? 1 : static_int(s->step).value_or(0);
      if (lo == INT64_MIN || !hi || st <= 0)
        nki_error(diag::Code::invalid_index, "nl.mgrid bounds must be compile-time integers with a positive step");
      int64_t n = *hi > lo ? (*hi - lo + st - 1) / st : 0;
      if (n <= 0) nki_error(diag::Code::invalid_index, "empty nl.mgrid range");
      shape.push_back(n);
      starts.push_back(lo);
      steps.push_back(st);
    }
    auto g = std::make_shared<MgridObj>();
    for (size_t a = 0; a < shape.size(); ++a) {
      auto ix = std::make_shared<IndexObj>();
      ix->tracer = t;
      ix->shape = shape;
      ix->coef.assign(shape.size(), 0);
      ix->coef[a] = steps[a];
      ix->rest = ir::ScalarExpr::of(starts[a]);
      ix->is_arange = true;
      g->components.push_back(ix);
    }
    return g;
  }
};

}  // namespace

namespace nl {

const std::vector<const std::vector<ApiRow>*>& all_tables() {
  static const std::vector<const std::vector<ApiRow>*> tables = {&index_apis(),    &creation_apis(), &movement_apis(),
                                                                 &compute_apis(),  &compound_apis(), &custom_apis()};
  return tables;
}

}  // namespace nl

std::shared_ptr<py::ModuleObj> make_nl_module(Tracer& t) {
  auto m = std::make_shared<py::ModuleObj>("neuronxcc.nki.language");
  add_dtypes(*m, false);
  m->set("sbuf", std::make_shared<BufferObj>(ir::Buffer::Sbuf));
  m->set("psum", std::make_shared<BufferObj>(ir::Buffer::Psum));
  m->set("hbm", std::make_shared<BufferObj>(ir::Buffer::PrivateHbm));
  m->set("private_hbm", std::make_shared<BufferObj>(ir::Buffer::PrivateHbm));
  m->set("shared_hbm", std::make_shared<BufferObj>(ir::Buffer::SharedHbm));

  auto tile = std::make_shared<py::ModuleObj>("nl.tile_size");
  tile->set("pmax", py::make_int(t.hw().pmax));
  tile->set("psum_fmax", py::make_int(t.hw().psum_fmax));
  tile->set("gemm_stationary_fmax", py::make_int(t.hw().gemm_stationary_fmax));
  tile->set("gemm_moving_fmax", py::make_int(t.hw().gemm_moving_fmax));
  tile->set("bn_stats_fmax", py::make_int(t.hw().bn_stats_fmax));
  m->set("tile_size", tile);
  auto fp32 = std::make_shared<py::ModuleObj>("nl.fp32");
  fp32->set("min", py::make_float(-3.4028234663852886e38));
  m->set("fp32", fp32);

  m->set("par_dim", make_fn("par_dim", [](Interp&, CallArgs& a) -> Ref {
    auto n = a.pos.size() == 1 ? static_int(a.pos[0]) : std::nullopt;
    if (!n || *n <= 0) nki_error(diag::Code::invalid_shape, "nl.par_dim takes one positive integer");
    return std::make_shared<ParDimObj>(*n);
  }));
  m->set("arange", make_fn("arange", [&t](Interp&, CallArgs& a) -> Ref {
    if (a.pos.empty() || a.pos.size() > 2) nki_error(diag::Code::invalid_arguments, "nl.arange(stop) or nl.arange(start, stop)");
    auto lo = a.pos.size() == 2 ? static_int(a.pos[0]) : std::optional<int64_t>(0);
    auto hi = static_int(a.pos.back());
    if (!lo || !hi) nki_error(diag::Code::invalid_arguments, "nl.arange bounds must be compile-time integers");
    if (*hi <= *lo) nki_error(diag::Code::invalid_arguments, "nl.arange range is empty");
    auto ix = std::make_shared<IndexObj>();
    ix->tracer = &t;
    ix->shape = {*hi - *lo};
    ix->coef = {1};
    ix->rest = ir::ScalarExpr::of(*lo);
    ix->is_arange = true;
    return ix;
  }));
  auto mg = std::make_shared<MgridFactory>();
  mg->t = &t;
  m->set("mgrid", mg);
  add_apis(t, *m, nl::index_apis());
  m->set("program_ndim", make_fn("program_ndim", [&t](Interp&, CallArgs&) -> Ref {
    return py::make_int(static_cast<int64_t>(t.options().grid.size()));
  }));
  m->set("affine_range", make_fn("affine_range", [&t](Interp&, CallArgs& a) -> Ref {
    return make_range(t, "affine_range", a, ir::LoopKind::Affine);
  }));
  m->set("sequential_range", make_fn("sequential_range", [&t](Interp&, CallArgs& a) -> Ref {
    return make_range(t, "sequential_range", a, ir::LoopKind::Sequential);
  }));
  m->set("static_range", make_fn("static_range", [&t](Interp&, CallArgs& a) -> Ref {
    return make_range(t, "static_range", a, ir::LoopKind::Static);
  }));

  // ---- creation
  add_apis(t, *m, nl::creation_apis());
  m->set("finfo", make_fn("finfo", [](Interp&, CallArgs& a) -> Ref {
    if (a.pos.size() != 1) nki_error(diag::Code::invalid_arguments, "nl.finfo(dtype)");
    DType d = need_dtype(a.pos[0], "finfo", "dtype");
    auto f = std::make_shared<FinfoObj>();
    switch (d) {
      case DType::Float32: case DType::TFloat32:
        f->max = std::numeric_limits<float>::max(); f->eps = std::numeric_limits<float>::epsilon();
        f->tiny = std::numeric_limits<float>::min(); break;
      case DType::BFloat16: f->max = 3.3895313892515355e38; f->eps = 0.0078125; f->tiny = 1.1754943508222875e-38; break;
      case DType::Float16: f->max = 65504.0; f->eps = 0.0009765625; f->tiny = 6.103515625e-05; break;
      case DType::Float8E4M3: f->max = 240.0; f->eps = 0.125; f->tiny = 0.015625; break;
      case DType::Float8E5M2: f->max = 57344.0; f->eps = 0.25; f->tiny = 6.103515625e-05; break;
      default: nki_error(diag::Code::invalid_arguments, "nl.finfo needs a floating-point dtype");
    }
    f->min = -f->max;
    return f;
  }));
  // ---- data movement
  add_apis(t, *m, nl::movement_apis());
  {
    // nl.copy is both the copy API and the identity activation (op=nl.copy, spec §2.11.2).
    auto copy = std::make_shared<OpFnObj>("nl.copy", [&t](Interp&, CallArgs& call) -> Ref {
      Args a(call, "copy", {"src", "mask", "dtype"}, 1, 1);
      return emit_copy(t, "copy", a[0], a[2], a[1]);
    });
    copy->act = ir::Act::Copy;
    m->set("copy", copy);
  }

  // ---- element-wise math
  struct U { const char* n; ir::Act f; };
  static const U unary[] = {
      {"abs", ir::Act::Abs}, {"negative", ir::Act::Negative}, {"sign", ir::Act::Sign},
      {"trunc", ir::Act::Trunc}, {"floor", ir::Act::Floor}, {"ceil", ir::Act::Ceil},
      {"exp", ir::Act::Exp}, {"log", ir::Act::Log}, {"sin", ir::Act::Sin}, {"cos", ir::Act::Cos},
      {"tan", ir::Act::Tan}, {"arctan", ir::Act::Arctan}, {"tanh", ir::Act::Tanh},
      {"sqrt", ir::Act::Sqrt}, {"rsqrt", ir::Act::Rsqrt}, {"reciprocal", ir::Act::Reciprocal},
      {"square", ir::Act::Square}, {"sigmoid", ir::Act::Sigmoid}, {"relu", ir::Act::Relu},
      {"gelu", ir::Act::Gelu}, {"gelu_dx", ir::Act::GeluDx}, {"gelu_apprx_tanh", ir::Act::GeluApprxTanh},
      {"silu", ir::Act::Silu}, {"silu_dx", ir::Act::SiluDx}, {"erf", ir::Act::Erf},
      {"erf_dx", ir::Act::ErfDx}, {"softplus", ir::Act::Softplus}, {"mish", ir::Act::Mish},
      {"invert", ir::Act::Invert}, {"logical_not", ir::Act::LogicalNot}, {"copy_act", ir::Act::Copy},
  };
  for (const U& u : unary) {
    if (std::string(u.n) == "copy_act") continue;
    m->set(u.n, make_act_fn(t, std::string("nl.") + u.n, u.f));
  }
  struct B { const char* n; ir::Alu op; };
  static const B binary[] = {
      {"add", ir::Alu::Add}, {"subtract", ir::Alu::Subtract}, {"multiply", ir::Alu::Multiply},
      {"divide", ir::Alu::Divide}, {"power", ir::Alu::Power}, {"maximum", ir::Alu::Maximum},
      {"minimum", ir::Alu::Minimum}, {"fmod", ir::Alu::Fmod}, {"mod", ir::Alu::Mod},
      {"bitwise_and", ir::Alu::BitwiseAnd}, {"bitwise_or", ir::Alu::BitwiseOr},
      {"bitwise_xor", ir::Alu::BitwiseXor}, {"left_shift", ir::Alu::LeftShift},
      {"right_shift", ir::Alu::RightShift}, {"equal", ir::Alu::Equal}, {"not_equal", ir::Alu::NotEqual},
      {"greater", ir::Alu::Greater}, {"greater_equal", ir::Alu::GreaterEqual}, {"less", ir::Alu::Less},
      {"less_equal", ir::Alu::LessEqual}, {"logical_and", ir::Alu::LogicalAnd},
      {"logical_or", ir::Alu::LogicalOr}, {"logical_xor", ir::Alu::LogicalXor},
  };
  for (const B& b : binary) m->set(b.n, make_alu_fn(t, std::string("nl.") + b.n, b.op));

  // ---- reductions
  m->set("sum", make_reduce_fn(t, "nl.sum", ir::Alu::Add));
  m->set("prod", make_reduce_fn(t, "nl.prod", ir::Alu::Multiply));
  m->set("max", make_reduce_fn(t, "nl.max", ir::Alu::Maximum));
  m->set("min", make_reduce_fn(t, "nl.min", ir::Alu::Minimum));
  add_apis(t, *m, nl::compute_apis());
  add_apis(t, *m, nl::compound_apis());
  add_apis(t, *m, nl::custom_apis());

  // Launch-grid annotations (2.24 general/nki/api/nki/language/__init__.py, nc and spmd_dim):
  // they only choose which physical NeuronCore runs which SPMD instance, not what it computes,
  // so on this one-core model a dimension's extent is all that matters. nl.nc(n) is the extent
  // n, and nl.spmd_dim(a, b, ...) is the product of its sub-dimensions
  // (kernel[nl.spmd_dim(nl.nc(2), 2), 2] launches a 4 x 2 grid, test_nki_spmd_grid.py).
  m->set("nc", make_fn("nc", [](Interp&, CallArgs& call) -> Ref {
    Args a(call, "nc", {"n"}, 1, 1);
    auto n = static_int(a[0]);
    if (!n || *n <= 0) nki_error(diag::Code::invalid_arguments, "nl.nc expects a positive number of NeuronCores");
    return py::make_int(*n);
  }));
  m->set("spmd_dim", make_fn("spmd_dim", [](Interp&, CallArgs& call) -> Ref {
    if (!call.kw.empty() || call.pos.empty())
      nki_error(diag::Code::invalid_arguments, "nl.spmd_dim expects one or more positional grid extents");
    int64_t total = 1;
    for (const Ref& r : call.pos) {
      auto n = static_int(r);
      if (!n || *n <= 0) nki_error(diag::Code::invalid_arguments, "nl.spmd_dim extents must be positive integers or nl.nc(n)");
      total *= *n;
    }
    return py::make_int(total);
  }));
  // ---- SDK 2.24 APIs that cannot be simulated faithfully here: fail loudly, with the reason.
  m->set("all_reduce", unsupported_api("nl.all_reduce",
                                       "it reduces a tile across SPMD programs, but the simulator runs the "
                                       "instances one after another"));
  for (const char* n : {"gemm_grid", "gemm_stationary_grid"})
    m->set(n, unsupported_api(std::string("nl.") + n,
                              "the 2.24 stubs give it only a one-line \"tile definition\" docstring: no parameters, result or semantics"));
  m->set("loop_reduce", make_fn("loop_reduce", [](Interp&, CallArgs& call) -> Ref {
    // The reduction itself is emitted when the result is assigned (Tracer::transform_bind).
    Args a(call, "loop_reduce", {"x", "op", "loop_indices", "dtype", "mask"}, 3, 3);
    TensorObj* x = need_tensor(a[0], "nl.loop_reduce", "x");
    require_on_chip(*x, "nl.loop_reduce", "x");
    auto op = op_alu(a[1]);
    if (!op)
      nki_error(diag::Code::invalid_alu_op, "op of 'nl.loop_reduce' must be an ALU operator (np.add, np.maximum, ...)",
                "pass a numpy/nl ALU operator such as np.add or nl.maximum");
    auto r = std::make_shared<LoopReduceObj>();
    r->x = a[0];
    r->op = *op;
    r->mask = a[4];
    return r;
  }));
  for (const char* n : {"rand"})
    if (!m->find(n)) m->set(n, unsupported_api(std::string("nl.") + n));
  return m;
}

}  // namespace nki::front
