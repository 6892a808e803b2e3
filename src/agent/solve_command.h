// `nkiagent solve`: run one agent episode on one task and write its artefacts. The command
// line is parsed by src/cli/cmd_solve.cpp into SolveOptions.
// The task loader and the simulator-backed tools come from the caller (the CLI wires them to
// src/task and src/eval), so this layer stays free of NKI internals.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "agent/agent_loop.h"
#include "agent/model_factory.h"
#include "agent/tools.h"

namespace nki::agent {

struct SolveDeps {
  // Loads a task by id; throws (e.g. nki::IoError) for an unknown id.
  std::function<TaskInfo(const std::string& task_id)> load_task;
  // Compile/verify tools bound to that task, reading kernels as NKI `nki` ("2.24" or "0.6").
  std::function<std::unique_ptr<KernelTools>(const std::string& task_id, const std::string& nki)> make_tools;
  // Optimize mode without --start: the path of the task's reference solution in dialect `nki`.
  std::function<std::string(const std::string& task_id, const std::string& nki)> default_start;
  // Optional: builds the model client (tests inject one); defaults to make_model_client.
  std::function<std::unique_ptr<ModelClient>(const ClientOptions&)> make_client;
};

struct SolveOptions {
  std::string task_id;
  std::string model_spec;      // required unless replaying
  Mode mode = Mode::Agent;
  bool mode_given = false;     // false: a replay runs in its recorded mode
  std::string nki = "2.24";    // --nki: the dialect of the prompts and of every kernel check
  bool nki_given = false;      // false: a replay runs in its recorded dialect
  int max_turns = 10;
  std::string out_dir;         // default runs/<task_id>
  std::string replay_path;
  std::string base_url;
  double timeout_s = 300;
  std::string prompts_dir;     // default: resolve_prompts_dir("")
  std::string prices_path;     // default: resolve_price_table_path("", prompts_dir)
  int max_tokens = 0;
  double max_cost_usd = 0;
  double max_wall_s = 0;
  std::optional<double> temperature;
  bool prompt_cache = true;    // --no-prompt-cache turns Anthropic cache breakpoints off
  ToolOffer tools;             // --tools (agent and optimize mode)
  bool tools_given = false;    // checked against the mode once a replay's recorded mode is known
  // Optimize mode: the starting kernel (--start FILE; empty: deps.default_start). It must pass
  // verify_kernel; the episode then looks for a faster kernel that also passes.
  std::string start_path;
};

struct SolveOutcome {
  EpisodeResult result;
  std::string kernel_path;      // <out>/kernel.py (written only when a kernel exists)
  std::string transcript_path;  // <out>/transcript.jsonl
  std::string result_path;      // <out>/result.json
  std::string summary;          // the one-line verdict printed by cmd_solve
};

// Runs the episode and writes kernel.py, transcript.jsonl and result.json under out_dir.
// Optimize mode verifies the starting kernel first; one that fails is a setup error.
// Throws ModelError(Config / Replay), nki::IoError or std::invalid_argument for setup
// problems; failures during the episode are part of the result instead.
SolveOutcome run_solve(const SolveOptions& options, const SolveDeps& deps);

}  // namespace nki::agent
