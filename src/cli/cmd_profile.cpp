// nkiagent profile: estimate a kernel's latency on Trainium with the cost model (no hardware,
// no numerics): per-engine busy time, DMA traffic, bottleneck, critical path, perf lints and an
// optional Chrome trace (docs/cost-model.md).
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/input_files.h"
#include "task/task_spec.h"
#include "toolchain/profile.h"

namespace nki::cli {

namespace {

std::string read_text(const std::string& path, const char* what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError(std::string("cannot read ") + what + " '" + path + "'");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  if (!out || !(out << text)) throw IoError("cannot write trace file '" + path + "'");
}

int profile(const ParsedOptions& o) {
  toolchain::ProfileSettings s;
  s.trace = trace_options(o);
  if (o.has("task")) {
    if (!o.all("arg").empty()) throw UsageError("give either --task or --arg, not both");
    TaskSpec task = load_task(resolve_task_dir(o.text("task"), tasks_root_from(o)));
    for (const TensorSpec& t : task.kernel_args()) s.trace.args.push_back(front::ArgSpec{t.shape, t.dtype});
  }
  if (o.has("cost-table")) s.cost_table_json = read_text(o.text("cost-table"), "cost table");
  s.cost.keep_events = o.has("trace");
  if (o.flag("full-schedule")) {
    s.cost.extrapolate = false;
    s.cost.max_trace_events = int64_t{1} << 22;
  }
  const int top = static_cast<int>(o.integer("top").value_or(8));
  SourceFilePtr file = read_kernel_file(single_file_positional(o));
  toolchain::ProfileOutcome r;
  try {
    r = toolchain::profile(file, s);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--cost-table: ") + e.what());
  }
  print_diagnostics(r.compiled.diagnostics);
  if (!r.report) {
    if (!r.error.empty()) std::cerr << file->path() << ": error[cost_budget]: " << r.error << "\n";
    if (o.flag("json")) std::cout << render_json(r.compiled.diagnostics, false) << "\n";
    return r.compiled.ok() ? 3 : 1;
  }
  const cost::CostReport& rep = *r.report;
  if (o.has("trace")) write_text(o.text("trace"), cost::render_trace(rep, r.compiled.kernel->name));
  if (o.flag("json")) {
    std::cout << "{\"ok\": true, \"profile\": " << cost::render_json(rep, top)
              << ", \"diagnostics\": " << render_json(r.compiled.diagnostics, true) << "}\n";
    return 0;
  }
  std::cout << cost::render_summary(rep, *r.compiled.kernel, top);
  for (const cost::Lint& l : rep.lints) {
    std::cout << file->path() << ":" << l.line << ":" << l.col << ": warning[" << l.code << "]: " << l.message << "\n"
              << "  hint: " << l.hint << "\n";
  }
  if (o.has("trace")) std::cout << "wrote " << o.text("trace") << " (open in ui.perfetto.dev or chrome://tracing)\n";
  return 0;
}

}  // namespace

Command make_profile_command() {
  Command c;
  c.spec.name = "profile";
  c.spec.synopsis = "nkiagent profile FILE.py (--task ID | --arg [NAME=]SHAPE:DTYPE...) [--target trn1|trn2] [--trace OUT.json] [--json]";
  c.spec.description =
      "Estimate the kernel's latency on one NeuronCore with the Trainium cost model (no hardware, no\n"
      "numerics): per-engine busy time, DMA bytes and bandwidth, bottleneck, critical path with source\n"
      "lines, roofline and perf lints. Shapes come from the task's inputs (--task) or from --arg.";
  c.spec.options = {
      text_option("task", "ID", "take the parameter shapes and dtypes from this benchmark task"),
      arg_option(),
      kernel_option(),
      grid_option(),
      const_option(),
      target_option(),
      nki_option(),
      tasks_dir_option(),
      text_option("trace", "OUT.json", "write a Chrome trace-event file (one track per engine and DMA queue)"),
      text_option("cost-table", "FILE.json", "override cost-table rows by name, e.g. {\"dma_latency_ns\": 900}"),
      integer_option("top", "N", 1, 100, "critical-path entries to show", "8"),
      flag_option("full-schedule", "schedule every loop iteration instead of extrapolating steady loops\n"
                                   "(slow; for checking the extrapolation)"),
      flag_option("json", "print the estimate as JSON on stdout"),
  };
  c.spec.epilog =
      "estimates are a model, not a measurement: docs/cost-model.md gives its coefficients, calibration\n"
      "against published measurements and known error sources.\n"
      "exit status: 0 ok, 1 compile error, 2 usage or I/O error, 3 the cost model gave up (budget)";
  c.run = profile;
  return c;
}

}  // namespace nki::cli
