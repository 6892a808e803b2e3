#include "agent/anthropic_client.h"

#include <algorithm>

#include "agent/usage_guard.h"

namespace nki::agent {
namespace anthropic_wire {
namespace {

using ojson = nlohmann::ordered_json;

[[noreturn]] void bad(const std::string& what) {
  throw ModelError(ModelErrorKind::BadResponse, "anthropic: unexpected response: " + what);
}

// Content blocks for one neutral message; tool results are user-side blocks in this API.
ojson blocks_for(const Message& m) {
  ojson blocks = ojson::array();
  if (m.role == Role::Tool) {
    ojson r = {{"type", "tool_result"}, {"tool_use_id", m.tool_call_id}, {"content", m.content}};
    if (m.is_error) r["is_error"] = true;
    blocks.push_back(r);
    return blocks;
  }
  // The API rejects empty text blocks.
  if (!m.content.empty()) blocks.push_back({{"type", "text"}, {"text", m.content}});
  for (const auto& c : m.tool_calls) {
    auto input = ojson::parse(c.arguments, nullptr, false);
    // tool_use.input must be an object; a malformed recorded call is kept visible, not dropped.
    if (input.is_discarded() || !input.is_object()) input = {{"_unparsed_arguments", c.arguments}};
    blocks.push_back({{"type", "tool_use"}, {"id", c.id}, {"name", c.name}, {"input", input}});
  }
  return blocks;
}

// Token counts are untrusted (usage_guard.h): unusable input/output counts are replaced by
// estimates from the request and reply sizes; bad cache counts count as 0.
Usage read_usage(const nlohmann::json& reply, const Message& message, size_t request_bytes) {
  Usage usage;
  auto& w = usage.warnings;
  UsageEstimate est = estimate_usage(request_bytes, message);
  if (!reply.contains("usage") || !reply["usage"].is_object()) return estimated_usage("anthropic", est);
  const nlohmann::json* u = &reply["usage"];
  long long cache_read =
      read_token_count(u, "cache_read_input_tokens", "anthropic: usage.cache_read_input_tokens", w).value;
  long long cache_write =
      read_token_count(u, "cache_creation_input_tokens", "anthropic: usage.cache_creation_input_tokens", w).value;
  // The estimate covers the whole prompt; the API's input_tokens excludes the cached part.
  long long plain_estimate = std::max(0LL, est.input_tokens - cache_read - cache_write);
  long long plain = required_count(read_token_count(u, "input_tokens", "anthropic: usage.input_tokens", w),
                                   "anthropic: usage.input_tokens", plain_estimate, est.input_basis, w);
  // Anthropic's input_tokens excludes cache reads and writes; ours counts every prompt token.
  usage.input_tokens = plain + cache_read + cache_write;
  usage.cached_tokens = cache_read;
  usage.cache_write_tokens = cache_write;
  usage.output_tokens =
      required_count(read_token_count(u, "output_tokens", "anthropic: usage.output_tokens", w),
                     "anthropic: usage.output_tokens", est.output_tokens, est.output_basis, w);
  return usage;
}

}  // namespace

ojson build_request(const ClientConfig& config, const Conversation& conv) {
  ojson req;
  req["model"] = config.model;
  req["max_tokens"] = config.max_tokens > 0 ? config.max_tokens : 8192;
  if (!conv.system.empty()) {
    if (config.prompt_cache)
      req["system"] = ojson::array({{{"type", "text"}, {"text", conv.system}, {"cache_control", {{"type", "ephemeral"}}}}});
    else
      req["system"] = conv.system;
  }
  ojson messages = ojson::array();
  for (const auto& m : conv.messages) {
    if (m.role == Role::System) continue;  // only the top-level system field exists here
    const char* role = m.role == Role::Assistant ? "assistant" : "user";
    ojson blocks = blocks_for(m);
    if (blocks.empty()) continue;
    if (!messages.empty() && messages.back()["role"] == role) {
      for (auto& b : blocks) messages.back()["content"].push_back(b);
    } else {
      messages.push_back({{"role", role}, {"content", blocks}});
    }
  }
  // A breakpoint on the newest block caches the whole conversation prefix for the next turn
  // (two breakpoints in all; the API allows four).
  if (config.prompt_cache && !messages.empty() && !messages.back()["content"].empty())
    messages.back()["content"].back()["cache_control"] = {{"type", "ephemeral"}};
  req["messages"] = messages;
  if (!conv.tools.empty()) {
    ojson tools = ojson::array();
    for (const auto& t : conv.tools)
      tools.push_back({{"name", t.name},
                       {"description", t.description},
                       {"input_schema", ojson::parse(t.parameters_schema)}});
    req["tools"] = tools;
  }
  if (config.temperature) req["temperature"] = *config.temperature;
  return req;
}

ModelReply parse_response(const std::string& body, size_t request_bytes) {
  auto j = nlohmann::json::parse(body, nullptr, false);
  if (j.is_discarded()) bad("body is not valid JSON (" + std::to_string(body.size()) + " bytes)");
  if (!j.is_object()) bad("body is not a JSON object");
  if (j.value("type", "") == "error") {
    std::string msg = j.contains("error") && j["error"].is_object()
                          ? j["error"].value("message", "") : std::string();
    bad("error object in a 2xx response: " + msg);
  }
  if (!j.contains("content") || !j["content"].is_array()) bad("no \"content\" array");

  ModelReply reply;
  reply.message.role = Role::Assistant;
  for (const auto& block : j["content"]) {
    if (!block.is_object()) bad("content block is not an object");
    std::string type = block.value("type", "");
    if (type == "text") {
      if (block.contains("text") && block["text"].is_string())
        reply.message.content += block["text"].get<std::string>();
    } else if (type == "tool_use") {
      ToolCall call;
      call.id = block.value("id", "");
      call.name = block.value("name", "");
      if (call.name.empty()) bad("tool_use block without a name");
      call.arguments = block.contains("input") ? block["input"].dump() : "{}";
      reply.message.tool_calls.push_back(std::move(call));
    }
    // Other block types (thinking, ...) carry nothing the loop uses.
  }
  if (j.contains("stop_reason") && j["stop_reason"].is_string())
    reply.stop_reason = j["stop_reason"].get<std::string>();
  reply.usage = read_usage(j, reply.message, request_bytes);
  return reply;
}

}  // namespace anthropic_wire

AnthropicClient::AnthropicClient(ClientConfig config) : config_(std::move(config)) {
  while (!config_.base_url.empty() && config_.base_url.back() == '/') config_.base_url.pop_back();
}

ModelReply AnthropicClient::complete(const Conversation& conv) {
  HttpRequest req;
  req.url = config_.base_url + "/v1/messages";
  req.timeout_s = config_.timeout_s;
  req.headers.emplace_back("Content-Type", "application/json");
  req.headers.emplace_back("anthropic-version", kAnthropicVersion);
  if (!config_.api_key.empty()) req.headers.emplace_back("x-api-key", config_.api_key);
  // Replace invalid UTF-8 (e.g. bytes echoed by a tool) instead of failing the request.
  req.body = anthropic_wire::build_request(config_, conv)
                 .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);

  PostOutcome out = post_with_retry(req, config_.retry, "anthropic");
  raise_for_status("anthropic", config_.model, req.url, out.result, "ANTHROPIC_API_KEY");
  ModelReply reply = anthropic_wire::parse_response(out.result.body, req.body.size());
  account_call(reply.usage, out.attempts, out.elapsed_s, config_.prices.get(), name());
  return reply;
}

}  // namespace nki::agent
