#include "toolchain/toolchain.h"

#include "base/diag_codes.h"
#include "ir/verify.h"
#include "nki_current/dialect.h"
#include "toolchain/isolated.h"

namespace nki::toolchain {

bool CompileResult::has_errors() const {
  for (const Diagnostic& d : diagnostics)
    if (d.severity == Severity::Error) return true;
  return false;
}

CompileResult compile(const SourceFilePtr& file, const front::TraceOptions& opts) {
  // Either dialect: detected from the imports, or forced by opts.dialect (--nki).
  front::TraceResult tr = current::trace_any(file, opts);
  CompileResult r;
  r.diagnostics = std::move(tr.diagnostics);
  r.checks = std::move(tr.checks);
  if (!tr.ok()) return r;
  // IR invariants (ir/verify.h): a broken one is a bug of this tool, reported here with the
  // instruction instead of surfacing as a simulator or cost-model surprise.
  if (std::optional<ir::InvariantViolation> bad = ir::verify_kernel(*tr.kernel)) {
    r.diagnostics.push_back(make_diagnostic(Severity::Error, diag::Code::internal_error, "malformed kernel IR after tracing: " + bad->what,
                                            file, bad->loc, "this is a bug in nkiagent, not in the kernel"));
    return r;
  }
  r.kernel = std::move(tr.kernel);
  return r;
}

CompileResult compile(const SourceFilePtr& file, const front::TraceOptions& opts, const Isolation& iso) {
  if (iso.enabled) return compile_isolated(file, opts, iso);
  return compile(file, opts);
}

RunOutcome run_in_process(const SourceFilePtr& file, const std::vector<HostTensor>& inputs,
                          RunSettings settings) {
  RunOutcome out;
  // The legacy simulator's behaviour comes with its leniency (returning SBUF tiles, spec §7.1).
  if (settings.machine.numerics == machine::Numerics::LegacySim) settings.trace.simulation_leniency = true;
  if (!settings.trace.binds_tensors()) {
    for (const HostTensor& t : inputs) settings.trace.args.push_back(front::ArgSpec{t.shape, t.dtype});
  }
  CompileResult c = compile(file, settings.trace);
  out.diagnostics = c.diagnostics;
  if (!c.ok()) {
    out.status = RunStatus::CompileError;
    return out;
  }
  out.kernel = c.kernel;
  settings.machine.target = settings.trace.target;
  try {
    machine::RunResult rr = machine::execute(*c.kernel, inputs, settings.machine);
    out.outputs = std::move(rr.outputs);
    out.args_after = std::move(rr.args_after);
    for (Diagnostic& w : rr.warnings) out.diagnostics.push_back(std::move(w));
  } catch (DiagnosticError& e) {
    out.status = RunStatus::RuntimeError;
    out.diagnostics.push_back(e.diagnostic());
  }
  return out;
}

RunOutcome run(const SourceFilePtr& file, const std::vector<HostTensor>& inputs, RunSettings settings) {
  if (settings.isolation.enabled) return run_isolated(file, inputs, settings);
  return run_in_process(file, inputs, std::move(settings));
}

KernelRunner make_runner(const SourceFilePtr& file, const RunSettings& settings) {
  RunSettings judging = settings;
  judging.isolation.rebuild_kernel = false;  // a KernelRunResult carries no IR: skip the second trace
  return [file, judging](const std::vector<HostTensor>& args) {
    RunOutcome o = run(file, args, judging);
    KernelRunResult r;
    r.status = o.status;
    r.diagnostics = std::move(o.diagnostics);
    r.outputs = std::move(o.outputs);
    r.args_after = std::move(o.args_after);
    return r;
  };
}

}  // namespace nki::toolchain
