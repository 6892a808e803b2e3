#include "eval/metrics.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <stdexcept>
#include <unordered_map>

#include "eval/pass_at_k.h"

namespace nki::eval {

namespace fs = std::filesystem;

int TaskResult::passed() const {
  return static_cast<int>(std::count_if(samples.begin(), samples.end(),
                                        [](const SampleResult& s) { return s.verdict.passed(); }));
}

const std::vector<VerdictKind>& failure_kinds() {
  static const std::vector<VerdictKind> kinds = {
      VerdictKind::CompileError, VerdictKind::RuntimeError, VerdictKind::Mismatch,
      VerdictKind::NoCode,       VerdictKind::ApiError,     VerdictKind::BudgetExhausted};
  return kinds;
}

void SpeedStats::add(const EpisodeOutcome& o) {
  ++episodes;
  if (!o.baseline_ns) ++no_baseline;
  if (o.verdict.passed() && o.pct_of_peak) {
    pct_of_peak_sum += *o.pct_of_peak;
    ++pct_of_peak_count;
  }
  std::optional<double> s = o.speedup();
  if (!s) return;
  ++with_speedup;
  log_speedup_sum += std::log(*s);
  speedups.push_back(*s);
  // Faster means faster than p by more than the baselines file's rounding (latencies are kept
  // to 0.01 ns): the reference solution itself must not count as faster than itself.
  constexpr double kSameSpeed = 1e-6;
  for (int i = 0; i < 3; ++i)
    if (*s > kThresholds[i] * (1 + kSameSpeed)) ++fast[i];
}

double SpeedStats::geomean_speedup() const { return with_speedup ? std::exp(log_speedup_sum / with_speedup) : 0.0; }

Interval wilson_interval(const PassCount& c, double z) {
  if (c.total == 0) return {0.0, 1.0};
  double n = c.total, p = c.rate(), z2 = z * z;
  double denom = 1.0 + z2 / n;
  double center = (p + z2 / (2 * n)) / denom;
  double half = z * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom;
  return {std::max(0.0, center - half), std::min(1.0, center + half)};
}

int shard_size(int total, const ShardSpec& s) {
  if (total <= s.index) return 0;
  return (total - s.index + s.count - 1) / s.count;
}

namespace {

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  // Nearest-rank: simple, and exact for the small counts a run has.
  size_t rank = static_cast<size_t>(q * static_cast<double>(v.size()) + 0.999999);
  rank = std::clamp<size_t>(rank, 1, v.size());
  return v[rank - 1];
}

std::string resolve(const std::string& run_dir, const std::string& path) {
  if (path.empty() || run_dir.empty() || fs::path(path).is_absolute()) return path;
  return (fs::path(run_dir) / path).lexically_normal().string();
}

void add_pass_at_k(RunMetrics& m) {
  std::vector<TaskSamples> per_task;
  int max_n = 0;
  for (const auto& t : m.tasks) {
    per_task.push_back({static_cast<int>(t.samples.size()), t.passed()});
    max_n = std::max(max_n, static_cast<int>(t.samples.size()));
  }
  for (int k : {1, 2, 5, 10, 20, 50, 100}) {
    if (k > max_n) break;
    double v = mean_pass_at_k(per_task, k);
    if (v >= 0) m.pass_at_k.emplace_back(k, v);
  }
  if (max_n > 1 && (m.pass_at_k.empty() || m.pass_at_k.back().first != max_n)) {
    double v = mean_pass_at_k(per_task, max_n);
    if (v >= 0) m.pass_at_k.emplace_back(max_n, v);
  }
}

}  // namespace

RunMetrics compute_metrics(const RunConfig& config, const std::vector<StoredEpisode>& episodes,
                           const std::string& run_dir) {
  RunMetrics m;
  m.config = config;
  m.run_dir = run_dir;
  m.label = run_label(config);
  m.expected_episodes = shard_size(config.task_count * config.samples, config.shard);

  std::unordered_map<std::string, size_t> task_index;
  std::vector<double> walls;
  long turns_sum = 0;
  for (const auto& e : episodes) {
    if (!e.finished) {
      ++m.unfinished;
      continue;
    }
    const auto& o = e.outcome;
    ++m.finished;
    bool pass = o.verdict.passed();
    int level = e.task.level;
    auto count = [&](PassCount& c, bool ok) { c.total++; c.passed += ok ? 1 : 0; };
    count(m.overall, pass);
    count(m.by_level[level], pass);
    count(m.strict_overall, o.strict_pass);
    count(m.strict_by_level[level], o.strict_pass);
    m.speed.add(o);
    m.speed_by_level[level].add(o);
    if (pass) {
      int turn = o.pass_turn.value_or(o.turns_used);
      m.turns_to_pass[turn]++;
      turns_sum += turn;
    } else {
      m.failures[verdict_kind_name(o.verdict.kind)]++;
      if (o.verdict.kind == VerdictKind::CompileError)
        m.compile_codes[o.verdict.code.empty() ? "(no code)" : o.verdict.code]++;
    }
    m.tokens_in += o.tokens_in;
    m.tokens_out += o.tokens_out;
    m.tokens_cached += o.tokens_cached;
    m.cost_usd += o.cost_usd;
    if (!o.cost_known) ++m.cost_unknown_episodes;
    m.wall_seconds_total += o.wall_seconds;
    walls.push_back(o.wall_seconds);

    auto [it, inserted] = task_index.try_emplace(e.task.id, m.tasks.size());
    if (inserted) m.tasks.push_back({e.task, {}});
    m.tasks[it->second].samples.push_back({e.sample, o.verdict, o.turns_used, o.pass_turn, o.strict_pass,
                                           o.cost_usd, resolve(run_dir, o.transcript_path), o.est_latency_ns,
                                           o.baseline_ns, o.speedup()});
  }
  for (auto& t : m.tasks) {
    std::sort(t.samples.begin(), t.samples.end(),
              [](const SampleResult& a, const SampleResult& b) { return a.sample < b.sample; });
    if (t.passed() > 0) ++m.tasks_solved;
  }
  m.tasks_seen = static_cast<int>(m.tasks.size());
  if (m.overall.passed) m.mean_turns_to_pass = static_cast<double>(turns_sum) / m.overall.passed;
  m.wall_seconds_p50 = percentile(walls, 0.5);
  m.wall_seconds_p90 = percentile(walls, 0.9);
  add_pass_at_k(m);
  return m;
}

RunMetrics load_run_metrics(const std::string& run_dir) {
  std::string path = results_db_path(run_dir);
  if (!fs::exists(path)) throw std::runtime_error("no results database at " + path);
  ResultsDb db(path, OpenMode::ReadOnly);  // a report never writes into the run directory
  auto config = db.stored_config();
  if (!config) throw std::runtime_error(path + " has no run configuration (not a bench run?)");
  return compute_metrics(*config, db.load_episodes(), run_dir);
}

}  // namespace nki::eval
