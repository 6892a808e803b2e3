#include "synth/python_worker.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "base/diagnostic.h"

namespace nki::synth {

std::string synth_worker_path() {
  if (const char* v = std::getenv("NKI_SYNTH_WORKER"); v && *v) return v;
#ifdef NKI_REPO_ROOT
  return std::string(NKI_REPO_ROOT) + "/tools/synth/synth_worker.py";
#else
  return "tools/synth/synth_worker.py";
#endif
}

PythonWorker::PythonWorker(std::string python, std::string script, std::string golden, std::string log_path)
    : python_(std::move(python)), script_(std::move(script)), golden_(std::move(golden)), log_(std::move(log_path)) {}

PythonWorker::~PythonWorker() { stop(); }

void PythonWorker::start() {
  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0) throw IoError("synth: cannot create pipes for the worker");
  int log_fd = open(log_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  pid_t pid = fork();
  if (pid < 0) throw IoError("synth: cannot fork the worker");
  if (pid == 0) {
    dup2(in[0], 0);
    dup2(out[1], 1);
    if (log_fd >= 0) dup2(log_fd, 2);
    setpgid(0, 0);  // its own group, so a kill reaches anything it started
    const char* argv[] = {python_.c_str(), script_.c_str(), golden_.c_str(), nullptr};
    execv(python_.c_str(), const_cast<char* const*>(argv));
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  if (log_fd >= 0) close(log_fd);
  pid_ = pid;
  to_child_ = in[1];
  from_child_ = out[0];
  buffer_.clear();
  std::string ready;
  if (!read_line(ready, 300.0) || ready.find("\"ready\"") == std::string::npos) {
    stop();
    throw IoError("synth: the Python worker (" + python_ + " " + script_ + ") did not start; see " + log_);
  }
}

void PythonWorker::stop() {
  if (pid_ > 0) {
    if (to_child_ >= 0) close(to_child_);
    kill(-pid_, SIGKILL);
    int status = 0;
    waitpid(pid_, &status, 0);
  } else if (to_child_ >= 0) {
    close(to_child_);
  }
  if (from_child_ >= 0) close(from_child_);
  pid_ = -1;
  to_child_ = from_child_ = -1;
  buffer_.clear();
}

bool PythonWorker::read_line(std::string& line, double timeout_seconds) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
  for (;;) {
    size_t nl = buffer_.find('\n');
    if (nl != std::string::npos) {
      line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      return true;
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) return false;
    pollfd p{from_child_, POLLIN, 0};
    int r = poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000)));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) continue;
    char buf[65536];
    ssize_t n = read(from_child_, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;  // the worker died
    buffer_.append(buf, static_cast<size_t>(n));
  }
}

std::string PythonWorker::evaluate(const std::string& id, const std::string& request_line, double timeout_seconds) {
  if (pid_ <= 0) start();
  auto failure = [&](const char* verdict, const std::string& detail) {
    stop();
    nlohmann::json j = {{"id", id}, {"verdict", verdict}, {"detail", detail}, {"cpu_ms", 0.0}, {"tolerance", nullptr}};
    return j.dump();
  };
  std::string msg = request_line + "\n";
  size_t off = 0;
  while (off < msg.size()) {
    ssize_t n = write(to_child_, msg.data() + off, msg.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return failure("worker_crash", "the worker closed its input");
    off += static_cast<size_t>(n);
  }
  std::string answer;
  auto t0 = std::chrono::steady_clock::now();
  if (!read_line(answer, timeout_seconds)) {
    bool timed_out = std::chrono::steady_clock::now() - t0 >= std::chrono::duration<double>(timeout_seconds);
    return timed_out ? failure("worker_timeout", "no answer within the time limit")
                     : failure("worker_crash", "the worker exited while evaluating");
  }
  return answer;
}

}  // namespace nki::synth
