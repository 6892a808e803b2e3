// The whole nkiagent front end behind main(): dispatch and the last line of error handling.
#pragma once

namespace nki::cli {

// Runs `nkiagent argv[1] ...` and returns its exit status. Never throws: every exception is
// mapped to a one-line message on stderr and a documented exit code (README, cli-contract):
//   UsageError, IoError, filesystem and stream errors, model configuration    -> 2
//   DiagnosticError (a compile error outside the normal path)                 -> 1
//   out of memory, and any other exception (an internal error, reported as such) -> 3
int run_cli(int argc, char** argv);

}  // namespace nki::cli
