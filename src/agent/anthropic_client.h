// Anthropic Messages API client with tool use.
#pragma once

#include <nlohmann/json.hpp>

#include "agent/client_config.h"
#include "agent/model_client.h"

namespace nki::agent {

// The API version header this client speaks.
constexpr const char* kAnthropicVersion = "2023-06-01";

namespace anthropic_wire {
// Request body for POST {base}/v1/messages. Tool results become tool_result blocks in a user
// turn, and consecutive same-role messages are merged because the API requires alternation.
nlohmann::ordered_json build_request(const ClientConfig& config, const Conversation& conversation);
// Reply from a 2xx body; unusable token counts are replaced by estimates (the input one from
// `request_bytes`) and noted in reply.usage.warnings (usage_guard.h).
ModelReply parse_response(const std::string& body, size_t request_bytes = 0);
}  // namespace anthropic_wire

class AnthropicClient : public ModelClient {
 public:
  explicit AnthropicClient(ClientConfig config);
  ModelReply complete(const Conversation& conversation) override;
  std::string name() const override { return "anthropic:" + config_.model; }

 private:
  ClientConfig config_;
};

}  // namespace nki::agent
