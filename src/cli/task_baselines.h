// nkiagent tasks baselines [--check]: the per-task baseline latencies (tasks/baselines.json).
#pragma once

#include <string>
#include <vector>

#include "cli/option_table.h"

namespace nki::cli {

// Writes TASKS_DIR/baselines.json for `ids` (or, with --check, compares it with a fresh
// computation and returns 1 on any difference). Tasks without a baseline are listed, never fatal.
int task_baselines(const ParsedOptions& o, const std::string& tasks_root, const std::vector<std::string>& ids,
                   const std::string& solutions_dir);

}  // namespace nki::cli
