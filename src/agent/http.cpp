#include "agent/http.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <mutex>

namespace nki::agent {
namespace {

void init_curl_once() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

size_t on_body(char* data, size_t size, size_t count, void* user) {
  auto* body = static_cast<std::string*>(user);
  size_t n = size * count;
  if (body->size() + n > kMaxResponseBytes) return 0;  // makes curl abort with a write error
  body->append(data, n);
  return n;
}

size_t on_header(char* data, size_t size, size_t count, void* user) {
  size_t n = size * count;
  std::string line(data, n);
  static const std::string kName = "retry-after:";
  if (line.size() > kName.size()) {
    std::string head = line.substr(0, kName.size());
    std::transform(head.begin(), head.end(), head.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (head == kName) {
      std::string value = line.substr(kName.size());
      auto not_space = [](unsigned char c) { return !std::isspace(c); };
      value.erase(value.begin(), std::find_if(value.begin(), value.end(), not_space));
      value.erase(std::find_if(value.rbegin(), value.rend(), not_space).base(), value.end());
      *static_cast<std::string*>(user) = value;
    }
  }
  return n;
}

TransportError classify(CURLcode code) {
  switch (code) {
    case CURLE_OPERATION_TIMEDOUT: return TransportError::Timeout;
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_SEND_ERROR: return TransportError::Unreachable;  // reset while sending: reconnect
    case CURLE_PARTIAL_FILE:
    case CURLE_GOT_NOTHING:
    case CURLE_RECV_ERROR: return TransportError::Truncated;
    default: return TransportError::Other;
  }
}

}  // namespace

HttpResult http_post(const HttpRequest& request) {
  init_curl_once();
  HttpResult result;
  CURL* curl = curl_easy_init();
  if (!curl) {
    result.error = TransportError::Other;
    result.error_text = "curl_easy_init failed";
    return result;
  }
  curl_slist* headers = nullptr;
  for (const auto& [name, value] : request.headers)
    headers = curl_slist_append(headers, (name + ": " + value).c_str());
  // Suppress curl's automatic "Expect: 100-continue", which stalls small test servers.
  headers = curl_slist_append(headers, "Expect:");

  curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(curl, CURLOPT_POST, 1L);
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.data());
  curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(request.timeout_s * 1000));
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(std::min(request.connect_timeout_s, request.timeout_s) * 1000));
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);  // timeouts without SIGALRM: safe with threads
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &result.body);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &result.retry_after);
  curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");  // accept any encoding curl can decode

  auto start = std::chrono::steady_clock::now();
  CURLcode code = curl_easy_perform(curl);
  result.elapsed_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (code == CURLE_OK) {
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &result.status);
  } else {
    result.error = code == CURLE_WRITE_ERROR ? TransportError::Other : classify(code);
    result.error_text = code == CURLE_WRITE_ERROR ? "response body larger than 64 MiB"
                                                  : curl_easy_strerror(code);
  }
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  return result;
}

}  // namespace nki::agent
