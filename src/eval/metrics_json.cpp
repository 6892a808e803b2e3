#include "eval/metrics_json.h"

namespace nki::eval {

namespace {

nlohmann::ordered_json count_json(const PassCount& c) {
  return {{"passed", c.passed}, {"total", c.total}, {"rate", c.rate()}};
}

template <typename Map, typename F>
nlohmann::ordered_json map_json(const Map& m, F&& value) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const auto& [k, v] : m) j[std::to_string(k)] = value(v);
  return j;
}

nlohmann::ordered_json speed_json(const SpeedStats& sp) {
  nlohmann::ordered_json j = {{"episodes", sp.episodes}, {"no_baseline", sp.no_baseline}, {"with_speedup", sp.with_speedup}};
  for (int i = 0; i < 3; ++i) {
    std::string name = i == 0 ? "fast_1" : i == 1 ? "fast_1.5" : "fast_2";
    j[name] = sp.fast_p(i);
  }
  j["geomean_speedup"] = sp.with_speedup ? nlohmann::ordered_json(sp.geomean_speedup()) : nlohmann::ordered_json();
  j["mean_pct_of_peak"] = sp.pct_of_peak_count ? nlohmann::ordered_json(sp.mean_pct_of_peak()) : nlohmann::ordered_json();
  return j;
}

}  // namespace

nlohmann::ordered_json metrics_to_json(const RunMetrics& m) {
  nlohmann::ordered_json j;
  j["label"] = m.label;
  j["run_dir"] = m.run_dir;
  j["config"] = nlohmann::ordered_json::parse(config_to_json(m.config));
  j["expected_episodes"] = m.expected_episodes;
  j["finished"] = m.finished;
  j["unfinished"] = m.unfinished;
  j["overall"] = count_json(m.overall);
  Interval ci = wilson_interval(m.overall);
  j["overall_ci95"] = {ci.lo, ci.hi};
  j["by_level"] = map_json(m.by_level, count_json);
  j["strict_overall"] = count_json(m.strict_overall);
  j["strict_by_level"] = map_json(m.strict_by_level, count_json);
  j["tasks_seen"] = m.tasks_seen;
  j["tasks_solved"] = m.tasks_solved;
  nlohmann::ordered_json pk = nlohmann::ordered_json::object();
  for (const auto& [k, v] : m.pass_at_k) pk[std::to_string(k)] = v;
  j["pass_at_k"] = pk;
  j["turns_to_pass"] = map_json(m.turns_to_pass, [](int n) { return n; });
  j["mean_turns_to_pass"] = m.mean_turns_to_pass;
  j["speed"] = speed_json(m.speed);
  j["speed_by_level"] = map_json(m.speed_by_level, speed_json);
  j["failures"] = m.failures;
  j["compile_codes"] = m.compile_codes;
  j["tokens"] = {{"in", m.tokens_in}, {"out", m.tokens_out}, {"cached", m.tokens_cached}};
  j["cost_usd"] = m.cost_usd;
  j["cost_unknown_episodes"] = m.cost_unknown_episodes;
  j["cost_per_episode"] = m.cost_per_episode();
  j["cost_per_pass"] = m.cost_per_pass();
  j["wall_seconds"] = {{"total", m.wall_seconds_total}, {"p50", m.wall_seconds_p50}, {"p90", m.wall_seconds_p90}};
  nlohmann::ordered_json tasks = nlohmann::ordered_json::array();
  for (const auto& t : m.tasks) {
    nlohmann::ordered_json samples = nlohmann::ordered_json::array();
    for (const auto& s : t.samples) {
      nlohmann::ordered_json sj = {{"sample", s.sample},
                                   {"verdict", verdict_kind_name(s.verdict.kind)},
                                   {"turns_used", s.turns_used},
                                   {"strict_pass", s.strict_pass},
                                   {"cost_usd", s.cost_usd},
                                   {"transcript", s.transcript_path}};
      if (!s.verdict.code.empty()) sj["code"] = s.verdict.code;
      if (s.pass_turn) sj["pass_turn"] = *s.pass_turn;
      if (s.est_latency_ns) sj["est_latency_ns"] = *s.est_latency_ns;
      if (s.baseline_ns) sj["baseline_ns"] = *s.baseline_ns;
      if (s.speedup) sj["speedup"] = *s.speedup;
      samples.push_back(std::move(sj));
    }
    tasks.push_back({{"id", t.task.id}, {"level", t.task.level}, {"samples", std::move(samples)}});
  }
  j["tasks"] = std::move(tasks);
  return j;
}

nlohmann::ordered_json runs_to_json(const std::vector<RunMetrics>& runs) {
  nlohmann::ordered_json arr = nlohmann::ordered_json::array();
  for (const auto& r : runs) arr.push_back(metrics_to_json(r));
  return {{"runs", std::move(arr)}};
}

}  // namespace nki::eval
