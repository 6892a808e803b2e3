// Wiring the agent and the benchmark runner to the simulator: the compile/verify tools the
// model calls, the task description its prompts show, and the episode function `bench` runs.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "agent/prompts.h"
#include "agent/solve_command.h"
#include "agent/tools.h"
#include "eval/episode.h"
#include "task/task_spec.h"
#include "toolchain/speed.h"
#include "toolchain/toolchain.h"

namespace nki::toolchain {

// The prompt-facing description of a task (reference source, tensors, tolerance, rank).
agent::TaskInfo task_info(const TaskSpec& task);

// compile_kernel = the full NKI check with the task's argument shapes; verify_kernel = compile +
// run every trial against the PyTorch reference. Both run in-process on the simulator.
// The final verdict's held-out trials (docs/reliability.md, "Memorised outputs").
struct HeldOut {
  int trials = 2;        // extra trials beyond the task's public ones; 0 = public trials only
  uint64_t secret = 0;   // seeds them; recorded with the verdict, never shown to the model
};

// compile_kernel = the full NKI check with the task's argument shapes; verify_kernel = compile +
// run every public trial against the PyTorch reference; final_verdict adds the held-out trials.
// Kernels run in an isolated child process (RunSettings::isolation), cut at the deadline.
class SimulatorTools : public agent::KernelTools {
 public:
  explicit SimulatorTools(TaskSpec task, RunSettings settings = {}, HeldOut held_out = {});
  // Offers profile_kernel (the cost model's estimate with the task's shapes) after compile and
  // verify (--tools compile,verify,profile).
  void offer_profile(bool on) { offer_.profile = on; }
  std::vector<agent::KernelTool> extra_tools() override;
  // The cost model's estimate (on settings.trace.target) with the task's shapes, compiled under
  // the run's isolation; memoised by code.
  std::optional<double> estimate_latency(const std::string& code) override;
  std::optional<KernelEstimate> estimate(const std::string& code);
  agent::ToolResult profile_kernel(const std::string& code);
  agent::ToolResult compile_kernel(const std::string& code) override;
  agent::ToolResult verify_kernel(const std::string& code) override;
  agent::ToolResult final_verdict(const std::string& code) override;
  void set_deadline(std::chrono::steady_clock::time_point deadline) override { deadline_ = deadline; }
  // Verification with atol=rtol=1e-3 for every dtype (the paper's criterion), held-out trials
  // included.
  bool verify_strict(const std::string& code);

 private:
  agent::ToolResult verify_with(const std::string& code, const VerifyOptions& vo, double min_seconds);
  // Isolation limited by the time left before the deadline (at least `min_seconds`); nullopt
  // when the deadline has passed and min_seconds is 0.
  std::optional<RunSettings> settings_until_deadline(double min_seconds) const;

  TaskSpec task_;
  RunSettings settings_;
  HeldOut held_out_;
  std::optional<std::chrono::steady_clock::time_point> deadline_;
  std::map<std::string, std::optional<KernelEstimate>> estimates_;
};

// Dependencies of `nkiagent solve`: tasks resolved under `tasks_root`.
agent::SolveDeps solve_deps(const std::string& tasks_root);

struct EpisodeSettings {
  std::string tasks_root;
  std::string base_url;
  double timeout_s = 300;
  std::string prompts_dir;  // empty: default
  std::string replay_dir;   // when set: replay DIR/<task_id>.jsonl instead of calling a model
  int held_out_trials = 2;  // per final verdict; seeded by EpisodeRequest::held_out_secret
  agent::ToolOffer tools;      // --tools (default compile,verify; profile adds profile_kernel)
  // optimize mode starts from <dir>/<task_id>.py; empty: TASKS/../solutions, or solutions_nki06
  // for the current dialect (default_solutions_dir)
  std::string solutions_dir;
  // --nki: the dialect of the prompts and of every kernel check ("2.24" or "0.6").
  std::string nki = agent::kLegacyNki;
  // --target: the NeuronCore verify simulates and the cost model estimates; the speed baselines
  // come from that target's file (baselines_path).
  nki::Target target = nki::Target::Trn1;
};

// The episode function `nkiagent bench` runs: one agent episode on the simulator per request.
// Every episode's final kernel is estimated by the cost model and recorded with the task's
// baseline (tasks/baselines.json); see docs/evaluation.md, "Speed".
eval::EpisodeFn make_episode_fn(const EpisodeSettings& settings);

}  // namespace nki::toolchain
