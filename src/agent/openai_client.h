// OpenAI-compatible Chat Completions client with tool calling.
#pragma once

#include <nlohmann/json.hpp>

#include "agent/client_config.h"
#include "agent/model_client.h"

namespace nki::agent {

namespace openai_wire {
// Request body for POST {base}/chat/completions.
nlohmann::ordered_json build_request(const ClientConfig& config, const Conversation& conversation);
// Reply from a 2xx body; throws ModelError(BadResponse) naming what is missing or malformed.
// Unusable token counts are replaced by estimates (the input one from `request_bytes`, the size
// of the request body) and noted in reply.usage.warnings; see usage_guard.h.
ModelReply parse_response(const std::string& body, size_t request_bytes = 0);
}  // namespace openai_wire

class OpenAIClient : public ModelClient {
 public:
  explicit OpenAIClient(ClientConfig config);
  ModelReply complete(const Conversation& conversation) override;
  std::string name() const override { return "openai:" + config_.model; }

 private:
  ClientConfig config_;
};

}  // namespace nki::agent
