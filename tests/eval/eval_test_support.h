// Shared fixtures for the eval tests: a throw-away task tree and deterministic fake episodes.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "eval/episode.h"
#include "eval/runner.h"

namespace nki::eval::testing {

// A fresh empty directory under the system temp dir, unique per call.
std::string make_temp_dir(const std::string& tag);

// Writes TASKS/<id>/task.json for `per_level` tasks of each level 1..3 (ids "l<L>_t<i>") and
// TASKS/subsets/<subset>.txt listing them level by level. Returns the ids in list order.
std::vector<std::string> write_fake_tasks(const std::string& tasks_dir, int per_level,
                                          const std::string& subset = "mini");

// Deterministic outcome keyed by (task id, sample, mode): the same request always gets the same
// verdict, turns, tokens and cost, so two runs (sharded or not, resumed or not) must agree.
// `pass_bias` shifts the pass probability (0 = about half pass) to make distinct fake "runs".
EpisodeOutcome fake_outcome(const EpisodeRequest& req, int pass_bias = 0);

// BenchOptions with progress sent to /dev/null.
BenchOptions quiet_options(const std::string& tasks_dir, const std::string& run_dir,
                           const std::string& subset = "mini");

std::string read_file(const std::string& path);

}  // namespace nki::eval::testing
