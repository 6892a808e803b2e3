// The contract between the benchmark runner and whatever runs one episode (the agent, a
// multi-turn chat loop, a single-shot prompt, or a fake in tests).
//
// The runner only knows these plain structs; the lead wires an EpisodeFn to the real agent.
// Keeping eval independent of the agent's concrete types lets the runner, the database and the
// reports be tested offline with deterministic fake episodes.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/episode_vocab.h"

namespace nki::eval {

// The vocabulary is shared with the agent loop (base/episode_vocab.h); these names keep
// eval::Mode, eval::VerdictKind, ... spelled as before.
using nki::Mode;
using nki::mode_name;
using nki::parse_mode;
using nki::VerdictKind;
using nki::verdict_kind_name;
using nki::parse_verdict_kind;

struct Verdict {
  VerdictKind kind = VerdictKind::NoCode;
  std::string code;  // only for CompileError: the err_* code of the first diagnostic

  bool passed() const { return kind == VerdictKind::Pass; }
  static Verdict pass() { return {VerdictKind::Pass, {}}; }
  static Verdict compile_error(std::string c) { return {VerdictKind::CompileError, std::move(c)}; }
  static Verdict of(VerdictKind k) { return {k, {}}; }
};

// What the runner asks for: one (task, sample) episode.
struct EpisodeRequest {
  std::string task_id;
  int level = 0;           // 1, 2 or 3, from tasks/<id>/task.json
  int sample = 0;          // 0-based index among --samples K independent episodes
  Mode mode = Mode::Agent;
  std::string model;
  int max_turns = 10;
  std::string transcript_path;  // absolute path the episode should write its JSONL transcript to
  std::string work_dir;         // absolute directory for the episode's kernels and scratch files
  uint64_t held_out_secret = 0; // seeds the final verdict's held-out trials (RunConfig)
};

// One model turn inside an episode, as far as the evaluation cares.
struct TurnRecord {
  int turn = 0;                 // 1-based
  std::string action;           // e.g. "compile", "verify", "answer", "text"
  std::string result;           // short outcome of that action, e.g. "mismatch", "err_xxx", "ok"
  std::int64_t tokens_in = 0;
  std::int64_t tokens_out = 0;
  std::int64_t tokens_cached = 0;
  double cost_usd = 0.0;
  double wall_seconds = 0.0;
};

// What one episode produced. Token and cost fields are totals over all turns.
struct EpisodeOutcome {
  Verdict verdict;
  int turns_used = 0;
  std::optional<int> pass_turn;  // 1-based turn whose kernel first passed; empty unless passed
  std::vector<TurnRecord> turns;
  std::int64_t tokens_in = 0;
  std::int64_t tokens_out = 0;
  std::int64_t tokens_cached = 0;
  double cost_usd = 0.0;
  bool cost_known = true;  // false when some call's price was unknown: cost_usd is then a lower bound
  double wall_seconds = 0.0;
  // Both correctness readings of the final kernel, recorded side by side: strict is the paper's
  // allclose(atol=rtol=1e-3) on every output, tolerance is the task's own per-dtype tolerance.
  // verdict == Pass iff tolerance_pass (the runner enforces it, and fills pass_turn for a pass
  // that lacks one with turns_used).
  bool strict_pass = false;
  bool tolerance_pass = false;
  std::string final_kernel_path;  // empty when no kernel was produced
  std::string transcript_path;    // normally EpisodeRequest::transcript_path
  std::string error_message;      // free text for non-pass verdicts (first diagnostic, API error)
  // Speed (docs/evaluation.md, "Speed"): the cost model's estimate of the final kernel (set when
  // it compiled and the model finished) and the task's baseline (its reference solution's
  // estimate, tasks/baselines.json; empty when the task has none).
  std::optional<double> est_latency_ns;
  std::optional<double> pct_of_peak;
  std::optional<double> baseline_ns;
  // baseline / estimate for a passing kernel; empty when it failed or either number is missing.
  std::optional<double> speedup() const {
    if (!verdict.passed() || !est_latency_ns || !baseline_ns || !(*est_latency_ns > 0)) return std::nullopt;
    return *baseline_ns / *est_latency_ns;
  }
};

using EpisodeFn = std::function<EpisodeOutcome(const EpisodeRequest&)>;

}  // namespace nki::eval
