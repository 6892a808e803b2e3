#include "tests/cli/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace nki::cli::testing {

namespace {

// Output goes to unlinked temporary files rather than pipes, so a child that writes a lot can
// never block on a full pipe while we wait for it.
int temp_file() {
  char name[] = "/tmp/nki_child_XXXXXX";
  int fd = mkstemp(name);
  if (fd < 0) throw std::runtime_error("cannot create a temporary file");
  unlink(name);
  return fd;
}

std::string read_back(int fd, size_t max) {
  std::string s(max, '\0');
  ssize_t n = pread(fd, s.data(), max, 0);
  s.resize(n > 0 ? static_cast<size_t>(n) : 0);
  close(fd);
  return s;
}

std::vector<std::string> child_environment(const ChildOptions& o) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    std::string kv = *e, key = kv.substr(0, kv.find('='));
    bool drop = false;
    for (const auto& u : o.unset_env) drop |= key == u;
    for (const auto& [k, v] : o.set_env) drop |= key == k;
    if (!drop) env.push_back(kv);
  }
  for (const auto& [k, v] : o.set_env) env.push_back(k + "=" + v);
  return env;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> p;
  for (auto& s : strings) p.push_back(s.data());
  p.push_back(nullptr);
  return p;
}

}  // namespace

std::string ChildResult::describe() const {
  if (not_started) return "not started: " + err;
  if (timed_out) return "timed out after " + std::to_string(static_cast<int>(seconds)) + " s";
  if (signaled) return "signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
  return "exit " + std::to_string(exit_code);
}

ChildResult run_child(const std::vector<std::string>& argv, const ChildOptions& o) {
  // Everything the child needs is prepared before fork: after it only async-signal-safe calls.
  std::vector<std::string> args = argv, env = child_environment(o);
  std::vector<char*> arg_ptrs = pointers(args), env_ptrs = pointers(env);
  int out_fd = temp_file(), err_fd = temp_file();
  // The child writes errno here if chdir or exec fails; a successful exec closes it (CLOEXEC),
  // so "could not start" is never mistaken for the program's own exit code 127.
  int exec_pipe[2];
  if (pipe2(exec_pipe, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  auto start = std::chrono::steady_clock::now();
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    setpgid(0, 0);  // its own group, so a timeout kills every thread and grandchild with it
    int null_fd = open("/dev/null", O_RDONLY);
    dup2(null_fd, 0);
    dup2(out_fd, 1);
    dup2(err_fd, 2);
    if (o.cwd.empty() || chdir(o.cwd.c_str()) == 0) execve(arg_ptrs[0], arg_ptrs.data(), env_ptrs.data());
    int e = errno;
    ssize_t ignored = write(exec_pipe[1], &e, sizeof e);
    (void)ignored;
    _exit(127);
  }
  setpgid(pid, pid);  // also from the parent, so the group exists before we might kill it
  close(exec_pipe[1]);
  int exec_errno = 0;
  bool exec_failed = read(exec_pipe[0], &exec_errno, sizeof exec_errno) == sizeof exec_errno;
  close(exec_pipe[0]);
  ChildResult r;
  auto deadline = start + std::chrono::duration<double>(o.timeout_s);
  int status = 0;
  auto pause = std::chrono::milliseconds(1);
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() >= deadline) {
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      r.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(20));
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!r.timed_out && WIFEXITED(status)) {
    r.exited = true;
    r.exit_code = WEXITSTATUS(status);
  } else if (!r.timed_out && WIFSIGNALED(status)) {
    r.signaled = true;
    r.signal = WTERMSIG(status);
  }
  r.out = read_back(out_fd, o.max_output);
  r.err = read_back(err_fd, o.max_output);
  if (exec_failed) {
    r = ChildResult{};
    r.not_started = true;
    r.err = argv[0] + ": " + strerror(exec_errno);
  }
  return r;
}

std::string nkiagent_path() {
  if (const char* p = std::getenv("NKIAGENT"); p && *p) return p;
  return NKIAGENT_PATH;
}

}  // namespace nki::cli::testing
