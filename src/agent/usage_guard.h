// Token counts in a provider's reply are untrusted input. A buggy server or proxy can report
// negative, fractional, absurdly large, non-numeric or missing counts; taken at face value they
// give negative (or overflowing) costs that defeat --max-cost. The wire parsers therefore read
// every count through these helpers: a count that cannot be used is replaced by an estimate from
// the bytes exchanged, so the cost of a call is never negative, never NaN and never silently
// zero, and each correction leaves a warning in Usage::warnings (written to the transcript).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent/message.h"

namespace nki::agent {

// Largest count accepted for one field of one call; larger values are clamped to it. Five times
// the largest context window offered today (2M tokens), and small enough that sums over any
// realistic episode stay far from overflowing a long long.
constexpr long long kMaxTokensPerCall = 10'000'000;

// Bytes per token assumed for estimates: a common rule of thumb for BPE tokenizers on English
// text and code (it overestimates for code-heavy traffic, which errs on the side of the budget).
constexpr long long kBytesPerTokenEstimate = 4;

// At most this many warnings are kept in a summed Usage (an episode total).
constexpr size_t kMaxUsageWarnings = 20;

// Tokens that `bytes` of text are assumed to take (rounded up).
long long estimate_tokens(size_t bytes);

// What a call is charged when the server's counts cannot be used: the request body and the reply
// text (content plus tool calls) at kBytesPerTokenEstimate bytes per token.
struct UsageEstimate {
  long long input_tokens = 0;
  long long output_tokens = 0;
  std::string input_basis;   // "the request's 5120 bytes", for warnings
  std::string output_basis;
};
UsageEstimate estimate_usage(size_t request_bytes, const Message& reply);

// The Usage of a reply without a usage object (or a non-object one): both counts estimated,
// with a warning.
Usage estimated_usage(const std::string& provider, const UsageEstimate& estimate);

// One count as the server reported it.
struct TokenRead {
  long long value = 0;  // usable count (0 when not usable)
  bool present = false; // the field exists
  bool usable = false;  // present and a non-negative finite number (after rounding/clamping)
};

// Reads `parent[key]` (`parent` may be null or not an object: the field is then absent).
// A non-negative integer up to kMaxTokensPerCall is taken as is. A fractional value is rounded
// up and a larger value clamped, each with a warning. A negative, non-finite or non-numeric value
// is not usable and adds a warning. `where` names the field in warnings, e.g.
// "openai: usage.prompt_tokens".
TokenRead read_token_count(const nlohmann::json* parent, const char* key, const std::string& where,
                           std::vector<std::string>& warnings);

// The count to charge for a field the provider must report: the read value when usable,
// otherwise `estimate` (from `estimate_basis`, e.g. "the request's 5120 bytes") with a warning.
long long required_count(const TokenRead& read, const std::string& where, long long estimate,
                         const std::string& estimate_basis, std::vector<std::string>& warnings);

// Appends `more` to `warnings` without letting it grow beyond kMaxUsageWarnings.
void append_warnings(std::vector<std::string>& warnings, const std::vector<std::string>& more);

}  // namespace nki::agent
