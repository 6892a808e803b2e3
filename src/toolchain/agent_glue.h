// Wiring the agent and the benchmark runner to the simulator: the compile/verify tools the
// model calls, the task description its prompts show, and the episode function `bench` runs.
#pragma once

#include <memory>
#include <string>

#include "agent/solve_command.h"
#include "agent/tools.h"
#include "eval/episode.h"
#include "task/task_spec.h"
#include "toolchain/toolchain.h"

namespace nki::toolchain {

// The prompt-facing description of a task (reference source, tensors, tolerance, rank).
agent::TaskInfo task_info(const TaskSpec& task);

// compile_kernel = the full NKI check with the task's argument shapes; verify_kernel = compile +
// run every trial against the PyTorch reference. Both run in-process on the simulator.
class SimulatorTools : public agent::KernelTools {
 public:
  explicit SimulatorTools(TaskSpec task, RunSettings settings = {});
  agent::ToolResult compile_kernel(const std::string& code) override;
  agent::ToolResult verify_kernel(const std::string& code) override;
  // Verification with atol=rtol=1e-3 for every dtype (the paper's criterion).
  bool verify_strict(const std::string& code);

 private:
  TaskSpec task_;
  RunSettings settings_;
};

// Dependencies of `nkiagent solve`: tasks resolved under `tasks_root`.
agent::SolveDeps solve_deps(const std::string& tasks_root);

struct EpisodeSettings {
  std::string tasks_root;
  std::string base_url;
  double timeout_s = 300;
  std::string prompts_dir;  // empty: default
  std::string replay_dir;   // when set: replay DIR/<task_id>.jsonl instead of calling a model
};

// The episode function `nkiagent bench` runs: one agent episode on the simulator per request.
eval::EpisodeFn make_episode_fn(const EpisodeSettings& settings);

}  // namespace nki::toolchain
