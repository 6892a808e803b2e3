#include "agent/agent_loop.h"

#include <chrono>
#include <map>
#include <optional>

#include "agent/code_extract.h"

namespace nki::agent {
namespace {

using ojson = nlohmann::ordered_json;

// One episode's state; run() is the loop, the other members are its steps.
class Episode {
 public:
  Episode(const EpisodeConfig& c, const EpisodePrompts& p, ModelClient& m, KernelTools& t,
          TranscriptWriter* w)
      : config_(c), prompts_(p), model_(m), tools_(t), log_(w) {
    toolbox_.add(compile_kernel_tool([this](const std::string& code) { return tools_.compile_kernel(code); }));
    toolbox_.add(verify_kernel_tool([this](const std::string& code) { return verify(code); }));
    for (KernelTool& extra : tools_.extra_tools()) toolbox_.add(std::move(extra));
  }

  EpisodeResult run();

 private:
  bool budget_stop();
  bool budget_stopped() const {
    return result_.stop_reason == StopReason::CostBudget || result_.stop_reason == StopReason::TimeBudget;
  }
  bool handle_tool_calls(const Message& reply);                   // true: a verify passed
  bool handle_text_answer(const Message& reply, bool last_turn);  // true: stop the loop
  ToolResult verify(const std::string& code);
  void finish();

  void set_kernel(const std::string& code);
  void record(const std::string& action, const std::string& outcome);
  void push_user(const std::string& text);
  void log(const std::string& type, ojson fields);
  void log_check(const ToolResult& r, bool final);
  void log_request();

  const EpisodeConfig& config_;
  const EpisodePrompts& prompts_;
  ModelClient& model_;
  KernelTools& tools_;
  TranscriptWriter* log_;
  Toolbox toolbox_;

  Conversation conv_;
  EpisodeResult result_;
  size_t logged_messages_ = 0;                  // messages already in an earlier transcript line
  std::map<std::string, ToolResult> verified_;  // verify results by exact code: no re-runs
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  int turn_ = 0;
  std::optional<StopReason> stopped_;  // unset until something ends the loop before its turn limit
};

std::string outcome_of(const ToolResult& r) { return r.passed ? "ok" : failure_kind_name(r.failure); }

void Episode::set_kernel(const std::string& code) {
  // Re-submitting the same kernel keeps the turn that first produced it, so turns-to-pass counts
  // when the passing kernel was written, not when it was last repeated (multi-turn mode).
  if (code == result_.final_kernel && result_.kernel_turn > 0) return;
  result_.final_kernel = code;
  result_.kernel_turn = turn_;
}

void Episode::record(const std::string& action, const std::string& outcome) {
  result_.turn_log.back().action = action;
  result_.turn_log.back().result = outcome;
}

void Episode::push_user(const std::string& text) {
  conv_.messages.push_back({Role::User, text, {}, "", "", false});
}

void Episode::log(const std::string& type, ojson fields) {
  if (log_) log_->write(type, std::move(fields));
}

// `fields` plus the ToolResult's fields, for tool_result and harness_check lines.
ojson with_result(ojson fields, const ToolResult& r) {
  ojson result_fields = tool_result_to_json(r);  // named: items() must not outlive a temporary
  for (auto& [k, v] : result_fields.items()) fields[k] = v;
  return fields;
}

void Episode::log_check(const ToolResult& r, bool final) {
  log("harness_check", with_result({{"turn", final ? result_.turns : turn_}, {"final", final}}, r));
}

// Only the messages added since the last request are written: the transcript stays linear in
// the conversation length while still reconstructing it exactly.
void Episode::log_request() {
  ojson fresh = ojson::array();
  for (size_t i = logged_messages_; i < conv_.messages.size(); ++i)
    fresh.push_back(message_to_json(conv_.messages[i]));
  logged_messages_ = conv_.messages.size();
  log("request", {{"turn", turn_}, {"n_messages", conv_.messages.size()}, {"new_messages", fresh}});
}

bool Episode::budget_stop() {
  if (config_.max_cost_usd > 0 && result_.usage.cost_usd >= config_.max_cost_usd) {
    stopped_ = StopReason::CostBudget;
    return true;
  }
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (config_.max_wall_s > 0 && elapsed >= config_.max_wall_s) {
    stopped_ = StopReason::TimeBudget;
    return true;
  }
  return false;
}

ToolResult Episode::verify(const std::string& code) {
  auto it = verified_.find(code);
  if (it != verified_.end()) return it->second;
  ToolResult r = tools_.verify_kernel(code);
  verified_[code] = r;
  return r;
}

bool Episode::handle_tool_calls(const Message& reply) {
  std::string actions;  // e.g. "compile+verify" when one reply makes two calls
  for (const auto& call : reply.tool_calls) {
    ++result_.tool_calls;
    ToolExecution x = toolbox_.prepare(call);
    log("tool_call", {{"turn", turn_}, {"id", call.id}, {"name", call.name},
                      {"code_chars", x.code.size()}});
    if (!x.bad_call) set_kernel(x.code);
    Toolbox::run(x);
    if (!actions.empty()) actions += "+";
    actions += x.action();
    record(actions, x.bad_call ? "bad_call" : outcome_of(x.result));
    log("tool_result", with_result({{"turn", turn_}, {"id", call.id}, {"name", call.name}}, x.result));
    conv_.messages.push_back({Role::Tool, x.result.text, {}, call.id, call.name, !x.result.passed});
    // A passing verification ends the episode; later calls in the same reply are moot.
    if (x.solved()) {
      result_.pass_turn = turn_;
      return true;
    }
  }
  return false;
}

bool Episode::handle_text_answer(const Message& reply, bool last_turn) {
  std::string code = extract_code_from_text(reply.content);
  if (code.empty()) {
    record("text", "no_code");
    if (!last_turn) push_user(prompts_.no_code_followup);
    return config_.mode == Mode::SingleShot;
  }
  set_kernel(code);
  record("answer", "unchecked");
  switch (config_.mode) {
    case Mode::SingleShot:
      stopped_ = StopReason::Answered;
      return true;
    case Mode::MultiTurn:
      if (!last_turn) push_user(prompts_.review_followup);
      return false;
    case Mode::Agent: {
      // The model answered in prose instead of calling a tool: the harness checks the kernel and
      // feeds the outcome back, as if verify_kernel had been called.
      ToolResult r = verify(code);
      log_check(r, false);
      record("answer", outcome_of(r));
      if (r.passed) {
        result_.pass_turn = turn_;
        stopped_ = StopReason::Verified;
        return true;
      }
      if (!last_turn) push_user(render_template(prompts_.feedback, {{"result", r.text}}));
      return false;
    }
  }
  return false;
}

EpisodeResult Episode::run() {
  if (config_.max_wall_s > 0)
    tools_.set_deadline(start_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                     std::chrono::duration<double>(config_.max_wall_s)));
  conv_.system = prompts_.system;
  if (config_.mode == Mode::Agent) conv_.tools = toolbox_.specs();
  push_user(prompts_.task);
  int max_turns = config_.mode == Mode::SingleShot ? 1 : std::max(1, config_.max_turns);
  log("header", {{"format", "nki-agent-transcript"},
                 {"task_id", config_.task_id},
                 {"model", config_.model_label.empty() ? model_.name() : config_.model_label},
                 {"client", model_.name()},
                 {"mode", mode_name(config_.mode)},
                 {"max_turns", max_turns},
                 {"system", conv_.system},
                 {"tools", conv_.tools.empty() ? ojson::array() : ojson(toolbox_.names())},
                 {"note", config_.note}});

