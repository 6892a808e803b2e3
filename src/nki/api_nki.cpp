// Top-level neuronxcc.nki (decorators), neuronxcc.nki.typing, neuronxcc.nki.compiler and the
// subset of numpy that kernels use (dtypes, operator values, scalar math).
#include <cmath>

#include "base/diag_codes.h"
#include "nki/api_common.h"
#include "nki/check_alloc.h"
#include "nki/ndarray.h"

namespace nki::front {

using py::CallArgs;
using py::Interp;

namespace {

// nki.jit / baremetal / benchmark / profile / trace: usable as @dec, @dec(...), dec(f, ...).
Ref make_decorator(Tracer& t, const std::string& name) {
  return make_fn(name, [&t, name](Interp&, CallArgs& a) -> Ref {
    auto wrap = [&t, name](const Ref& f, const std::vector<std::pair<std::string, Ref>>& opts) -> Ref {
      auto fn = std::dynamic_pointer_cast<py::FunctionObj>(f);
      if (auto k = std::dynamic_pointer_cast<KernelObj>(f)) return k;
      if (!fn) nki_error(diag::Code::invalid_arguments, "nki." + name + " must decorate a function");
      auto k = std::make_shared<KernelObj>();
      k->tracer = &t;
      k->fn = fn;
      k->decorator = name;
      k->options = opts;
      return k;
    };
    if (!a.pos.empty() && a.pos[0] && !py::is_none(a.pos[0])) return wrap(a.pos[0], a.kw);
    auto opts = a.kw;
    return make_fn(name, [wrap, opts](Interp&, CallArgs& b) -> Ref {
      if (b.pos.empty()) nki_error(diag::Code::invalid_arguments, "decorator expects a function");
      return wrap(b.pos[0], opts);
    });
  });
}

// nt.tensor[128, 512]: a shape annotation checked on assignment (err_annotation_shape_mismatch).
struct ShapeAnnotation : py::Obj {
  std::vector<int64_t> shape;
  std::string type_name() const override { return "tensor_annotation"; }
  Ref getattr(Interp& in, const std::string& name) override {
    if (name != "__annotation_check__") return py::Obj::getattr(in, name);
    auto shape_copy = shape;
    return make_fn("__annotation_check__", [shape_copy](Interp&, CallArgs& a) -> Ref {
      auto* t = as_tensor(a.pos[0]);
      if (t && t->shape() != shape_copy)
        nki_error(diag::Code::err_annotation_shape_mismatch,
                  "shape of '" + t->decl().name + shape_str(t->shape()) + "' does not match the expected shape of " +
                      shape_str(shape_copy),
                  "fix the annotation or the value's shape");
      return py::none();
    });
  }
};

struct TensorTypeObj : py::Obj {
  std::string type_name() const override { return "type"; }
  std::string repr() const override { return "<class 'nki.tensor'>"; }
  Ref getitem(Interp& in, const Ref& key) override {
    auto ann = std::make_shared<ShapeAnnotation>();
    std::vector<Ref> dims;
    if (auto* tup = py::cast<py::TupleObj>(key)) dims = tup->items;
    else dims.push_back(key);
    for (const Ref& d : dims) {
      auto v = static_int(d);
      if (!v) return std::make_shared<py::NoneObj>();  // e.g. tensor[dtype]: not a shape check
      ann->shape.push_back(*v);
    }
    (void)in;
    return ann;
  }
  Ref getattr(Interp& in, const std::string& name) override {
    if (name == "__instancecheck__")
      return make_fn("__instancecheck__", [](Interp&, CallArgs& a) -> Ref { return py::make_bool(as_tensor(a.pos[0])); });
    return py::Obj::getattr(in, name);
  }
};

// `with ncc.no_reorder():` and friends: no numeric effect.
struct NullContext : py::Obj {
  std::string type_name() const override { return "context"; }
};

Ref passthrough_decorator(const std::string& name) {
  return make_fn(name, [name](Interp&, CallArgs& a) -> Ref {
    if (a.pos.size() == 1 && (py::cast<py::FunctionObj>(a.pos[0]) || dynamic_cast<KernelObj*>(a.pos[0].get())))
      return a.pos[0];
    return make_fn(name, [](Interp&, CallArgs& b) -> Ref { return b.pos.empty() ? py::none() : b.pos[0]; });
  });
}

double num_arg(const Ref& r, const std::string& fn) {
  auto v = py::as_number(r);
  if (!v) {
    if (as_tensor(r))
      nki_error(diag::Code::numpy_on_tile, "numpy." + fn + " cannot be applied to an NKI tile",
                "use the nki.language function (nl." + fn + ") inside kernels");
    nki_error(diag::Code::unsupported_numpy, "numpy." + fn + " is supported on Python numbers only in this simulator");
  }
  return *v;
}

}  // namespace

std::shared_ptr<py::ModuleObj> make_nki_module(Tracer& t) {
  auto m = std::make_shared<py::ModuleObj>("neuronxcc.nki");
  for (const char* n : {"jit", "baremetal", "benchmark", "profile", "trace"}) m->set(n, make_decorator(t, n));
  // Host-side entry points: traced kernel code has no use for them. `nkiagent run` is the CLI's
  // simulate_kernel, and the Python shim (python/neuronxcc) implements nki.simulate_kernel.
  m->set("simulate_kernel", unsupported_api("nki.simulate_kernel",
                                            "a host-side launcher; use `nkiagent run` or the Python shim's "
                                            "nki.simulate_kernel"));
  m->set("tensor", std::make_shared<TensorTypeObj>());
  m->set("FrameworkKernel", unsupported_api("nki.FrameworkKernel",
                                            "a framework-integration base class (HLO custom call); it has no "
                                            "meaning in a simulation"));
  return m;
}

std::shared_ptr<py::ModuleObj> make_typing_module(Tracer&) {
  auto m = std::make_shared<py::ModuleObj>("neuronxcc.nki.typing");
  m->set("tensor", std::make_shared<TensorTypeObj>());
  m->set("mutable_tensor", std::make_shared<TensorTypeObj>());
  return m;
}

std::shared_ptr<py::ModuleObj> make_compiler_module(Tracer&) {
  auto m = std::make_shared<py::ModuleObj>("neuronxcc.nki.compiler");
  // Direct allocation only changes placement, not numerics: the simulator places tensors itself
  // but remembers that the kernel asked for direct allocation (init values are then illegal).
  for (auto [name, buf] : {std::pair<const char*, ir::Buffer>{"sbuf", ir::Buffer::Sbuf}, {"psum", ir::Buffer::Psum}}) {
    auto sub = std::make_shared<py::ModuleObj>(std::string("ncc.") + name);
    ir::Buffer b = buf;
    // The placement is evaluated and checked when a tensor is created with the buffer
    // (check_alloc.h): it depends on the tensor's shape and dtype.
    sub->set("alloc", make_fn("alloc", [b](Interp&, CallArgs& a) -> Ref {
      const std::string api = std::string("ncc.") + (b == ir::Buffer::Psum ? "psum" : "sbuf") + ".alloc";
      Ref func = a.take("func", 0);
      if (!func || py::is_none(func))
        nki_error(diag::Code::invalid_allocation, api + " needs an allocation function func(idx, pdim_size, fdim_size)");
      auto buf = std::make_shared<BufferObj>(b, true);
      buf->placement = std::make_shared<DirectAllocSpec>();
      buf->placement->func = func;
      return buf;
    }));
    sub->set("mod_alloc", make_fn("mod_alloc", [b](Interp&, CallArgs& a) -> Ref {
      auto buf = std::make_shared<BufferObj>(b, true);
      buf->placement = parse_mod_alloc(b, a);
      return buf;
    }));
    sub->set("auto_alloc", make_fn("auto_alloc", [b](Interp&, CallArgs&) -> Ref { return std::make_shared<BufferObj>(b, false); }));
    m->set(name, sub);
  }
  for (const char* n : {"skip_middle_end_transformations", "enable_stack_allocator", "force_auto_alloc"})
    m->set(n, passthrough_decorator(n));
  m->set("multi_buffer", make_fn("multi_buffer", [](Interp&, CallArgs&) -> Ref { return std::make_shared<NullContext>(); }));
  m->set("no_reorder", make_fn("no_reorder", [](Interp&, CallArgs&) -> Ref { return std::make_shared<NullContext>(); }));
  return m;
}

std::shared_ptr<py::ModuleObj> make_numpy_module(Tracer& t) {
  auto m = std::make_shared<py::ModuleObj>("numpy");
  add_dtypes(*m, true);
  m->set("pi", py::make_float(M_PI));
  m->set("e", py::make_float(M_E));
  m->set("inf", py::make_float(INFINITY));
  m->set("nan", py::make_float(NAN));
  m->set("newaxis", py::none());
  m->set("dtype", make_fn("dtype", [](Interp&, CallArgs& a) -> Ref {
    if (a.pos.size() != 1) nki_error(diag::Code::invalid_arguments, "np.dtype(name)");
    return std::make_shared<DTypeObj>(need_dtype(a.pos[0], "np.dtype", "dtype"));
  }));
  // Operator values (op=np.add) that also work on Python numbers.
  struct B { const char* n; ir::Alu op; double (*f)(double, double); };
  static const B bins[] = {
      {"add", ir::Alu::Add, [](double a, double b) { return a + b; }},
      {"subtract", ir::Alu::Subtract, [](double a, double b) { return a - b; }},
      {"multiply", ir::Alu::Multiply, [](double a, double b) { return a * b; }},
      {"divide", ir::Alu::Divide, [](double a, double b) { return a / b; }},
      {"maximum", ir::Alu::Maximum, [](double a, double b) { return std::max(a, b); }},
      {"minimum", ir::Alu::Minimum, [](double a, double b) { return std::min(a, b); }},
      {"power", ir::Alu::Power, [](double a, double b) { return std::pow(a, b); }},
      {"bitwise_and", ir::Alu::BitwiseAnd, nullptr}, {"bitwise_or", ir::Alu::BitwiseOr, nullptr},
      {"bitwise_xor", ir::Alu::BitwiseXor, nullptr}, {"left_shift", ir::Alu::LeftShift, nullptr},
      {"right_shift", ir::Alu::RightShift, nullptr}, {"equal", ir::Alu::Equal, nullptr},
      {"not_equal", ir::Alu::NotEqual, nullptr}, {"greater", ir::Alu::Greater, nullptr},
      {"greater_equal", ir::Alu::GreaterEqual, nullptr}, {"less", ir::Alu::Less, nullptr},
      {"less_equal", ir::Alu::LessEqual, nullptr}, {"logical_and", ir::Alu::LogicalAnd, nullptr},
      {"logical_or", ir::Alu::LogicalOr, nullptr}, {"logical_xor", ir::Alu::LogicalXor, nullptr},
      {"fmod", ir::Alu::Fmod, [](double a, double b) { return std::fmod(a, b); }},
      {"mod", ir::Alu::Mod, nullptr},
  };
  for (const B& b : bins) {
    std::string name = b.n;
    auto f = std::make_shared<OpFnObj>("np." + name, [name, fn = b.f](Interp&, CallArgs& a) -> Ref {
      if (a.pos.size() != 2 || !fn) nki_error(diag::Code::unsupported_numpy, "numpy." + name + " is usable here only as an op= value");
      return py::make_float(fn(num_arg(a.pos[0], name), num_arg(a.pos[1], name)));
    });
    f->alu = b.op;
    m->set(name, f);
  }
  struct U { const char* n; ir::Act f; double (*g)(double); };
  static const U uns[] = {
      {"exp", ir::Act::Exp, [](double x) { return std::exp(x); }},
      {"log", ir::Act::Log, [](double x) { return std::log(x); }},
      {"tanh", ir::Act::Tanh, [](double x) { return std::tanh(x); }},
      {"sqrt", ir::Act::Sqrt, [](double x) { return std::sqrt(x); }},
      {"square", ir::Act::Square, [](double x) { return x * x; }},
      {"abs", ir::Act::Abs, [](double x) { return std::fabs(x); }},
      {"sign", ir::Act::Sign, [](double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0; }},
      {"sin", ir::Act::Sin, [](double x) { return std::sin(x); }},
      {"cos", ir::Act::Cos, [](double x) { return std::cos(x); }},
      {"arctan", ir::Act::Arctan, [](double x) { return std::atan(x); }},
      {"reciprocal", ir::Act::Reciprocal, [](double x) { return 1.0 / x; }},
      {"copy", ir::Act::Copy, [](double x) { return x; }},
      {"negative", ir::Act::Negative, [](double x) { return -x; }},
      {"floor", ir::Act::Floor, [](double x) { return std::floor(x); }},
      {"ceil", ir::Act::Ceil, [](double x) { return std::ceil(x); }},
      {"trunc", ir::Act::Trunc, [](double x) { return std::trunc(x); }},
  };
  for (const U& u : uns) {
    std::string name = u.n;
    auto f = std::make_shared<OpFnObj>("np." + name, [name, g = u.g](Interp&, CallArgs& a) -> Ref {
      if (a.pos.size() != 1) nki_error(diag::Code::unsupported_numpy, "numpy." + name + " takes one number here");
      return py::make_float(g(num_arg(a.pos[0], name)));
    });
    f->act = u.f;
    m->set(name, f);
  }
  // Reductions: op values for tensor_reduce (np.max, np.min, np.amax, np.sum, np.prod), and
  // plain Python reductions of number sequences (np.prod(shape) is common in kernels).
  struct R { const char* n; ir::Alu op; };
  static const R reds[] = {{"max", ir::Alu::Maximum}, {"amax", ir::Alu::Maximum}, {"min", ir::Alu::Minimum},
                           {"amin", ir::Alu::Minimum}, {"sum", ir::Alu::Add}, {"prod", ir::Alu::Multiply}};
  for (const R& r : reds) {
    std::string name = r.n;
    ir::Alu op = r.op;
    auto f = std::make_shared<OpFnObj>("np." + name, [name, op](Interp& in, CallArgs& a) -> Ref {
      if (a.pos.size() != 1 || as_tensor(a.pos[0]))
        nki_error(diag::Code::unsupported_numpy, "numpy." + name + " is usable here only as an op= value or on a sequence of numbers",
                  "use nl." + std::string(op == ir::Alu::Add ? "sum" : op == ir::Alu::Multiply ? "prod" : op == ir::Alu::Maximum ? "max" : "min") + " on tiles");
      std::vector<Ref> items = py::as_number(a.pos[0]) ? std::vector<Ref>{a.pos[0]} : a.pos[0]->iterate(in);
      if (items.empty()) {
        if (op == ir::Alu::Add) return py::make_int(0);
        if (op == ir::Alu::Multiply) return py::make_int(1);
        nki_error(diag::Code::unsupported_numpy, "numpy." + name + " of an empty sequence");
      }
      Ref acc = items[0];
      for (size_t i = 1; i < items.size(); ++i) {
        if (op == ir::Alu::Add) acc = in.binary(py::Operator::Add, acc, items[i]);
        else if (op == ir::Alu::Multiply) acc = in.binary(py::Operator::Mult, acc, items[i]);
        else {
          bool gt = in.truthy(in.compare(py::CmpOp::Gt, items[i], acc));
          if ((op == ir::Alu::Maximum) == gt) acc = items[i];
        }
      }
      return acc;
    });
    f->alu = r.op;
    m->set(name, f);
  }
  m->set("finfo", make_fn("finfo", [&t](Interp& in, CallArgs& a) -> Ref {
    Ref nl = t.import_module("neuronxcc.nki.language");
    return nl->getattr(in, "finfo")->call(in, a);
  }));
  m->set("isscalar", make_fn("isscalar", [](Interp&, CallArgs& a) -> Ref {
    return py::make_bool(a.pos.size() == 1 && py::as_number(a.pos[0]).has_value());
  }));
  add_numpy_arrays(*m);
  for (const char* n : {"random", "linspace", "concatenate", "stack", "transpose", "reshape", "matmul", "dot", "allclose",
                        "testing", "float64", "int64", "uint64", "ndarray"}) {
    std::string name = n;
    m->set(n, std::make_shared<py::PlaceholderObj>("numpy." + name));
  }
  return m;
}

}  // namespace nki::front
