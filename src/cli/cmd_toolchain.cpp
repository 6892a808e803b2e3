// nkiagent check / ir / run / verify (shared/docs/cli-contract.md).
#include <filesystem>
#include <iostream>

#include "base/dtype_convert.h"
#include "base/npy.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "task/task_spec.h"
#include "toolchain/toolchain.h"

namespace nki::cli {

namespace {

const std::set<std::string> kTraceValued = {"kernel", "arg", "grid", "target", "const"};

std::set<std::string> with(std::set<std::string> base, std::initializer_list<const char*> more) {
  for (const char* m : more) base.insert(m);
  return base;
}

SourceFilePtr load_file(const Options& o, const char* cmd) {
  if (o.positionals().size() != 1)
    throw UsageError(std::string(cmd) + " takes exactly one kernel file (see nkiagent " + cmd + " --help)");
  return load_source_file(o.positionals()[0]);
}

const char* kCheckHelp = R"(usage: nkiagent check FILE.py [--arg SHAPE:DTYPE]... [options]

Compile an NKI kernel (legacy neuronxcc.nki dialect, SDK 2.24) without hardware: parse, trace
and check it against the NeuronCore rules, reporting the compiler's err_* codes.

options:
  --arg 128x512:float32   shape and dtype of each tensor parameter, in order
  --kernel NAME           kernel function (default: the only @nki.jit function)
  --grid 2,2              SPMD launch grid
  --const NAME=LITERAL    bind a compile-time keyword argument (Python literal)
  --target trn1|trn2      NeuronCore-v2 (default) or NeuronCore-v3
  --json                  print {"ok": ..., "diagnostics": [...]} on stdout

exit status: 0 compiles, 1 compile errors, 2 usage or I/O error
)";

const char* kIrHelp = R"(usage: nkiagent ir FILE.py [--arg SHAPE:DTYPE]... [options]

Trace a kernel and print its kernel IR (tensors, loops, instructions with affine accesses).
Takes the same options as `nkiagent check`.
)";

const char* kRunHelp = R"(usage: nkiagent run FILE.py --input PATH[:DTYPE]... [options]

Simulate a kernel on a NeuronCore model with .npy inputs (in parameter order).

options:
  --input x.npy[:DTYPE]   input array; :DTYPE converts stored float32 values (RNE), e.g. :bfloat16
  --const NAME=LITERAL    bind a compile-time keyword argument
  --kernel NAME, --grid 2,2, --target trn1|trn2   as for check
  --numerics precise|legacy-sim
                          precise (default): narrow dtypes stored at their real width;
                          legacy-sim: bf16/fp8 kept in fp32 like nki.simulate_kernel
  --warn-uninit           warn when an instruction reads memory never written
  --out-dir DIR           where out0.npy, out1.npy... are written (default: .)
  --json                  print a JSON summary on stdout

outputs keep float32/float16/int/uint/bool dtypes; bfloat16, tfloat32 and float8 are written as
exact float32 values. Pass-by-reference kernels write DIR/arg<i>.npy for each argument stored into.
exit status: 0 ok, 1 compile error, 2 usage or I/O error, 3 runtime error
)";

const char* kVerifyHelp = R"(usage: nkiagent verify FILE.py --task ID [--trials N] [--strict] [--json]

Compile the kernel, run it on the task's random trials and compare with the PyTorch reference.

options:
  --task ID             task id (directory under tasks/, or $NKI_TASKS_DIR) or a task directory
  --trials N            number of trials (default: the task's)
  --strict              atol=rtol=1e-3 for every dtype (the paper's criterion)
  --all-trials          keep running trials after the first failure
  --json                full JSON report on stdout
  --target, --numerics  as for run

exit status: 0 pass, 1 compile error, 2 usage or I/O error, 3 runtime error, 4 mismatch
)";

machine::Numerics parse_numerics(const Options& o) {
  std::string n = o.get("numerics", "precise");
  if (n == "precise") return machine::Numerics::Precise;
  if (n == "legacy-sim" || n == "legacy") return machine::Numerics::LegacySim;
  throw UsageError("--numerics must be precise or legacy-sim, got '" + n + "'");
}

// Converts a float32 .npy payload to `dt` (the --input PATH:DTYPE contract).
HostTensor convert_input(const HostTensor& t, DType dt, const std::string& path) {
  if (t.dtype == dt) return t;
  HostTensor out;
  out.dtype = dt;
  out.shape = t.shape;
  size_t n = static_cast<size_t>(t.element_count());
  std::vector<float> f(n);
  convert_to_f32(t.dtype, t.data.data(), f.data(), n);
  out.data.resize(n * dtype_size(dt));
  convert_f32_to(dt, f.data(), out.data.data(), n);
  (void)path;
  return out;
}

}  // namespace

