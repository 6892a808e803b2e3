// Running helper programs (python3 for golden data) without a shell, with a timeout.
#pragma once

#include <string>
#include <vector>

namespace nki {

struct ProcessResult {
  bool started = false;      // false: the program could not be executed (see error)
  bool timed_out = false;    // killed (with its process group) after the timeout
  int exit_code = -1;        // valid when the process exited normally
  int term_signal = 0;       // nonzero when it was killed by a signal
  std::string out;           // captured stdout (truncated at max_output bytes)
  std::string err;           // captured stderr (truncated at max_output bytes)
  std::string error;         // why it could not be started

  bool ok() const { return started && !timed_out && term_signal == 0 && exit_code == 0; }
  // One-line description of a failure ("exit code 1", "timed out after 60 s", ...).
  std::string describe_failure(double timeout_seconds) const;
};

struct ProcessOptions {
  double timeout_seconds = 60.0;
  size_t max_output = 4 << 20;
  // Extra NAME=VALUE entries added to (or replacing in) the inherited environment.
  std::vector<std::string> env;
};

// Runs argv[0] (looked up in PATH when it has no '/') with posix_spawn; stdin is /dev/null.
// Never throws for a failing child; the result says what happened.
ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& opts = {});

}  // namespace nki
