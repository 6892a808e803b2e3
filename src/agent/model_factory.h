// Turning "--model openai:NAME | anthropic:NAME" plus flags and environment into a client.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "agent/client_config.h"
#include "agent/model_client.h"

namespace nki::agent {

struct ModelSpec {
  std::string provider;  // "openai" or "anthropic"
  std::string model;
};

// Throws ModelError(Config) unless the text is "openai:NAME" or "anthropic:NAME".
ModelSpec parse_model_spec(const std::string& spec);

struct ClientOptions {
  std::string model_spec;  // "openai:gpt-4o"
  std::string base_url;    // empty: $OPENAI_BASE_URL / $ANTHROPIC_BASE_URL, else the public API
  double timeout_s = 300;
  int max_tokens = 0;
  std::optional<double> temperature;
  bool prompt_cache = true;
  RetryPolicy retry = retry_policy_from_env();
  std::shared_ptr<const PriceTable> prices;
};

// Reads the key from OPENAI_API_KEY / ANTHROPIC_API_KEY. A missing key is a Config error unless
// a base URL was given explicitly (local OpenAI-compatible servers often need none).
std::unique_ptr<ModelClient> make_model_client(const ClientOptions& options);

}  // namespace nki::agent
