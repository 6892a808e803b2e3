// The isolated halves of toolchain::compile and toolchain::run: the work runs in a child
// process (sandbox/isolate.h) and its outcome comes back as diagnostics and tensors (wire.h).
#pragma once

#include <functional>
#include <string>

#include "sandbox/isolate.h"
#include "toolchain/toolchain.h"

namespace nki::toolchain {

CompileResult compile_isolated(const SourceFilePtr& file, const front::TraceOptions& opts, const Isolation& iso);
RunOutcome run_isolated(const SourceFilePtr& file, const std::vector<HostTensor>& inputs, const RunSettings& settings);

// The child limits of one compile (sim == nullptr) or one compile and simulation under `iso`.
sandbox::Limits isolation_limits(const Isolation& iso, const front::TraceOptions& trace, const machine::RunOptions* sim);
// The error diagnostic of a child that did not answer (crash, time or memory limit, ...).
Diagnostic isolation_failure(const SourceFilePtr& file, const sandbox::Result& r, bool simulating);
// Runs `work` (whole judgements: several compiles and simulations) in one child under
// `limits`, retrying a crashed child iso.crash_retries times like compile and run do.
sandbox::Result run_work_isolated(const std::function<std::string()>& work, const sandbox::Limits& limits,
                                  const Isolation& iso);

// The same work in this process (what the child executes).
RunOutcome run_in_process(const SourceFilePtr& file, const std::vector<HostTensor>& inputs, RunSettings settings);

}  // namespace nki::toolchain
