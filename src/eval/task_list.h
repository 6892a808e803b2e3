// Which (task, sample) episodes a run consists of.
//
// Subsets are explicit id lists (tasks/subsets/<name>.txt, one id per line, '#' comments);
// "all" means every tasks/<id>/task.json, sorted by id, and the name is reserved: a
// subsets/all.txt is an error rather than a second, possibly different meaning of "all".
// This is the one subset loader: `nkiagent bench` and `nkiagent tasks` both use it, so the two
// commands always agree on which tasks a subset contains (docs/tasks.md, "Subsets"). Only the id
// and "level" of each task are read here: the runner must not depend on the task layer's full
// schema.
#pragma once

#include <string>
#include <vector>

#include "eval/run_config.h"

namespace nki::eval {

struct TaskRef {
  std::string id;
  int level = 0;
};

// One unit of work: an episode of `task` with sample index `sample`.
struct WorkItem {
  TaskRef task;
  int sample = 0;
};

// Loads the tasks of `subset` from `tasks_dir`, in subset-file order ("all": sorted by id).
// Throws std::runtime_error naming the file when a list or a task.json is missing or malformed.
std::vector<TaskRef> load_subset(const std::string& tasks_dir, const std::string& subset);

// Stable 16-hex-digit FNV-1a hash of the ordered (id, level) list, stored in the run config so a
// changed subset or task set is noticed on resume and merge.
std::string fingerprint(const std::vector<TaskRef>& tasks);

// Every (task, sample) pair, task-major, then keeps the items of `shard` (round-robin, so each
// shard gets a similar mix of levels).
std::vector<WorkItem> expand_work(const std::vector<TaskRef>& tasks, int samples,
                                  const ShardSpec& shard);

}  // namespace nki::eval
