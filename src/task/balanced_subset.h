// The balanced150 selection rule (docs/tasks.md, "balanced150"): exactly `per_level` tasks of
// each level, stratified by (category, dtype), chosen deterministically from the task set alone
// (no clock, no RNG state), so anyone regenerating it from the same tasks/ gets the same list.
#pragma once

#include <string>
#include <vector>

#include "task/task_stats.h"

namespace nki {

// Per level L (every level present in `pool`):
//  1. strata are the (category, dtype) pairs of L's tasks; with S strata and n_s tasks in
//     stratum s, every stratum first gets one seat (if S > per_level: only the per_level largest,
//     ties by (category, dtype) ascending), then the remaining seats are shared in proportion to
//     n_s - 1 by largest remainder (Hamilton), ties broken by larger n_s, then (category, dtype)
//     ascending;
//  2. inside a stratum, tasks are taken round-robin over families so that shape/dtype variants
//     of one op come last: each family's tasks sorted by SHA-256(id) hex, families ordered by
//     the hash of their first task, then the first task of every family, the second, ...
// Returns the chosen ids sorted by (level, id). Throws std::invalid_argument naming the level
// when a level has fewer than `per_level` tasks.
std::vector<std::string> select_balanced(const std::vector<TaskProfile>& pool, int per_level);

// The subset file: a '#' header naming the rule and the generator, then one id per line.
std::string render_balanced_list(const std::vector<std::string>& ids, int per_level);

}  // namespace nki
