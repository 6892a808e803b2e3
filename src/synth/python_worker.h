// One long-lived Python process (tools/synth/synth_worker.py) that evaluates many candidates:
// starting torch costs seconds, one forward milliseconds. Requests and answers are JSON lines
// over pipes. A worker that dies or stops answering is killed and restarted; the candidate it
// was on gets the verdict "worker_crash" or "worker_timeout".
#pragma once

#include <string>
#include <sys/types.h>

namespace nki::synth {

class PythonWorker {
 public:
  // `log_path` receives the worker's stderr (appended).
  PythonWorker(std::string python, std::string script, std::string golden, std::string log_path);
  ~PythonWorker();
  PythonWorker(const PythonWorker&) = delete;
  PythonWorker& operator=(const PythonWorker&) = delete;

  // Sends one request line and returns the answer line. On a crash or a timeout returns a
  // JSON answer with verdict worker_crash / worker_timeout and restarts the worker lazily.
  std::string evaluate(const std::string& id, const std::string& request_line, double timeout_seconds);

 private:
  void start();     // throws nki::IoError if the process cannot start or never says "ready"
  void stop();
  bool read_line(std::string& line, double timeout_seconds);

  std::string python_, script_, golden_, log_;
  pid_t pid_ = -1;
  int to_child_ = -1, from_child_ = -1;
  std::string buffer_;
};

// tools/synth/synth_worker.py: $NKI_SYNTH_WORKER, else next to the repository's golden.py.
std::string synth_worker_path();

}  // namespace nki::synth
