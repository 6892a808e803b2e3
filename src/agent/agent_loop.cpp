#include "agent/agent_loop.h"

#include <chrono>
#include <optional>

#include "agent/environment.h"

namespace nki::agent {
namespace {

using ojson = nlohmann::ordered_json;

// One episode: the model client, the budgets and the transcript around an Environment, which
// owns the task side (tools, modes, final verdict).
class Episode {
 public:
  Episode(const EpisodeConfig& c, const EpisodePrompts& p, ModelClient& m, KernelTools& t, TranscriptWriter* w)
      : config_(c),
        model_(m),
        tools_(t),
        log_(w),
        env_(c.mode, c.max_turns, p, t, [this](const std::string& type, ojson fields) { log(type, std::move(fields)); }) {}

  EpisodeResult run();

 private:
  bool budget_stop();
  void finish();
  void log(const std::string& type, ojson fields);
  void log_request();

  const EpisodeConfig& config_;
  ModelClient& model_;
  KernelTools& tools_;
  TranscriptWriter* log_;
  Environment env_;

  Conversation conv_;
  EpisodeResult result_;
  size_t logged_messages_ = 0;  // messages already in an earlier transcript line
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  int turn_ = 0;
  std::optional<StopReason> stopped_;  // unset until something ends the loop before its turn limit
};

void Episode::log(const std::string& type, ojson fields) {
  if (log_) log_->write(type, std::move(fields));
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

EpisodeResult Episode::run() {
  if (config_.max_wall_s > 0)
    tools_.set_deadline(start_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                     std::chrono::duration<double>(config_.max_wall_s)));
  conv_ = env_.reset();
  int max_turns = env_.max_turns();
  log("header", {{"format", "nki-agent-transcript"},
                 {"task_id", config_.task_id},
                 {"model", config_.model_label.empty() ? model_.name() : config_.model_label},
                 {"client", model_.name()},
                 {"mode", mode_name(config_.mode)},
                 {"nki", config_.nki},
                 {"max_turns", max_turns},
                 {"system", conv_.system},
                 {"tools", conv_.tools.empty() ? ojson::array() : ojson(env_.tool_names())},
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

    StepResult step = env_.step(reply.message);
    result_.turn_log.back().action = step.action;
    result_.turn_log.back().result = step.result;
    for (Message& m : step.messages) conv_.messages.push_back(std::move(m));
    if (step.done) {
      stopped_ = step.stop;
      break;
    }
  }
  result_.stop_reason = stopped_.value_or(StopReason::MaxTurns);
  finish();
  return result_;
}

void Episode::finish() {
  Judgement j = env_.finish(result_.stop_reason, result_.turns);
  result_.verdict = j.verdict;
  result_.final_check = j.final_check;
  result_.final_kernel = j.final_kernel;
  result_.kernel_turn = j.kernel_turn;
  result_.pass_turn = j.pass_turn;
  result_.tool_calls = j.tool_calls;
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

EpisodeResult run_episode(const EpisodeConfig& config, const EpisodePrompts& prompts,
                          ModelClient& model, KernelTools& tools, TranscriptWriter* transcript) {
  return Episode(config, prompts, model, tools, transcript).run();
}

}  // namespace nki::agent
