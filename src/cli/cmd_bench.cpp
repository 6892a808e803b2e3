// nkiagent bench: run (or resume) a benchmark run. Parsing and printing only; the work is
// eval::run_bench.
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <iostream>

#include "eval/cli_args.h"
#include "eval/commands.h"
#include "eval/results_db.h"
#include "eval/runner.h"

namespace nki::eval {

namespace {

// First SIGINT/SIGTERM: start no new episodes, let running ones finish and be recorded.
// Second: exit at once (the database stays consistent; interrupted episodes rerun on resume).
std::atomic<bool> g_stop{false};

void on_stop_signal(int) {
  if (g_stop.exchange(true)) _exit(130);
  const char msg[] = "\nnkiagent bench: stopping after the episodes in flight (interrupt again to quit now)\n";
  ssize_t ignored = write(STDERR_FILENO, msg, sizeof msg - 1);
  (void)ignored;
}

// Installs the handlers for the duration of a bench and restores the previous ones after.
class StopSignals {
 public:
  StopSignals() {
    g_stop = false;
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
  }
  ~StopSignals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

const std::vector<OptionSpec>& bench_options() {
  static const std::vector<OptionSpec> specs = {
      {"--model", "M", "model name passed to the agent and recorded with the run (required)"},
      {"--mode", "MODE", "agent | multi-turn | single-shot (required)"},
      {"--subset", "NAME", "ablation60 | balanced150 | all, from TASKS_DIR/subsets/NAME.txt (required)"},
      {"--jobs", "N", "episodes run in parallel (default 1; does not change results)"},
      {"--samples", "K", "independent episodes per task, for pass@k (default 1)"},
      {"--max-turns", "T", "turn budget per episode (default 10; 1 for single-shot)"},
      {"--run-dir", "DIR", "where results.sqlite, transcripts/ and work/ go (default runs/MODEL_MODE_SUBSET)"},
      {"--shard", "I/N", "run only items j with j mod N == I of the (task, sample) list (0-based)"},
      {"--tasks-dir", "DIR", "benchmark task directory (default tasks)"},
      {"--retry-api-errors", "", "run finished episodes whose verdict is api_error again"},
  };
  return specs;
}

std::string usage() {
  return format_usage(
      "nkiagent bench --model M --mode MODE --subset NAME [options]",
      "Runs one episode per (task, sample) and records each in RUN_DIR/results.sqlite as it ends.\n"
      "Re-running the same command resumes: finished episodes are skipped, interrupted ones are run\n"
      "again. A run directory belongs to one configuration; different options need a new --run-dir.\n"
      "Shards (--shard I/N) are combined afterwards with `nkiagent merge`; see docs/evaluation.md.\n"
      "Model access (read by the nkiagent front end): --base-url URL (OpenAI-compatible or Anthropic\n"
      "endpoint), --timeout S (per request), --replay-dir DIR (replay DIR/<task_id>.jsonl transcripts\n"
      "offline instead of calling a model; see examples/bench/).",
      bench_options());
}

std::string default_run_dir(const RunConfig& c) {
  std::string dir = "runs/" + safe_file_name(c.model) + "_" + mode_name(c.mode) + "_" + safe_file_name(c.subset);
  if (!c.shard.whole()) dir += "_shard" + std::to_string(c.shard.index) + "of" + std::to_string(c.shard.count);
  return dir;
}

BenchOptions options_from_args(const ParsedArgs& a) {
  if (!a.positional.empty()) throw UsageError("unexpected argument '" + a.positional.front() + "'");
  for (const char* required : {"--model", "--mode", "--subset"})
    if (!a.has(required)) throw UsageError(std::string("missing ") + required);
  BenchOptions o;
  RunConfig& c = o.config;
  c.model = *a.get("--model");
  auto mode = parse_mode(*a.get("--mode"));
  if (!mode) throw UsageError("--mode must be agent, multi-turn or single-shot, got '" + *a.get("--mode") + "'");
  c.mode = *mode;
  c.subset = *a.get("--subset");
  c.samples = a.get_int("--samples", 1, 1);
  c.max_turns = a.get_int("--max-turns", c.mode == Mode::SingleShot ? 1 : 10, 1);
  if (auto shard = a.get("--shard")) {
    try {
      c.shard = parse_shard(*shard);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
  }
  o.jobs = a.get_int("--jobs", 1, 1);
  o.tasks_dir = a.get_or("--tasks-dir", "tasks");
  o.run_dir = a.get_or("--run-dir", default_run_dir(c));
  o.retry_api_errors = a.has("--retry-api-errors");
  o.progress = stderr;
  o.progress_tty = isatty(fileno(stderr)) != 0;
  return o;
}

}  // namespace

int cmd_bench(int argc, char** argv, EpisodeFn fn) {
  BenchOptions options;
  try {
    auto args = parse_args(argc, argv, bench_options());
    if (args.help) {
      std::cout << usage();
      return 0;
    }
    options = options_from_args(args);
  } catch (const UsageError& e) {
    std::cerr << "nkiagent bench: " << e.what() << "\n\n" << usage();
    return 2;
  }
  if (!fn) {
    std::cerr << "nkiagent bench: no episode runner is linked into this binary\n";
    return 2;
  }
  try {
    StopSignals signals;
    options.stop = &g_stop;
    BenchSummary s = run_bench(options, fn);
    std::cout << "run dir: " << options.run_dir << "\n"
              << "episodes: " << s.finished_total << "/" << s.total << " finished (" << s.ran << " now, "
              << s.already_finished << " earlier";
    if (s.restarted) std::cout << ", " << s.restarted << " restarted after an interruption";
    if (s.retried_api_errors) std::cout << ", " << s.retried_api_errors << " api_error episodes retried";
    std::cout << "), " << s.passed_total << " passed\n";
    if (s.crashed || s.not_started) {
      if (s.crashed) std::cout << s.crashed << " episode(s) crashed; re-run the same command to retry them\n";
      if (s.not_started) std::cout << "stopped: " << s.not_started << " episode(s) not started; re-run the same command to continue\n";
      return 1;
    }
    std::cout << "next: nkiagent report " << options.run_dir << " --out " << options.run_dir << "/report.html\n";
    return 0;
  } catch (const ConfigMismatch& e) {
    std::cerr << "nkiagent bench: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "nkiagent bench: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace nki::eval
