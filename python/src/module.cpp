// _nkisim: the Python face of the toolchain (docs/python.md). Kernels are never executed by
// Python: `run` hands the kernel's source file to the C++ front end, which traces it, and the
// simulator runs the resulting IR on the numpy inputs.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "base/source.h"
#include "lang/package_import.h"
#include "ndarray_convert.h"
#include "toolchain/toolchain.h"

namespace py = pybind11;
using nki::Diagnostic;
using nki::DType;
using nki::HostTensor;
using nki::IoError;
using nki::RunStatus;
using nki::Severity;
using nki::SourceFilePtr;
namespace front = nki::front;
namespace machine = nki::machine;
namespace toolchain = nki::toolchain;

namespace {

// Exception classes, created at import (NkiError is the common base).
PyObject* g_nki_error = nullptr;
PyObject* g_compile_error = nullptr;
PyObject* g_runtime_error = nullptr;

[[noreturn]] void raise(PyObject* cls, const std::string& message) {
  PyErr_SetString(cls, message.c_str());
  throw py::error_already_set();
}

std::string render_errors(const std::vector<Diagnostic>& diags) {
  std::string text;
  for (const Diagnostic& d : diags) {
    if (d.severity != Severity::Error) continue;
    if (!text.empty()) text += "\n";
    text += nki::render_text(d);
  }
  return text.empty() ? "kernel failed without a diagnostic" : text;
}

// device_print output goes to stdout (as the NKI simulator prints it); warnings to stderr.
void report_non_errors(const std::vector<Diagnostic>& diags) {
  py::object sys = py::module_::import("sys");
  for (const Diagnostic& d : diags) {
    if (d.severity == Severity::Note && d.code == "device_print")
      py::print(d.message, py::arg("file") = sys.attr("stdout"));
    else if (d.severity != Severity::Error)
      py::print(nki::render_text(d), py::arg("file") = sys.attr("stderr"));
  }
}

// The kernel file, or `source_text` standing in for its contents under the same path. The shim
// uses that to give a kernel parameter a default value that has no literal form (np.greater_equal,
// nl.bfloat16, ...): it edits only the `def` line, so diagnostics keep the file's line numbers.
SourceFilePtr load_kernel_file(const std::string& path, const std::string& source_text) {
  if (!source_text.empty()) return std::make_shared<const nki::SourceFile>(path, source_text);
  try {
    return nki::load_source_file(path);
  } catch (const IoError& e) {
    raise(g_compile_error, e.what());
  }
}

nki::Target parse_target(const std::string& s) {
  if (s.empty()) return nki::Target::Trn1;
  if (auto t = nki::parse_target(s)) return *t;
  throw py::value_error("target must be 'trn1' or 'trn2', got '" + s + "'");
}

machine::Numerics parse_numerics(const std::string& s) {
  if (s == "precise") return machine::Numerics::Precise;
  if (s == "legacy" || s == "legacy-sim") return machine::Numerics::LegacySim;
  throw py::value_error("numerics must be 'precise' or 'legacy', got '" + s + "'");
}

front::TraceOptions trace_options(const std::string& kernel_name, const py::dict& consts,
                                  const std::vector<int64_t>& grid, const std::string& target) {
  front::TraceOptions o;
  o.kernel_name = kernel_name;
  // No heap budget in the drop-in. The budget counts blocks through this library's replacement
  // operator new/delete (base/memory_budget.h), which only pair up reliably in a program that
  // owns its allocator, as nkiagent does. In a Python process that imports torch after this
  // module, torch's globally loaded C++ runtime takes over some of the deletes, the count only
  // grows, and every later compile was refused as `evaluation_memory` at line 1. The drop-in runs
  // the user's own code in the user's process (like nki.simulate_kernel); step and time budgets
  // still apply, and nkiagent itself keeps the heap budget for untrusted kernels.
  o.max_eval_bytes = 0;
  for (auto [k, v] : consts) o.consts.emplace_back(py::str(k), py::str(v));
  // A grid extent below 1 runs no kernel instance (the grid is a loop nest of instances,
  // general/nki/programming_model.rst): nothing would produce the outputs.
  for (int64_t g : grid)
    if (g < 1) throw py::value_error("SPMD grid extent " + std::to_string(g) + ": every launch grid dimension must be at least 1");
  o.grid = grid;
  o.target = parse_target(target);
  return o;
}

// Writes the post-run parameter contents back into the caller's arrays (pass-by-reference
// kernels, nki.simulate_kernel semantics).
void copy_back(const py::list& args, const py::list& after) {
  py::module_ np = py::module_::import("numpy");
  for (size_t i = 0; i < after.size() && i < args.size(); ++i) {
    py::array dst = args[i].cast<py::array>();
    if (!dst.writeable()) continue;
    np.attr("copyto")(dst, after[i], py::arg("casting") = "unsafe");
  }
}

py::tuple run(const std::string& source_path, const std::string& kernel_name, const py::list& args,
              const py::dict& consts, const std::vector<int64_t>& grid, const std::string& target,
              const std::string& numerics, const std::string& source_text, bool write_back) {
  toolchain::RunSettings settings;
  // The drop-in runs the user's own kernels inside their Python process, like the real
  // nki.simulate_kernel; isolation (a fork per call) is for model-written kernels.
  settings.isolation.enabled = false;
  settings.trace = trace_options(kernel_name, consts, grid, target);
  settings.machine.numerics = parse_numerics(numerics);
  std::vector<HostTensor> inputs;
  for (size_t i = 0; i < args.size(); ++i) {
    py::array a = py::array::ensure(args[i]);
    if (!a) throw py::type_error("argument " + std::to_string(i) + " is not a numpy array");
    inputs.push_back(nkisim::to_host_tensor(a, "argument " + std::to_string(i)));
  }
  SourceFilePtr file = load_kernel_file(source_path, source_text);

  toolchain::RunOutcome out;
  try {
    py::gil_scoped_release release;
    out = toolchain::run(file, inputs, settings);
  } catch (const IoError& e) {  // no such kernel, bad --const literal, ...
    raise(g_compile_error, e.what());
  }
  report_non_errors(out.diagnostics);
  if (out.status == RunStatus::CompileError) raise(g_compile_error, render_errors(out.diagnostics));
  if (out.status == RunStatus::RuntimeError) {
    // An indirect access out of bounds is NumPy's IndexError with NumPy's message in the NKI
    // simulator (spec §7.1); the official dma_copy tests check the exact type and text.
    for (const Diagnostic& d : out.diagnostics)
      if (d.severity == Severity::Error && d.code == "dynamic_oob") raise(PyExc_IndexError, d.message);
    raise(g_runtime_error, render_errors(out.diagnostics));
  }

  py::list outputs, after;
  for (const HostTensor& t : out.outputs) outputs.append(nkisim::to_ndarray(t));
  for (const HostTensor& t : out.args_after) after.append(nkisim::to_ndarray(t));
  if (write_back) copy_back(args, after);
  return py::make_tuple(outputs, after);
}

// Compile only. arg_specs: [(shape, dtype_name)]. Returns the rendered warnings.
std::vector<std::string> check(const std::string& source_path, const std::string& kernel_name,
                               const std::vector<std::pair<std::vector<int64_t>, std::string>>& arg_specs,
                               const py::dict& consts, const std::vector<int64_t>& grid,
                               const std::string& target, const std::string& source_text) {
  front::TraceOptions o = trace_options(kernel_name, consts, grid, target);
  for (const auto& [shape, dtype_name] : arg_specs) {
    std::optional<DType> dt = nki::parse_dtype(dtype_name);
    if (!dt) throw py::value_error("unknown NKI dtype '" + dtype_name + "'");
    o.args.push_back(front::ArgSpec{shape, *dt});
  }
  SourceFilePtr file = load_kernel_file(source_path, source_text);
  toolchain::CompileResult r;
  try {
    py::gil_scoped_release release;
    r = toolchain::compile(file, o);
  } catch (const IoError& e) {
    raise(g_compile_error, e.what());
  }
  if (!r.ok()) raise(g_compile_error, render_errors(r.diagnostics));
  std::vector<std::string> warnings;
  for (const Diagnostic& d : r.diagnostics) warnings.push_back(nki::render_text(d));
  return warnings;
}

}  // namespace

