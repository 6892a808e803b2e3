// Options and helpers shared by the toolchain subcommands (check, ir, run, verify).
#pragma once

#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "cli/option_table.h"
#include "machine/executor.h"
#include "nki/tracer.h"

namespace nki::cli {

// Table rows shared by several commands, so that the same option reads the same everywhere.
OptionSpec kernel_option();
OptionSpec arg_option();
OptionSpec grid_option();
OptionSpec target_option();
// "trn1|trn2": the value hint of a --target option.
std::string chip_targets_hint();
OptionSpec const_option();
OptionSpec nki_option();
// solve and bench: the dialect of an episode (2.24 or 0.6), which has a prompt set of its own.
OptionSpec episode_nki_option();
OptionSpec numerics_option();
OptionSpec tasks_dir_option();
OptionSpec trials_option();  // verify and tasks: 1..1000, default the task's own count
// --sim-work, --sim-seconds, --sim-memory: the simulator's budgets (docs/reliability.md).
std::vector<OptionSpec> sim_budget_options();
// Applies those options to the simulator settings.
void apply_sim_budget(const ParsedOptions& o, machine::RunOptions& m);

// --kernel, --arg (when the table has it), --grid, --target and --const into trace options.
// Throws UsageError on a value the table cannot check by itself (a bad --arg shape or --grid).
front::TraceOptions trace_options(const ParsedOptions& o);
// Appends a NAME=VALUE parameter; UsageError when `option` already named it.
void add_named_arg(front::TraceOptions& t, front::NamedArg a, const std::string& option);
nki::Target target_from(const ParsedOptions& o);
machine::Numerics numerics_from(const ParsedOptions& o);
// --tasks-dir, else $NKI_TASKS_DIR, else the repository's tasks/.
std::string tasks_root_from(const ParsedOptions& o);

// The single FILE positional of check/ir/run/verify (UsageError otherwise).
const std::string& single_file_positional(const ParsedOptions& o);

// Prints diagnostics in the contract's text form on stderr.
void print_diagnostics(const std::vector<Diagnostic>& diags);

}  // namespace nki::cli
