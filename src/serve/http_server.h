// `nkiagent serve` over HTTP (cpp-httplib, Debian's libcpp-httplib-dev): routes, bearer-token
// check, body-size limit, JSON errors for every failure, and /metrics in Prometheus text.
#pragma once

#include <memory>
#include <string>

#include "serve/service.h"

namespace nki::serve {

struct HttpOptions {
  std::string host = "127.0.0.1";
  int port = 8080;              // 0: any free port (printed on start)
  std::string token;            // required on every route but /v1/health when non-empty
  size_t max_body_bytes = 1 << 20;
  int http_threads = 0;         // 0: 4 per worker, at least 8 (cheap routes never wait for kernels)
  int read_timeout_seconds = 10;
};

// True for 127.0.0.0/8, ::1 and "localhost".
bool is_loopback(const std::string& host);

class HttpServer {
 public:
  HttpServer(Service& service, HttpOptions options);
  ~HttpServer();
  // Binds; returns the port (useful with port 0). Throws std::runtime_error if it cannot bind.
  int bind();
  // Serves until stop() (from another thread or a signal handler's helper thread).
  void listen();
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace nki::serve
