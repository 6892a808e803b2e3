#include "agent/environment.h"

#include <algorithm>

#include "agent/code_extract.h"
#include "agent/transcript.h"

namespace nki::agent {
namespace {

using ojson = nlohmann::ordered_json;

std::string outcome_of(const ToolResult& r) { return r.passed ? "ok" : failure_kind_name(r.failure); }

Message user_message(const std::string& text) { return {Role::User, text, {}, "", "", false}; }

// `fields` plus the ToolResult's fields, for tool_result and harness_check lines.
ojson with_result(ojson fields, const ToolResult& r) {
  ojson result_fields = tool_result_to_json(r);  // named: items() must not outlive a temporary
  for (auto& [k, v] : result_fields.items()) fields[k] = v;
  return fields;
}

}  // namespace

const char* stop_reason_name(StopReason s) {
  switch (s) {
    case StopReason::Verified: return "verified";
    case StopReason::Answered: return "answered";
    case StopReason::MaxTurns: return "max_turns";
    case StopReason::ApiError: return "api_error";
    case StopReason::CostBudget: return "cost_budget";
    case StopReason::TimeBudget: return "time_budget";
  }
  return "max_turns";
}

Environment::Environment(Mode mode, int max_turns, EpisodePrompts prompts, KernelTools& tools, EventSink events)
    : mode_(mode),
      max_turns_(mode == Mode::SingleShot ? 1 : std::max(1, max_turns)),
      prompts_(std::move(prompts)),
      tools_(tools),
      events_(std::move(events)) {
  const ToolOffer& offer = tools_.offer();
  if (offer.compile)
    toolbox_.add(compile_kernel_tool([this](const std::string& code) { return tools_.compile_kernel(code); }));
  if (offer.verify)
    toolbox_.add(verify_kernel_tool([this](const std::string& code) { return verify(code); }, mode != Mode::Optimize));
  for (KernelTool& extra : tools_.extra_tools()) toolbox_.add(std::move(extra));
  // The mode's prompt describes compile_kernel and verify_kernel (optimize: and profile_kernel
  // when offered); any other set is named in the task message so the prompt stays true.
  const bool described = offer.compile && offer.verify && (mode_ == Mode::Optimize || toolbox_.names().size() == 2);
  if (uses_tools(mode_) && !described) {
    std::string names;
    for (const std::string& n : toolbox_.names()) names += (names.empty() ? "`" : ", `") + n + "`";
    prompts_.task += "\nTools offered in this episode: " + names +
                     " (the list above is replaced by this one; each takes the whole kernel source in `code`).\n";
  }
  if (mode_ == Mode::Optimize && !prompts_.start_kernel.empty()) {
    // The starting kernel is the answer until a verified kernel beats it (kernel_turn 0).
    judged_.final_kernel = prompts_.start_kernel;
    have_correct_ = true;
    best_latency_ = tools_.estimate_latency(prompts_.start_kernel);
  }
}

Conversation Environment::reset() const {
  Conversation c;
  c.system = prompts_.system;
  if (uses_tools(mode_)) c.tools = toolbox_.specs();
  c.messages.push_back(user_message(prompts_.task));
  return c;
}

void Environment::log(const std::string& type, ojson fields) {
  if (events_) events_(type, std::move(fields));
}

void Environment::log_check(const ToolResult& r, int turn, bool final) {
  log("harness_check", with_result({{"turn", turn}, {"final", final}}, r));
}

void Environment::offer_candidate(const std::string& code) {
  std::optional<double> est = tools_.estimate_latency(code);
  bool better = !have_correct_ || (est && (!best_latency_ || *est < *best_latency_));
  log("optimize_candidate", {{"turn", turn_}, {"estimated_ns", est ? ojson(*est) : ojson()},
                             {"best_ns", best_latency_ ? ojson(*best_latency_) : ojson()}, {"kept", better}});
  if (!better) return;
  if (judged_.final_kernel != code) {
    judged_.final_kernel = code;
    judged_.kernel_turn = turn_;
  }
  have_correct_ = true;
  best_latency_ = est;
}

void Environment::set_kernel(const std::string& code) {
  // Optimize mode: the final kernel changes only through offer_candidate once one is correct.
  if (mode_ == Mode::Optimize && have_correct_) return;
  // Re-submitting the same kernel keeps the turn that first produced it, so turns-to-pass counts
  // when the passing kernel was written, not when it was last repeated (multi-turn mode).
  if (code == judged_.final_kernel && judged_.kernel_turn > 0) return;
  judged_.final_kernel = code;
  judged_.kernel_turn = turn_;
}

ToolResult Environment::verify(const std::string& code) {
  auto it = verified_.find(code);
  if (it != verified_.end()) return it->second;
  ToolResult r = tools_.verify_kernel(code);
  verified_[code] = r;
  if (mode_ == Mode::Optimize && r.passed) offer_candidate(code);
  return r;
}

StepResult Environment::step(const Message& reply) {
  StepResult out;
  out.turn = ++turn_;
  if (uses_tools(mode_) && !reply.tool_calls.empty()) step_tool_calls(reply, out);
  else step_text_answer(reply, out);
  if (!out.done && last_turn()) {
    out.done = true;
    out.stop = StopReason::MaxTurns;
  }
  return out;
}

void Environment::step_tool_calls(const Message& reply, StepResult& out) {
  for (const auto& call : reply.tool_calls) {
    ++judged_.tool_calls;
    ToolExecution x = toolbox_.prepare(call);
    log("tool_call", {{"turn", turn_}, {"id", call.id}, {"name", call.name}, {"code_chars", x.code.size()}});
    if (!x.bad_call) set_kernel(x.code);
    Toolbox::run(x);
    if (!out.action.empty()) out.action += "+";  // e.g. "compile+verify" for two calls in one reply
    out.action += x.action();
    out.result = x.bad_call ? "bad_call" : outcome_of(x.result);
    log("tool_result", with_result({{"turn", turn_}, {"id", call.id}, {"name", call.name}}, x.result));
    out.messages.push_back({Role::Tool, x.result.text, {}, call.id, call.name, !x.result.passed});
    // A passing verification ends the episode; later calls in the same reply are moot.
    if (x.solved()) {
      judged_.pass_turn = turn_;
      out.done = true;
      out.stop = StopReason::Verified;
      return;
    }
  }
}

void Environment::step_text_answer(const Message& reply, StepResult& out) {
  std::string code = extract_code_from_text(reply.content);
  if (mode_ == Mode::Optimize) {
    // A reply without a tool call is the model's final answer, whatever its text holds: the
    // answer is the fastest kernel verified so far (the starting kernel until one beats it). A
    // kernel in the text is neither verified nor kept (mode_optimize.md: unverified kernels never
    // count); checking it and asking for more would keep a finished model talking to max_turns.
    out.action = code.empty() ? "text" : "answer";
    out.result = "done";
    out.done = true;
    out.stop = StopReason::Answered;
    return;
  }
  if (code.empty()) {
    out.action = "text";
    out.result = "no_code";
    if (!last_turn()) out.messages.push_back(user_message(prompts_.no_code_followup));
    out.done = mode_ == Mode::SingleShot;  // stop = MaxTurns: the one reply had no kernel
    return;
  }
  set_kernel(code);
  out.action = "answer";
  out.result = "unchecked";
  switch (mode_) {
    case Mode::SingleShot:
      out.done = true;
      out.stop = StopReason::Answered;
      return;
    case Mode::MultiTurn:
      if (!last_turn()) out.messages.push_back(user_message(prompts_.review_followup));
      return;
    case Mode::Optimize:  // handled above: a text reply ends the episode
    case Mode::Agent: {
      // The model answered in prose instead of calling a tool. No kernel has passed yet (a pass
      // ends an agent episode), so the harness checks this one as if verify_kernel had been
      // called: a pass ends the episode, a failure goes back with the repair prompt.
      ToolResult r = verify(code);
      log_check(r, turn_, false);
      out.result = outcome_of(r);
      if (r.passed) {
        judged_.pass_turn = turn_;
        out.done = true;
        out.stop = StopReason::Verified;
        return;
      }
      if (!last_turn()) out.messages.push_back(user_message(render_template(prompts_.feedback, {{"result", r.text}})));
      return;
    }
  }
}

// The harness verdict on the final kernel, whatever the model said about it.
Judgement Environment::finish(StopReason stop, int turns) {
  Judgement& j = judged_;
  bool budget = stop == StopReason::CostBudget || stop == StopReason::TimeBudget;
  if (j.final_kernel.empty()) {
    j.verdict = stop == StopReason::ApiError ? VerdictKind::ApiError
                : budget                     ? VerdictKind::BudgetExhausted
                                             : VerdictKind::NoCode;
    j.final_check = {false, "no kernel was produced", FailureKind::Unspecified};
    return j;
  }
  j.final_check = tools_.final_verdict(j.final_kernel);
  // Optimize: the answer is the kept kernel, written at kernel_turn (0: the starting kernel).
  if (mode_ == Mode::Optimize) j.pass_turn = j.kernel_turn;
  if (j.final_check.passed) {
    j.verdict = VerdictKind::Pass;
    if (j.pass_turn == 0) j.pass_turn = j.kernel_turn;
  } else if (stop == StopReason::ApiError) {
    j.pass_turn = 0;
    j.verdict = VerdictKind::ApiError;
  } else if (budget) {
    j.pass_turn = 0;
    j.verdict = VerdictKind::BudgetExhausted;
  } else {
    // A kernel can pass the verify tool's public trials and still fail the held-out ones.
    j.pass_turn = 0;
    FailureKind kind = j.final_check.failure;
    if (kind == FailureKind::Unspecified)
      kind = tools_.compile_kernel(j.final_kernel).passed ? FailureKind::Mismatch : FailureKind::CompileError;
    j.verdict = kind == FailureKind::CompileError   ? VerdictKind::CompileError
                : kind == FailureKind::RuntimeError ? VerdictKind::RuntimeError
                                                    : VerdictKind::Mismatch;
  }
  log_check(j.final_check, turns, true);
  return j;
}

}  // namespace nki::agent
