// One episode on one task, with the setup every caller repeats (prompts, transcript file) done
// here: `nkiagent solve` uses it, and so can the benchmark runner's episode adapter.
#pragma once

#include <string>

#include "agent/agent_loop.h"

namespace nki::agent {

struct TaskEpisode {
  TaskInfo task;
  Mode mode = Mode::Agent;
  int max_turns = 10;
  std::string prompts_dir;      // empty: resolve_prompts_dir("")
  std::string transcript_path;  // empty: no transcript
  double max_cost_usd = 0;
  double max_wall_s = 0;
  std::string model_label;      // recorded in the header; empty: the client's name()
  std::string note;
  // The NKI dialect ("2.24" or "0.6"): it picks the prompt set and is recorded in the
  // transcript. The tools must read kernels as the same dialect (the caller builds them).
  std::string nki = "2.24";
};

// Renders the prompts, opens the transcript and runs the loop. Throws nki::IoError (prompt or
// transcript files) or std::invalid_argument (a broken prompt template) before any model call;
// model failures during the episode are part of the result.
EpisodeResult run_task_episode(const TaskEpisode& episode, ModelClient& model, KernelTools& tools);

}  // namespace nki::agent
