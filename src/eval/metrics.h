// Everything the reports show, computed from the episodes of one run database.
//
// Rates count finished episodes only (unfinished ones are reported separately, never silently
// treated as failures). With --samples 1 an episode is a task, so "116/150" reads naturally; with
// K samples the rate is the per-episode mean, i.e. the unbiased pass@1.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "eval/results_db.h"
#include "eval/run_config.h"

namespace nki::eval {

struct PassCount {
  int passed = 0;
  int total = 0;
  double rate() const { return total == 0 ? 0.0 : static_cast<double>(passed) / total; }
};

// Wilson score interval for a pass rate (z = 1.96: 95%). Unlike the normal approximation it
// stays inside [0, 1] and is honest at 0/n and n/n, which small subsets hit often. Reports show
// it next to the overall rate so two runs can be compared with their noise in view.
struct Interval {
  double lo = 0.0;
  double hi = 1.0;
};
Interval wilson_interval(const PassCount& c, double z = 1.96);

// Speed over a set of finished episodes (docs/evaluation.md, "Speed"). speedup = baseline /
// estimate of a passing final kernel (both from the cost model); fast_p (KernelBench) is the share
// of episodes whose kernel is correct and has speedup > p; an episode without a speedup (failed,
// or its task has no baseline) is never fast.
struct SpeedStats {
  static constexpr double kThresholds[3] = {1.0, 1.5, 2.0};
  int episodes = 0;       // finished episodes (the fast_p denominator)
  int no_baseline = 0;    // finished episodes whose task has no baseline
  int with_speedup = 0;   // passing episodes with a speedup
  int fast[3] = {0, 0, 0};  // correct and speedup > kThresholds[i]
  double log_speedup_sum = 0;
  double pct_of_peak_sum = 0;  // over passing episodes with an estimate
  int pct_of_peak_count = 0;
  std::vector<double> speedups;  // every speedup, for the distribution chart

  void add(const EpisodeOutcome& o);
  double fast_p(int i) const { return episodes ? static_cast<double>(fast[i]) / episodes : 0.0; }
  // Geometric mean over the passing episodes with a speedup; 0 when there is none.
  double geomean_speedup() const;
  double mean_pct_of_peak() const { return pct_of_peak_count ? pct_of_peak_sum / pct_of_peak_count : 0.0; }
  bool any() const { return with_speedup > 0 || pct_of_peak_count > 0; }
};

// One episode as the per-task table shows it.
struct SampleResult {
  int sample = 0;
  Verdict verdict;
  int turns_used = 0;
  std::optional<int> pass_turn;
  bool strict_pass = false;
  double cost_usd = 0.0;
  std::string transcript_path;  // absolute (resolved against the run directory)
  std::optional<double> est_latency_ns;  // the final kernel's estimate (when it compiled)
  std::optional<double> baseline_ns;
  std::optional<double> speedup;
};

struct TaskResult {
  TaskRef task;
  std::vector<SampleResult> samples;  // finished samples, by sample index
  int passed() const;
};

struct RunMetrics {
  RunConfig config;
  std::string run_dir;
  std::string label;  // short name for legends, e.g. "agent · claude-x"

  int expected_episodes = 0;  // what the config asks of this database (its shard)
  int finished = 0;
  int unfinished = 0;  // started but never finished (killed run not yet resumed)

  PassCount overall;                     // tolerance verdict (the headline number)
  std::map<int, PassCount> by_level;     // level -> counts
  PassCount strict_overall;              // same episodes judged at atol=rtol=1e-3
  std::map<int, PassCount> strict_by_level;

  int tasks_seen = 0;
  int tasks_solved = 0;  // at least one passing sample
  std::vector<std::pair<int, double>> pass_at_k;  // (k, mean unbiased pass@k), k = 1,2,5,10,...<=K

  std::map<int, int> turns_to_pass;  // pass turn -> number of passing episodes
  double mean_turns_to_pass = 0.0;

  SpeedStats speed;                   // every finished episode
  std::map<int, SpeedStats> speed_by_level;

  std::map<std::string, int> failures;       // verdict kind name -> count (never "pass")
  std::map<std::string, int> compile_codes;  // diagnostic code -> count of compile_error verdicts

  std::int64_t tokens_in = 0, tokens_out = 0, tokens_cached = 0;
  double cost_usd = 0.0;
  int cost_unknown_episodes = 0;  // episodes whose cost is a lower bound (model missing from price table)
  double cost_per_episode() const { return finished ? cost_usd / finished : 0.0; }
  double cost_per_pass() const { return overall.passed ? cost_usd / overall.passed : 0.0; }
  double tokens_per_episode() const { return finished ? double(tokens_in + tokens_out) / finished : 0.0; }
  double tokens_per_pass() const {
    return overall.passed ? double(tokens_in + tokens_out) / overall.passed : 0.0;
  }

  double wall_seconds_total = 0.0;  // sum over episodes (CPU-side effort, independent of --jobs)
  double wall_seconds_p50 = 0.0;
  double wall_seconds_p90 = 0.0;

  std::vector<TaskResult> tasks;  // in first-seen order
};

// Failure kinds in the order reports list them.
const std::vector<VerdictKind>& failure_kinds();

RunMetrics compute_metrics(const RunConfig& config, const std::vector<StoredEpisode>& episodes,
                           const std::string& run_dir = {});

// Opens RUN_DIR/results.sqlite (which must exist) and computes its metrics.
RunMetrics load_run_metrics(const std::string& run_dir);

// Number of work items shard `s` gets out of `total` (round-robin slicing).
int shard_size(int total, const ShardSpec& s);

}  // namespace nki::eval
