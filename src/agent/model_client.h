// The model interface the agent loop talks to, and the one error type every client throws.
#pragma once

#include <stdexcept>
#include <string>

#include "agent/message.h"

namespace nki::agent {

// Why a model call failed. The message is always a single line fit for a terminal.
enum class ModelErrorKind {
  Auth,         // 401/403: missing or wrong API key
  NotFound,     // 404: unknown model or wrong endpoint
  BadRequest,   // other 4xx: the request was rejected
  RateLimited,  // 429 after all retries
  Server,       // 5xx after all retries
  Unreachable,  // connection refused / DNS / TLS failure after all retries
  Timeout,      // no complete answer within the per-request timeout, after all retries
  BadResponse,  // 2xx but malformed, truncated or unexpected JSON
  Replay,       // the replay transcript has no more responses, or is malformed
  Config,       // unknown provider, missing key, unreadable price table
};

const char* model_error_kind_name(ModelErrorKind k);

class ModelError : public std::runtime_error {
 public:
  ModelError(ModelErrorKind kind, const std::string& message);
  ModelErrorKind kind() const { return kind_; }

 private:
  ModelErrorKind kind_;
};

class ModelClient {
 public:
  virtual ~ModelClient() = default;
  // One request/response round trip. Throws ModelError; never returns a half-filled reply.
  virtual ModelReply complete(const Conversation& conversation) = 0;
  // "provider:model", as recorded in transcripts.
  virtual std::string name() const = 0;
};

// Collapses whitespace runs (including newlines) to one space and truncates to `max_chars`, so
// server-provided text can be embedded in a one-line error.
std::string one_line(const std::string& text, size_t max_chars = 300);

}  // namespace nki::agent
