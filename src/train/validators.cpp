#include "train/validators.h"

#include <algorithm>
#include <map>

#include "agent/code_extract.h"
#include "train/kernel_facts.h"

namespace nki::train {

namespace {

Rejection reject(std::string reason, std::string message) { return {std::move(reason), std::move(message)}; }

bool nonempty_string(const nlohmann::json& j, const char* key) {
  return j.contains(key) && j[key].is_string() && !j[key].get<std::string>().empty();
}

std::string shape_str(const std::vector<int64_t>& s) {
  std::string t = "[";
  for (size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
  return t + "]";
}

}  // namespace

Verdict check_openai_json(const nlohmann::json& j) {
  if (!j.contains("messages") || !j["messages"].is_array() || j["messages"].size() < 2)
    return reject("bad_structure", "fewer than two messages");
  const auto& msgs = j["messages"];
  std::set<std::string> tool_names;
  if (j.contains("tools") && j["tools"].is_array())
    for (const auto& t : j["tools"])
      if (t.contains("function") && t["function"].contains("name")) tool_names.insert(t["function"]["name"].get<std::string>());
  std::set<std::string> pending, seen_ids;
  std::string prev;
  bool any_assistant = false;
  for (size_t i = 0; i < msgs.size(); ++i) {
    const auto& m = msgs[i];
    std::string where = "message " + std::to_string(i);
    if (!m.is_object() || !m.contains("role") || !m["role"].is_string()) return reject("bad_structure", where + " has no role");
    std::string role = m["role"];
    if (role == "system") {
      if (i != 0) return reject("bad_structure", where + ": a system message after the first");
      if (!nonempty_string(m, "content")) return reject("bad_structure", "empty system prompt");
    } else if (role == "user") {
      if (!pending.empty()) return reject("bad_structure", where + ": a user turn before every tool call was answered");
      if (prev == "user") return reject("bad_structure", where + ": two user turns in a row");
      if (!nonempty_string(m, "content")) return reject("bad_structure", where + ": empty user turn");
    } else if (role == "assistant") {
      if (!pending.empty()) return reject("bad_structure", where + ": an assistant turn before every tool call was answered");
      if (prev == "assistant") return reject("bad_structure", where + ": two assistant turns in a row");
      if (prev == "system" || prev.empty()) return reject("bad_structure", where + ": assistant before any user turn");
      bool has_calls = m.contains("tool_calls") && m["tool_calls"].is_array() && !m["tool_calls"].empty();
      if (!has_calls && !nonempty_string(m, "content")) return reject("bad_structure", where + ": empty assistant turn");
      if (has_calls) {
        for (const auto& c : m["tool_calls"]) {
          if (!nonempty_string(c, "id") || !c.contains("function")) return reject("bad_structure", where + ": a tool call without id or function");
          std::string id = c["id"], name = c["function"].value("name", "");
          if (!seen_ids.insert(id).second) return reject("bad_structure", where + ": tool call id '" + id + "' used twice");
          if (!tool_names.count(name)) return reject("bad_structure", where + ": call of tool '" + name + "' that is not offered");
          std::string args = c["function"].value("arguments", "");
          auto a = nlohmann::json::parse(args, nullptr, false);
          if (a.is_discarded() || !a.is_object() || !nonempty_string(a, "code"))
            return reject("bad_structure", where + ": tool arguments are not a JSON object with a \"code\" string");
          pending.insert(id);
        }
      }
      any_assistant = true;
    } else if (role == "tool") {
      std::string id = m.value("tool_call_id", "");
      if (!pending.erase(id)) return reject("bad_structure", where + ": a tool result for no pending call ('" + id + "')");
      if (!nonempty_string(m, "content")) return reject("bad_structure", where + ": empty tool result");
    } else {
      return reject("bad_structure", where + ": unknown role '" + role + "'");
    }
    if (i == 1 && role != "user") return reject("bad_structure", "the conversation does not start with the task (user) message");
    if (i == 0 && role != "system") return reject("bad_structure", "the first message is not the system prompt");
    prev = role;
  }
  if (!pending.empty()) return reject("bad_structure", "tool call '" + *pending.begin() + "' is never answered");
  if (!any_assistant) return reject("bad_structure", "no assistant turn");
  return std::nullopt;
}

Verdict check_sharegpt_json(const nlohmann::json& j) {
  if (!nonempty_string(j, "system")) return reject("bad_structure", "empty system prompt");
  if (!j.contains("conversations") || !j["conversations"].is_array() || j["conversations"].empty())
    return reject("bad_structure", "no conversations");
  const auto& c = j["conversations"];
  // LLaMA-Factory's sharegpt rule: human/observation at even positions, gpt/function_call at
  // odd ones, and an even count (the last turn is the model's).
  if (c.size() % 2 != 0) return reject("bad_structure", "odd number of turns (the last turn must be the model's)");
  for (size_t i = 0; i < c.size(); ++i) {
    std::string where = "turn " + std::to_string(i);
    std::string from = c[i].value("from", "");
    if (!nonempty_string(c[i], "value")) return reject("bad_structure", where + ": empty turn");
    bool even = i % 2 == 0;
    if (even && from != "human" && from != "observation") return reject("bad_structure", where + ": '" + from + "' where human or observation belongs");
    if (!even && from != "gpt" && from != "function_call") return reject("bad_structure", where + ": '" + from + "' where gpt or function_call belongs");
    if (from == "observation" && (i == 0 || c[i - 1].value("from", "") != "function_call"))
      return reject("bad_structure", where + ": an observation that answers no function call");
    if (from == "function_call") {
      if (i + 1 < c.size() && c[i + 1].value("from", "") != "observation")
        return reject("bad_structure", where + ": a function call without its observation");
      auto v = nlohmann::json::parse(c[i]["value"].get<std::string>(), nullptr, false);
      auto one_ok = [](const nlohmann::json& x) {
        return x.is_object() && x.contains("name") && x.contains("arguments") && x["arguments"].is_object() &&
               x["arguments"].contains("code");
      };
      bool ok = !v.is_discarded() && (v.is_array() ? !v.empty() && std::all_of(v.begin(), v.end(), one_ok) : one_ok(v));
      if (!ok) return reject("bad_structure", where + ": function_call value is not {name, arguments: {code}}");
    }
  }
  return std::nullopt;
}

Verdict check_structure(const TrainingRecord& r, Format format) {
  if (format == Format::ShareGPT) return check_sharegpt_json(to_sharegpt(r));
  return check_openai_json(to_openai(r));
}

Verdict check_signature(const std::string& kernel, const agent::TaskInfo& task) {
  std::optional<KernelSignature> sig = kernel_signature(kernel);
  if (!sig) return reject("no_kernel_function", "the final kernel has no @nki.jit function (or does not parse)");
  if (sig->name != task.kernel_name)
    return reject("wrong_kernel_name", "kernel function '" + sig->name + "', the task requires '" + task.kernel_name + "'");
  std::vector<std::string> want = agent::task_arg_names(task);
  if (sig->params == want) return std::nullopt;
  auto join = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
  };
  std::vector<std::string> a = sig->params, b = want;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  if (a == b) return reject("wrong_arg_order", "parameters (" + join(sig->params) + "), required (" + join(want) + ")");
  return reject("wrong_args", "parameters (" + join(sig->params) + "), required (" + join(want) + ")");
}

Verdict check_rank(const std::string& kernel, const TaskSpec& task, const CheckSettings& s) {
  auto file = std::make_shared<SourceFile>("kernel.py", kernel);
  front::TraceOptions opts = s.run.trace;
  opts.args.clear();
  for (const TensorSpec& t : task.kernel_args()) opts.args.push_back(front::ArgSpec{t.shape, t.dtype});
  toolchain::CompileResult c = toolchain::compile(file, opts, s.run.isolation);
  if (!c.ok()) {
    std::string first;
    for (const Diagnostic& d : c.diagnostics)
      if (d.severity == Severity::Error) { first = d.code + ": " + d.message; break; }
    return reject("compile_failed", first.empty() ? "does not compile" : first);
  }
  const ir::Kernel& k = *c.kernel;
  if (k.outputs.size() != task.outputs.size()) return std::nullopt;  // reverify reports the count
  for (size_t i = 0; i < k.outputs.size(); ++i) {
    const ir::TensorDecl& t = k.tensors.at(static_cast<size_t>(k.outputs[i]));
    if (t.shape != task.outputs[i].shape)
      return reject("rank_mismatch", "output " + std::to_string(i) + " is returned as " + shape_str(t.shape) + ", the task's is " +
                                         shape_str(task.outputs[i].shape));
  }
  return std::nullopt;
}

Verdict check_reverify(const std::string& kernel, const TaskSpec& task, const CheckSettings& s) {
  VerifyOptions vo;
  vo.golden = s.golden;
  vo.held_out = held_out_trials(task, s.secret, s.fresh_trials);
  auto file = std::make_shared<SourceFile>("kernel.py", kernel);
  VerifyReport rep = verify_task(task, vo, toolchain::make_runner(file, s.run));
  for (const TrialReport& t : rep.trials)
    for (const OutputComparison& o : t.outputs)
      if (o.never_written > 0)
        return reject("output_not_stored", "output " + std::to_string(o.index) + ": " + std::to_string(o.never_written) + " of " +
                                               std::to_string(o.elements) + " elements never written (trial " +
                                               std::to_string(t.trial) + ")");
  if (rep.status != VerifyStatus::Pass) {
    std::string text = render_verify_text(rep);
    return reject("reverify_failed", text.substr(0, text.find('\n')));
  }
  int held = 0;
  for (const TrialReport& t : rep.trials) held += t.held_out && t.passed;
  if (held < s.fresh_trials)
    return reject("reverify_failed", "only " + std::to_string(held) + " fresh trials ran");
  return std::nullopt;
}

Verdict DuplicateFilter::check(const std::string& task_id, const std::string& kernel) {
  if (!seen_.insert({task_id, normalized_kernel_hash(kernel)}).second)
    return reject("duplicate", "the same kernel (normalised) for task " + task_id + " was already kept");
  return std::nullopt;
}

Verdict check_contamination(const TaskSpec& task, const std::string& reference_source, const std::string& kernel,
                            const BenchmarkIndex& index) {
  std::optional<Contamination> c = index.check(task, reference_source, kernel);
  if (!c) return std::nullopt;
  std::string msg = "benchmark task " + c->benchmark_task + " (" + c->rule;
  if (c->rule == "kernel_jaccard" || c->rule == "reference_jaccard") msg += " " + std::to_string(c->score).substr(0, 4);
  return reject("contaminated", msg + ")");
}

Verdict truncate_to_budget(TrainingRecord& r, long long budget, size_t keep_chars) {
  if (budget <= 0) return std::nullopt;
  auto tokens = [&] { return estimate_tokens(record_chars(r)); };
  if (tokens() <= budget) return std::nullopt;
  // Tool results and later user feedback, longest first: diagnostics and mismatch listings are
  // where episodes grow; the model's own turns and the task message are never cut.
  std::vector<size_t> order;
  for (size_t i = 1; i < r.messages.size(); ++i)
    if (r.messages[i].role == agent::Role::Tool || r.messages[i].role == agent::Role::User) order.push_back(i);
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return r.messages[a].content.size() > r.messages[b].content.size(); });
  for (size_t i : order) {
    if (tokens() <= budget) break;
    std::string& text = r.messages[i].content;
    if (text.size() <= keep_chars) continue;
    size_t head = keep_chars / 2, tail = keep_chars - head;
    size_t cut = text.size() - head - tail;
    text = text.substr(0, head) + "\n[... " + std::to_string(cut) + " characters cut ...]\n" + text.substr(text.size() - tail);
    r.cut_chars += static_cast<long long>(cut);
  }
  if (tokens() > budget)
    return reject("over_token_budget", "about " + std::to_string(tokens()) + " tokens after truncation, budget " +
                                           std::to_string(budget));
  return std::nullopt;
}

}  // namespace nki::train
