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
  bool ok() const { return kernel && !has_errors(); }
  bool has_errors() const;
};

// Parses, traces and checks `file` (the `nkiagent check` stand-in for neuronx-cc).
CompileResult compile(const SourceFilePtr& file, const front::TraceOptions& opts);

struct RunSettings {
  front::TraceOptions trace;             // args are filled from the inputs when empty
  machine::RunOptions machine;
};

struct RunOutcome {
  RunStatus status = RunStatus::Ok;      // Ok, CompileError, RuntimeError
  std::vector<Diagnostic> diagnostics;
  std::vector<HostTensor> outputs;
  std::vector<HostTensor> args_after;
  std::shared_ptr<ir::Kernel> kernel;
};

// Compiles with arg specs derived from `inputs` (shape + dtype) and simulates.
RunOutcome run(const SourceFilePtr& file, const std::vector<HostTensor>& inputs, RunSettings settings);

// A KernelRunner (task/verify.h) that compiles and simulates `file`.
KernelRunner make_runner(const SourceFilePtr& file, const RunSettings& settings);

machine::Target machine_target(front::Target t);

}  // namespace nki::toolchain
