// Connection handling for `nkiagent serve` that slow or hostile clients cannot monopolise.
//
// cpp-httplib 0.11 reads a request with one timeout per recv() and nothing else: a client that
// sends one header byte every few seconds holds a thread of the (fixed) pool for as long as it
// likes, so a dozen such clients, no token needed, starve every real request, and 40 trickling
// bodies time out /v1/health. GuardedServer replaces httplib's per-connection loop (its virtual
// process_and_close_socket) with one that gives every phase of a request a total deadline and
// bounds the connections that may sit in the phases a client controls:
//   waiting    before the request line, reading the headers, or idle between keep-alive requests
//   uploading  reading the body (after the headers, hence after the token check)
//   busy       the handler runs (the server's work; not cut)
// When a phase holds more than its cap, its OLDEST connections are shut down, down to the cap,
// among those in the phase for at least evict_after_seconds (checked when a connection enters
// the phase and every 200 ms). A real client leaves those phases in milliseconds, so the
// connections cut are the ones that dawdle, and their threads are free again at once; a burst
// of real connections is never cut for being many at the same instant.
#pragma once

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <list>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace nki::serve {

struct ConnectionLimits {
  double header_seconds = 10;      // request line and headers, in total
  double body_seconds = 60;        // the whole body, in total, after the headers
  double keep_alive_seconds = 5;   // idle time between two requests of one connection
  size_t keep_alive_requests = 100;
  size_t header_bytes = 64 * 1024; // request line and headers together
  size_t max_waiting = 8;          // connections waiting (see above); the oldest is cut beyond
  size_t max_uploading = 8;        // connections uploading; the oldest is cut beyond
  double evict_after_seconds = 1;  // a connection is cut for a cap only after this long in its phase
};

class GuardedServer : public httplib::Server {
 public:
  explicit GuardedServer(ConnectionLimits limits);
  ~GuardedServer() override;

  // Called by a route handler on the thread serving the request: the request is read, the
  // connection is busy (no deadline, never cut for a cap).
  static void request_read();
  // True when the client of the request this thread serves has closed its connection (or the
  // connection was cut). False outside a request.
  static bool client_gone();
  // On shutdown: cuts every waiting connection (idle keep-alive or no complete request yet).
  void cut_waiting();

  struct Counters {
    std::atomic<long long> header_deadline{0};  // headers not complete within header_seconds
    std::atomic<long long> body_deadline{0};    // body not complete within body_seconds
    std::atomic<long long> evicted_waiting{0};  // cut: too many waiting connections
    std::atomic<long long> evicted_uploading{0};
  };
  const Counters& counters() const { return counters_; }
  // Open connections per phase (waiting, uploading, busy).
  void phase_counts(size_t& waiting, size_t& uploading, size_t& busy) const;

  enum class Phase { Waiting, Uploading, Busy };
  struct Connection {
    socket_t fd = INVALID_SOCKET;
    Phase phase = Phase::Waiting;
    std::chrono::steady_clock::time_point since;
    std::chrono::steady_clock::time_point deadline;  // of the current phase (none when busy)
    std::atomic<bool> cut{false};  // set under the server's mutex; read by the serving thread
  };

 private:
  bool process_and_close_socket(socket_t sock) override;
  // Moves `c` to `phase` (deadline `seconds` from now, 0: none) and enforces that phase's cap.
  void enter(Connection& c, Phase phase, double seconds);
  // Cuts the oldest connections of `phase` down to its cap (mutex_ held).
  void enforce_cap(Phase phase);
  void sweep();
  bool stopping() const { return svr_sock_ == INVALID_SOCKET; }

  ConnectionLimits limits_;
  Counters counters_;
  mutable std::mutex mutex_;
  std::list<Connection*> open_;
  std::condition_variable quit_cv_;
  bool quit_ = false;
  std::thread sweeper_;
  friend class GuardedStream;
};

}  // namespace nki::serve
