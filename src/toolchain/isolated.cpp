#include "toolchain/isolated.h"

#include <algorithm>

#include "base/diag_codes.h"
#include "base/memory_budget.h"
#include "sandbox/isolate.h"
#include "toolchain/wire.h"

namespace nki::toolchain {

namespace {

// The evaluator's own time budget (lang/interp.h Limits::max_seconds), which every trace runs
// under; the child limit must leave room for it to report first.
constexpr double kTraceSeconds = 20.0;
constexpr double kMarginSeconds = 30.0;
// The evaluator's and simulator's budgets are CPU time, enforced inside the child (so verdicts do
// not depend on machine load, base/cpu_deadline.h). The wall-clock limit is only the backstop
// for a child that stops making progress, and must not fire first on a loaded machine, where
// eight jobs on two cores stretch a CPU second to several wall seconds.
constexpr double kLoadFactor = 6.0;
constexpr int64_t kMarginBytes = int64_t{1} << 30;

sandbox::Limits limits_for(const Isolation& iso, const front::TraceOptions& trace,
                           const machine::RunOptions* sim) {
  sandbox::Limits l;
  double budget = kLoadFactor * (kTraceSeconds + (sim && sim->max_seconds > 0 ? sim->max_seconds : 0)) + kMarginSeconds;
  if (sim && sim->max_seconds <= 0) budget = 0;  // simulation explicitly unbounded in time
  l.wall_seconds = iso.wall_seconds > 0 ? (budget > 0 ? std::min(budget, iso.wall_seconds) : iso.wall_seconds)
                                        : budget;
  if (iso.memory_bytes > 0) {
    l.memory_bytes = iso.memory_bytes;
  } else {
    l.memory_bytes = std::max<int64_t>(trace.max_eval_bytes, 0) + kMarginBytes;
    if (sim) l.memory_bytes += std::max<int64_t>(sim->max_bytes, 0);
  }
  return l;
}

sandbox::Result run_with_retries(const std::function<std::string()>& work, const sandbox::Limits& l,
                                 int retries) {
  // The child starts with fresh heap accounting (base/memory_budget.h), whatever the forking
  // thread of a long-running, multi-threaded caller (the RL server) had counted.
  auto fresh = [&work]() {
    MemoryBudget::reset_thread_after_fork();
    return work();
  };
  sandbox::Result r = sandbox::run_isolated(fresh, l);
  for (int i = 0; i < retries && r.outcome == sandbox::Outcome::Crashed; ++i) r = sandbox::run_isolated(fresh, l);
  return r;
}

Diagnostic plain_error(const SourceFilePtr& file, std::string code, std::string message, std::string hint) {
  return make_diagnostic(Severity::Error, std::move(code), std::move(message), file, SourceLoc{}, std::move(hint));
}

// What went wrong in the child, as the diagnostic the user sees. `stage` is "compiling" or
// "compiling and simulating".
Diagnostic failure_diagnostic(const SourceFilePtr& file, const sandbox::Result& r, bool simulating) {
  const std::string stage = simulating ? "compiling and simulating the kernel" : "compiling the kernel";
  switch (r.outcome) {
    case sandbox::Outcome::Crashed:
      return plain_error(file, simulating ? diag::name(diag::Code::sim_crash) : diag::name(diag::Code::compiler_crash),
                         stage + " " + r.detail + " in an isolated process",
                         "this is a defect of nkiagent, not a verdict on the kernel; please report it with the kernel");
    case sandbox::Outcome::TimedOut:
      return plain_error(file, simulating ? diag::name(diag::Code::sim_budget) : diag::name(diag::Code::evaluation_budget),
                         stage + " " + r.detail,
                         "a loop runs far longer than any benchmark kernel; shrink it or raise the limits "
                         "(--sim-seconds, --max-wall)");
    case sandbox::Outcome::OutOfMemory:
      return plain_error(file, simulating ? diag::name(diag::Code::sim_memory_limit) : diag::name(diag::Code::evaluation_memory), stage + " " + r.detail,
                         "the kernel needs far more memory than any benchmark kernel");
    case sandbox::Outcome::Failed:
      return plain_error(file, diag::name(diag::Code::internal_error), stage + " failed: " + r.detail, "");
    case sandbox::Outcome::Unavailable:
      return plain_error(file, diag::name(diag::Code::isolation_unavailable), r.describe(), "");
    case sandbox::Outcome::Ok: break;
  }
  return plain_error(file, diag::name(diag::Code::internal_error), stage + ": unexpected outcome", "");
}

// The child's answer starts with one of these: an IoError (a usage or I/O problem such as a
// missing kernel or argument, exit 2 in the CLI) must reach the caller as an IoError, exactly as
// it would in-process, not as a failed isolated run.
constexpr uint64_t kAnswered = 0;
constexpr uint64_t kIoError = 1;

std::string io_error_payload(const IoError& e) {
  wire::Writer w;
  w.u64(kIoError);
  w.str(e.what());
  return w.take();
}

// Reads the leading marker; rethrows a transported IoError.
void expect_answer(wire::Reader& rd) {
  uint64_t kind = rd.u64();
  if (kind == kIoError) throw IoError(rd.str());
  if (kind != kAnswered) throw wire::DecodeError("bad answer kind");
}

}  // namespace

sandbox::Limits isolation_limits(const Isolation& iso, const front::TraceOptions& trace, const machine::RunOptions* sim) {
  return limits_for(iso, trace, sim);
}

Diagnostic isolation_failure(const SourceFilePtr& file, const sandbox::Result& r, bool simulating) {
  return failure_diagnostic(file, r, simulating);
}

sandbox::Result run_work_isolated(const std::function<std::string()>& work, const sandbox::Limits& limits,
                                  const Isolation& iso) {
  return run_with_retries(work, limits, iso.crash_retries);
}

CompileResult compile_isolated(const SourceFilePtr& file, const front::TraceOptions& opts, const Isolation& iso) {
  auto work = [&]() {
    CompileResult c;
    try {
      c = compile(file, opts);
    } catch (const IoError& e) {
      return io_error_payload(e);
    }
    wire::Writer w;
    w.u64(kAnswered);
    w.u64(c.ok() ? 1 : 0);
    w.diagnostics(c.diagnostics);
    return w.take();
  };
  sandbox::Result r = run_with_retries(work, limits_for(iso, opts, nullptr), iso.crash_retries);
  CompileResult out;
  if (!r.ok()) {
    out.diagnostics.push_back(failure_diagnostic(file, r, false));
    return out;
  }
  try {
    wire::Reader rd(r.payload);
    expect_answer(rd);
    bool ok = rd.u64() != 0;
    out.diagnostics = rd.diagnostics();
    if (ok) {
      CompileResult again = compile(file, opts);
      out.kernel = again.ok() ? again.kernel : nullptr;
      out.checks = again.checks;
      if (!again.ok()) out.diagnostics = again.diagnostics;
    }
  } catch (const wire::DecodeError& e) {
    out.diagnostics.push_back(plain_error(file, diag::name(diag::Code::internal_error), e.what(), ""));
  }
  return out;
}

RunOutcome run_isolated(const SourceFilePtr& file, const std::vector<HostTensor>& inputs, const RunSettings& settings) {
  auto work = [&]() {
    RunOutcome o;
    try {
      o = run_in_process(file, inputs, settings);
    } catch (const IoError& e) {
      return io_error_payload(e);
    }
    wire::Writer w;
    w.u64(kAnswered);
    w.u64(static_cast<uint64_t>(o.status));
    w.diagnostics(o.diagnostics);
    w.tensors(o.outputs);
    w.tensors_against(o.args_after, inputs);
    return w.take();
  };
  sandbox::Result r = run_with_retries(work, limits_for(settings.isolation, settings.trace, &settings.machine),
                                       settings.isolation.crash_retries);
  RunOutcome out;
  if (!r.ok()) {
    out.status = RunStatus::RuntimeError;
    out.diagnostics.push_back(failure_diagnostic(file, r, true));
    return out;
  }
  try {
    wire::Reader rd(r.payload);
    expect_answer(rd);
    uint64_t status = rd.u64();
    if (status > static_cast<uint64_t>(RunStatus::RuntimeError)) throw wire::DecodeError("bad run status");
    out.status = static_cast<RunStatus>(status);
    out.diagnostics = rd.diagnostics();
    out.outputs = rd.tensors();
    out.args_after = rd.tensors_against(inputs);
  } catch (const wire::DecodeError& e) {
    out = RunOutcome{};
    out.status = RunStatus::RuntimeError;
    out.diagnostics.push_back(plain_error(file, diag::name(diag::Code::internal_error), e.what(), ""));
    return out;
  }
  if (out.status != RunStatus::CompileError && settings.isolation.rebuild_kernel) {
    front::TraceOptions t = settings.trace;
    if (settings.machine.numerics == machine::Numerics::LegacySim) t.simulation_leniency = true;
    if (!t.binds_tensors())
      for (const HostTensor& h : inputs) t.args.push_back(front::ArgSpec{h.shape, h.dtype});
    CompileResult c = compile(file, t);
    if (c.ok()) out.kernel = c.kernel;
  }
  return out;
}

}  // namespace nki::toolchain
