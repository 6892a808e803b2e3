#include "eval/report.h"

#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "eval/html.h"
#include "eval/progress.h"

namespace nki::eval {

void assign_labels(std::vector<RunMetrics>& runs) {
  std::map<std::string, int> uses;
  for (auto& r : runs) {
    r.label = run_label(r.config);
    uses[r.label]++;
  }
  for (auto& r : runs)
    if (uses[r.label] > 1)
      r.label += " (" + std::filesystem::path(r.run_dir).lexically_normal().filename().string() + ")";
}

std::string comparability_warning(const std::vector<RunMetrics>& runs) {
  for (const auto& r : runs)
    if (r.config.task_list_fingerprint != runs.front().config.task_list_fingerprint)
      return "These runs cover different task lists (" + runs.front().config.subset + " vs " + r.config.subset +
             " or a changed task set), so their rates are not directly comparable.";
  return {};
}

namespace {

std::string count_cell(const PassCount& c) {
  if (c.total == 0) return "\u2013";
  return std::to_string(c.passed) + "/" + std::to_string(c.total) + " (" + percent(c.rate()) + ")";
}

std::set<int> all_levels(const std::vector<RunMetrics>& runs) {
  std::set<int> levels;
  for (const auto& r : runs)
    for (const auto& [level, _] : r.by_level) levels.insert(level);
  return levels;
}

void runs_table(std::ostringstream& s, const std::vector<RunMetrics>& runs) {
  s << "## Runs\n\n| Run | Model | Mode | NKI | Target | Subset | Samples | Max turns | Finished | Directory |\n"
       "|---|---|---|---|---|---|---:|---:|---:|---|\n";
  for (const auto& r : runs) {
    s << "| " << md_cell(r.label) << " | " << md_cell(r.config.model) << " | " << mode_name(r.config.mode) << " | "
      << md_cell(r.config.nki) << " | " << md_cell(r.config.target) << " | " << md_cell(r.config.subset) << " | " << r.config.samples << " | " << r.config.max_turns << " | "
      << r.finished << "/" << r.expected_episodes;
    if (r.unfinished) s << " (" << r.unfinished << " interrupted)";
    s << " | " << md_cell(r.run_dir) << " |\n";
  }
  s << "\n";
}

void pass_table(std::ostringstream& s, const std::vector<RunMetrics>& runs) {
  auto levels = all_levels(runs);
  s << "## Pass rate (task tolerance)\n\n| Run | Overall | 95% CI |";
  for (int l : levels) s << " Level " << l << " |";
  s << " Strict 1e-3 |\n|---|---:|---:|";
  for (size_t i = 0; i < levels.size(); ++i) s << "---:|";
  s << "---:|\n";
  for (const auto& r : runs) {
    Interval ci = wilson_interval(r.overall);
    s << "| " << md_cell(r.label) << " | " << count_cell(r.overall) << " | " << percent(ci.lo) << "\u2013"
      << percent(ci.hi) << " |";
    for (int l : levels) {
      auto it = r.by_level.find(l);
      s << " " << (it == r.by_level.end() ? "\u2013" : count_cell(it->second)) << " |";
    }
    s << " " << count_cell(r.strict_overall) << " |\n";
  }
  s << "\n95% CI = Wilson score interval of the overall rate. "
       "Strict = the same final kernels judged at atol=rtol=1e-3 on every output (the paper's "
       "criterion); tolerance = each task's own per-dtype tolerance (the verdict).\n\n";

  s << "### Strict vs tolerance per level\n\n| Run |";
  for (int l : levels) s << " L" << l << " tolerance | L" << l << " strict |";
  s << "\n|---|";
  for (size_t i = 0; i < levels.size(); ++i) s << "---:|---:|";
  s << "\n";
  for (const auto& r : runs) {
    s << "| " << md_cell(r.label) << " |";
    for (int l : levels) {
      auto t = r.by_level.count(l) ? r.by_level.at(l) : PassCount{};
      auto st = r.strict_by_level.count(l) ? r.strict_by_level.at(l) : PassCount{};
      s << " " << count_cell(t) << " | " << count_cell(st) << " |";
    }
    s << "\n";
  }
  s << "\n";
}

void pass_at_k_table(std::ostringstream& s, const std::vector<RunMetrics>& runs) {
  std::set<int> ks;
  for (const auto& r : runs)
    for (const auto& [k, _] : r.pass_at_k) ks.insert(k);
  s << "## pass@k (unbiased estimator)\n\n| Run | Tasks solved |";
  for (int k : ks) s << " pass@" << k << " |";
  s << "\n|---|---:|";
  for (size_t i = 0; i < ks.size(); ++i) s << "---:|";
  s << "\n";
  for (const auto& r : runs) {
    s << "| " << md_cell(r.label) << " | " << r.tasks_solved << "/" << r.tasks_seen << " |";
    for (int k : ks) {
      std::string cell = "\u2013";
      for (const auto& [kk, v] : r.pass_at_k)
        if (kk == k) cell = percent(v);
      s << " " << cell << " |";
    }
    s << "\n";
  }
  s << "\n";
}

void turns_table(std::ostringstream& s, const std::vector<RunMetrics>& runs) {
  int max_turn = 1;
  for (const auto& r : runs) {
    max_turn = std::max(max_turn, r.config.max_turns);
    if (!r.turns_to_pass.empty()) max_turn = std::max(max_turn, r.turns_to_pass.rbegin()->first);
  }
  s << "## Turns to pass (passing episodes)\n\n| Run |";
  for (int t = 1; t <= max_turn; ++t) s << " " << t << " |";
  s << " Mean |\n|---|";
  for (int t = 1; t <= max_turn; ++t) s << "---:|";
  s << "---:|\n";
  for (const auto& r : runs) {
    s << "| " << md_cell(r.label) << " |";
    for (int t = 1; t <= max_turn; ++t) {
      auto it = r.turns_to_pass.find(t);
      s << " " << (it == r.turns_to_pass.end() ? 0 : it->second) << " |";
    }
    s << " " << (r.overall.passed ? fixed(r.mean_turns_to_pass, 2) : "\u2013") << " |\n";
  }
  s << "\n";
}

void failure_tables(std::ostringstream& s, const std::vector<RunMetrics>& runs) {
  s << "## Failure taxonomy (episodes)\n\n| Run |";
  for (auto k : failure_kinds()) s << " " << verdict_kind_name(k) << " |";
  s << "\n|---|";
  for (size_t i = 0; i < failure_kinds().size(); ++i) s << "---:|";
  s << "\n";
  for (const auto& r : runs) {
    s << "| " << md_cell(r.label) << " |";
    for (auto k : failure_kinds()) {
      auto it = r.failures.find(verdict_kind_name(k));
      s << " " << (it == r.failures.end() ? 0 : it->second) << " |";
    }
    s << "\n";
  }
  std::set<std::string> codes;
  for (const auto& r : runs)
    for (const auto& [code, _] : r.compile_codes) codes.insert(code);
  if (!codes.empty()) {
    s << "\n### Compile errors by code\n\n| Code |";
    for (const auto& r : runs) s << " " << md_cell(r.label) << " |";
    s << "\n|---|";
    for (size_t i = 0; i < runs.size(); ++i) s << "---:|";
    s << "\n";
    for (const auto& code : codes) {
      s << "| " << md_code(code) << " |";
      for (const auto& r : runs) {
        auto it = r.compile_codes.find(code);
        s << " " << (it == r.compile_codes.end() ? 0 : it->second) << " |";
      }
      s << "\n";
    }
  }
  s << "\n";
}

bool any_speed(const std::vector<RunMetrics>& runs) {
  for (const auto& r : runs)
    if (r.speed.any()) return true;
  return false;
}

std::string speed_cells(const SpeedStats& sp) {
  std::string c;
  for (int i = 0; i < 3; ++i) c += " " + (sp.episodes ? percent(sp.fast_p(i)) : std::string("\u2013")) + " |";
  c += " " + (sp.with_speedup ? speedup_text(sp.geomean_speedup()) : std::string("\u2013")) + " |";
  c += " " + (sp.pct_of_peak_count ? fixed(sp.mean_pct_of_peak(), 1) + "%" : std::string("\u2013")) + " |";
  return c;
}

void speed_table(std::ostringstream& s, const std::vector<RunMetrics>& runs) {
  s << "## Speed (cost-model estimates)\n\n| Run | Level | Episodes | With speedup | fast_1 | fast_1.5 | fast_2 | "
       "Geomean speedup | % of peak |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const auto& r : runs) {
    auto row = [&](const std::string& level, const SpeedStats& sp) {
      s << "| " << md_cell(r.label) << " | " << level << " | " << sp.episodes << " | " << sp.with_speedup << " |"
        << speed_cells(sp) << "\n";
    };
    row("all", r.speed);
    for (const auto& [level, sp] : r.speed_by_level) row("L" + std::to_string(level), sp);
  }
  s << "\nspeedup = the task's baseline (its reference solution's estimated latency, tasks/baselines.json) / "
       "the passing final kernel's estimated latency, both from the cost model (docs/cost-model.md), not "
       "measured on hardware. fast_p = share of episodes whose final kernel is correct and has speedup > p "
       "(KernelBench). Geomean over the episodes with a speedup; % of peak = mean roofline share of the "
       "passing kernels.\n";
  for (const auto& r : runs)
    if (r.speed.no_baseline)
      s << "\n" << md_cell(r.label) << ": " << r.speed.no_baseline
        << " episode(s) of tasks without a baseline (never counted as fast).\n";
  s << "\n### Estimated latency per task\n\n| Task | Level | Baseline |";
  for (const auto& r : runs) s << " " << md_cell(r.label) << " |";
  s << "\n|---|---:|---:|";
  for (size_t i = 0; i < runs.size(); ++i) s << "---:|";
  s << "\n";
  std::vector<const TaskResult*> order;
  std::set<std::string> seen;
  for (const auto& r : runs)
    for (const auto& t : r.tasks)
      if (seen.insert(t.task.id).second) order.push_back(&t);
  for (const TaskResult* t : order) {
    std::optional<double> base;
    std::string cells;
    for (const auto& r : runs) {
      // The sample with the best speedup, else the first with an estimate.
      const SampleResult* pick = nullptr;
      for (const auto& rt : r.tasks) {
        if (rt.task.id != t->task.id) continue;
        for (const auto& smp : rt.samples) {
          if (smp.baseline_ns) base = smp.baseline_ns;
          if (!pick || (smp.speedup && (!pick->speedup || *smp.speedup > *pick->speedup)) ||
              (!pick->est_latency_ns && smp.est_latency_ns && !pick->speedup))
            pick = &smp;
        }
      }
      std::string cell = "\u2013";
      if (pick && pick->est_latency_ns) {
        cell = latency_text(*pick->est_latency_ns);
        cell += pick->speedup ? " (" + speedup_text(*pick->speedup) + ")" : " (fails)";
      }
      cells += " " + cell + " |";
    }
    s << "| " << md_code(t->task.id) << " | " << t->task.level << " | "
      << (base ? latency_text(*base) : std::string("none")) << " |" << cells << "\n";
  }
  s << "\n";
}

void cost_table(std::ostringstream& s, const std::vector<RunMetrics>& runs) {
  s << "## Tokens, cost and time\n\n| Run | Tokens in | Tokens out | Cached | Cost | $/task | $/pass | "
       "Tokens/pass | Wall (sum) | Wall p50 | Wall p90 |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const auto& r : runs) {
    s << "| " << md_cell(r.label) << " | " << human_count(r.tokens_in) << " | " << human_count(r.tokens_out)
      << " | " << human_count(r.tokens_cached) << " | " << dollars(r.cost_usd) << " | "
      << dollars(r.cost_per_episode()) << " | " << (r.overall.passed ? dollars(r.cost_per_pass()) : "\u2013")
      << " | " << (r.overall.passed ? human_count(static_cast<std::int64_t>(r.tokens_per_pass())) : "\u2013")
      << " | " << human_duration(r.wall_seconds_total) << " | " << human_duration(r.wall_seconds_p50) << " | "
      << human_duration(r.wall_seconds_p90) << " |\n";
  }
  s << "\n$/task is per episode (per task and sample); $/pass divides the whole run's cost by its passes.\n";
  for (const auto& r : runs)
    if (r.cost_unknown_episodes)
      s << "\n" << md_cell(r.label) << ": " << r.cost_unknown_episodes
        << " episode(s) used a model missing from the price table; its costs are lower bounds.\n";
}

}  // namespace

std::string render_markdown(const std::vector<RunMetrics>& runs) {
  std::ostringstream s;
  s << "# NKI-Agent benchmark report\n\n";
  if (auto w = comparability_warning(runs); !w.empty()) s << "> **Warning:** " << md_cell(w) << "\n\n";
  runs_table(s, runs);
  pass_table(s, runs);
  pass_at_k_table(s, runs);
  turns_table(s, runs);
  failure_tables(s, runs);
  if (any_speed(runs)) speed_table(s, runs);
  cost_table(s, runs);
  return s.str();
}

}  // namespace nki::eval
