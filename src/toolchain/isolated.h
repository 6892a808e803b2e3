// The isolated halves of toolchain::compile and toolchain::run: the work runs in a child
// process (sandbox/isolate.h) and its outcome comes back as diagnostics and tensors (wire.h).
#pragma once

#include "toolchain/toolchain.h"

namespace nki::toolchain {

CompileResult compile_isolated(const SourceFilePtr& file, const front::TraceOptions& opts, const Isolation& iso);
RunOutcome run_isolated(const SourceFilePtr& file, const std::vector<HostTensor>& inputs, const RunSettings& settings);

// The same work in this process (what the child executes).
RunOutcome run_in_process(const SourceFilePtr& file, const std::vector<HostTensor>& inputs, RunSettings settings);

}  // namespace nki::toolchain
