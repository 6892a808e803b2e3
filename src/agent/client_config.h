// Settings shared by the HTTP model clients.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "agent/pricing.h"
#include "agent/retry.h"

namespace nki::agent {

struct ClientConfig {
  std::string model;     // provider's model name, e.g. "gpt-4o"
  std::string base_url;  // OpenAI: ".../v1"; Anthropic: host root (".../v1/messages" is appended)
  std::string api_key;   // empty: no auth header (local OpenAI-compatible servers)
  double timeout_s = 300;
  RetryPolicy retry;
  int max_tokens = 0;    // 0: OpenAI omits the field; Anthropic sends 8192 (it is required there)
  std::optional<double> temperature;
  // Anthropic: mark the system prompt and the conversation so far as cacheable, so each turn
  // re-reads the earlier turns at the cache price. (OpenAI caches long prefixes on its own.)
  bool prompt_cache = true;
  std::shared_ptr<const PriceTable> prices;  // may be null: costs are reported as unknown
};

}  // namespace nki::agent
