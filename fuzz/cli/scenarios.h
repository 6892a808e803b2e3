// The fuzzer's starting points: a scratch directory with small valid inputs, and for every
// nkiagent command one valid invocation that finishes in about a second. Mutations start from
// these, so that a malformed value reaches the code behind the parser and not only the parser.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fuzz/cli/malformed_values.h"

namespace nki::cli::fuzz {

struct Invocation {
  std::string command;                                        // e.g. "verify"
  std::vector<std::string> positionals;                       // after the command name
  std::vector<std::pair<std::string, std::optional<std::string>>> options;  // flags: no value
  std::vector<std::string> extra;                             // raw tokens appended (mutations)

  // argv after the program name; `inline_values` picks --name=value over --name value.
  std::vector<std::string> args(const std::vector<bool>& inline_values) const;
};

struct Scratch {
  ScratchPaths paths;
  std::string tasks_dir;   // one task (l1_add_fp32) with subsets fuzz and ablation60
  std::string replay_dir;  // l1_add_fp32.jsonl, a recorded agent episode
  std::string run_dir;     // a finished one-episode bench run (for merge and report)
  std::string work_dir;    // the children's working directory
  std::vector<std::string> shared_inputs;  // files every run may read; no run may change them
};

// Creates the scratch tree under `root` (which must not exist or be empty) from the source
// tree's tasks/, solutions/ and examples/. Runs one replayed bench with `nkiagent` to make
// `run_dir`. Throws std::runtime_error when something cannot be set up.
Scratch make_scratch(const std::string& root, const std::string& source_dir, const std::string& nkiagent);

// One valid invocation per command (several for `tasks`). `unique` makes output paths unique
// per run so that runs do not resume each other's state.
std::vector<Invocation> base_invocations(const Scratch& s, const std::string& unique);

// Environment of every child: no API keys, one HTTP attempt, tasks from the scratch tree.
std::vector<std::pair<std::string, std::string>> child_env(const Scratch& s);
std::vector<std::string> child_unset_env();

}  // namespace nki::cli::fuzz
