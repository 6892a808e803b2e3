// A nkiagent subcommand: its option table and the function that runs it on parsed options.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "cli/option_table.h"

namespace nki::cli {

struct Command {
  CommandSpec spec;
  // Runs the command on validated options and returns its exit status. May throw UsageError
  // (exit 2, e.g. a missing positional) or any error main() maps to a code.
  std::function<int(const ParsedOptions&)> run;
};

// Parses argv against the command's table (argv[0] is the command name) and runs it: `--help`
// prints the help generated from the table (exit 0); a UsageError prints one message and one
// hint on stderr (exit 2). Other exceptions propagate to the caller.
int run_command(const Command& command, int argc, char** argv);

// Every subcommand in the order `nkiagent --help` lists them, with a one-line summary.
struct CommandEntry {
  const char* name;
  const char* summary;
  Command (*make)();
};
const std::vector<CommandEntry>& command_list();

}  // namespace nki::cli
