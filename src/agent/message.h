// Provider-neutral chat model: messages, tool calls, tool schemas, replies and usage.
// The OpenAI and Anthropic clients translate to and from their wire JSON at the edges only, so the
// loop, the transcript and the replay client never see a provider's format.
#pragma once

#include <string>
#include <vector>

namespace nki::agent {

enum class Role { System, User, Assistant, Tool };

const char* role_name(Role r);
// Inverse of role_name; throws std::invalid_argument on an unknown name.
Role role_from_name(const std::string& name);

struct ToolCall {
  std::string id;         // provider-assigned id, echoed back with the result
  std::string name;       // e.g. "compile_kernel"
  std::string arguments;  // JSON object text exactly as the model produced it (may be malformed)
};

struct Message {
  Role role = Role::User;
  std::string content;               // text (may be empty for a pure tool-call turn)
  std::vector<ToolCall> tool_calls;  // Assistant only
  std::string tool_call_id;          // Tool only: which call this answers
  std::string tool_name;             // Tool only
  bool is_error = false;             // Tool only: the tool reported a failure
};

// A tool the model may call; `parameters_schema` is a JSON Schema object as text.
struct ToolSpec {
  std::string name;
  std::string description;
  std::string parameters_schema;
};

// Everything sent to the model in one request.
struct Conversation {
  std::string system;
  std::vector<Message> messages;
  std::vector<ToolSpec> tools;  // empty: the model is not offered tools
};

// Token and money accounting for one call, or a sum of calls.
struct Usage {
  long long input_tokens = 0;   // prompt tokens, including cached ones
  long long output_tokens = 0;
  long long cached_tokens = 0;  // prompt tokens served from the provider's cache
  long long cache_write_tokens = 0;  // prompt tokens written to the cache (Anthropic bills extra)
  double latency_s = 0;         // wall time of the call(s), retries included
  double cost_usd = 0;
  bool price_known = true;      // false when some call's model was missing from the price table
  int calls = 0;
  int retries = 0;              // attempts beyond the first, summed
  // Corrections made to what the server reported (negative, missing or absurd token counts; see
  // usage_guard.h). Written to the transcript; a sum keeps the first kMaxUsageWarnings.
  std::vector<std::string> warnings;

  Usage& operator+=(const Usage& o);
};

// One model answer.
struct ModelReply {
  Message message;          // role Assistant
  std::string stop_reason;  // provider's finish/stop reason, normalised to lower case
  Usage usage;
};

}  // namespace nki::agent
