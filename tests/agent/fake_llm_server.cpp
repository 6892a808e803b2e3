#include "fake_llm_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <cctype>
#include <chrono>
#include <sstream>
#include <stdexcept>

namespace nki::agent::testing {
namespace {

// Reads until the headers and Content-Length bytes of body are in, or 2 s of silence.
bool read_request(int fd, FakeRequest& req) {
  std::string data;
  size_t header_end = std::string::npos;
  size_t need = 0;
  char buf[8192];
  while (true) {
    if (header_end != std::string::npos && data.size() >= header_end + 4 + need) break;
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 2000) <= 0) return false;
    ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n <= 0) return false;
    data.append(buf, static_cast<size_t>(n));
    if (header_end == std::string::npos && (header_end = data.find("\r\n\r\n")) != std::string::npos) {
      std::istringstream head(data.substr(0, header_end));
      std::string line;
      std::getline(head, line);
      std::istringstream first(line);
      first >> req.method >> req.path;
      while (std::getline(head, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        auto colon = line.find(':');
        if (colon == std::string::npos) continue;
        std::string name = line.substr(0, colon);
        for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        std::string value = line.substr(colon + 1);
        while (!value.empty() && value.front() == ' ') value.erase(value.begin());
        req.headers[name] = value;
      }
      if (req.headers.count("content-length")) need = std::stoul(req.headers["content-length"]);
    }
  }
  req.body = data.substr(header_end + 4, need);
  return true;
}

void send_all(int fd, const std::string& s) {
  size_t off = 0;
  while (off < s.size()) {
    ssize_t n = send(fd, s.data() + off, s.size() - off, MSG_NOSIGNAL);
    if (n <= 0) return;  // the client gave up (e.g. its timeout fired)
    off += static_cast<size_t>(n);
  }
}

std::string head(const FakeResponse& r, size_t content_length) {
  std::ostringstream out;
  out << "HTTP/1.1 " << r.status << " Fake\r\nContent-Type: application/json\r\n"
      << "Content-Length: " << content_length << "\r\nConnection: close\r\n";
  for (const auto& [k, v] : r.headers) out << k << ": " << v << "\r\n";
  out << "\r\n";
  return out.str();
}

}  // namespace

FakeLlmServer::FakeLlmServer() {
  listen_fd_ = socket(AF_INET, SOCK_STREAM, 0);
  if (listen_fd_ < 0) throw std::runtime_error("fake server: socket() failed");
  int one = 1;
  setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);  // loopback only
  addr.sin_port = 0;                               // ephemeral
  if (bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      listen(listen_fd_, 16) != 0)
    throw std::runtime_error("fake server: bind/listen failed");
  socklen_t len = sizeof addr;
  getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
}

FakeLlmServer::~FakeLlmServer() {
  stop();
  if (listen_fd_ >= 0) close(listen_fd_);
}

void FakeLlmServer::start() {
  if (!thread_.joinable()) thread_ = std::thread([this] { serve(); });
}

