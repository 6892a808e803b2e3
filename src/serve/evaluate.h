// Judging one kernel for the RL server: compile, verify on the public trials, and the reward on
// the public plus held-out trials. Plain functions over the toolchain, without HTTP, so they
// can be tested and reused directly.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "task/task_spec.h"
#include "toolchain/speed.h"
#include "task/verify.h"
#include "toolchain/toolchain.h"

namespace nki::serve {

// binary: the paper's GRPO reward, +1 for a kernel that passes, -0.5 otherwise.
// graded: tiers, so that a policy that cannot pass yet still sees progress (docs/serve.md): no
// kernel 0 < syntax error 0.05 < does not compile 0.1 < fails while running 0.3 < runs with wrong
// outputs 0.4 + 0.5 x credit beyond trivial kernels (task/trivial_credit.h) < passes 1.
// perf: -0.5 for a failing kernel; a passing one earns 1 + clamp(log2(speedup), -1, 2), speedup =
// the task's baseline (tasks/baselines.json) / the cost model's estimate of the kernel, the same
// numbers `nkiagent bench` records (1.0 when the task has no baseline). A passing kernel the cost
// model cannot estimate (or estimates at a non-positive or non-finite time) gets -0.5 as well,
// with the reason in "perf_error".
enum class RewardKind { Binary, Graded, Perf };

std::optional<RewardKind> parse_reward_kind(const std::string& s);
const char* reward_kind_name(RewardKind k);

// Limits and secrets every evaluation of this server shares.
struct EvalSettings {
  toolchain::RunSettings run;  // isolation (wall time, memory) per compile or simulation
  int held_out_trials = 2;     // added to the public trials of every reward
  uint64_t held_out_secret = 0;
  std::shared_ptr<const toolchain::BaselineLookup> baselines;  // for the perf reward; may be null
  nki::Target target = nki::Target::Trn1;  // the perf reward's cost-model table (and its baselines)
  SharedGoldenProvider golden;  // empty: load_golden (torch + the on-disk cache)
  KernelRunner runner;          // empty: compile and simulate under `run`
};

// The diagnostic codes of a kernel stopped by a resource limit (time or memory), not judged.
bool is_limit_code(const std::string& code);

// {"ok", "kernel", "diagnostics": [...], "text", "limit_exceeded"}.
nlohmann::ordered_json compile_kernel_json(const TaskSpec& task, const std::string& code, const EvalSettings& s);
// verify on the task's public trials: {"status", "passed", "text", "report": {...}, "limit_exceeded"}.
nlohmann::ordered_json verify_kernel_json(const TaskSpec& task, const std::string& code, const EvalSettings& s);
// {"reward", "kind", "verdict", "passed", "tier", "fraction_correct", "credit", "trials",
// "held_out_trials", "limit_exceeded"}; perf adds "estimated_ns", "baseline_ns", "speedup" (null
// when unknown) and "perf_error" (null, or why a passing kernel earned no perf reward).
nlohmann::ordered_json reward_json(const TaskSpec& task, const std::string& code, RewardKind kind,
                                   const EvalSettings& s);

}  // namespace nki::serve
