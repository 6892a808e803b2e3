// Benchmark task manifests (tasks/<id>/task.json, format in docs/tasks.md).
//
// The manifest is the only thing the C++ side reads about a task: argument shapes/dtypes/dists,
// outputs, tolerance, seed and trial count. The PyTorch reference next to it is only run by
// tools/golden/golden.py (see golden_cache.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/dtype.h"

namespace nki {

struct Distribution {
  enum class Kind { Normal, Uniform, RandInt };
  Kind kind = Kind::Normal;
  double mean = 0.0, stddev = 1.0;  // normal
  double low = 0.0, high = 1.0;     // uniform [low, high) / randint [low, high)
};

struct TensorSpec {
  std::string name;                 // empty for outputs
  std::vector<int64_t> shape;
  DType dtype = DType::Float32;
  std::optional<Distribution> dist;  // set for inputs, parameters and buffers

  int64_t element_count() const;
};

struct Tolerance {
  double atol = 1e-3;
  double rtol = 1e-3;
};

// Per-dtype default: float32 1e-3, float16 5e-3, bfloat16 1e-2 (atol = rtol); integers exact.
Tolerance default_tolerance(DType t);
// The tolerance --strict applies to every dtype (the paper's criterion).
inline constexpr double kStrictTolerance = 1e-3;

struct TaskSpec {
  std::string dir;  // task directory as given to load_task
  std::string id;
  int level = 1;
  std::string category;
  std::vector<std::string> tags;
  std::string description;
  std::string origin;
  std::string family;
  std::string init_args_json;  // Model(*init_args), kept as compact JSON text
  std::vector<TensorSpec> inputs;
  std::vector<TensorSpec> parameters;
  std::vector<TensorSpec> buffers;
  std::vector<TensorSpec> outputs;
  std::optional<Tolerance> tolerance;  // nullopt = per-dtype default
  uint64_t seed = 0;
  int trials = 1;

  // Kernel arguments in calling-convention order: inputs, parameters, buffers.
  std::vector<TensorSpec> kernel_args() const;
  // Tolerance used for output `dtype`: the task's explicit value or the dtype default;
  // strict mode forces 1e-3 for every floating dtype.
  Tolerance tolerance_for(DType dtype, bool strict) const;
  // Seed of trial k (the golden generator is seeded with seed + k).
  uint64_t trial_seed(int trial) const { return seed + static_cast<uint64_t>(trial); }
};

// Reads and validates DIR/task.json. Throws nki::IoError naming the file and the offending field
// ("tasks/x/task.json: field 'inputs[0].shape': ...") for every problem.
TaskSpec load_task(const std::string& dir);
// Same validation on JSON text; `file` is used in messages, `expected_id` (if non-empty) must
// equal the "id" field.
TaskSpec parse_task(const std::string& json_text, const std::string& file,
                    const std::string& expected_id);

// Directory of task `id_or_dir`: an existing directory containing task.json is used as is;
// otherwise `<tasks_root>/<id>`. Throws IoError when there is no such task.
std::string resolve_task_dir(const std::string& id_or_dir, const std::string& tasks_root);
// $NKI_TASKS_DIR, else the repository's tasks/ directory.
std::string default_tasks_root();
// The reference solutions next to a task directory: <tasks_root>/../solutions for the legacy
// 2.24 dialect, <tasks_root>/../solutions_nki06 for the current one (docs/nki-current.md).
std::string default_solutions_dir(const std::string& tasks_root, bool current_dialect);

}  // namespace nki
