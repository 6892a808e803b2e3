#include "sandbox/isolate.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <new>

namespace nki::sandbox {

namespace {

// Frame the child writes: one tag byte, an 8-byte little-endian length, then the bytes.
constexpr char kTagResult = 'R';
constexpr char kTagOutOfMemory = 'M';
constexpr char kTagError = 'E';

using Clock = std::chrono::steady_clock;

bool write_all(int fd, const char* p, size_t n) {
  while (n > 0) {
    ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

void send_frame(int fd, char tag, const std::string& body) {
  char head[9];
  head[0] = tag;
  uint64_t n = body.size();
  for (int i = 0; i < 8; ++i) head[1 + i] = static_cast<char>((n >> (8 * i)) & 0xff);
  if (write_all(fd, head, sizeof head)) write_all(fd, body.data(), body.size());
}

// Address space the process maps now (VmSize), so the cap is relative to what the fork inherits.
int64_t mapped_bytes() {
  FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  long long pages = 0;
  if (std::fscanf(f, "%lld", &pages) != 1) pages = 0;
  std::fclose(f);
  return static_cast<int64_t>(pages) * static_cast<int64_t>(::sysconf(_SC_PAGESIZE));
}

void apply_limits(const Limits& limits) {
  rlimit none{0, 0};
  ::setrlimit(RLIMIT_CORE, &none);  // a crashing kernel must not litter core files
  if (limits.memory_bytes > 0) {
    rlimit as{};
    ::getrlimit(RLIMIT_AS, &as);
    rlim_t want = static_cast<rlim_t>(mapped_bytes() + limits.memory_bytes);
    if (as.rlim_max == RLIM_INFINITY || want < as.rlim_max) as.rlim_cur = want;
    ::setrlimit(RLIMIT_AS, &as);
  }
  if (limits.wall_seconds > 0) {
    // CPU time can only exceed wall time with threads; a backstop should the parent stall.
    rlimit cpu{};
    ::getrlimit(RLIMIT_CPU, &cpu);
    rlim_t want = static_cast<rlim_t>(std::ceil(limits.wall_seconds)) + 10;
    if (cpu.rlim_max == RLIM_INFINITY || want < cpu.rlim_max) cpu.rlim_cur = want;
    ::setrlimit(RLIMIT_CPU, &cpu);
  }
}

// Closes every descriptor >= 3 except `a` and `b`.
void close_all_but(int a, int b) {
  int lo = std::min(a, b), hi = std::max(a, b);
  if (lo > 3) ::close_range(3, static_cast<unsigned>(lo - 1), 0);
  if (hi > lo + 1) ::close_range(static_cast<unsigned>(lo + 1), static_cast<unsigned>(hi - 1), 0);
  ::close_range(static_cast<unsigned>(hi + 1), ~0U, 0);
}

// The child writes its frame into `result_fd` (a memfd the parent reads after the child has
// exited: one copy, no pipe ping-pong for large results) and holds `done_fd`, the write end of
// a pipe whose end-of-file tells the parent the child is gone.
[[noreturn]] void child_main(int done_fd, int result_fd, pid_t parent,
                             const std::function<std::string()>& work, const Limits& limits) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(120);
  // Keep only stdio and our two descriptors: the fork inherits every descriptor of every thread
  // of the caller (databases, sockets, other children's pipes), and holding another child's
  // pipe would keep its parent from seeing end-of-file.
  close_all_but(done_fd, result_fd);
  ::signal(SIGPIPE, SIG_DFL);
  apply_limits(limits);
  try {
    std::string out = work();
    send_frame(result_fd, kTagResult, out);
  } catch (const std::bad_alloc&) {
    send_frame(result_fd, kTagOutOfMemory, "");
  } catch (const std::exception& e) {
    send_frame(result_fd, kTagError, e.what());
  } catch (...) {
    send_frame(result_fd, kTagError, "unknown exception");
  }
  ::_exit(0);  // no atexit handlers, no stdio flush: the parent owns those
}

// Everything the child wrote into the memfd.
std::string read_result(int fd) {
  std::string data;
  struct stat st{};
  if (::fstat(fd, &st) != 0 || st.st_size <= 0) return data;
  data.resize(static_cast<size_t>(st.st_size));
  size_t got = 0;
  while (got < data.size()) {
    ssize_t n = ::pread(fd, data.data() + got, data.size() - got, static_cast<off_t>(got));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  data.resize(got);
  return data;
}

const char* signal_label(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGABRT: return "SIGABRT";
    case SIGKILL: return "SIGKILL";
    case SIGXCPU: return "SIGXCPU";
    case SIGTERM: return "SIGTERM";
    default: return "signal";
  }
}

// Decodes what the child sent; `data` may be short when the child died mid-write. The body
// reuses `data`'s buffer (a run's outputs can be many MB; fresh pages are what copies cost).
bool parse_frame(std::string&& data, char* tag, std::string* body) {
  if (data.size() < 9) return false;
  uint64_t n = 0;
  for (int i = 0; i < 8; ++i) n |= static_cast<uint64_t>(static_cast<unsigned char>(data[1 + i])) << (8 * i);
  if (data.size() - 9 != n) return false;
  *tag = data[0];
  data.erase(0, 9);
  *body = std::move(data);
  return true;
}

}  // namespace

const char* outcome_name(Outcome o) {
  switch (o) {
    case Outcome::Ok: return "ok";
    case Outcome::Crashed: return "crashed";
    case Outcome::TimedOut: return "timed_out";
    case Outcome::OutOfMemory: return "out_of_memory";
    case Outcome::Failed: return "failed";
    case Outcome::Unavailable: return "unavailable";
  }
  return "?";
}

std::string Result::describe() const {
  switch (outcome) {
    case Outcome::Ok: return "completed";
    case Outcome::Crashed: return detail;
    case Outcome::TimedOut: return detail;
    case Outcome::OutOfMemory: return detail;
    case Outcome::Failed: return "the work failed: " + detail;
    case Outcome::Unavailable: return "could not start an isolated process: " + detail;
  }
  return detail;
}

Result run_isolated(const std::function<std::string()>& work, const Limits& limits) {
  Result r;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    r.outcome = Outcome::Unavailable;
    r.detail = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  int result_fd = ::memfd_create("nki-sandbox-result", MFD_CLOEXEC);
  if (result_fd < 0) {
    r.outcome = Outcome::Unavailable;
    r.detail = std::string("memfd_create: ") + std::strerror(errno);
    ::close(fds[0]);
    ::close(fds[1]);
    return r;
  }
  const auto start = Clock::now();
  const pid_t parent = ::getpid();
  pid_t pid = ::fork();
  if (pid < 0) {
    r.outcome = Outcome::Unavailable;
    r.detail = std::string("fork: ") + std::strerror(errno);
    ::close(fds[0]);
    ::close(fds[1]);
    ::close(result_fd);
    return r;
  }
  if (pid == 0) {
    ::close(fds[0]);
    child_main(fds[1], result_fd, parent, work, limits);
  }
  ::close(fds[1]);

  // Wait for the child to close its end of the pipe (it exited or died), up to the deadline.
  bool timed_out = false;
  for (;;) {
    int wait_ms = -1;
    if (limits.wall_seconds > 0) {
      double left = limits.wall_seconds - std::chrono::duration<double>(Clock::now() - start).count();
      if (left <= 0) {
        timed_out = true;
        break;
      }
      wait_ms = static_cast<int>(std::min(left * 1000.0 + 1, 1e9));
    }
    pollfd p{fds[0], POLLIN, 0};
    int n = ::poll(&p, 1, wait_ms);
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (n == 0) continue;  // the deadline is rechecked above
    char b[64];
    ssize_t got = ::read(fds[0], b, sizeof b);
    if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (got <= 0) break;  // end-of-file: the child is gone
  }
  ::close(fds[0]);
  if (timed_out) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  std::string data = timed_out ? std::string() : read_result(result_fd);
  ::close(result_fd);
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();

  char tag = 0;
  std::string body;
  bool framed = parse_frame(std::move(data), &tag, &body);
  if (timed_out) {
    r.outcome = Outcome::TimedOut;
    char msg[128];
    std::snprintf(msg, sizeof msg, "stopped after the %.3g s wall-clock limit", limits.wall_seconds);
    r.detail = msg;
  } else if (WIFSIGNALED(status)) {
    r.signal = WTERMSIG(status);
    if (r.signal == SIGXCPU) {
      r.outcome = Outcome::TimedOut;
      r.detail = "stopped after exceeding its CPU-time limit";
    } else {
      r.outcome = Outcome::Crashed;
      r.detail = "crashed (signal " + std::to_string(r.signal) + ", " + signal_label(r.signal) + ")";
      if (r.signal == SIGKILL) r.detail += "; the system may have run out of memory";
    }
  } else if (framed && tag == kTagResult) {
    r.outcome = Outcome::Ok;
    r.payload = std::move(body);
  } else if (framed && tag == kTagOutOfMemory) {
    r.outcome = Outcome::OutOfMemory;
    r.detail = "ran out of memory (limit " + std::to_string(limits.memory_bytes >> 20) + " MiB)";
  } else if (framed && tag == kTagError) {
    r.outcome = Outcome::Failed;
    r.detail = body;
  } else {
    r.outcome = Outcome::Crashed;
    r.detail = WIFEXITED(status) ? "exited with status " + std::to_string(WEXITSTATUS(status)) +
                                       " before returning a result"
                                 : "ended without returning a result";
  }
  return r;
}

}  // namespace nki::sandbox
