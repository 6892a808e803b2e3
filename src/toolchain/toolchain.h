// The toolchain services behind the CLI, the agent's tools and the Python module: compile a
// kernel file (parse + trace + checks) and run it on the simulator. One place that wires the
// front end (src/nki), the machine (src/machine) and the task layer (src/task) together.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "base/host_tensor.h"
#include "ir/ir.h"
#include "machine/executor.h"
#include "nki/tracer.h"
#include "task/verify.h"

namespace nki::toolchain {

struct CompileResult {
  std::shared_ptr<ir::Kernel> kernel;  // null when compilation failed
  std::vector<Diagnostic> diagnostics; // errors and warnings
  check::Findings checks;              // the IR check passes that ran (nkiagent ir --after)
  bool ok() const { return kernel && !has_errors(); }
  bool has_errors() const;
};

// Parses, traces and checks `file` (the `nkiagent check` stand-in for neuronx-cc).
CompileResult compile(const SourceFilePtr& file, const front::TraceOptions& opts);

// How a model-written kernel is compiled and simulated: by default in a child process
// (sandbox/isolate.h), so that a crash, a hang or a memory blow-up of the front end or the
// simulator becomes an error diagnostic instead of taking the caller down (docs/reliability.md).
struct Isolation {
  bool enabled = true;        // false: in this process (the Python module, perf benchmarks)
  double wall_seconds = 0;    // 0: the evaluation and simulation time budgets plus a margin
  int64_t memory_bytes = 0;   // 0: the simulator and evaluation memory budgets plus 1 GiB
  int crash_retries = 1;      // a crashed child is run again this many times (transient faults)
  // run(): rebuild RunOutcome::kernel here after the child ran (a second trace). Callers that
  // only judge outputs (make_runner, verify) turn it off and get a null kernel.
  bool rebuild_kernel = true;
};

// Parses, traces and checks `file` under `iso` (in a child process when enabled). The IR of a
// kernel that compiled in the child is rebuilt here: tracing is deterministic and was just
// shown to finish within the limits.
CompileResult compile(const SourceFilePtr& file, const front::TraceOptions& opts, const Isolation& iso);

struct RunSettings {
  front::TraceOptions trace;             // args are filled from the inputs when empty
  machine::RunOptions machine;
  Isolation isolation;
};

struct RunOutcome {
  RunStatus status = RunStatus::Ok;      // Ok, CompileError, RuntimeError
  std::vector<Diagnostic> diagnostics;
  std::vector<HostTensor> outputs;
  std::vector<HostTensor> args_after;
  std::shared_ptr<ir::Kernel> kernel;
};

// Compiles with arg specs derived from `inputs` (shape + dtype) and simulates, in a child
// process when settings.isolation.enabled (RunOutcome::kernel is then rebuilt here, and may be
// null if that fails).
RunOutcome run(const SourceFilePtr& file, const std::vector<HostTensor>& inputs, RunSettings settings);

// A KernelRunner (task/verify.h) that compiles and simulates `file`.
KernelRunner make_runner(const SourceFilePtr& file, const RunSettings& settings);

}  // namespace nki::toolchain
