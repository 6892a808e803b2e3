#include "agent/usage_guard.h"

#include <cmath>
#include <sstream>

namespace nki::agent {

namespace {

// The raw value as it appeared, for warnings ("-5000000", "\"12\"", "1e+300").
std::string shown(const nlohmann::json& v) {
  std::string text = v.dump();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

}  // namespace

long long estimate_tokens(size_t bytes) {
  long long n = static_cast<long long>(bytes);
  return (n + kBytesPerTokenEstimate - 1) / kBytesPerTokenEstimate;
}

UsageEstimate estimate_usage(size_t request_bytes, const Message& reply) {
  size_t reply_bytes = reply.content.size();
  for (const auto& c : reply.tool_calls) reply_bytes += c.name.size() + c.arguments.size();
  UsageEstimate e;
  e.input_tokens = estimate_tokens(request_bytes);
  e.output_tokens = estimate_tokens(reply_bytes);
  e.input_basis = "the request's " + std::to_string(request_bytes) + " bytes";
  e.output_basis = "the reply's " + std::to_string(reply_bytes) + " bytes";
  return e;
}

Usage estimated_usage(const std::string& provider, const UsageEstimate& e) {
  Usage u;
  u.input_tokens = e.input_tokens;
  u.output_tokens = e.output_tokens;
  u.warnings.push_back(provider + ": the response has no usage object (or it is not an object); charged estimates of " +
                       std::to_string(e.input_tokens) + " input tokens (from " + e.input_basis + ") and " +
                       std::to_string(e.output_tokens) + " output tokens (from " + e.output_basis + ")");
  return u;
}

TokenRead read_token_count(const nlohmann::json* parent, const char* key, const std::string& where,
                           std::vector<std::string>& warnings) {
  TokenRead r;
  if (!parent || !parent->is_object() || !parent->contains(key)) return r;
  const nlohmann::json& v = (*parent)[key];
  r.present = true;
  if (v.is_null()) return r;  // "cached_tokens": null is a common way of saying "none"
  // Unsigned first: get<long long>() would wrap 2^64-1 to -1.
  if (v.is_number_unsigned()) {
    auto u = v.get<unsigned long long>();
    r.usable = true;
    r.value = u > static_cast<unsigned long long>(kMaxTokensPerCall) ? kMaxTokensPerCall
                                                                      : static_cast<long long>(u);
    if (u > static_cast<unsigned long long>(kMaxTokensPerCall))
      warnings.push_back(where + " = " + shown(v) + " is implausibly large; clamped to " +
                         std::to_string(kMaxTokensPerCall));
    return r;
  }
  if (v.is_number_integer()) {
    long long n = v.get<long long>();
    if (n < 0) {
      warnings.push_back(where + " = " + shown(v) + " is negative");
      return r;
    }
    r.usable = true;
    r.value = n;  // below 2^63 but maybe above the cap: handled with the float case below
    if (n <= kMaxTokensPerCall) return r;
  }
  if (v.is_number()) {
    double d = v.get<double>();
    if (!std::isfinite(d) || d < 0) {
      warnings.push_back(where + " = " + shown(v) + (std::isfinite(d) ? " is negative" : " is not finite"));
      r.usable = false;
      r.value = 0;
      return r;
    }
    r.usable = true;
    if (d > static_cast<double>(kMaxTokensPerCall)) {
      r.value = kMaxTokensPerCall;
      warnings.push_back(where + " = " + shown(v) + " is implausibly large; clamped to " +
                         std::to_string(kMaxTokensPerCall));
    } else {
      r.value = static_cast<long long>(std::ceil(d));
      if (static_cast<double>(r.value) != d)
        warnings.push_back(where + " = " + shown(v) + " is not a whole number; rounded up to " +
                           std::to_string(r.value));
    }
    return r;
  }
  warnings.push_back(where + " = " + shown(v) + " is not a number");
  return r;
}

long long required_count(const TokenRead& read, const std::string& where, long long estimate,
                         const std::string& estimate_basis, std::vector<std::string>& warnings) {
  if (read.usable) return read.value;
  std::ostringstream charge;
  charge << "; charged an estimate of " << estimate << " tokens from " << estimate_basis;
  // read_token_count already said what was wrong with the value: one line per field.
  bool explained = !warnings.empty() && warnings.back().rfind(where + " = ", 0) == 0;
  if (explained) warnings.back() += charge.str();
  else warnings.push_back(where + (read.present ? " is unusable" : " is missing") + charge.str());
  return estimate;
}

void append_warnings(std::vector<std::string>& warnings, const std::vector<std::string>& more) {
  for (const auto& w : more) {
    if (warnings.size() >= kMaxUsageWarnings) return;
    warnings.push_back(w);
  }
}

}  // namespace nki::agent
