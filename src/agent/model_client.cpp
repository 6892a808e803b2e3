#include "agent/model_client.h"

#include <cctype>

namespace nki::agent {

const char* model_error_kind_name(ModelErrorKind k) {
  switch (k) {
    case ModelErrorKind::Auth: return "auth";
    case ModelErrorKind::NotFound: return "not_found";
    case ModelErrorKind::BadRequest: return "bad_request";
    case ModelErrorKind::RateLimited: return "rate_limited";
    case ModelErrorKind::Server: return "server";
    case ModelErrorKind::Unreachable: return "unreachable";
    case ModelErrorKind::Timeout: return "timeout";
    case ModelErrorKind::BadResponse: return "bad_response";
    case ModelErrorKind::Replay: return "replay";
    case ModelErrorKind::Config: return "config";
  }
  return "unknown";
}

ModelError::ModelError(ModelErrorKind kind, const std::string& message)
    : std::runtime_error(one_line(message, 600)), kind_(kind) {}

std::string one_line(const std::string& text, size_t max_chars) {
  std::string out;
  bool in_space = false;
  for (unsigned char c : text) {
    if (std::isspace(c)) {
      in_space = !out.empty();
      continue;
    }
    if (in_space) out += ' ';
    in_space = false;
    out += static_cast<char>(c);
  }
  if (out.size() > max_chars) out = out.substr(0, max_chars) + "...";
  return out;
}

}  // namespace nki::agent