int cmd_check(int argc, char** argv, bool print_ir) {
  Options o(argc, argv, kTraceValued, {"json", "help"});
  if (o.flag("help")) {
    std::cout << (print_ir ? kIrHelp : kCheckHelp);
    return 0;
  }
  front::TraceOptions topts = trace_options(o);
  SourceFilePtr file = load_file(o, print_ir ? "ir" : "check");
  toolchain::CompileResult r = toolchain::compile(file, topts, toolchain::Isolation{});
  if (o.flag("json")) {
    std::cout << render_json(r.diagnostics, r.ok()) << "\n";
  } else {
    print_diagnostics(r.diagnostics);
    if (r.ok() && print_ir) std::cout << ir::print_kernel(*r.kernel);
    if (r.ok() && !print_ir) {
      size_t n = 0;
      for (const Diagnostic& d : r.diagnostics) n += d.severity == Severity::Warning;
      std::cout << file->path() << ": ok: kernel '" << r.kernel->name << "' compiles"
                << (n ? " (" + std::to_string(n) + " warning" + (n > 1 ? "s" : "") + ")" : std::string()) << "\n";
    }
  }
  return r.ok() ? 0 : 1;
}

int cmd_run(int argc, char** argv) {
  Options o(argc, argv, with(kTraceValued, {"input", "numerics", "out-dir"}), {"json", "help", "warn-uninit"});
  if (o.flag("help")) {
    std::cout << kRunHelp;
    return 0;
  }
  toolchain::RunSettings s;
  s.trace = trace_options(o);
  if (!s.trace.args.empty()) throw UsageError("run takes --input files, not --arg specs");
  s.machine.numerics = parse_numerics(o);
  s.machine.warn_uninit = o.flag("warn-uninit");
  SourceFilePtr file = load_file(o, "run");
  std::vector<HostTensor> inputs;
  for (const std::string& spec : o.all("input")) {
    std::string path = spec;
    std::optional<DType> want;
    if (auto colon = spec.rfind(':'); colon != std::string::npos && colon + 1 < spec.size()) {
      if (auto d = parse_dtype(spec.substr(colon + 1))) {
        want = d;
        path = spec.substr(0, colon);
      }
    }
    HostTensor t = read_npy(path);
    inputs.push_back(want ? convert_input(t, *want, path) : t);
  }
  toolchain::RunOutcome r = toolchain::run(file, inputs, s);
  print_diagnostics(r.diagnostics);
  if (r.status != RunStatus::Ok) {
    if (o.flag("json")) std::cout << render_json(r.diagnostics, false) << "\n";
    return r.status == RunStatus::CompileError ? 1 : 3;
  }
  std::string dir = o.get("out-dir", ".");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw IoError("cannot create output directory '" + dir + "': " + ec.message());
  std::vector<std::string> written;
  for (size_t i = 0; i < r.outputs.size(); ++i) {
    std::string p = dir + "/out" + std::to_string(i) + ".npy";
    write_npy(p, r.outputs[i]);
    written.push_back(p);
  }
  if (r.outputs.empty()) {  // pass-by-reference kernel: it returns nothing
    for (size_t i = 0; i < r.args_after.size(); ++i) {
      if (r.args_after[i].data == inputs[i].data) continue;
      std::string p = dir + "/arg" + std::to_string(i) + ".npy";
      write_npy(p, r.args_after[i]);
      written.push_back(p);
    }
  }
  if (o.flag("json")) {
    std::cout << "{\"ok\": true, \"outputs\": [";
    for (size_t i = 0; i < written.size(); ++i) std::cout << (i ? ", " : "") << "\"" << json_escape(written[i]) << "\"";
    std::cout << "], \"diagnostics\": " << render_json(r.diagnostics, true) << "}\n";
  } else {
    for (const std::string& p : written) std::cout << "wrote " << p << "\n";
  }
  return 0;
}

int cmd_verify(int argc, char** argv) {
  Options o(argc, argv, {"task", "trials", "target", "numerics", "tasks-dir"}, {"json", "strict", "help", "all-trials"});
  if (o.flag("help")) {
    std::cout << kVerifyHelp;
    return 0;
  }
  if (!o.has("task")) throw UsageError("verify needs --task ID");
  SourceFilePtr file = load_file(o, "verify");
  std::string root = o.get("tasks-dir", default_tasks_root());
  TaskSpec task = load_task(resolve_task_dir(o.get("task"), root));
  VerifyOptions vo;
  if (o.has("trials")) {
    try {
      vo.trials = std::stoi(o.get("trials"));
    } catch (...) {
      throw UsageError("--trials expects a positive integer");
    }
    if (vo.trials <= 0 || vo.trials > 1000) throw UsageError("--trials expects 1..1000");
  }
  vo.strict = o.flag("strict");
  vo.stop_on_failure = !o.flag("all-trials");
  toolchain::RunSettings s;
  Options trace_only(1, argv, {}, {});
  s.trace.target = o.get("target", "trn1") == "trn2" ? front::Target::Trn2 : front::Target::Trn1;
  s.machine.numerics = parse_numerics(o);
  VerifyReport rep = verify_task(task, vo, toolchain::make_runner(file, s));
  if (o.flag("json")) std::cout << render_verify_json(rep) << "\n";
  else std::cout << render_verify_text(rep);
  return verify_exit_code(rep);
}

}  // namespace nki::cli
