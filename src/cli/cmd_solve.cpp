// `nkiagent solve`: thin CLI wrapper over nki::agent::run_solve (src/agent/solve_command.h).
#include <iostream>
#include <stdexcept>

#include "agent/solve_command.h"

namespace nki::agent {

int cmd_solve(int argc, char** argv, const SolveDeps& deps) {
  SolveOptions options;
  try {
    options = parse_solve_args(argc, argv);
  } catch (const std::invalid_argument& e) {
    std::cerr << "nkiagent solve: " << e.what() << "\n" << solve_usage();
    return 2;
  }
  if (options.help) {
    std::cout << solve_usage();
    return 0;
  }
  try {
    SolveOutcome outcome = run_solve(options, deps);
    std::cout << outcome.summary << "\n";
    if (!outcome.result.error.empty()) std::cerr << "nkiagent solve: " << outcome.result.error << "\n";
    return outcome.result.verdict == Verdict::Pass ? 0 : 1;
  } catch (const std::exception& e) {
    // Setup failures: missing key, unreadable prompts/prices/replay, unknown task, bad output dir.
    std::cerr << "nkiagent solve: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace nki::agent
