#include "train/record.h"

#include <stdexcept>

namespace nki::train {

const char* format_name(Format f) {
  switch (f) {
    case Format::OpenAI: return "openai";
    case Format::ShareGPT: return "sharegpt";
    case Format::Dpo: return "dpo";
  }
  return "openai";
}

Format format_from_name(const std::string& name) {
  if (name == "openai") return Format::OpenAI;
  if (name == "sharegpt") return Format::ShareGPT;
  if (name == "dpo") return Format::Dpo;
  throw std::invalid_argument("unknown format '" + name + "' (openai, sharegpt or dpo)");
}

namespace {

// A tool call's arguments as a JSON value; text that is not JSON stays a string (the validator
// rejects such a record before it is written).
nlohmann::ordered_json arguments_value(const std::string& text) {
  auto j = nlohmann::ordered_json::parse(text, nullptr, false);
  if (j.is_discarded()) return text;
  return j;
}

nlohmann::ordered_json tool_function(const agent::ToolSpec& t) {
  return {{"name", t.name}, {"description", t.description}, {"parameters", arguments_value(t.parameters_schema)}};
}

void add_metadata(nlohmann::ordered_json& j, const TrainingRecord& r) {
  j["task_id"] = r.task_id;
  j["provenance"] = r.provenance;
  j["mode"] = r.mode;
  j["nki"] = r.nki;
  j["source"] = r.id;
}

}  // namespace

std::string fenced_kernel(const std::string& code) {
  std::string body = code;
  if (!body.empty() && body.back() != '\n') body += '\n';
  return "```python\n" + body + "```";
}

nlohmann::ordered_json to_openai(const TrainingRecord& r) {
  auto msgs = nlohmann::ordered_json::array();
  msgs.push_back({{"role", "system"}, {"content", r.system}});
  for (const agent::Message& m : r.messages) {
    nlohmann::ordered_json j;
    j["role"] = agent::role_name(m.role);
    j["content"] = m.content;
    if (!m.tool_calls.empty()) {
      auto calls = nlohmann::ordered_json::array();
      for (const agent::ToolCall& c : m.tool_calls)
        calls.push_back({{"id", c.id}, {"type", "function"},
                         {"function", {{"name", c.name}, {"arguments", c.arguments}}}});
      j["tool_calls"] = calls;
    }
    if (m.role == agent::Role::Tool) {
      j["tool_call_id"] = m.tool_call_id;
      j["name"] = m.tool_name;
    }
    msgs.push_back(std::move(j));
  }
  nlohmann::ordered_json out;
  out["messages"] = std::move(msgs);
  if (!r.tools.empty()) {
    auto tools = nlohmann::ordered_json::array();
    for (const agent::ToolSpec& t : r.tools) tools.push_back({{"type", "function"}, {"function", tool_function(t)}});
    out["tools"] = std::move(tools);
  }
  add_metadata(out, r);
  return out;
}

nlohmann::ordered_json to_sharegpt(const TrainingRecord& r) {
  auto conv = nlohmann::ordered_json::array();
  for (size_t i = 0; i < r.messages.size(); ++i) {
    const agent::Message& m = r.messages[i];
    switch (m.role) {
      case agent::Role::User: conv.push_back({{"from", "human"}, {"value", m.content}}); break;
      case agent::Role::System: conv.push_back({{"from", "human"}, {"value", m.content}}); break;
      case agent::Role::Assistant:
        if (m.tool_calls.empty()) {
          conv.push_back({{"from", "gpt"}, {"value", m.content}});
        } else {
          // LLaMA-Factory's function_call slot holds the call(s) only; the reply's prose is not
          // representable there and is left out (docs/training.md).
          nlohmann::ordered_json calls = nlohmann::ordered_json::array();
          for (const agent::ToolCall& c : m.tool_calls)
            calls.push_back({{"name", c.name}, {"arguments", arguments_value(c.arguments)}});
          nlohmann::ordered_json v = calls.size() == 1 ? calls[0] : calls;
          conv.push_back({{"from", "function_call"}, {"value", v.dump()}});
        }
        break;
      case agent::Role::Tool: {
        // Consecutive tool results (several calls in one reply) become one observation, so
        // that observation and function_call turns keep alternating.
        std::string text = m.content;
        while (i + 1 < r.messages.size() && r.messages[i + 1].role == agent::Role::Tool)
          text += "\n\n" + r.messages[++i].content;
        conv.push_back({{"from", "observation"}, {"value", text}});
        break;
      }
    }
  }
  // LLaMA-Factory wants the model's turn last: a final observation (the passing verification
  // that ended an agent episode) teaches nothing and is left out.
  if (!conv.empty() && conv.back()["from"] == "observation") conv.erase(conv.size() - 1);
  nlohmann::ordered_json out;
  out["conversations"] = std::move(conv);
  out["system"] = r.system;
  if (!r.tools.empty()) {
    auto tools = nlohmann::ordered_json::array();
    for (const agent::ToolSpec& t : r.tools) tools.push_back(tool_function(t));
    out["tools"] = tools.dump();
  }
  add_metadata(out, r);
  return out;
}

nlohmann::ordered_json to_dpo(const TrainingRecord& r, const std::string& rejected_code) {
  auto prompt = nlohmann::ordered_json::array();
  prompt.push_back({{"role", "system"}, {"content", r.system}});
  for (const agent::Message& m : r.messages) {
    if (m.role != agent::Role::User) break;
    prompt.push_back({{"role", "user"}, {"content", m.content}});
    break;  // the task message only
  }
  nlohmann::ordered_json out;
  out["prompt"] = std::move(prompt);
  out["chosen"] = nlohmann::ordered_json::array({{{"role", "assistant"}, {"content", fenced_kernel(r.final_kernel)}}});
  out["rejected"] = nlohmann::ordered_json::array({{{"role", "assistant"}, {"content", fenced_kernel(rejected_code)}}});
  add_metadata(out, r);
  return out;
}

long long record_chars(const TrainingRecord& r) {
  long long n = static_cast<long long>(r.system.size());
  for (const agent::Message& m : r.messages) {
    n += static_cast<long long>(m.content.size());
    for (const agent::ToolCall& c : m.tool_calls) n += static_cast<long long>(c.name.size() + c.arguments.size());
  }
  return n;
}

long long estimate_tokens(long long chars) { return (chars + 3) / 4; }

}  // namespace nki::train
