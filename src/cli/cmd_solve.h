// nkiagent solve: one agent episode on one task (the work is agent::run_solve).
#pragma once

#include <functional>

#include "agent/solve_command.h"
#include "cli/command.h"

namespace nki::cli {

// The solve options of a parsed command line; UsageError when --task or a model is missing.
agent::SolveOptions solve_options_from(const ParsedOptions& o);

// The solve command with its dependencies built from the parsed options (tests inject fakes;
// make_solve_command() in commands.h wires the simulator-backed ones).
using SolveDepsFactory = std::function<agent::SolveDeps(const ParsedOptions&)>;
Command make_solve_command(SolveDepsFactory deps);

}  // namespace nki::cli
