// nkiagent bench: parsing and printing only; the work is eval::run_bench.
#include "cli/cmd_bench.h"

#include <unistd.h>

#include <cstdio>
#include <iostream>

#include "agent/prompts.h"
#include "agent/tools.h"
#include "cli/common.h"
#include "cli/stop_signals.h"
#include "eval/metrics.h"
#include "eval/results_db.h"
#include "eval/runner.h"

namespace nki::cli {

// The canonical --tools value (compile, verify, profile in that order) for `mode`; a mode
// without tools keeps the default when --tools is not given (the run's identity is unchanged).
std::string tools_list(const ParsedOptions& o, Mode mode) {
  if (!uses_tools(mode)) {
    if (o.has("tools")) throw UsageError(agent::validate_tool_offer(agent::ToolOffer{}, mode));
    return agent::tool_offer_text(agent::ToolOffer{});
  }
  agent::ToolOffer offer;
  try {
    offer = agent::parse_tool_offer(o.text("tools"));
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  std::string problem = agent::validate_tool_offer(offer, mode);
  if (!problem.empty()) throw UsageError(problem);
  return agent::tool_offer_text(offer);
}

namespace {

std::vector<OptionSpec> bench_options() {
  OptionSpec run_dir = text_option("run-dir", "DIR", "where results.sqlite, transcripts/ and work/ go");
  run_dir.default_help = "runs/MODEL_MODE_SUBSET[_shardIofN]";
  OptionSpec max_turns = integer_option("max-turns", "T", 1, 1000, "turn budget per episode");
  max_turns.default_help = "10; 1 for single-shot";
  OptionSpec timeout = real_option("timeout", "S", 0.001, 86400, "per-request timeout of the model API in seconds", "300");
  return {
      text_option("model", "M",
                  "model: openai:NAME or anthropic:NAME (any name with --replay-dir); recorded\n"
                  "with the run (required)"),
      choice_option("mode", "agent|multi-turn|single-shot|optimize", {"agent", "multi-turn", "single-shot", "optimize"},
                    "episode mode (required); optimize starts from the task's reference solution\n"
                    "and asks for a faster kernel that stays correct"),
      text_option("tools", "LIST", "tools offered in agent and optimize mode, a subset of\n"
                  "compile,verify,profile (profile_kernel: the cost model's estimate);\n"
                  "optimize mode needs verify", "compile,verify"),
      text_option("solutions-dir", "DIR", "optimize mode: starting kernels DIR/<task_id>.py\n"
                  "(default TASKS_DIR/../solutions, or solutions_nki06 for --nki 0.6)"),
      text_option("subset", "NAME", "ablation60 | balanced150 | ...: TASKS_DIR/subsets/NAME.txt; all: every task\n"
                  "directory (required)"),
      integer_option("jobs", "N", 1, 1024, "episodes run in parallel (does not change results)", "1"),
      integer_option("samples", "K", 1, 1000, "independent episodes per task, for pass@k", "1"),
      max_turns,
      run_dir,
      text_option("shard", "I/N", "run only items j with j mod N == I of the (task, sample) list (0-based)"),
      tasks_dir_option(),
      target_option(),
      episode_nki_option(),
      flag_option("retry-api-errors", "run finished episodes whose verdict is api_error again"),
      text_option("base-url", "URL", "model API root (OpenAI-compatible or Anthropic endpoint)"),
      timeout,
      text_option("replay-dir", "DIR",
                  "replay DIR/<task_id>.jsonl transcripts offline instead of calling a model\n"
                  "(see examples/bench/)"),
  };
}

std::string default_run_dir(const eval::RunConfig& c) {
  std::string dir = "runs/" + eval::safe_file_name(c.model) + "_" + eval::mode_name(c.mode) + "_" +
                    eval::safe_file_name(c.subset);
  if (c.nki != agent::kLegacyNki) dir += "_nki" + c.nki;
  if (!c.shard.whole()) dir += "_shard" + std::to_string(c.shard.index) + "of" + std::to_string(c.shard.count);
  return dir;
}

eval::BenchOptions bench_options_from(const ParsedOptions& o) {
  if (!o.positionals().empty()) throw UsageError("unexpected argument '" + o.positionals().front() + "'");
  for (const char* required : {"model", "mode", "subset"})
    if (!o.has(required)) throw UsageError(std::string("missing --") + required);
  eval::BenchOptions b;
  eval::RunConfig& c = b.config;
  c.model = o.text("model");
  c.mode = *eval::parse_mode(o.text("mode"));  // the table admits only the three mode names
  c.subset = o.text("subset");
  c.tools = tools_list(o, c.mode);
  // verify simulates this NeuronCore; estimates and speed baselines (TASKS_DIR/baselines*.json) match it.
  c.target = target_name(target_from(o));
  c.nki = o.text("nki");
  c.samples = static_cast<int>(*o.integer("samples"));
  c.max_turns = static_cast<int>(o.integer("max-turns").value_or(c.mode == eval::Mode::SingleShot ? 1 : 10));
  if (o.has("shard")) {
    try {
      c.shard = eval::parse_shard(o.text("shard"));
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
  }
  b.jobs = static_cast<int>(*o.integer("jobs"));
  b.tasks_dir = tasks_root_from(o);
  b.run_dir = o.has("run-dir") ? o.text("run-dir") : default_run_dir(c);
  b.retry_api_errors = o.flag("retry-api-errors");
  b.progress = stderr;
  b.progress_tty = isatty(fileno(stderr)) != 0;
  return b;
}

// fast_p and geomean speedup of the whole run (cost-model estimates), when it has any.
void print_speed(const std::string& run_dir) {
  eval::RunMetrics m = eval::load_run_metrics(run_dir);
  const eval::SpeedStats& sp = m.speed;
  if (!sp.any()) return;
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "speed (cost model): fast_1 %.1f%%, fast_1.5 %.1f%%, fast_2 %.1f%% of %d episodes; geomean speedup "
                "%.3fx over %d passing kernels; %.1f%% of peak",
                100 * sp.fast_p(0), 100 * sp.fast_p(1), 100 * sp.fast_p(2), sp.episodes, sp.geomean_speedup(),
                sp.with_speedup, sp.mean_pct_of_peak());
  std::cout << buf << "\n";
  if (sp.no_baseline) std::cout << sp.no_baseline << " episode(s) of tasks without a baseline (TASKS_DIR/baselines[.nki06][.trn2].json for the run's --nki and --target)\n";
}

int print_summary(const eval::BenchSummary& s, const std::string& run_dir) {
  std::cout << "run dir: " << run_dir << "\n"
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
  print_speed(run_dir);
  std::cout << "next: nkiagent report " << run_dir << " --out " << run_dir << "/report.html\n";
  return 0;
}

int bench(const ParsedOptions& o, const EpisodeFnFactory& episodes) {
  eval::BenchOptions options = bench_options_from(o);
  try {
    eval::EpisodeFn fn = episodes(o);
    StopSignals signals;
    options.stop = signals.requested();
    return print_summary(eval::run_bench(options, fn), options.run_dir);
  } catch (const std::exception& e) {
    // Configuration and I/O: no key, bad tasks dir or subset, a run dir of another config.
    std::cerr << "nkiagent bench: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace

Command make_bench_command(EpisodeFnFactory episodes) {
  Command c;
  c.spec.name = "bench";
  c.spec.synopsis = "nkiagent bench --model M --mode MODE --subset NAME [options]";
  c.spec.description =
      "Runs one episode per (task, sample) and records each in RUN_DIR/results.sqlite as it ends.\n"
      "Re-running the same command resumes: finished episodes are skipped, interrupted ones are run\n"
      "again. A run directory belongs to one configuration; different options need a new --run-dir.\n"
      "Shards (--shard I/N) are combined afterwards with `nkiagent merge`; see docs/evaluation.md.\n"
      "The model's API key (OPENAI_API_KEY / ANTHROPIC_API_KEY) is checked before any episode starts.";
  c.spec.options = bench_options();
  c.spec.epilog =
      "exit status: 0 every episode finished, 1 some crashed or were not started (re-run to continue),\n"
      "2 usage, I/O or configuration error";
  c.run = [episodes](const ParsedOptions& o) { return bench(o, episodes); };
  return c;
}

}  // namespace nki::cli
