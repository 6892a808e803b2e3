// Editable price table (prompts/prices.json by default) turning token counts into dollars.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "agent/message.h"

namespace nki::agent {

// US dollars per million tokens.
struct Price {
  double input = 0;
  double cached_input = 0;  // prompt tokens read from the provider's cache
  double cache_write = 0;   // prompt tokens written to the cache (defaults to input)
  double output = 0;
};

class PriceTable {
 public:
  // Parses {"models": {"openai:gpt-4o": {"input": 2.5, "cached_input": 1.25, "output": 10}}}.
  // Throws ModelError(Config) with the file name on unreadable or malformed input.
  static PriceTable from_json_text(const std::string& text, const std::string& origin = "<text>");
  static PriceTable load(const std::string& path);

  // Exact "provider:model" entry, else the longest entry that is a prefix of it (so
  // "anthropic:claude-sonnet-4" also prices "anthropic:claude-sonnet-4-20250514").
  std::optional<Price> find(const std::string& provider_model) const;

  // Fills usage.cost_usd and usage.price_known for one call of `provider_model`.
  void apply(const std::string& provider_model, Usage& usage) const;

  size_t size() const { return prices_.size(); }

 private:
  std::map<std::string, Price> prices_;
};

// Fills the usage of one model call: calls, retries beyond the first attempt, latency, and the
// cost from `prices` (price unknown when there is no table). Shared by every HTTP client.
void account_call(Usage& usage, int attempts, double elapsed_s, const PriceTable* prices,
                  const std::string& provider_model);

// Which price file to use: `flag` if non-empty, else $NKI_AGENT_PRICES, else
// <prompts_dir>/prices.json.
std::string resolve_price_table_path(const std::string& flag, const std::string& prompts_dir);

}  // namespace nki::agent
