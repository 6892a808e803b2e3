// nkiagent tasks baselines [--check] [--target T]: the per-task baseline latencies
// (tasks/baselines.json for trn1, tasks/baselines.trn2.json for trn2).
#pragma once

#include <string>
#include <vector>

#include "cli/option_table.h"

namespace nki::cli {

// Writes the baseline files for `ids`, both targets (only --target's when given) and both
// dialects (only --nki's when given; --solutions-dir then names its solutions), or with --check
// compares them with a fresh computation and returns 1 on any difference. Tasks without a
// baseline are listed, never fatal.
int task_baselines(const ParsedOptions& o, const std::string& tasks_root, const std::vector<std::string>& ids);

}  // namespace nki::cli
