// Minimal blocking HTTP POST over libcurl. No retries here (see retry.h); transport failures are
// reported as values so the retry layer can decide what is worth another attempt.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace nki::agent {

struct HttpRequest {
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  double timeout_s = 300;         // whole request, connect included
  double connect_timeout_s = 10;
};

enum class TransportError {
  None,
  Timeout,      // the timeout expired before the response was complete
  Unreachable,  // could not connect (refused, DNS, TLS handshake)
  Truncated,    // the connection closed before the announced body length arrived
  Other,
};

struct HttpResult {
  TransportError error = TransportError::None;
  std::string error_text;   // curl's description when error != None
  long status = 0;          // HTTP status when error == None
  std::string body;
  std::string retry_after;  // raw Retry-After header value, empty when absent
  double elapsed_s = 0;
};

// Largest response body accepted; a bigger one is reported as TransportError::Other.
constexpr size_t kMaxResponseBytes = 64u << 20;

HttpResult http_post(const HttpRequest& request);

}  // namespace nki::agent
