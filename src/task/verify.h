// `verify`: run a kernel on a task's golden inputs for several trials and judge its outputs.
//
// The kernel is abstract (a KernelRunner): the CLI plugs in the simulator, tests plug in fakes.
// Exit-code mapping (shared/docs/cli-contract.md): 0 pass, 1 compile error, 3 runtime error,
// 4 numerical mismatch (wrong values, shapes, dtypes, output count, or modified inputs).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "base/host_tensor.h"
#include "task/compare.h"
#include "task/golden_cache.h"
#include "task/task_spec.h"

namespace nki {

enum class RunStatus { Ok, CompileError, RuntimeError };

struct KernelRunResult {
  RunStatus status = RunStatus::Ok;
  std::vector<Diagnostic> diagnostics;
  std::vector<HostTensor> outputs;    // in return order
  std::vector<HostTensor> args_after; // kernel arguments after the run (empty: not checked)
};

// Runs the kernel on `args` (kernel-argument order, task dtypes). May throw DiagnosticError,
// which is recorded as a runtime error.
using KernelRunner = std::function<KernelRunResult(const std::vector<HostTensor>& args)>;
// Supplies golden data; the default is load_golden (torch + cache). Tests substitute their own.
using GoldenProvider = std::function<GoldenTrial(const TaskSpec& task, int trial)>;
// The same from data someone keeps in memory (the RL server): shared, never copied per trial.
using SharedGoldenProvider = std::function<std::shared_ptr<const GoldenTrial>(const TaskSpec& task, int trial)>;

struct VerifyOptions {
  int trials = 0;                     // 0 = the task's own trial count
  bool strict = false;                // 1e-3 for every floating dtype
  bool stop_on_failure = true;        // stop after the first failing trial
  int max_examples = 5;               // mismatching elements listed per output
  GoldenProvider golden;              // empty = load_golden
  SharedGoldenProvider shared_golden; // when set, used instead of `golden`
  // Trial indices run after the task's own trials (held_out_trials() below): the final verdict
  // of an episode uses trials whose inputs the model never saw.
  std::vector<int> held_out;
};

// `count` trial indices derived from `secret` and the task id, disjoint from every task's public
// trials (indices >= 1,000,000). The same secret gives the same trials, so a verdict can be
// reproduced from the secret recorded with it.
std::vector<int> held_out_trials(const TaskSpec& task, uint64_t secret, int count);
// A fresh secret from the operating system's random source.
uint64_t fresh_secret();

enum class VerifyStatus { Pass, CompileError, RuntimeError, Mismatch };

struct TrialReport {
  int trial = 0;
  uint64_t seed = 0;
  RunStatus run_status = RunStatus::Ok;
  std::vector<Diagnostic> diagnostics;
  std::vector<OutputComparison> outputs;
  std::vector<InputChange> modified_inputs;
  std::string problem;  // structural problem, e.g. "kernel returned 2 outputs, expected 1"
  bool passed = false;
  bool held_out = false;  // one of VerifyOptions::held_out
};

struct VerifyReport {
  std::string task_id;
  bool strict = false;
  int trials_requested = 0;
  VerifyStatus status = VerifyStatus::Pass;
  std::vector<TrialReport> trials;  // trials actually run
};

// Golden-data problems (no torch, failing reference) throw nki::IoError (exit code 2).
VerifyReport verify_task(const TaskSpec& task, const VerifyOptions& opts, KernelRunner run);

int verify_exit_code(const VerifyReport& r);
const char* verify_status_name(VerifyStatus s);  // "pass", "compile_error", ...
const char* run_status_name(RunStatus s);        // "ok", "compile_error", "runtime_error"

// Compact text for people and for the agent: one verdict line, then the first failing trial's
// details (diagnostics, per-output error summary with a few mismatching elements).
std::string render_verify_text(const VerifyReport& r);
// Everything, as one JSON object (schema in docs/tasks.md).
std::string render_verify_json(const VerifyReport& r);

}  // namespace nki
