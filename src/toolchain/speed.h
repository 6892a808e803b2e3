// Speed metrics on the cost model (issue 12 items 4-6): the estimate of a kernel with a task's
// shapes, the per-task baseline (the reference solution's estimate, recorded in
// tasks/baselines.json by `nkiagent tasks baselines`) and the identity of the cost model an
// estimate came from, so that a baseline and a candidate are only compared when both came from
// the same table.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "task/task_spec.h"
#include "toolchain/profile.h"

namespace nki::toolchain {

// "trn1:<first 16 hex digits of sha256 over every cost-table row name=value>": changes whenever
// a coefficient changes. Scheduler code changes are caught by `tasks baselines --check`, which
// re-estimates every solution.
std::string cost_model_id(nki::Target t);

struct KernelEstimate {
  double latency_ns = 0;
  double pct_of_peak = 0;
  std::string bound;       // "matmul", "vector", "memory"
  std::string bottleneck;  // the busiest resource, or dependency latency (cost::CostReport::bottleneck)
};

struct EstimateOutcome {
  std::optional<KernelEstimate> estimate;
  std::string error;  // why there is none: the first compile error, or the model's budget
};

// Compiles `file` with the task's argument shapes (under `iso`) and runs the cost model on the
// default table of `target`. Never throws for what the kernel does.
EstimateOutcome estimate_for_task(const TaskSpec& task, const SourceFilePtr& file, const Isolation& iso,
                                  nki::Target target = nki::Target::Trn1);

// One task's baseline; latency_ns is empty when the solution is missing or does not compile
// (error says which).
struct Baseline {
  std::optional<double> latency_ns;
  double pct_of_peak = 0;
  std::string bound;
  std::string error;
};

struct BaselineFile {
  std::string cost_model;  // cost_model_id() of the table the estimates came from
  std::string target = target_name(Target::Trn1);
  std::map<std::string, Baseline> tasks;  // by task id
};

// TASKS_ROOT/baselines.json for trn1 (the benchmark's default target), TASKS_ROOT/baselines.trn2.json
// for trn2: one file per target, each with its own cost model id. The current dialect's solutions
// (solutions_nki06/) have their own pair, baselines.nki06.json and baselines.nki06.trn2.json, so
// that a 0.6 run is measured against the 0.6 reference kernel it starts from.
std::string baselines_path(const std::string& tasks_root, nki::Target target = nki::Target::Trn1,
                           bool current_dialect = false);

// Estimates solutions_dir/<id>.py for every id (in this process: the solutions are the project's
// own kernels). `progress` (may be null) is called after each task.
BaselineFile compute_baselines(const std::string& tasks_root, const std::string& solutions_dir,
                               const std::vector<std::string>& ids,
                               const std::function<void(const std::string& id, const Baseline&)>& progress = {},
                               nki::Target target = nki::Target::Trn1);

std::string render_baselines_json(const BaselineFile& f);
// Throws std::runtime_error naming the problem.
BaselineFile parse_baselines_json(const std::string& text);
// The committed file, or nullopt when there is none. Throws std::runtime_error when it is broken.
std::optional<BaselineFile> load_baselines(const std::string& tasks_root, nki::Target target = nki::Target::Trn1,
                                           bool current_dialect = false);

// Differences between the committed file and a fresh computation, one line each (empty: fresh).
// Latencies agree when within `rel_tol` (the JSON keeps 6 significant digits).
std::vector<std::string> compare_baselines(const BaselineFile& committed, const BaselineFile& fresh,
                                           double rel_tol = 1e-5);

// The baseline of one task for a run on `target`: the committed one (that target's file) when it
// came from the current cost model, else nullopt (the caller reports the task as having no baseline).
class BaselineLookup {
 public:
  explicit BaselineLookup(const std::string& tasks_root, nki::Target target = nki::Target::Trn1,
                          bool current_dialect = false);
  std::optional<double> latency_ns(const std::string& task_id) const;
  // Empty, or why no baseline is used at all (no file, another cost model).
  const std::string& problem() const { return problem_; }

 private:
  std::map<std::string, double> latency_;
  std::string problem_;
};

}  // namespace nki::toolchain
