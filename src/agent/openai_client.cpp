#include "agent/openai_client.h"

#include <algorithm>
#include <cctype>

#include "agent/usage_guard.h"

namespace nki::agent {
namespace openai_wire {
namespace {

using ojson = nlohmann::ordered_json;

ojson message_to_wire(const Message& m) {
  ojson w;
  w["role"] = role_name(m.role);
  if (m.role == Role::Tool) {
    w["tool_call_id"] = m.tool_call_id;
    w["content"] = m.content;
    return w;
  }
  if (m.role == Role::Assistant && !m.tool_calls.empty()) {
    w["content"] = m.content.empty() ? ojson(nullptr) : ojson(m.content);
    ojson calls = ojson::array();
    for (const auto& c : m.tool_calls)
      calls.push_back({{"id", c.id},
                       {"type", "function"},
                       {"function", {{"name", c.name}, {"arguments", c.arguments}}}});
    w["tool_calls"] = calls;
    return w;
  }
  w["content"] = m.content;
  return w;
}

[[noreturn]] void bad(const std::string& what) {
  throw ModelError(ModelErrorKind::BadResponse, "openai: unexpected response: " + what);
}

// `content` is a string in OpenAI's API, but some compatible servers send an array of parts.
std::string content_text(const nlohmann::json& c) {
  if (c.is_null()) return {};
  if (c.is_string()) return c.get<std::string>();
  if (c.is_array()) {
    std::string text;
    for (const auto& part : c)
      if (part.is_object() && part.value("type", "") == "text" && part.contains("text") &&
          part["text"].is_string())
        text += part["text"].get<std::string>();
    return text;
  }
  bad("message.content is neither a string nor an array");
}

// Token counts are untrusted (usage_guard.h): unusable prompt/completion counts are replaced by
// estimates from the request and reply sizes, and cache reads never exceed the prompt.
Usage read_usage(const nlohmann::json& reply, const Message& message, size_t request_bytes) {
  Usage usage;
  auto& w = usage.warnings;
  UsageEstimate est = estimate_usage(request_bytes, message);
  if (!reply.contains("usage") || !reply["usage"].is_object()) return estimated_usage("openai", est);
  const nlohmann::json* u = &reply["usage"];
  usage.input_tokens = required_count(read_token_count(u, "prompt_tokens", "openai: usage.prompt_tokens", w),
                                      "openai: usage.prompt_tokens", est.input_tokens, est.input_basis, w);
  usage.output_tokens =
      required_count(read_token_count(u, "completion_tokens", "openai: usage.completion_tokens", w),
                     "openai: usage.completion_tokens", est.output_tokens, est.output_basis, w);
  const nlohmann::json* details = u->contains("prompt_tokens_details") ? &(*u)["prompt_tokens_details"] : nullptr;
  usage.cached_tokens =
      read_token_count(details, "cached_tokens", "openai: usage.prompt_tokens_details.cached_tokens", w).value;
  if (usage.cached_tokens > usage.input_tokens) {
    w.push_back("openai: " + std::to_string(usage.cached_tokens) + " cached tokens exceed the " +
                std::to_string(usage.input_tokens) + " prompt tokens; counted as " +
                std::to_string(usage.input_tokens));
    usage.cached_tokens = usage.input_tokens;
  }
  return usage;
}

}  // namespace

ojson build_request(const ClientConfig& config, const Conversation& conv) {
  ojson req;
  req["model"] = config.model;
  ojson messages = ojson::array();
  if (!conv.system.empty()) messages.push_back({{"role", "system"}, {"content", conv.system}});
  for (const auto& m : conv.messages) messages.push_back(message_to_wire(m));
  req["messages"] = messages;
  if (!conv.tools.empty()) {
    ojson tools = ojson::array();
    for (const auto& t : conv.tools)
      tools.push_back({{"type", "function"},
                       {"function",
                        {{"name", t.name},
                         {"description", t.description},
                         {"parameters", ojson::parse(t.parameters_schema)}}}});
    req["tools"] = tools;
  }
  if (config.max_tokens > 0) req["max_tokens"] = config.max_tokens;
  if (config.temperature) req["temperature"] = *config.temperature;
  return req;
}

ModelReply parse_response(const std::string& body, size_t request_bytes) {
  auto j = nlohmann::json::parse(body, nullptr, false);
  if (j.is_discarded()) bad("body is not valid JSON (" + std::to_string(body.size()) + " bytes)");
  if (!j.is_object()) bad("body is not a JSON object");
  if (!j.contains("choices") || !j["choices"].is_array() || j["choices"].empty())
    bad("no \"choices\"");
  const auto& choice = j["choices"][0];
  if (!choice.is_object() || !choice.contains("message") || !choice["message"].is_object())
    bad("choices[0] has no \"message\" object");
  const auto& msg = choice["message"];

  ModelReply reply;
  reply.message.role = Role::Assistant;
  if (msg.contains("content")) reply.message.content = content_text(msg["content"]);
  if (msg.contains("tool_calls") && !msg["tool_calls"].is_null()) {
    if (!msg["tool_calls"].is_array()) bad("message.tool_calls is not an array");
    for (const auto& tc : msg["tool_calls"]) {
      if (!tc.is_object() || !tc.contains("function") || !tc["function"].is_object())
        bad("tool call without a \"function\" object");
      const auto& fn = tc["function"];
      ToolCall call;
      call.id = tc.value("id", "");
      call.name = fn.value("name", "");
      if (fn.contains("arguments")) {
        // The API sends arguments as a JSON string; tolerate servers that send an object.
        call.arguments = fn["arguments"].is_string() ? fn["arguments"].get<std::string>()
                                                     : fn["arguments"].dump();
      }
      if (call.name.empty()) bad("tool call without a function name");
      reply.message.tool_calls.push_back(std::move(call));
    }
  }
  if (choice.contains("finish_reason") && choice["finish_reason"].is_string()) {
    reply.stop_reason = choice["finish_reason"].get<std::string>();
    std::transform(reply.stop_reason.begin(), reply.stop_reason.end(), reply.stop_reason.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  }
  reply.usage = read_usage(j, reply.message, request_bytes);
  return reply;
}

}  // namespace openai_wire

OpenAIClient::OpenAIClient(ClientConfig config) : config_(std::move(config)) {
  while (!config_.base_url.empty() && config_.base_url.back() == '/') config_.base_url.pop_back();
}

ModelReply OpenAIClient::complete(const Conversation& conv) {
  HttpRequest req;
  req.url = config_.base_url + "/chat/completions";
  req.timeout_s = config_.timeout_s;
  req.headers.emplace_back("Content-Type", "application/json");
  if (!config_.api_key.empty()) req.headers.emplace_back("Authorization", "Bearer " + config_.api_key);
  // Replace invalid UTF-8 (e.g. bytes echoed by a tool) instead of failing the request.
  req.body = openai_wire::build_request(config_, conv)
                 .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);

  PostOutcome out = post_with_retry(req, config_.retry, "openai");
  raise_for_status("openai", config_.model, req.url, out.result, "OPENAI_API_KEY");
  ModelReply reply = openai_wire::parse_response(out.result.body, req.body.size());
  account_call(reply.usage, out.attempts, out.elapsed_s, config_.prices.get(), name());
  return reply;
}

}  // namespace nki::agent
