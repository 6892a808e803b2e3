#include "serve/http_connections.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

namespace nki::serve {

using Clock = std::chrono::steady_clock;

namespace {

thread_local GuardedServer* tl_server = nullptr;
thread_local GuardedServer::Connection* tl_connection = nullptr;

int millis_until(Clock::time_point t) {
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t - Clock::now()).count();
  return static_cast<int>(std::clamp<long long>(ms, 0, 1 << 30));
}

std::string address_text(const sockaddr_storage& a, int& port) {
  char host[INET6_ADDRSTRLEN] = {};
  if (a.ss_family == AF_INET) {
    const auto& v4 = reinterpret_cast<const sockaddr_in&>(a);
    inet_ntop(AF_INET, &v4.sin_addr, host, sizeof host);
    port = ntohs(v4.sin_port);
  } else if (a.ss_family == AF_INET6) {
    const auto& v6 = reinterpret_cast<const sockaddr_in6&>(a);
    inet_ntop(AF_INET6, &v6.sin6_addr, host, sizeof host);
    port = ntohs(v6.sin6_port);
  }
  return host;
}

}  // namespace

// httplib::Stream over one connection: buffered reads that wait at most the read timeout for
// each chunk AND never past the deadline of the connection's phase.
class GuardedStream : public httplib::Stream {
 public:
  GuardedStream(GuardedServer& server, GuardedServer::Connection& c, int read_timeout_ms, int write_timeout_ms)
      : server_(server), c_(c), read_timeout_ms_(read_timeout_ms), write_timeout_ms_(write_timeout_ms) {}

  bool is_readable() const override { return off_ < len_ || wait(POLLIN, read_wait_ms()); }
  bool is_writable() const override { return wait(POLLOUT, write_timeout_ms_); }

  ssize_t read(char* ptr, size_t size) override {
    if (off_ == len_) {
      if (!fill()) return -1;
      if (len_ == 0) return 0;  // the client closed the connection
    }
    size_t n = std::min(size, len_ - off_);
    std::memcpy(ptr, buf_ + off_, n);
    off_ += n;
    return static_cast<ssize_t>(n);
  }

  ssize_t write(const char* ptr, size_t size) override {
    if (!is_writable()) return -1;
    return ::send(c_.fd, ptr, size, MSG_NOSIGNAL);
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    sockaddr_storage a{};
    socklen_t len = sizeof a;
    if (::getpeername(c_.fd, reinterpret_cast<sockaddr*>(&a), &len) == 0) ip = address_text(a, port);
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    sockaddr_storage a{};
    socklen_t len = sizeof a;
    if (::getsockname(c_.fd, reinterpret_cast<sockaddr*>(&a), &len) == 0) ip = address_text(a, port);
  }
  socket_t socket() const override { return c_.fd; }

  // A new request begins: the header byte budget starts again.
  void begin_request() { header_bytes_ = 0; }
  // Waits up to `seconds` for the next request of a kept-alive connection; false when none came,
  // the connection was cut or the server is stopping (polled in short slices for the last two).
  bool wait_next_request(double seconds) {
    if (off_ < len_) return true;
    auto until = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    while (Clock::now() < until) {
      if (server_.stopping() || c_.cut) return false;
      if (wait(POLLIN, std::min(100, millis_until(until)))) return true;
    }
    return false;
  }

 private:
  // Milliseconds a read may wait now: the read timeout, cut to the phase's deadline.
  int read_wait_ms() const {
    if (c_.phase == GuardedServer::Phase::Busy) return read_timeout_ms_;
    return std::min(read_timeout_ms_, millis_until(c_.deadline));
  }
  bool wait(short events, int ms) const {
    pollfd p{c_.fd, events, 0};
    int r;
    do r = ::poll(&p, 1, ms);
    while (r < 0 && errno == EINTR);
    return r > 0;
  }
  bool fill() {
    off_ = len_ = 0;
    if (!wait(POLLIN, read_wait_ms())) {
      if (c_.phase != GuardedServer::Phase::Busy && Clock::now() >= c_.deadline) {
        if (c_.phase == GuardedServer::Phase::Waiting) ++server_.counters_.header_deadline;
        else ++server_.counters_.body_deadline;
      }
      return false;
    }
    ssize_t n;
    do n = ::recv(c_.fd, buf_, sizeof buf_, 0);
    while (n < 0 && errno == EINTR);
    if (n < 0) return false;
    len_ = static_cast<size_t>(n);
    if (c_.phase == GuardedServer::Phase::Waiting) {
      header_bytes_ += len_;
      if (header_bytes_ > server_.limits_.header_bytes) return false;
    }
    return true;
  }

