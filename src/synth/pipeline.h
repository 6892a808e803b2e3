// `nkiagent synth`: seeds -> candidates -> filters -> balanced corpus (issue 13,
// docs/synthesis.md). Parallel (one long-lived Python worker per job), resumable (journal),
// deterministic for a given --seed.
#pragma once

#include <cstdint>
#include <string>

namespace nki::synth {

// Static budgets (docs/tasks.md "Adding a task": about a million elements per tensor and a few
// tens of millions of multiply-adds keep one simulated verification well under a second).
inline constexpr int64_t kMaxTensorElements = int64_t{1} << 20;
inline constexpr int64_t kMaxMacs = 50'000'000;

struct SynthOptions {
  std::string seeds_dir;
  std::string out_dir;
  std::string benchmark_tasks;    // the held-out benchmark (decontamination)
  int64_t target = 6000;
  int64_t candidates = 0;         // 0: 5/2 of the target (the 15K -> 6K)
  int jobs = 2;
  uint64_t seed = 1;
  double worker_timeout = 120.0;  // seconds per candidate before the worker is restarted
  bool progress = true;           // the progress line on stderr
  int64_t stop_after = -1;        // testing: stop (as if killed) after this many new evaluations
};

struct SynthSummary {
  int64_t drawn = 0, evaluated_now = 0, from_journal = 0, accepted = 0, selected = 0;
  double seconds = 0.0;
  bool complete = false;          // false when stop_after interrupted the run
};

// Throws nki::IoError for unreadable seeds, an unusable Python or an unwritable DIR.
SynthSummary run_synth(const SynthOptions& options);

}  // namespace nki::synth