PYBIND11_MODULE(_nkisim, m) {
  m.doc() = "NKI-Agent toolchain: trace NKI kernel files and run them on the NeuronCore simulator";
  // Kernels import helpers from their own package here, as the SDK examples and nki-samples
  // do (src/lang/package_import.h; the CLI keeps kernels single-file).
  nki::py::set_package_imports(true);

  g_nki_error = PyErr_NewExceptionWithDoc("_nkisim.NkiError", "Base class of NKI toolchain errors.",
                                          PyExc_Exception, nullptr);
  g_compile_error = PyErr_NewExceptionWithDoc(
      "_nkisim.NkiCompileError", "The kernel was rejected by the front end (message: diagnostics).",
      g_nki_error, nullptr);
  g_runtime_error = PyErr_NewExceptionWithDoc(
      "_nkisim.NkiRuntimeError", "The simulator stopped on a runtime error (message: diagnostics).",
      g_nki_error, nullptr);
  m.attr("NkiError") = py::handle(g_nki_error);
  m.attr("NkiCompileError") = py::handle(g_compile_error);
  m.attr("NkiRuntimeError") = py::handle(g_runtime_error);

  m.def("run", &run, py::arg("source_path"), py::arg("kernel_name"), py::arg("args"),
        py::arg("consts") = py::dict(), py::arg("grid") = std::vector<int64_t>{},
        py::arg("target") = "trn1", py::arg("numerics") = "precise", py::arg("source_text") = "",
        py::arg("write_back") = true,
        "Trace `kernel_name` in `source_path` for the numpy `args`, simulate it, and return "
        "(outputs, args_after). Parameters the kernel wrote are copied back into `args`.");
  m.def("check", &check, py::arg("source_path"), py::arg("kernel_name"), py::arg("arg_specs"),
        py::arg("consts") = py::dict(), py::arg("grid") = std::vector<int64_t>{},
        py::arg("target") = "trn1", py::arg("source_text") = "",
        "Trace and check a kernel for [(shape, dtype_name)] argument specs; returns the warnings.");
  m.def("standin_dtype", [](const std::string& name) {
    std::optional<DType> dt = nki::parse_dtype(name);
    if (!dt) throw py::value_error("unknown NKI dtype '" + name + "'");
    return nkisim::standin_dtype(*dt);
  }, "The float32+metadata numpy dtype that stands for an NKI custom float without ml_dtypes.");
}
