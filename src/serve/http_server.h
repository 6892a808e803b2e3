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
  int max_json_depth = 64;      // nesting of a body, checked before parsing: deeper is 400 json_too_deep
  int http_threads = 0;         // 0: 8 per worker, at least 32 (cheap routes never wait for kernels)
  int read_timeout_seconds = 10;  // longest silence within a request
  double header_seconds = 10;   // request line and headers, in total
  double body_seconds = 60;     // the body, in total
  // Connections waiting for or reading their headers (or idle between requests), and
  // connections reading their body: beyond these (0: a quarter of the HTTP threads each), the
  // oldest of that kind is cut (http_connections.h).
  size_t max_waiting = 0;
  size_t max_uploading = 0;
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
  // Stops accepting, cuts idle connections and lets requests in flight finish (listen() returns
  // once they have). Safe from any thread but a request handler's.
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace nki::serve
