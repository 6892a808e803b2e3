#include "agent/pricing.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "agent/model_client.h"

namespace nki::agent {

PriceTable PriceTable::from_json_text(const std::string& text, const std::string& origin) {
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("models") || !j["models"].is_object())
    throw ModelError(ModelErrorKind::Config,
                     "price table " + origin + ": expected a JSON object with a \"models\" object");
  PriceTable table;
  for (auto it = j["models"].begin(); it != j["models"].end(); ++it) {
    // Named references, not structured bindings: clang 14 cannot capture those in a lambda.
    const std::string& key = it.key();
    const nlohmann::json& entry = it.value();
    auto number = [&](const char* field, bool required) -> double {
      if (!entry.is_object() || !entry.contains(field)) {
        if (!required) return -1;
        throw ModelError(ModelErrorKind::Config,
                         "price table " + origin + ": model '" + key + "' lacks \"" + field + "\"");
      }
      if (!entry[field].is_number())
        throw ModelError(ModelErrorKind::Config, "price table " + origin + ": '" + key + "." +
                                                     field + "' is not a number");
      // A negative price would make spending lower the recorded cost and defeat --max-cost.
      double value = entry[field].get<double>();
      if (!std::isfinite(value) || value < 0)
        throw ModelError(ModelErrorKind::Config, "price table " + origin + ": '" + key + "." +
                                                     field + "' must be a non-negative number");
      return value;
    };
    Price p;
    p.input = number("input", true);
    p.output = number("output", true);
    double cached = number("cached_input", false);
    p.cached_input = cached >= 0 ? cached : p.input;  // no discount known: charge full price
    double write = number("cache_write", false);
    p.cache_write = write >= 0 ? write : p.input;
    table.prices_[key] = p;
  }
  return table;
}

PriceTable PriceTable::load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ModelError(ModelErrorKind::Config, "cannot read price table '" + path + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  return from_json_text(ss.str(), "'" + path + "'");
}

std::optional<Price> PriceTable::find(const std::string& name) const {
  auto exact = prices_.find(name);
  if (exact != prices_.end()) return exact->second;
  const Price* best = nullptr;
  size_t best_len = 0;
  for (const auto& [key, price] : prices_) {
    if (key.size() > best_len && name.compare(0, key.size(), key) == 0) {
      best = &price;
      best_len = key.size();
    }
  }
  if (best) return *best;
  return std::nullopt;
}

void PriceTable::apply(const std::string& name, Usage& u) const {
  auto p = find(name);
  if (!p) {
    u.cost_usd = 0;
    u.price_known = false;
    return;
  }
  // The wire parsers never produce negative counts; clamping here keeps any other Usage (built
  // by hand, read from a transcript) from yielding a negative cost too.
  auto counted = [](long long n) { return static_cast<double>(n < 0 ? 0 : n); };
  double plain = counted(u.input_tokens - u.cached_tokens - u.cache_write_tokens);
  u.cost_usd = (plain * p->input + counted(u.cached_tokens) * p->cached_input +
                counted(u.cache_write_tokens) * p->cache_write + counted(u.output_tokens) * p->output) /
               1e6;
  u.price_known = true;
}

void account_call(Usage& usage, int attempts, double elapsed_s, const PriceTable* prices,
                  const std::string& provider_model) {
  usage.calls = 1;
  usage.retries = attempts - 1;
  usage.latency_s = elapsed_s;
  if (prices) prices->apply(provider_model, usage);
  else usage.price_known = false;
}

std::string resolve_price_table_path(const std::string& flag, const std::string& prompts_dir) {
  if (!flag.empty()) return flag;
  if (const char* env = std::getenv("NKI_AGENT_PRICES"); env && *env) return env;
  return prompts_dir + "/prices.json";
}

}  // namespace nki::agent
