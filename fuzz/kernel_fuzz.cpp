// libFuzzer target for the whole kernel path that model-written code reaches: the Python front
// end (parse, evaluate, trace into IR, checks), the IR printer, the diagnostic renderers, and a
// bounded simulation of every kernel that compiles (docs/reliability.md, "Fuzzing the front end
// and simulator").
//
// Input: the source of a kernel module. Its tensor parameters come from a conformance-style
// header line (tests/kernels/README.md), so that the seed corpus (tests/kernels, docs/examples)
// traces as its authors meant:
//   # nki-case: args=128x512:float32,128x512:float32 [grid=2] [target=trn2]
// Oversized specs are replaced by 128x512 (the fuzzer would otherwise spend its time allocating
// huge HBM inputs); without a header every required positional parameter of the first decorated
// function gets a shape picked from the first input byte.
//
// The contract under test: every failure is a DiagnosticError (or a diagnostic in the result,
// or an IoError for a usage problem such as a missing kernel), in bounded time and memory. Any
// other exception, a crash, a sanitizer report, a timeout or an OOM is a bug (or, for the last
// two, a budget the fuzzer configuration does not match; see the documentation).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <typeinfo>
#include <vector>

#include "base/diagnostic.h"
#include "base/dtype.h"
#include "base/dtype_convert.h"
#include "base/host_tensor.h"
#include "base/source.h"
#include "ir/ir.h"
#include "lang/ast.h"
#include "lang/parser.h"
#include "machine/executor.h"
#include "nki/tracer.h"

namespace {

using namespace nki;

// Budgets: small enough that one input finishes well inside libFuzzer's -timeout=10 and its
// -rss_limit_mb=2048 under ASan, large enough for every seed kernel to compile and run.
constexpr int64_t kEvalSteps = 200'000;
constexpr double kEvalSeconds = 2.0;
constexpr int64_t kEvalBytes = int64_t{256} << 20;
constexpr int64_t kSimWork = int64_t{1} << 22;
constexpr double kSimSeconds = 1.0;
constexpr int64_t kSimBytes = int64_t{64} << 20;
// Caps on the parameter tensors the harness itself allocates.
constexpr int64_t kMaxArgElements = int64_t{1} << 20;
constexpr size_t kMaxArgs = 8;
constexpr size_t kMaxRank = 5;
constexpr int64_t kMaxGridInstances = 8;

[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "kernel_fuzz: %s: %s\n", what, detail.c_str());
  __builtin_trap();
}

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t end = s.find(sep, start);
    if (end == std::string_view::npos) end = s.size();
    out.emplace_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

bool small_enough(const front::ArgSpec& spec) {
  if (spec.shape.size() > kMaxRank) return false;
  int64_t n = 1;
  for (int64_t d : spec.shape) {
    if (d <= 0 || d > kMaxArgElements) return false;
    n *= d;
    if (n > kMaxArgElements) return false;
  }
  return true;
}

struct Case {
  bool has_header = false;
  std::vector<front::ArgSpec> args;
  std::vector<int64_t> grid;
  nki::Target target = nki::Target::Trn1;
};

// The `# nki-case:` line, if any, parsed leniently: what does not parse is left at its default.
Case parse_header(std::string_view src) {
  Case c;
  size_t at = src.find("# nki-case:");
  if (at == std::string_view::npos) return c;
  c.has_header = true;
  size_t eol = src.find('\n', at);
  std::string_view line = src.substr(at + 11, eol == std::string_view::npos ? std::string_view::npos : eol - at - 11);
  for (const std::string& word : split(line, ' ')) {
    if (word.rfind("args=", 0) == 0) {
      for (const std::string& text : split(std::string_view(word).substr(5), ',')) {
        if (c.args.size() == kMaxArgs) break;
        std::optional<front::ArgSpec> spec = front::parse_arg_spec(text, nullptr);
        if (!spec) continue;
        if (!small_enough(*spec)) spec->shape = {128, 512};
        c.args.push_back(*spec);
      }
    } else if (word.rfind("grid=", 0) == 0) {
      std::vector<int64_t> grid;
      int64_t instances = 1;
      bool ok = true;
      for (const std::string& d : split(std::string_view(word).substr(5), ',')) {
        // Small signed values only: zero and negative sizes exercise the grid check, large
        // ones would multiply the simulated instances.
        if (d.empty() || d.size() > 2) { ok = false; break; }
        char* end = nullptr;
        long v = std::strtol(d.c_str(), &end, 10);
        if (*end != '\0' || v < -2 || v > kMaxGridInstances) { ok = false; break; }
        grid.push_back(v);
        if (v > 0) instances *= v;
      }
      if (ok && grid.size() <= 3 && instances <= kMaxGridInstances) c.grid = grid;
    } else if (word == "target=trn2") {
      c.target = nki::Target::Trn2;
    }
  }
  return c;
}

// Without a header: one spec per required positional parameter of the first decorated
// top-level function (the tracer's own kernel lookup decides what is actually traced).
std::vector<front::ArgSpec> default_args(const std::shared_ptr<SourceFile>& file, uint8_t selector) {
  static const std::vector<std::vector<int64_t>> kShapes = {
      {128, 512}, {128, 128}, {256, 64}, {64, 32, 16}, {128, 1}, {512}, {4, 128, 64}, {1, 1}};
  static const DType kDTypes[] = {DType::Float32, DType::BFloat16, DType::Int32, DType::Float16};
  front::ArgSpec spec{kShapes[selector % kShapes.size()], kDTypes[(selector / kShapes.size()) % 4]};
  py::Module m;
  try {
    m = py::parse_module(file);
  } catch (const DiagnosticError&) {
    return {};  // the tracer reports the syntax error itself
  }
  for (const py::StmtPtr& s : m.body) {
    const auto* fn = py::as<py::FunctionDef>(s.get());
    if (!fn || fn->decorator_list.empty()) continue;
    size_t positional = fn->args.posonlyargs.size() + fn->args.args.size();
    size_t required = positional - std::min(positional, fn->args.defaults.size());
    return std::vector<front::ArgSpec>(std::min(required, kMaxArgs), spec);
  }
  return {};
}

