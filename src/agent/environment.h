// One task as a reset/step environment (the shape of mini-swe-agent's Environment and of a gym
// episode): reset() gives the conversation the model starts from, step(reply) answers one model
// reply with tool results or a follow-up, and finish() is the harness verdict on the final
// kernel. The agent loop (agent_loop.h) drives it with a model client; the RL server
// (src/serve) drives it with replies that arrive over HTTP. Neither re-implements the modes.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent/message.h"
#include "agent/prompts.h"
#include "agent/toolbox.h"
#include "agent/tools.h"

namespace nki::agent {

// Why an episode stopped.
enum class StopReason {
  Verified,    // a verification passed (the verify tool, or the harness check of a prose answer)
  Answered,    // single-shot: the one reply held a kernel; optimize: a reply without a tool call

  MaxTurns,    // the turn limit (single-shot: its reply held no kernel)
  ApiError,    // a model call failed after retries
  CostBudget,  // the cost budget was spent before a model call
  TimeBudget,  // the wall-time budget had passed before a model call
};

const char* stop_reason_name(StopReason s);  // "verified", "answered", "max_turns", ...

// What the environment answers to one model reply.
struct StepResult {
  int turn = 0;                   // 1-based turn this reply was
  std::vector<Message> messages;  // to append after the reply: tool results or a user follow-up
  bool done = false;              // no further reply is wanted
  StopReason stop = StopReason::MaxTurns;  // when done
  std::string action;  // turn-log label: "compile", "verify", "compile+verify", "answer", "text"
  std::string result;  // "ok", a failure kind name, "unchecked" (multi-turn), "no_code", "bad_call"
};

// The harness verdict on an episode's final kernel.
struct Judgement {
  VerdictKind verdict = VerdictKind::NoCode;
  ToolResult final_check;   // the final verdict's tool result ("no kernel was produced" if none)
  std::string final_kernel; // empty when no code was ever produced
  int kernel_turn = 0;      // turn that produced final_kernel (0: none)
  int pass_turn = 0;        // turn whose kernel passed (0: did not pass)
  int tool_calls = 0;
};

class Environment {
 public:
  // Receives the environment's transcript lines (tool_call, tool_result, harness_check).
  using EventSink = std::function<void(const std::string& type, nlohmann::ordered_json fields)>;

  // `max_turns` is the number of model replies allowed (single-shot: always 1). `tools` must
  // outlive the environment.
  Environment(Mode mode, int max_turns, EpisodePrompts prompts, KernelTools& tools, EventSink events = {});

  // The starting conversation: the system prompt, the task message and (agent mode) the tools.
  Conversation reset() const;
  // Handles the model's reply to the conversation so far. Exceptions of the tools propagate.
  StepResult step(const Message& reply);
  // Judges the final kernel once the episode has stopped for `stop` after `turns` model calls
  // (failed ones included). Logs the final harness_check line. In optimize mode the final kernel
  // is the fastest verified one (by KernelTools::estimate_latency), else the starting kernel.
  Judgement finish(StopReason stop, int turns);

  Mode mode() const { return mode_; }
  int max_turns() const { return max_turns_; }
  int turn() const { return turn_; }                       // replies handled so far
  std::vector<std::string> tool_names() const { return toolbox_.names(); }
  std::vector<ToolSpec> tool_specs() const { return toolbox_.specs(); }
  const std::string& final_kernel() const { return judged_.final_kernel; }

 private:
  void step_tool_calls(const Message& reply, StepResult& out);
  void step_text_answer(const Message& reply, StepResult& out);
  ToolResult verify(const std::string& code);
  // Optimize mode: a kernel that passed verification replaces the final kernel when it is
  // estimated faster than the best so far (or when nothing has passed yet).
  void offer_candidate(const std::string& code);
  void set_kernel(const std::string& code);
  void log(const std::string& type, nlohmann::ordered_json fields);
  void log_check(const ToolResult& r, int turn, bool final);
  bool last_turn() const { return turn_ >= max_turns_; }

  Mode mode_;
  int max_turns_;
  EpisodePrompts prompts_;
  KernelTools& tools_;
  EventSink events_;
  Toolbox toolbox_;
  Judgement judged_;
  std::map<std::string, ToolResult> verified_;  // verify results by exact code: no re-runs
  int turn_ = 0;
  bool have_correct_ = false;           // optimize: final_kernel is the start or a verified kernel
  std::optional<double> best_latency_;  // optimize: estimate of final_kernel
};

}  // namespace nki::agent
