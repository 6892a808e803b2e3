// Runs a program as a child process with a time limit and captures how it ended. Used by the
// CLI tests and the CLI option fuzzer to check that nkiagent never dies of a signal.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace nki::cli::testing {

struct ChildOptions {
  std::string cwd;                                        // empty: the parent's
  double timeout_s = 60;                                  // then the process group is killed
  std::vector<std::pair<std::string, std::string>> set_env;
  std::vector<std::string> unset_env;
  size_t max_output = 1 << 16;                            // bytes kept of stdout and of stderr
};

struct ChildResult {
  bool exited = false;     // normal exit: exit_code is valid
  int exit_code = -1;
  bool signaled = false;   // killed by a signal it raised or received (not our timeout)
  int signal = 0;
  bool timed_out = false;  // still running at the time limit; killed by us
  bool not_started = false;  // exec failed (e.g. the binary is missing); see `err`
  std::string out, err;    // the first max_output bytes of each stream
  double seconds = 0;

  // "exit 2", "signal 6 (Aborted)", "timed out after 60 s", "not started: ..."
  std::string describe() const;
};

// argv[0] is the program path (no PATH search). Throws std::runtime_error if it cannot start.
ChildResult run_child(const std::vector<std::string>& argv, const ChildOptions& options = {});

// The nkiagent binary under test: $NKIAGENT when set (to run the same checks against another
// build, e.g. main's), else the path the build compiled in.
std::string nkiagent_path();

}  // namespace nki::cli::testing
