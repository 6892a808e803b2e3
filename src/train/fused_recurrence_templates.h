// Templates for the recurrence seeds of synth/seeds (blocks.json, kernelbench_l3.json) whose
// forward() is a Python loop over time steps: mingru_scan_block, selective_scan and ema_scan. Each loop is
// matched as a whole (names read from its lines); the lines after it must be epilogue lines of
// the fused row table (translate_row_tail), else no candidate.
#pragma once

#include <string>
#include <vector>

#include "task/task_spec.h"
#include "train/templates.h"

namespace nki::train {

// Candidates "fused_scan:mingru", "fused_scan:selective" and "fused_scan:ema".
void add_fused_recurrence_templates(const TaskSpec& task, const std::vector<std::string>& args,
                                    std::vector<TemplateKernel>& out);

}  // namespace nki::train