void FakeLlmServer::stop() {
  stopping_ = true;
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void FakeLlmServer::push(FakeResponse r) {
  std::lock_guard<std::mutex> lock(mu_);
  script_.push_back(std::move(r));
}

void FakeLlmServer::set_handler(std::function<FakeResponse(const FakeRequest&)> h) {
  std::lock_guard<std::mutex> lock(mu_);
  handler_ = std::move(h);
}

std::vector<FakeRequest> FakeLlmServer::requests() const {
  std::lock_guard<std::mutex> lock(mu_);
  return requests_;
}

size_t FakeLlmServer::request_count() const {
  std::lock_guard<std::mutex> lock(mu_);
  return requests_.size();
}

bool FakeLlmServer::wait_for_requests(size_t n, double timeout_s) const {
  std::unique_lock<std::mutex> lock(mu_);
  return cv_.wait_for(lock, std::chrono::duration<double>(timeout_s),
                      [&] { return requests_.size() >= n; });
}

FakeResponse FakeLlmServer::next_response(const FakeRequest& req) {
  std::function<FakeResponse(const FakeRequest&)> handler;
  {
    std::lock_guard<std::mutex> lock(mu_);
    requests_.push_back(req);
    cv_.notify_all();
    if (!script_.empty()) {
      FakeResponse r = script_.front();
      script_.pop_front();
      return r;
    }
    handler = handler_;
  }
  if (handler) return handler(req);
  return status(500, R"({"error":{"message":"fake server: script exhausted"}})");
}

void FakeLlmServer::serve() {
  while (!stopping_) {
    pollfd p{listen_fd_, POLLIN, 0};
    if (poll(&p, 1, 20) <= 0) continue;
    int fd = accept(listen_fd_, nullptr, nullptr);
    if (fd < 0) continue;
    handle(fd);
    close(fd);
  }
}

void FakeLlmServer::handle(int fd) {
  FakeRequest req;
  if (!read_request(fd, req)) return;
  FakeResponse r = next_response(req);
  switch (r.kind) {
    case FakeResponse::Kind::Drop:
      return;
    case FakeResponse::Kind::Truncated:
      send_all(fd, head(r, r.body.size() + 100) + r.body);
      return;
    case FakeResponse::Kind::Hang: {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait_for(lock, std::chrono::duration<double>(r.delay_s), [&] { return stopping_.load(); });
      if (stopping_) return;
      break;
    }
    case FakeResponse::Kind::Normal:
      break;
  }
  send_all(fd, head(r, r.body.size()) + r.body);
}

std::string openai_text_body(const std::string& content, int pt, int ct, int cached) {
  nlohmann::json j = {
      {"id", "chatcmpl-fake"},
      {"object", "chat.completion"},
      {"choices", {{{"index", 0},
                    {"message", {{"role", "assistant"}, {"content", content}}},
                    {"finish_reason", "stop"}}}},
      {"usage", {{"prompt_tokens", pt}, {"completion_tokens", ct},
                 {"prompt_tokens_details", {{"cached_tokens", cached}}}}}};
  return j.dump();
}

std::string openai_tool_call_body(const std::string& id, const std::string& name,
                                  const std::string& code, int pt, int ct) {
  nlohmann::json args = {{"code", code}};
  nlohmann::json j = {
      {"choices", {{{"index", 0},
                    {"message", {{"role", "assistant"}, {"content", nullptr},
                                 {"tool_calls", {{{"id", id}, {"type", "function"},
                                                  {"function", {{"name", name},
                                                                {"arguments", args.dump()}}}}}}}},
                    {"finish_reason", "tool_calls"}}}},
      {"usage", {{"prompt_tokens", pt}, {"completion_tokens", ct}}}};
  return j.dump();
}

std::string anthropic_text_body(const std::string& content, int it, int ot) {
  nlohmann::json j = {{"id", "msg_fake"}, {"type", "message"}, {"role", "assistant"},
                      {"content", {{{"type", "text"}, {"text", content}}}},
                      {"stop_reason", "end_turn"},
                      {"usage", {{"input_tokens", it}, {"output_tokens", ot}}}};
  return j.dump();
}

std::string anthropic_tool_use_body(const std::string& id, const std::string& name,
                                    const std::string& code, int it, int ot) {
  nlohmann::json j = {
      {"id", "msg_fake"}, {"type", "message"}, {"role", "assistant"},
      {"content", {{{"type", "text"}, {"text", "Let me check it."}},
                   {{"type", "tool_use"}, {"id", id}, {"name", name}, {"input", {{"code", code}}}}}},
      {"stop_reason", "tool_use"},
      {"usage", {{"input_tokens", it}, {"output_tokens", ot}, {"cache_read_input_tokens", 10}}}};
  return j.dump();
}

FakeResponse ok(std::string body) {
  FakeResponse r;
  r.body = std::move(body);
  return r;
}

FakeResponse status(int code, std::string body, std::vector<std::pair<std::string, std::string>> headers) {
  FakeResponse r;
  r.status = code;
  r.body = std::move(body);
  r.headers = std::move(headers);
  return r;
}

}  // namespace nki::agent::testing