uint64_t fnv1a(const uint8_t* data, size_t size) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 1099511628211ull;
  return h;
}

// Deterministic inputs: small values (integers in [0, 16), as the conformance runner's default
// generator, so that index tensors mostly stay in bounds) in the declared dtype.
HostTensor make_input(const ir::TensorDecl& d) {
  HostTensor t;
  t.dtype = d.dtype;
  t.shape = d.shape;
  int64_t n = t.element_count();
  std::vector<float> values(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    int64_t v = (i * 7919) % 16;
    values[static_cast<size_t>(i)] =
        dtype_is_float(d.dtype) ? static_cast<float>(v - 8) / 4.0f : static_cast<float>(d.dtype == DType::Bool ? v & 1 : v);
  }
  t.data.resize(static_cast<size_t>(n) * dtype_size(d.dtype));
  convert_f32_to(d.dtype, values.data(), t.data.data(), static_cast<size_t>(n));
  return t;
}

// KERNEL_FUZZ_VERBOSE=1 prints every diagnostic (triage of a reproducer).
bool verbose() {
  static const bool on = std::getenv("KERNEL_FUZZ_VERBOSE") != nullptr;
  return on;
}

void check_diagnostics(const std::vector<Diagnostic>& diags, bool expect_error) {
  bool any_error = false;
  for (const Diagnostic& d : diags) {
    if (d.code.empty()) fail("diagnostic without a code", d.message);
    any_error = any_error || d.severity == Severity::Error;
    std::string text = render_text(d);
    if (verbose()) std::fprintf(stderr, "%s\n", text.c_str());
  }
  std::string json = render_json(diags, !any_error);
  (void)json;
  if (expect_error && !any_error) fail("failure without an error diagnostic", std::to_string(diags.size()));
}

void simulate(const ir::Kernel& k, nki::Target target, uint64_t hash) {
  std::vector<HostTensor> inputs;
  int64_t input_elements = 0;
  for (int id : k.params) {
    const ir::TensorDecl& d = k.tensors.at(static_cast<size_t>(id));
    std::optional<int64_t> n = ir::checked_element_count(d.shape);
    if (!n) fail("parameter with an overflowing shape compiled", d.name);
    input_elements += *n;
    // Parameters come from the capped specs, so this only guards against the tracer inventing
    // parameters of its own.
    if (input_elements > int64_t{kMaxArgs} * kMaxArgElements) fail("parameter larger than its spec", d.name);
    inputs.push_back(make_input(d));
  }
  machine::RunOptions opt;
  opt.target = target;
  opt.numerics = (hash & 1) ? machine::Numerics::LegacySim : machine::Numerics::Precise;
  opt.warn_uninit = (hash & 2) != 0;
  opt.elide_copies = (hash & 4) == 0;
  opt.max_work = kSimWork;
  opt.max_seconds = kSimSeconds;
  opt.max_bytes = kSimBytes;
  try {
    machine::RunResult r = machine::execute(k, inputs, opt);
    if (r.outputs.size() != k.outputs.size())
      fail("output count", std::to_string(r.outputs.size()) + " vs " + std::to_string(k.outputs.size()));
    for (const HostTensor& t : r.outputs)
      if (t.data.size() != static_cast<size_t>(t.element_count()) * dtype_size(t.dtype))
        fail("output size does not match its shape", std::to_string(t.data.size()));
    check_diagnostics(r.warnings, false);
  } catch (const DiagnosticError& e) {
    check_diagnostics({e.diagnostic()}, true);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string src(reinterpret_cast<const char*>(data), size);
  auto file = std::make_shared<SourceFile>("fuzz.py", src);
  Case c = parse_header(src);
  if (!c.has_header) c.args = default_args(file, size ? data[0] : 0);

  front::TraceOptions opts;
  opts.args = c.args;
  opts.grid = c.grid;
  opts.target = c.target;
  opts.max_eval_steps = kEvalSteps;
  opts.max_eval_seconds = kEvalSeconds;
  opts.max_eval_bytes = kEvalBytes;
  uint64_t hash = fnv1a(data, size);
  opts.simulation_leniency = (hash & 1) != 0;  // goes with the legacy numerics, as in toolchain::run

  try {
    front::TraceResult tr = front::trace_kernel(file, opts);
    check_diagnostics(tr.diagnostics, !tr.ok());
    if (!tr.ok()) return 0;
    if (!tr.kernel) fail("ok() without a kernel", "");
    std::string ir_text = ir::print_kernel(*tr.kernel);
    (void)ir_text;
    simulate(*tr.kernel, c.target, hash);
    if (verbose()) std::fprintf(stderr, "compiled and simulated\n");
  } catch (const DiagnosticError& e) {
    // trace_kernel turns these into diagnostics; one escaping is still a user-facing error.
    check_diagnostics({e.diagnostic()}, true);
  } catch (const IoError& e) {
    // Usage problems (no kernel, parameter count): the CLI reports them with exit code 2.
    if (verbose()) std::fprintf(stderr, "IoError: %s\n", e.what());
  } catch (const std::exception& e) {
    fail(typeid(e).name(), e.what());
  }
  return 0;
}
