// nki.language for the current dialect (NKI 0.6 catalogue: nki/api/nki/language/__init__.py at
// aws-neuron-sdk HEAD; shared/docs/nki-spec.md §3.4). Each function binds the 0.6 signature
// strictly (bind.h) and calls the 2.24 builder of src/nki with the same meaning, so both dialects
// share one argument check and one lowering. Names of 0.6 that have no builder here fail loudly
// (unsupported_api, naming the version); 2.24 names removed in 0.2 fail with a migration hint.
#include "base/diag_codes.h"
#include "nki/api_common.h"
#include "nki/nl_apis.h"
#include "nki_current/bind.h"
#include "nki_current/current_tracer.h"
#include "nki_current/registers.h"

namespace nki::current {

namespace {

using front::OpFnObj;

// One 0.6 parameter and the 2.24 keyword it becomes ("" = no 2.24 counterpart: it must be left
// at its default, else the call fails loudly).
struct P {
  const char* name;
  const char* legacy;
};

struct Forward {
  const char* name;
  const char* legacy;  // 2.24 builder in neuronxcc.nki.language
  std::vector<P> params;
  size_t required;
};

std::vector<P> xy() { return {{"x", "x"}, {"y", "y"}, {"dtype", "dtype"}}; }
std::vector<P> x1() { return {{"x", "x"}, {"dtype", "dtype"}}; }
std::vector<P> red() { return {{"x", "x"}, {"axis", "axis"}, {"dtype", "dtype"}, {"keepdims", "keepdims"}}; }
std::vector<P> creation() { return {{"shape", "shape"}, {"dtype", "dtype"}, {"buffer", "buffer"}, {"name", "name"}}; }

std::vector<Forward> forwards() {
  std::vector<Forward> f;
  for (const char* n : {"add", "subtract", "multiply", "divide", "maximum", "minimum", "power", "equal", "not_equal",
                        "less", "less_equal", "greater", "greater_equal", "bitwise_and", "bitwise_or", "bitwise_xor",
                        "left_shift", "right_shift", "logical_and", "logical_or", "logical_xor", "fmod", "mod"})
    f.push_back({n, n, xy(), 2});
  for (const char* n : {"abs", "square", "exp", "log", "sqrt", "rsqrt", "tanh", "sigmoid", "relu", "gelu",
                        "gelu_apprx_sigmoid", "gelu_apprx_tanh", "gelu_dx", "gelu_apprx_sigmoid_dx", "silu", "silu_dx",
                        "softplus", "mish", "erf", "erf_dx", "reciprocal", "sin", "cos", "tan", "arctan", "ceil", "floor",
                        "trunc", "negative", "sign", "invert", "logical_not"})
    f.push_back({n, n, x1(), 1});
  f.push_back({"copy", "copy", {{"x", "src"}, {"dtype", "dtype"}}, 1});
  for (const char* n : {"sum", "max", "min", "mean", "prod"}) f.push_back({n, n, red(), 2});
  // var: "keepdims is ignored" (0.6 docstring), the result always keeps the reduced axes.
  f.push_back({"var", "var", {{"x", "x"}, {"axis", "axis"}, {"dtype", "dtype"}, {"keepdims", nullptr}}, 2});
  f.push_back({"all", "all", {{"x", "x"}, {"axis", "axis"}, {"dtype", "dtype"}}, 2});
  f.push_back({"softmax", "softmax", {{"x", "x"}, {"axis", "axis"}, {"dtype", "dtype"}}, 1});
  f.push_back({"rms_norm", "rms_norm", {{"x", "x"}, {"w", "w"}, {"axis", "axis"}, {"n", "n"}, {"epsilon", "epsilon"},
                                        {"dtype", "dtype"}, {"compute_dtype", "compute_dtype"}}, 4});
  f.push_back({"where", "where", {{"condition", "condition"}, {"x", "x"}, {"y", "y"}, {"dtype", "dtype"}}, 3});
  f.push_back({"dropout", "dropout", {{"x", "x"}, {"rate", "rate"}, {"dtype", "dtype"}}, 2});
  f.push_back({"ndarray", "ndarray", {{"shape", "shape"}, {"dtype", "dtype"}, {"buffer", "buffer"}, {"name", "name"},
                                      {"address", ""}}, 2});
  f.push_back({"zeros", "zeros", creation(), 2});
  f.push_back({"ones", "ones", creation(), 2});
  f.push_back({"rand", "rand", creation(), 2});
  f.push_back({"full", "full", {{"shape", "shape"}, {"fill_value", "fill_value"}, {"dtype", "dtype"}, {"buffer", "buffer"},
                                {"name", "name"}}, 3});
  f.push_back({"zeros_like", "zeros_like", {{"x", "a"}, {"dtype", "dtype"}, {"buffer", "buffer"}, {"name", "name"}}, 1});
  f.push_back({"empty_like", "empty_like", {{"x", "a"}, {"dtype", "dtype"}, {"buffer", "buffer"}, {"name", "name"}}, 1});
  f.push_back({"shared_constant", "shared_constant", {{"constant", "constant"}}, 1});
  f.push_back({"shared_identity_matrix", "shared_identity_matrix", {{"n", "n"}, {"dtype", "dtype"}, {"dst", ""}}, 1});
  f.push_back({"random_seed", "random_seed", {{"seed", "seed"}}, 1});
  f.push_back({"load", "load", {{"src", "src"}, {"dtype", "dtype"}}, 1});
  f.push_back({"store", "store", {{"dst", "dst"}, {"value", "value"}}, 2});
  f.push_back({"load_transpose2d", "load_transpose2d", {{"src", "src"}, {"dtype", "dtype"}}, 1});
  f.push_back({"transpose", "transpose", {{"x", "x"}, {"dtype", "dtype"}}, 1});
  f.push_back({"matmul", "matmul", {{"x", "x"}, {"y", "y"}, {"transpose_x", "transpose_x"}}, 2});
  f.push_back({"broadcast_to", "broadcast_to", {{"x", "src"}, {"shape", "shape"}, {"dtype", ""}}, 2});
  f.push_back({"expand_dims", "expand_dims", {{"x", "data"}, {"axis", "axis"}}, 2});
  f.push_back({"gather_flattened", "gather_flattened", {{"data", "data"}, {"indices", "indices"}, {"axis", ""},
                                                        {"dtype", "dtype"}}, 2});
  f.push_back({"ds", "ds", {{"start", "start"}, {"size", "size"}}, 2});
  f.push_back({"program_id", "program_id", {{"axis", "axis"}}, 0});
  f.push_back({"num_programs", "num_programs", {{"axes", "axes"}}, 0});
  f.push_back({"program_ndim", "program_ndim", {}, 0});
  f.push_back({"device_print", "device_print", {{"print_prefix", "prefix"}, {"tensor", "x"}}, 2});
  return f;
}

// 0.6 defaults that differ from 2.24 builders' (a missing argument there means something else).
void apply_defaults(const Forward& f, std::vector<std::pair<std::string, Ref>>& kw,
                    const std::shared_ptr<py::ModuleObj>& legacy_nl) {
  auto has = [&](const char* k) {
    for (auto& [n, v] : kw)
      if (n == k && v) return true;
    return false;
  };
  std::string n = f.name;
  // ndarray / zeros / ones / full / rand: buffer=sbuf (0.3 changed the default to sbuf).
  if ((n == "ndarray" || n == "zeros" || n == "ones" || n == "full" || n == "rand") && !has("buffer"))
    kw.emplace_back("buffer", legacy_nl->find("sbuf"));
  if (n == "program_id" && !has("axis")) kw.emplace_back("axis", py::make_int(0));
  if (n == "softmax" && !has("axis")) kw.emplace_back("axis", py::make_int(-1));
}

Ref make_forward(CurrentTracer& t, const Forward& f) {
  std::shared_ptr<py::ModuleObj> legacy = t.legacy_nl();
  Ref target = legacy->find(f.legacy);
  std::string api = std::string("nl.") + f.name;
  if (!target)
    return front::unsupported_api(api, "in NKI 0.6 but not implemented by this simulator yet (docs/nki-current.md)");
  std::vector<std::string> names;
  for (const P& p : f.params) names.push_back(p.name);
  Forward spec = f;
  // A row of the 2.24 nl tables (nl_apis.h) runs its binder and emitter directly; the
  // operator-valued functions (OpFnObj: nl.add, nl.exp, nl.sum, nl.copy, ...) and
  // nl.program_ndim are called through the 2.24 module.
  const front::ApiRow* row = nullptr;
  for (const auto* rows : front::nl::all_tables())
    if (!row) row = front::find_api(*rows, f.legacy);
  auto impl = [&t, spec, names, api, legacy, row](py::Interp& in, py::CallArgs& call) -> Ref {
    Bound b(call, api, names, spec.required, false);
    std::vector<std::pair<std::string, Ref>> kw;
    for (size_t i = 0; i < spec.params.size(); ++i) {
      const char* lk = spec.params[i].legacy;
      if (!lk || !*lk) {
        if (b.has(i) && lk)
          current_error(diag::Code::unsupported_api, api + "(" + b.name(i) + "=...) is in NKI 0.6 but not implemented by this "
                                                 "simulator yet",
                        "leave " + b.name(i) + " at its default");
        continue;
      }
      if (b.has(i)) kw.emplace_back(lk, b[i]);
    }
    apply_defaults(spec, kw, legacy);
    return row ? call_row(in, t, *row, kw, call) : call_legacy(in, legacy, spec.legacy, kw, call);
  };
  // Operator-valued functions (op=nl.add, op=nl.exp) keep their operator.
  if (auto* op = dynamic_cast<OpFnObj*>(target.get())) {
    auto w = std::make_shared<OpFnObj>(api, impl);
    w->alu = op->alu;
    w->act = op->act;
    return w;
  }
  return std::make_shared<py::BuiltinFn>(api, impl);
}

// nl.affine_range / sequential_range / static_range / range (start, stop=None, step=1): aliases of
// Python range, unrolled at specialization (nki-spec §1.3 row 13).
Ref make_range_alias(const std::string& api) {
  return std::make_shared<py::BuiltinFn>(api, [api](py::Interp&, py::CallArgs& call) -> Ref {
    Bound b(call, api, {"start", "stop", "step"}, 1, false);
    auto need = [&](size_t i, int64_t dflt) -> int64_t {
      if (!b.has(i)) return dflt;
      auto v = front::static_int(b[i]);
      if (!v) current_error(diag::Code::invalid_arguments, api + " bounds must be compile-time integers, got " + b[i]->repr(),
                            "runtime trip counts need a register loop (nl.fori_loop / nl.dynamic_range)");
      return *v;
    };
    auto r = std::make_shared<py::RangeObj>();
    if (b.has(1)) {
      r->start = need(0, 0);
      r->stop = need(1, 0);
    } else {
      r->stop = need(0, 0);
    }
    r->step = need(2, 1);
    if (r->step == 0) current_error(diag::Code::invalid_arguments, api + "() step must not be zero");
    return r;
  });
}

// 2.24 names that NKI 0.2 removed, with what replaces them.
struct Removed {
  const char* name;
  const char* hint;
};
const Removed kRemoved[] = {
    {"arange", "NKI 0.2 has no nl.arange: index with slices or nl.ds(start, size), and generate index values with "
               "nisa.iota(dst, pattern)"},
    {"mgrid", "NKI 0.2 has no nl.mgrid: index with slices or nl.ds(start, size)"},
    {"par_dim", "NKI 0.2 has no block dimensions: dim 0 of an SBUF/PSUM tensor is always the partition dim"},
    {"loop_reduce", "accumulate explicitly, e.g. nisa.tensor_tensor(dst=acc, data1=acc, data2=x, op=nl.add)"},
    {"atomic_rmw", "use nisa.dma_compute for read-modify-write DMA"},
    {"static_cast", "use nisa.tensor_copy(dst, src) into a dst of the target dtype"},
    {"nc", "kernel[lnc] takes the logical NeuronCore degree (1 or 2) directly"},
    {"spmd_dim", "kernel[lnc] takes the logical NeuronCore degree (1 or 2) directly"},
    {"all_reduce", "collectives moved to nki.collectives"},
};

}  // namespace

std::shared_ptr<py::ModuleObj> make_language_module(CurrentTracer& t) {
  auto m = std::make_shared<py::ModuleObj>("nki.language");
  std::shared_ptr<py::ModuleObj> legacy = t.legacy_nl();
  // dtypes, buffers and tile_size are the same objects as in 2.24.
  for (const char* n : {"bool_", "bool", "int8", "int16", "int32", "uint8", "uint16", "uint32", "float16", "float32",
                        "bfloat16", "tfloat32", "float8_e4m3", "float8_e5m2", "sbuf", "psum", "hbm", "private_hbm",
                        "shared_hbm", "tile_size"})
    if (Ref v = legacy->find(n)) m->set(n, v);
  for (const char* n : {"float8_e4m3fn", "float8_e8m0fnu", "float8_e5m2_x4", "float8_e4m3fn_x4", "float4_e2m1fn_x4"})
    m->set(n, front::unsupported_api(std::string("nl.") + n, "a dtype of NKI 0.2+ (0.5 for float8_e8m0fnu) that this "
                                                             "simulator does not model yet"));
  for (const Forward& f : forwards()) m->set(f.name, make_forward(t, f));
  for (const char* n : {"affine_range", "sequential_range", "static_range", "range"})
    m->set(n, make_range_alias(std::string("nl.") + n));
  auto buffer_test = [&](const char* name, auto pred) {
    m->set(name, std::make_shared<py::BuiltinFn>(name, [pred, name](py::Interp&, py::CallArgs& call) -> Ref {
      Bound b(call, std::string("nl.") + name, {"buffer"}, 1, false);
      auto* buf = dynamic_cast<front::BufferObj*>(b[0].get());
      if (!buf) current_error(diag::Code::invalid_arguments, std::string("nl.") + name + " expects a buffer (nl.sbuf, ...)");
      return py::make_bool(pred(buf->buffer));
    }));
  };
  buffer_test("is_hbm", [](ir::Buffer b) { return ir::is_hbm(b); });
  buffer_test("is_on_chip", [](ir::Buffer b) { return !ir::is_hbm(b); });
  buffer_test("is_psum", [](ir::Buffer b) { return b == ir::Buffer::Psum; });
  buffer_test("is_sbuf", [](ir::Buffer b) { return b == ir::Buffer::Sbuf; });
  for (const char* n : {"abs_max", "abs_min"})
    m->set(n, front::unsupported_api(std::string("nl.") + n, "added in NKI 0.4 (trn3); not implemented by this simulator yet"));
  // Dynamic (hardware) loops with compile-time bounds run here like their unrolled equivalent:
  // the iterations and their order are the same. Register bounds (nl.fori_loop) and conditions
  // (nl.while_loop) are traced once into a register-driven loop (registers.cpp).
  Ref dynamic = make_range_alias("nl.dynamic_range");
  m->set("dynamic_range", std::make_shared<py::BuiltinFn>("nl.dynamic_range", [&t, dynamic](py::Interp& in, py::CallArgs& call) -> Ref {
    if (t.at_least(6))
      // release-notes/components/nki.rst, NKI 0.6.0: dynamic_range is deprecated for nl.fori_loop.
      t.warn(diag::Code::deprecated_api, "nl.dynamic_range is deprecated in NKI 0.6", "use nl.fori_loop(lower, upper, body_fun)");
    for (const Ref& a : call.pos)
      if (as_register(a))
        // nki/api/nki/isa/__init__.py VirtualRegister: register bounds in dynamic_range are for the
        // parser front end; under the tracer a register in a Python loop is a TypeError.
        current_error(diag::Code::unsupported_api, "nl.dynamic_range with a VirtualRegister bound is not implemented by this simulator",
                      t.at_least(6) ? "use nl.fori_loop(lower, upper, body_fun)" : "use compile-time integer bounds");
    return dynamic->call(in, call);
  }));
  if (t.at_least(6)) {
    m->set("fori_loop", std::make_shared<py::BuiltinFn>("nl.fori_loop", [&t](py::Interp& in, py::CallArgs& call) -> Ref {
      const std::string api = "nl.fori_loop";
      Bound b(call, api, {"lower", "upper", "body_fun", "step"}, 3, false);
      // "step: must be a compile-time positive integer" (nki/api/nki/language/__init__.py).
      int64_t step = 1;
      if (b.has(3)) {
        auto v = front::static_int(b[3]);
        if (!v || *v < 1) current_error(diag::Code::invalid_arguments, api + " step must be a positive compile-time integer");
        step = *v;
      }
      if (as_register(b[0]) || as_register(b[1])) return trace_fori_register_loop(t, in, call, b[0], b[1], b[2], step);
      auto bound = [&](size_t i) -> int64_t {
        auto v = front::static_int(b[i]);
        if (!v) current_error(diag::Code::invalid_arguments, api + " " + b.name(i) + " must be an int or a VirtualRegister");
        return *v;
      };
      int64_t lo = bound(0), hi = bound(1);
      for (int64_t i = lo; i < hi; i += step) {
        py::CallArgs body;
        body.loc = call.loc;
        body.pos.push_back(py::make_int(i));
        Ref r = b[2]->call(in, body);
        if (r && !py::is_none(r)) current_error(diag::Code::invalid_arguments, api + " body_fun must return None");
      }
      return py::none();
    }));
    m->set("while_loop", make_while_loop(t));
  } else {
    m->set("fori_loop", front::unsupported_api("nl.fori_loop", "added in NKI 0.6"));
    m->set("while_loop", front::unsupported_api("nl.while_loop", "added in NKI 0.6"));
  }
  m->set("no_reorder", std::make_shared<py::BuiltinFn>("nl.no_reorder", [](py::Interp&, py::CallArgs&) -> Ref {
    return py::none();  // `with nl.no_reorder():` keeps program order; the simulator runs in order anyway
  }));
  // nl.DType (0.6): the dtype type, as nki.dtype; used in annotations and isinstance checks.
  if (Ref dt = t.legacy_numpy()->find("dtype")) m->set("DType", dt);
  for (const char* n : {"NKIObject", "NkiTensor", "MemoryRegion", "average", "prelu", "bypass"})
    m->set(n, front::unsupported_api(std::string("nl.") + n, "in NKI 0.6 but not implemented by this simulator yet"));
  if (!t.at_least(3)) {
    // NKI 0.2 removed nl.load / nl.store; 0.3 (SDK 2.29) brought them back as wrappers over
    // nisa.dma_copy (nki-spec §1.3 row 8).
    m->set("load", std::make_shared<py::BuiltinFn>("nl.load", [&t](py::Interp&, py::CallArgs&) -> Ref {
      current_error(diag::Code::removed_api, "nl.load is not in NKI " + t.version() + " (removed in 0.2, back in 0.3 as a wrapper)",
                    "in 2.24 `nl.load(x[i])` returns a tile; in " + t.version() +
                        " allocate it with dst = nl.ndarray(shape, dtype, buffer=nl.sbuf) and call "
                        "nisa.dma_copy(dst=dst, src=x[i])");
    }));
    m->set("store", std::make_shared<py::BuiltinFn>("nl.store", [&t](py::Interp&, py::CallArgs&) -> Ref {
      current_error(diag::Code::removed_api, "nl.store is not in NKI " + t.version() + " (removed in 0.2, back in 0.3 as a wrapper)",
                    "write the tile with nisa.dma_copy(dst=out[...], src=tile)");
    }));
  }
  for (const Removed& r : kRemoved) {
    std::string api = std::string("nl.") + r.name, hint = r.hint;
    m->set(r.name, std::make_shared<py::BuiltinFn>(api, [api, hint](py::Interp&, py::CallArgs&) -> Ref {
      current_error(diag::Code::removed_api, api + " is a 2.24 (neuronxcc.nki) API that NKI 0.2 removed", hint);
    }));
  }
  return m;
}

}  // namespace nki::current
