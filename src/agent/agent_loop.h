// The episode loop: a model client, budgets and a transcript around an Environment
// (environment.h), which holds the modes: agent (tools), multi-turn (self-review without
// feedback) and single-shot.
// Whatever the mode, the final kernel is judged by KernelTools::final_verdict, never by what the
// model claims.
#pragma once

#include <string>
#include <vector>

#include "agent/message.h"
#include "agent/environment.h"
#include "agent/model_client.h"
#include "agent/prompts.h"
#include "agent/toolbox.h"
#include "agent/tools.h"
#include "agent/transcript.h"

namespace nki::agent {

struct EpisodeConfig {
  Mode mode = Mode::Agent;
  int max_turns = 10;        // model calls; single-shot always makes exactly one
  double max_cost_usd = 0;   // 0: unlimited; checked before each model call
  double max_wall_s = 0;     // 0: unlimited; checked before each model call
  std::string task_id;       // recorded in the transcript header
  std::string model_label;   // e.g. "openai:gpt-4o"; defaults to the client's name()
  std::string note;          // free text for the transcript header (e.g. "scripted example")
  std::string nki = "2.24";  // the NKI dialect the kernels are read as, recorded in the header
};

// What one model turn did, for per-turn reports.
struct TurnRecord {
  int turn = 0;        // 1-based
  std::string action;  // "compile", "verify", "compile+verify", "answer", "text", "model_call"
  std::string result;  // "ok", a failure kind name, "unchecked" (multi-turn), "no_code", "api_error"
  Usage usage;         // this turn's model call
};

struct EpisodeResult {
  VerdictKind verdict = VerdictKind::NoCode;
  StopReason stop_reason = StopReason::MaxTurns;
  int turns = 0;               // model calls made, failed ones included
  int tool_calls = 0;
  std::string final_kernel;    // empty when no code was ever produced
  ToolResult final_check;      // the harness verification of final_kernel
  std::string error;           // the model error message when stop_reason == ApiError
  Usage usage;                 // summed over every model call
  std::vector<TurnRecord> turn_log;
  int kernel_turn = 0;         // turn that produced final_kernel (0: none)
  int pass_turn = 0;           // turn whose kernel passed verification (0: did not pass)
};

// Runs one episode. `transcript` may be null. Never throws ModelError (it becomes api_error);
// exceptions thrown by the tools or the transcript propagate.
EpisodeResult run_episode(const EpisodeConfig& config, const EpisodePrompts& prompts,
                          ModelClient& model, KernelTools& tools, TranscriptWriter* transcript);

}  // namespace nki::agent
