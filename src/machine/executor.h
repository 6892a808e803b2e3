// The NeuronCore simulator: executes a kernel IR (src/ir/ir.h) on host memory with the numeric
// model of shared/docs/nki-spec.md §7.3 (fp32 engine math, RNE casts, saturating integer casts,
// fp32 matmul accumulation, NaN-filled uninitialised memory).
//
// Usage:
//   nki::machine::RunOptions opt;               // trn1, precise numerics
//   auto r = nki::machine::execute(kernel, {a, b}, opt);
//   r.outputs[0] ...                            // returned tensors, in k.outputs order
//
// Runtime errors (dynamic out-of-bounds indices, bad arguments, memory limit) throw
// nki::DiagnosticError located at the failing instruction in k.file.
#pragma once

#include <cstdint>
#include <vector>

#include "base/diagnostic.h"
#include "base/host_tensor.h"
#include "ir/ir.h"
#include "target/target.h"

namespace nki::machine {

enum class Numerics {
  // Every tensor holds its dtype's real width: storing into bf16/fp16/fp8/tf32 rounds (RNE).
  Precise,
  // nki.simulate_kernel behaviour (spec §7.1): bf16, fp8 and tf32 tensors are held in fp32 and
  // never rounded between operations; outputs are rounded once when returned to the host.
  LegacySim,
};

struct RunOptions {
  Target target = Target::Trn1;
  Numerics numerics = Numerics::Precise;
  // Track which elements were ever written and warn (code `uninitialized_read`) when an
  // instruction reads one that was not. Costs one shadow byte per element.
  bool warn_uninit = false;
  // Refuse to allocate tensors (and per-instruction scratch) beyond this many bytes in total.
  int64_t max_bytes = int64_t{4} << 30;
  // Defer plain HBM -> SBUF tile copies until either side is written (see Memory::alias_to).
  // Results are identical either way; off only to compare against eager copying.
  bool elide_copies = true;
  // Simulated-work budget (machine/work_budget.h): loop iterations plus elements processed, and
  // wall-clock seconds; exceeding either is error[sim_budget]. 0 = unlimited.
  int64_t max_work = int64_t{1} << 36;
  double max_seconds = 60.0;
};

struct RunResult {
  std::vector<HostTensor> outputs;     // k.outputs order, at each output's dtype
  // k.params order: parameter contents after the run. Filled for pass-by-reference kernels
  // (k.outputs empty) and whenever the kernel stores into a parameter; empty otherwise.
  std::vector<HostTensor> args_after;
  std::vector<Diagnostic> warnings;
};

// Runs every SPMD instance of `k` over `args` (one HostTensor per k.params entry, same dtype and
// shape as the declaration). Throws nki::DiagnosticError on a runtime error.
RunResult execute(const ir::Kernel& k, const std::vector<HostTensor>& args,
                  const RunOptions& options = {});

}  // namespace nki::machine
