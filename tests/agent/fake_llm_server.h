// A scripted fake LLM provider for tests: real HTTP/1.1 on 127.0.0.1 with an ephemeral port,
// served by one background thread. Each request gets the next scripted response (or the
// handler's answer), which may be well-formed, malformed, truncated, delayed or dropped.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace nki::agent::testing {

struct FakeRequest {
  std::string method;
  std::string path;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;
};

struct FakeResponse {
  enum class Kind {
    Normal,     // status + headers + body
    Truncated,  // announces a longer Content-Length than it sends, then closes
    Hang,       // waits delay_s (interrupted by stop()) before answering normally
    Drop,       // closes the connection without a byte
  };
  int status = 200;
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  Kind kind = Kind::Normal;
  double delay_s = 0;
};

class FakeLlmServer {
 public:
  // Binds and listens immediately (so a forked child can connect before start()).
  FakeLlmServer();
  ~FakeLlmServer();
  FakeLlmServer(const FakeLlmServer&) = delete;
  FakeLlmServer& operator=(const FakeLlmServer&) = delete;

  void start();
  void stop();

  int port() const { return port_; }
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_); }

  void push(FakeResponse r);
  // Answers requests once the script is empty (default: 500 "script exhausted").
  void set_handler(std::function<FakeResponse(const FakeRequest&)> handler);

  std::vector<FakeRequest> requests() const;
  size_t request_count() const;
  // True once `n` requests have arrived; false after `timeout_s`.
  bool wait_for_requests(size_t n, double timeout_s) const;

 private:
  void serve();
  void handle(int fd);
  FakeResponse next_response(const FakeRequest& req);

  int listen_fd_ = -1;
  int port_ = 0;
  std::thread thread_;
  std::atomic<bool> stopping_{false};
  mutable std::mutex mu_;
  mutable std::condition_variable cv_;
  std::deque<FakeResponse> script_;
  std::function<FakeResponse(const FakeRequest&)> handler_;
  std::vector<FakeRequest> requests_;
};

// Canned provider bodies.
std::string openai_text_body(const std::string& content, int prompt_tokens = 100,
                             int completion_tokens = 50, int cached_tokens = 0);
std::string openai_tool_call_body(const std::string& id, const std::string& name,
                                  const std::string& code, int prompt_tokens = 100,
                                  int completion_tokens = 50);
std::string anthropic_text_body(const std::string& content, int input_tokens = 100,
                                int output_tokens = 50);
std::string anthropic_tool_use_body(const std::string& id, const std::string& name,
                                    const std::string& code, int input_tokens = 100,
                                    int output_tokens = 50);
FakeResponse ok(std::string body);
FakeResponse status(int code, std::string body,
                    std::vector<std::pair<std::string, std::string>> headers = {});

}  // namespace nki::agent::testing
