#include "task/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>

extern char** environ;

namespace nki {

std::string ProcessResult::describe_failure(double timeout_seconds) const {
  if (!started) return "could not start: " + error;
  if (timed_out) return "timed out after " + std::to_string(static_cast<int>(timeout_seconds)) + " s";
  if (term_signal != 0) return std::string("killed by signal ") + strsignal(term_signal);
  return "exit code " + std::to_string(exit_code);
}

namespace {

// Environment for the child: the inherited one with opts.env entries overriding by name.
std::vector<std::string> child_environment(const std::vector<std::string>& extra) {
  std::map<std::string, std::string> vars;
  std::vector<std::string> order;
  auto put = [&](const std::string& entry) {
    size_t eq = entry.find('=');
    std::string name = entry.substr(0, eq);
    if (!vars.count(name)) order.push_back(name);
    vars[name] = entry;
  };
  for (char** e = environ; e && *e; ++e) put(*e);
  for (const std::string& e : extra) put(e);
  std::vector<std::string> out;
  for (const std::string& name : order) out.push_back(vars[name]);
  return out;
}

struct Pipe {
  int fd[2] = {-1, -1};
  ~Pipe() {
    for (int f : fd) {
      if (f >= 0) ::close(f);
    }
  }
  void close_end(int i) {
    if (fd[i] >= 0) ::close(fd[i]);
    fd[i] = -1;
  }
};

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& opts) {
  ProcessResult r;
  if (argv.empty()) {
    r.error = "empty command";
    return r;
  }
  Pipe out, err;
  if (::pipe2(out.fd, O_CLOEXEC) != 0 || ::pipe2(err.fd, O_CLOEXEC) != 0) {
    r.error = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out.fd[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err.fd[1], 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // Own process group, so a timeout kills the child and everything it started.
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);

  std::vector<char*> cargv;
  for (const std::string& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  std::vector<std::string> env = child_environment(opts.env);
  std::vector<char*> cenv;
  for (const std::string& e : env) cenv.push_back(const_cast<char*>(e.c_str()));
  cenv.push_back(nullptr);

  pid_t pid = 0;
  int rc = posix_spawnp(&pid, cargv[0], &actions, &attr, cargv.data(), cenv.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    r.error = argv[0] + ": " + std::strerror(rc);
    return r;
  }
  r.started = true;
  out.close_end(1);
  err.close_end(1);

  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::milliseconds(static_cast<long long>(opts.timeout_seconds * 1000));
  pollfd fds[2] = {{out.fd[0], POLLIN, 0}, {err.fd[0], POLLIN, 0}};
  std::string* sinks[2] = {&r.out, &r.err};
  int open_fds = 2;
  char buf[65536];
  while (open_fds > 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      r.timed_out = true;
      break;
    }
    int n = ::poll(fds, 2, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (n < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t got = ::read(fds[i].fd, buf, sizeof(buf));
      if (got > 0) {
        size_t room = opts.max_output > sinks[i]->size() ? opts.max_output - sinks[i]->size() : 0;
        sinks[i]->append(buf, std::min(room, static_cast<size_t>(got)));
      } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  // The pipes may close before the child exits (it closed them itself): keep honouring the
  // deadline while waiting for the exit status.
  int status = 0;
  while (!r.timed_out) {
    pid_t w = ::waitpid(pid, &status, WNOHANG);
    if (w == pid || (w < 0 && errno != EINTR)) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      r.timed_out = true;
      break;
    }
    ::usleep(5000);
  }
  if (r.timed_out) {
    ::kill(-pid, SIGKILL);
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  if (WIFEXITED(status)) {
    r.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    r.term_signal = WTERMSIG(status);
  }
  if (r.timed_out) r.term_signal = SIGKILL;
  return r;
}

}  // namespace nki