  GuardedServer& server_;
  GuardedServer::Connection& c_;
  int read_timeout_ms_, write_timeout_ms_;
  char buf_[4096];
  size_t off_ = 0, len_ = 0;
  size_t header_bytes_ = 0;
};

GuardedServer::GuardedServer(ConnectionLimits limits) : limits_(limits), sweeper_([this] { sweep(); }) {}

GuardedServer::~GuardedServer() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    quit_ = true;
  }
  quit_cv_.notify_all();
  sweeper_.join();
}

// Every 200 ms: a phase can stay over its cap when no connection enters it (every thread held by
// connections too young to cut when they came); this frees threads for the connections queued.
void GuardedServer::sweep() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!quit_) {
    quit_cv_.wait_for(lock, std::chrono::milliseconds(200));
    if (quit_) break;
    enforce_cap(Phase::Waiting);
    enforce_cap(Phase::Uploading);
  }
}

void GuardedServer::enforce_cap(Phase phase) {
  size_t cap = std::max<size_t>(1, phase == Phase::Waiting ? limits_.max_waiting : limits_.max_uploading);
  auto old_enough = Clock::now() - std::chrono::duration_cast<Clock::duration>(
                                       std::chrono::duration<double>(limits_.evict_after_seconds));
  for (;;) {
    size_t n = 0;
    Connection* oldest = nullptr;
    for (Connection* o : open_) {
      if (o->phase != phase || o->cut) continue;
      ++n;
      if (o->since <= old_enough && (!oldest || o->since < oldest->since)) oldest = o;
    }
    if (n <= cap || oldest == nullptr) return;
    // Wakes the thread serving it: its poll() or recv() returns and the request fails.
    ::shutdown(oldest->fd, SHUT_RDWR);
    oldest->cut = true;
    ++(phase == Phase::Waiting ? counters_.evicted_waiting : counters_.evicted_uploading);
  }
}

void GuardedServer::enter(Connection& c, Phase phase, double seconds) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto now = Clock::now();
  c.phase = phase;
  c.since = now;
  c.deadline = now + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  if (phase != Phase::Busy) enforce_cap(phase);
}

bool GuardedServer::process_and_close_socket(socket_t sock) {
  Connection c;
  c.fd = sock;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    c.since = c.deadline = Clock::now();  // young: not cut before its first phase starts
    open_.push_back(&c);
  }
  int read_ms = static_cast<int>(read_timeout_sec_ * 1000 + read_timeout_usec_ / 1000);
  int write_ms = static_cast<int>(write_timeout_sec_ * 1000 + write_timeout_usec_ / 1000);
  GuardedStream stream(*this, c, read_ms, write_ms);
  tl_server = this;
  tl_connection = &c;
  bool ok = false;
  for (size_t n = 0; n < limits_.keep_alive_requests; ++n) {
    if (n > 0) {
      enter(c, Phase::Waiting, limits_.keep_alive_seconds + limits_.header_seconds);
      if (!stream.wait_next_request(limits_.keep_alive_seconds)) break;
    }
    enter(c, Phase::Waiting, limits_.header_seconds);
    stream.begin_request();
    bool last = n + 1 == limits_.keep_alive_requests || stopping() || c.cut;
    bool client_closes = false;
    ok = process_request(stream, last, client_closes,
                         [this, &c](httplib::Request&) { enter(c, Phase::Uploading, limits_.body_seconds); });
    // Kept alive only after a request a handler answered: a request cut at a deadline, refused
    // before its body was read (401, 404, 413) or malformed may have left bytes that are not
    // the start of the next request.
    if (!ok || client_closes || last || c.cut || c.phase != Phase::Busy) break;
  }
  tl_server = nullptr;
  tl_connection = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    open_.remove(&c);
  }
  ::shutdown(sock, SHUT_RDWR);
  ::close(sock);
  return ok;
}

void GuardedServer::request_read() {
  if (tl_server && tl_connection) tl_server->enter(*tl_connection, Phase::Busy, 0);
}

bool GuardedServer::client_gone() {
  if (!tl_connection) return false;
  if (tl_connection->cut) return true;
  pollfd p{tl_connection->fd, POLLRDHUP, 0};
  return ::poll(&p, 1, 0) > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0;
}

void GuardedServer::cut_waiting() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (Connection* o : open_)
    if (o->phase == Phase::Waiting && !o->cut) {
      ::shutdown(o->fd, SHUT_RDWR);
      o->cut = true;
    }
}

void GuardedServer::phase_counts(size_t& waiting, size_t& uploading, size_t& busy) const {
  std::lock_guard<std::mutex> lock(mutex_);
  waiting = uploading = busy = 0;
  for (const Connection* o : open_)
    ++(o->phase == Phase::Waiting ? waiting : o->phase == Phase::Uploading ? uploading : busy);
}

}  // namespace nki::serve
