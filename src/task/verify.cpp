#include "base/diag_codes.h"
#include "task/verify.h"

#include <algorithm>
#include <exception>
#include <random>

namespace nki {

const char* verify_status_name(VerifyStatus s) {
  switch (s) {
    case VerifyStatus::Pass: return "pass";
    case VerifyStatus::CompileError: return "compile_error";
    case VerifyStatus::RuntimeError: return "runtime_error";
    case VerifyStatus::Mismatch: return "mismatch";
  }
  return "?";
}

const char* run_status_name(RunStatus s) {
  switch (s) {
    case RunStatus::Ok: return "ok";
    case RunStatus::CompileError: return "compile_error";
    case RunStatus::RuntimeError: return "runtime_error";
  }
  return "?";
}

int verify_exit_code(const VerifyReport& r) {
  switch (r.status) {
    case VerifyStatus::Pass: return 0;
    case VerifyStatus::CompileError: return 1;
    case VerifyStatus::RuntimeError: return 3;
    case VerifyStatus::Mismatch: return 4;
  }
  return 4;
}

namespace {

// Runs the kernel, turning exceptions into a runtime-error result (a verify run never crashes
// because the kernel under test misbehaved).
KernelRunResult run_guarded(const KernelRunner& run, const std::vector<HostTensor>& args) {
  try {
    return run(args);
  } catch (const DiagnosticError& e) {
    KernelRunResult r;
    r.status = RunStatus::RuntimeError;
    r.diagnostics.push_back(e.diagnostic());
    return r;
  } catch (const std::exception& e) {
    KernelRunResult r;
    r.status = RunStatus::RuntimeError;
    Diagnostic d;
    d.code = diag::Code::runner_exception;
    d.message = e.what();
    r.diagnostics.push_back(d);
    return r;
  }
}

void judge_trial(const TaskSpec& task, const VerifyOptions& opts, const GoldenTrial& golden,
                 KernelRunResult&& result, TrialReport& tr) {
  tr.run_status = result.status;
  tr.diagnostics = std::move(result.diagnostics);
  if (result.status != RunStatus::Ok) return;

  if (result.outputs.size() != golden.expected.size()) {
    tr.problem = "kernel returned " + std::to_string(result.outputs.size()) + " output(s), the "
                 "task expects " + std::to_string(golden.expected.size());
  }
  bool all_ok = tr.problem.empty();
  size_t n = std::min(result.outputs.size(), golden.expected.size());
  for (size_t j = 0; j < n; ++j) {
    DType dt = task.outputs[j].dtype;
    OutputComparison c = compare_output(golden.expected[j], dt, result.outputs[j],
                                        task.tolerance_for(dt, opts.strict), opts.max_examples);
    c.index = static_cast<int>(j);
    all_ok = all_ok && c.passed;
    tr.outputs.push_back(std::move(c));
  }
  // Kernels must treat their arguments as read-only (an in-place kernel could otherwise pass by
  // returning an input it overwrote).
  if (!result.args_after.empty()) {
    for (size_t i = 0; i < golden.args.size(); ++i) {
      if (i >= result.args_after.size()) break;
      const std::string& name = i < golden.arg_names.size() ? golden.arg_names[i] : "";
      if (auto ch = compare_input(static_cast<int>(i), name, golden.args[i], result.args_after[i])) {
        tr.modified_inputs.push_back(*ch);
        all_ok = false;
      }
    }
  }
  tr.passed = all_ok;
}

}  // namespace

std::vector<int> held_out_trials(const TaskSpec& task, uint64_t secret, int count) {
  // splitmix64 over (secret, task id, j): independent per task, so one secret serves a run.
  uint64_t h = secret ^ 0x9e3779b97f4a7c15ULL;
  for (unsigned char c : task.id) h = (h ^ c) * 0x100000001b3ULL;
  std::vector<int> out;
  for (int j = 0; j < count; ++j) {
    uint64_t z = h + 0x9e3779b97f4a7c15ULL * static_cast<uint64_t>(j + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    int t = 1'000'000 + static_cast<int>(z % 1'000'000'000ULL);
    if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
  }
  return out;
}

uint64_t fresh_secret() {
  std::random_device rd;
  // 63 bits, so that the secret round-trips through signed 64-bit options and JSON readers.
  return ((static_cast<uint64_t>(rd()) << 32) ^ rd()) & 0x7fffffffffffffffULL;
}

VerifyReport verify_task(const TaskSpec& task, const VerifyOptions& opts, KernelRunner run) {
  VerifyReport report;
  report.task_id = task.id;
  report.strict = opts.strict;
  report.trials_requested = opts.trials > 0 ? opts.trials : task.trials;
  GoldenProvider golden_of = opts.golden;
  SharedGoldenProvider shared_of = opts.shared_golden;
  if (!shared_of && golden_of)
    shared_of = [&golden_of](const TaskSpec& t, int k) { return std::make_shared<const GoldenTrial>(golden_of(t, k)); };
  const bool generate = !shared_of;  // neither provider given: load_golden, prefetched here
  // (report.trials_requested grows by the held-out trials below.)
  if (generate) {
    // Generate all missing trials in one Python run before the loop; loading is then cached.
    std::vector<int> all(static_cast<size_t>(report.trials_requested));
    for (int k = 0; k < report.trials_requested; ++k) all[static_cast<size_t>(k)] = k;
    prefetch_golden(task, all, find_torch_python());
    shared_of = [](const TaskSpec& t, int k) { return std::make_shared<const GoldenTrial>(load_golden(t, k)); };
  }

  std::vector<int> order;
  for (int k = 0; k < report.trials_requested; ++k) order.push_back(k);
  order.insert(order.end(), opts.held_out.begin(), opts.held_out.end());
  report.trials_requested = static_cast<int>(order.size());
  if (generate && !opts.held_out.empty()) prefetch_golden(task, opts.held_out, find_torch_python());

  for (size_t i = 0; i < order.size(); ++i) {
    const int k = order[i];
    std::shared_ptr<const GoldenTrial> held = shared_of(task, k);
    const GoldenTrial& golden = *held;
    TrialReport tr;
    tr.trial = k;
    tr.seed = task.trial_seed(k);
    tr.held_out = i >= order.size() - opts.held_out.size();
    // The runner takes the arguments read-only (KernelRunner's signature) and reports their
    // state after the run in args_after, so golden.args stays the pristine "before" state
    // without a copy per trial.
    judge_trial(task, opts, golden, run_guarded(run, golden.args), tr);
    bool passed = tr.passed;
    RunStatus rs = tr.run_status;
    report.trials.push_back(std::move(tr));
    if (!passed) {
      // The first failure decides the verdict; compile errors make every trial fail alike.
      if (report.status == VerifyStatus::Pass) {
        report.status = rs == RunStatus::CompileError   ? VerifyStatus::CompileError
                        : rs == RunStatus::RuntimeError ? VerifyStatus::RuntimeError
                                                        : VerifyStatus::Mismatch;
      }
      if (opts.stop_on_failure || rs == RunStatus::CompileError) break;
    }
  }
  return report;
}

}  // namespace nki
