// nkiagent synth: the training-corpus synthesiser (issue 13, docs/synthesis.md; the work is
// synth::run_synth).
#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "cli/common.h"
#include "synth/pipeline.h"

namespace nki::cli {

namespace {

std::string default_seeds_dir() {
#ifdef NKI_REPO_ROOT
  return std::string(NKI_REPO_ROOT) + "/synth/seeds";
#else
  return "synth/seeds";
#endif
}

int synth(const ParsedOptions& o) {
  if (!o.positionals().empty()) throw UsageError("unexpected argument '" + o.positionals()[0] + "'");
  if (!o.has("out")) throw UsageError("--out DIR is required");
  synth::SynthOptions s;
  s.seeds_dir = o.has("seeds") ? o.text("seeds") : default_seeds_dir();
  s.out_dir = o.text("out");
  s.benchmark_tasks = tasks_root_from(o);
  s.target = *o.integer("target");
  s.candidates = o.integer("candidates").value_or(0);
  s.jobs = static_cast<int>(*o.integer("jobs"));
  s.seed = static_cast<uint64_t>(*o.integer("seed"));
  s.progress = !o.flag("quiet");
  s.stop_after = o.integer("stop-after").value_or(-1);
  synth::SynthSummary r = synth::run_synth(s);
  if (!r.complete) {
    std::cout << "synth: stopped after " << r.evaluated_now << " new evaluations (--stop-after); run again to resume\n";
    return 1;
  }
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.1f", r.seconds);
  std::cout << "synth: " << r.drawn << " candidates, " << r.evaluated_now << " evaluated now, " << r.from_journal
            << " from the journal, " << r.accepted << " accepted, " << r.selected << " selected into " << s.out_dir
            << "/tasks in " << secs << " s (funnel: " << s.out_dir << "/funnel.md)\n";
  if (r.selected < s.target) {
    std::cout << "synth: only " << r.selected << " of the " << s.target << " requested tasks passed the filters\n";
    return 1;
  }
  return 0;
}

}  // namespace

Command make_synth_command() {
  Command c;
  c.spec.name = "synth";
  c.spec.synopsis = "nkiagent synth --out DIR [--seeds DIR] [--target N] [--jobs N] [--seed S] [options]";
  c.spec.description =
      "Synthesises a training corpus of benchmark-format tasks (docs/synthesis.md): the seeds\n"
      "(op-graph templates) are expanded over 5 shape variants, the dtypes and fusion chains\n"
      "under the level rules; every candidate is rendered as task.json + reference.py and\n"
      "filtered (budgets, duplicates, decontamination against the benchmark in --tasks-dir, then\n"
      "one long-lived torch worker per job runs the golden.py --check rules and the trivial-\n"
      "kernel audit); the accepted pool is balanced by level, category and dtype to exactly\n"
      "--target tasks. Writes DIR/tasks/<id>/, DIR/manifest.jsonl, DIR/funnel.md and\n"
      "DIR/funnel.json. Resumable: verdicts are journalled in DIR/journal.jsonl, so a run killed\n"
      "at any point and started again redoes no finished candidate. The same --seed gives the\n"
      "same ids and bytes.";
  OptionSpec candidates = integer_option("candidates", "M", 1, 10000000, "candidates to draw before filtering");
  candidates.default_help = "5/2 of --target";
  OptionSpec seeds = text_option("seeds", "DIR", "seed directory (one JSON file per family plus _dims, _layouts, _patterns)");
  seeds.default_help = "the repository's synth/seeds";
  OptionSpec tasks_dir = tasks_dir_option();
  tasks_dir.help = "the benchmark to decontaminate against (held out)";
  c.spec.options = {
      text_option("out", "DIR", "output directory (created; reused to resume)"),
      seeds,
      integer_option("target", "N", 1, 1000000, "tasks in the balanced corpus", "6000"),
      candidates,
      integer_option("jobs", "N", 1, 64, "parallel torch workers", "2"),
      integer_option("seed", "S", 0, 2147483647, "seed of every draw (same seed, same corpus)", "1"),
      tasks_dir,
      flag_option("quiet", "no progress line on stderr"),
      integer_option("stop-after", "N", 0, 10000000, "testing: stop after N new evaluations, as if killed"),
  };
  c.spec.epilog = "exit status: 0 the corpus has --target tasks, 1 fewer passed the filters (or --stop-after\n"
                  "stopped the run), 2 usage or I/O error";
  c.run = synth;
  return c;
}

}  // namespace nki::cli