  for (turn_ = 1; turn_ <= max_turns; ++turn_) {
    if (budget_stop()) break;
    log_request();
    ++result_.turns;
    result_.turn_log.push_back({turn_, "model_call", "api_error", {}});
    ModelReply reply;
    try {
      reply = model_.complete(conv_);
    } catch (const ModelError& e) {
      log("model_error", {{"turn", turn_}, {"kind", model_error_kind_name(e.kind())}, {"message", e.what()}});
      stopped_ = StopReason::ApiError;
      result_.error = e.what();
      break;
    }
    result_.usage += reply.usage;
    result_.turn_log.back().usage = reply.usage;
    log("response", {{"turn", turn_}, {"message", message_to_json(reply.message)},
                     {"stop_reason", reply.stop_reason}, {"usage", usage_to_json(reply.usage)}});
    conv_.messages.push_back(reply.message);
    logged_messages_ = conv_.messages.size();  // the response event already holds it

    bool stop = false;
    if (config_.mode == Mode::Agent && !reply.message.tool_calls.empty()) {
      if (handle_tool_calls(reply.message)) {
        stopped_ = StopReason::Verified;
        stop = true;
      }
    } else {
      stop = handle_text_answer(reply.message, turn_ == max_turns);
    }
    if (stop) break;
  }
  result_.stop_reason = stopped_.value_or(StopReason::MaxTurns);
  finish();
  return result_;
}

// The harness verdict on the final kernel, whatever the model said about it.
void Episode::finish() {
  if (result_.final_kernel.empty()) {
    result_.verdict = result_.stop_reason == StopReason::ApiError ? VerdictKind::ApiError
                      : budget_stopped()                          ? VerdictKind::BudgetExhausted
                                                                  : VerdictKind::NoCode;
    result_.final_check = {false, "no kernel was produced", FailureKind::Unspecified};
  } else {
    result_.final_check = tools_.final_verdict(result_.final_kernel);
    if (result_.final_check.passed) {
      result_.verdict = VerdictKind::Pass;
      if (result_.pass_turn == 0) result_.pass_turn = result_.kernel_turn;
    } else if (result_.stop_reason == StopReason::ApiError) {
      result_.pass_turn = 0;
      result_.verdict = VerdictKind::ApiError;
    } else if (budget_stopped()) {
      result_.pass_turn = 0;
      result_.verdict = VerdictKind::BudgetExhausted;
    } else {
      // A kernel can pass the verify tool's public trials and still fail the held-out ones.
      result_.pass_turn = 0;
      FailureKind kind = result_.final_check.failure;
      if (kind == FailureKind::Unspecified)
        kind = tools_.compile_kernel(result_.final_kernel).passed ? FailureKind::Mismatch
                                                                  : FailureKind::CompileError;
      result_.verdict = kind == FailureKind::CompileError   ? VerdictKind::CompileError
                        : kind == FailureKind::RuntimeError ? VerdictKind::RuntimeError
                                                            : VerdictKind::Mismatch;
    }
    log_check(result_.final_check, true);
  }
  log("result", {{"verdict", verdict_kind_name(result_.verdict)},
                 {"passed", result_.verdict == VerdictKind::Pass},
                 {"stop_reason", stop_reason_name(result_.stop_reason)},
                 {"turns", result_.turns},
                 {"tool_calls", result_.tool_calls},
                 {"kernel_turn", result_.kernel_turn},
                 {"pass_turn", result_.pass_turn},
                 {"error", result_.error},
                 {"usage", usage_to_json(result_.usage)},
                 {"final_kernel", result_.final_kernel}});
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

EpisodeResult run_episode(const EpisodeConfig& config, const EpisodePrompts& prompts,
                          ModelClient& model, KernelTools& tools, TranscriptWriter* transcript) {
  return Episode(config, prompts, model, tools, transcript).run();
}

}  // namespace nki::agent
