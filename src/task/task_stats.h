// Composition of a set of benchmark tasks (`nkiagent tasks stats`, docs/tasks.md "Composition"):
// how many tasks per level, category, dtype and input rank, the awkward share and the number of
// multi-output tasks, rendered as Markdown tables so docs/tasks.md can show them verbatim.
#pragma once

#include <string>
#include <vector>

#include "task/task_spec.h"

namespace nki {

// What the composition tables count for one task.
struct TaskProfile {
  std::string id;
  int level = 1;
  std::string category;
  // "fp32" | "bf16" | "fp16" | "int" | other dtype name: the dtype of the first floating output,
  // else of the first floating input, else "int" (every tensor is an integer).
  std::string dtype;
  int rank = 0;            // largest rank among the forward() inputs (parameters not counted)
  bool awkward = false;    // tagged "awkward" (extents not multiples of 128 / 512)
  bool multi_output = false;
  bool int_input = false;  // some forward() input is an integer tensor (indices)
  std::string family;      // op-graph family (tasks differing only in shape or dtype share it)
};

TaskProfile profile_task(const TaskSpec& task);

// "## Composition: <title> (N tasks)" followed by a per-level table (dtype, rank, awkward,
// multi-output and integer-input counts, with a share row) and a category x level table.
// With `cross`, also the full level x category x dtype x rank table (non-empty cells only).
std::string render_composition(const std::vector<TaskProfile>& tasks, const std::string& title,
                               bool cross);

}  // namespace nki
