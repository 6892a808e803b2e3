#include "agent/message.h"

#include <stdexcept>

#include "agent/usage_guard.h"

namespace nki::agent {

const char* role_name(Role r) {
  switch (r) {
    case Role::System: return "system";
    case Role::User: return "user";
    case Role::Assistant: return "assistant";
    case Role::Tool: return "tool";
  }
  return "user";
}

Role role_from_name(const std::string& name) {
  if (name == "system") return Role::System;
  if (name == "user") return Role::User;
  if (name == "assistant") return Role::Assistant;
  if (name == "tool") return Role::Tool;
  throw std::invalid_argument("unknown role '" + name + "'");
}

Usage& Usage::operator+=(const Usage& o) {
  input_tokens += o.input_tokens;
  output_tokens += o.output_tokens;
  cached_tokens += o.cached_tokens;
  cache_write_tokens += o.cache_write_tokens;
  latency_s += o.latency_s;
  cost_usd += o.cost_usd;
  price_known = price_known && o.price_known;
  calls += o.calls;
  retries += o.retries;
  append_warnings(warnings, o.warnings);
  return *this;
}

}  // namespace nki::agent
