// The benchmark runner: expands a run config into (task, sample) episodes, runs the missing
// ones on a pool of threads through an injected EpisodeFn, and records each in the results
// database the moment it ends. Re-running the same options resumes.
#pragma once

#include <atomic>
#include <cstdio>
#include <string>

#include "eval/episode.h"
#include "eval/run_config.h"

namespace nki::eval {

struct BenchOptions {
  RunConfig config;            // fingerprint and task_count are filled in by run_bench
  std::string tasks_dir = "tasks";
  std::string run_dir;
  int jobs = 1;                // episodes in flight at once
  std::FILE* progress = stderr;
  bool progress_tty = false;   // redraw one line in place instead of printing lines
  // Run finished api_error episodes again (provider outages are not the model's fault). The
  // config is unchanged: this only repairs a run.
  bool retry_api_errors = false;
  // When set and true, no new episode is started; episodes in flight finish and are recorded.
  // cmd_bench points it at a flag its SIGINT/SIGTERM handler raises.
  const std::atomic<bool>* stop = nullptr;
};

struct BenchSummary {
  int total = 0;                 // episodes in this run (this shard)
  int already_finished = 0;      // skipped because an earlier run finished them
  int restarted = 0;             // left 'started' by an interrupted run, executed again
  int retried_api_errors = 0;    // finished api_error episodes run again (retry_api_errors)
  int ran = 0;                   // finished by this call
  int crashed = 0;               // EpisodeFn threw; left unfinished for the next run
  int not_started = 0;           // skipped because a stop was requested; the next run does them
  int passed_total = 0;          // passes over all finished episodes of the run
  int finished_total = 0;
};

// Throws std::runtime_error (bad tasks dir / subset) or ConfigMismatch (run dir holds a
// different run). Episode crashes are counted, not thrown.
BenchSummary run_bench(BenchOptions options, const EpisodeFn& fn);

// Directory-safe form of a task id (anything outside [A-Za-z0-9._-] becomes '_').
std::string safe_file_name(const std::string& id);

}  // namespace nki::eval
