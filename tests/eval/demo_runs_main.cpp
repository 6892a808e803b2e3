// eval_demo_runs: writes three synthetic offline runs (single-shot, multi-turn, agent) over a
// real task subset, with plausible pass rates, turns, tokens and costs, and small JSONL
// transcripts, so the report can be looked at without a model or an API key.
//
//   eval_demo_runs OUT_DIR [TASKS_DIR] [SUBSET]
//   nkiagent report OUT_DIR/single-shot OUT_DIR/multi-turn OUT_DIR/agent --out OUT_DIR/report.html
//
// Not a test: a fixture generator for docs, demos and eyeballing the HTML.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "eval/runner.h"

namespace {

using namespace nki::eval;

// Deterministic uniform draw in [0, 1) from a string key.
double unit(const std::string& key) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : key) h = (h ^ c) * 1099511628211ull;
  h ^= h >> 31;
  h *= 0x9E3779B97F4A7C15ull;
  h ^= h >> 29;
  return static_cast<double>(h >> 11) / 9007199254740992.0;
}

struct ModeProfile {
  double pass_by_level[3];
  double cost_per_turn;
  std::int64_t tokens_per_turn;
};

ModeProfile profile(Mode m) {
  switch (m) {
    case Mode::SingleShot: return {{0.15, 0.05, 0.0}, 0.035, 5200};
    case Mode::MultiTurn: return {{0.65, 0.40, 0.25}, 0.030, 7400};
    case Mode::Agent: return {{0.95, 0.75, 0.55}, 0.041, 9800};
    case Mode::Optimize: return {{0.98, 0.90, 0.85}, 0.045, 12000};  // starts from a correct kernel
  }
  return {};
}

EpisodeOutcome demo_outcome(const EpisodeRequest& r) {
  std::string key = r.task_id + "#" + std::to_string(r.sample) + "#" + mode_name(r.mode);
  ModeProfile p = profile(r.mode);
  double u = unit(key);
  bool pass = u < p.pass_by_level[std::clamp(r.level, 1, 3) - 1];
  EpisodeOutcome o;
  int turns = 1;
  if (r.max_turns > 1) {
    // Passing agents mostly finish in a few turns; failures run longer or to the budget.
    double v = unit(key + "turns");
    turns = pass ? 1 + static_cast<int>(v * v * (r.max_turns - 1) * 0.8) : 2 + static_cast<int>(v * (r.max_turns - 1));
    turns = std::min(turns, r.max_turns);
  }
  if (pass) {
    o.verdict = Verdict::pass();
    o.pass_turn = turns;
    o.tolerance_pass = true;
    o.strict_pass = r.task_id.find("bf16") == std::string::npos || unit(key + "strict") < 0.3;
  } else {
    double f = unit(key + "kind");
    static const char* codes[] = {"err_num_partition_exceed_arch_limit", "err_psum_overflow",
                                  "err_unsupported_memory", "err_shape_mismatch", "syntax"};
    if (f < 0.45) o.verdict = Verdict::compile_error(codes[static_cast<int>(unit(key + "code") * 5)]);
    else if (f < 0.60) o.verdict = Verdict::of(VerdictKind::RuntimeError);
    else if (f < 0.85) o.verdict = Verdict::of(VerdictKind::Mismatch);
    else if (f < 0.92) o.verdict = Verdict::of(VerdictKind::NoCode);
    else if (f < 0.95) o.verdict = Verdict::of(VerdictKind::ApiError);
    else o.verdict = Verdict::of(VerdictKind::BudgetExhausted);
    if (o.verdict.kind == VerdictKind::BudgetExhausted) turns = r.max_turns;
  }
  o.turns_used = turns;
  std::ofstream transcript(r.transcript_path);
  for (int t = 1; t <= turns; ++t) {
    TurnRecord rec;
    rec.turn = t;
    rec.action = r.mode == Mode::Agent ? (t == turns ? "verify" : "compile") : "answer";
    rec.result = t == turns ? verdict_kind_name(o.verdict.kind) : "compile_error";
    rec.tokens_in = p.tokens_per_turn * t + static_cast<std::int64_t>(800 * unit(key + std::to_string(t)));
    rec.tokens_out = 600 + static_cast<std::int64_t>(900 * unit(key + "o" + std::to_string(t)));
    rec.tokens_cached = rec.tokens_in * 6 / 10;
    rec.cost_usd = p.cost_per_turn * (0.7 + 0.6 * unit(key + "c" + std::to_string(t)));
    rec.wall_seconds = 8 + 20 * unit(key + "w" + std::to_string(t));
    o.tokens_in += rec.tokens_in;
    o.tokens_out += rec.tokens_out;
    o.tokens_cached += rec.tokens_cached;
    o.cost_usd += rec.cost_usd;
    o.wall_seconds += rec.wall_seconds;
    o.turns.push_back(rec);
    transcript << "{\"turn\": " << t << ", \"role\": \"assistant\", \"action\": \"" << rec.action
               << "\", \"result\": \"" << rec.result << "\", \"note\": \"synthetic demo transcript\"}\n";
  }
  o.transcript_path = r.transcript_path;
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: eval_demo_runs OUT_DIR [TASKS_DIR] [SUBSET]\n";
    return 2;
  }
  std::string out = argv[1];
  std::string tasks = argc > 2 ? argv[2] : "tasks";
  std::string subset = argc > 3 ? argv[3] : "ablation60";
  try {
    for (Mode m : {Mode::SingleShot, Mode::MultiTurn, Mode::Agent}) {
      BenchOptions o;
      o.config.model = "demo-model";
      o.config.mode = m;
      o.config.subset = subset;
      o.config.samples = m == Mode::SingleShot ? 4 : 2;
      o.config.max_turns = m == Mode::SingleShot ? 1 : 10;
      o.tasks_dir = tasks;
      o.run_dir = out + "/" + mode_name(m);
      o.jobs = 2;
      o.progress = stderr;
      auto s = run_bench(o, demo_outcome);
      std::cout << mode_name(m) << ": " << s.passed_total << "/" << s.finished_total << " passed\n";
    }
  } catch (const std::exception& e) {
    std::cerr << "eval_demo_runs: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
