// nkiagent export sft|episodes: fine-tuning data (docs/training.md). `sft` turns recorded
// episodes (bench run directories, solve output directories, transcripts) into training
// records; `episodes` generates template and repair episodes from task directories without a
// model. Both keep only records that pass every validator and write FUNNEL.md/.json next to
// --out.
#include <filesystem>
#include <iostream>

#include "base/diagnostic.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/numbers.h"
#include "train/export.h"
#include "train/templates.h"

namespace nki::cli {

namespace {

std::vector<OptionSpec> export_options() {
  OptionSpec runs = text_option("runs", "PATH",
                                "sft: a bench run directory (results.sqlite), a solve output directory, a directory of\n"
                                "transcripts or one transcript .jsonl; repeat it, or list several paths after it");
  runs.repeatable = true;
  OptionSpec bench = text_option("benchmark-dir", "DIR|none",
                                 "decontaminate against these benchmark tasks (and solutions/ beside them): same task,\n"
                                 "family+input shapes, or token 5-gram Jaccard >= 0.6 of kernel or reference; 'none' skips it");
  bench.default_help = "the repository's tasks/";
  OptionSpec secret = text_option("held-out-secret", "N", "seeds the fresh trials of the re-verification (a 63-bit integer)");
  secret.default_help = "a fixed export secret, so that a second export reuses the cached golden data";
  return {
      runs,
      text_option("out", "FILE.jsonl", "where the records go (JSONL); FUNNEL.md and FUNNEL.json are written beside it"),
      choice_option("format", "F", {"openai", "sharegpt", "dpo"},
                    "openai: chat messages with tool_calls (TRL SFTTrainer); sharegpt: LLaMA-Factory;\n"
                    "dpo: (prompt, chosen, rejected) pairs, a failing kernel of the episode against its passing one",
                    "openai"),
      integer_option("min-trials", "N", 1, 100, "fresh (held-out) trials the final kernel must pass, beyond the task's own", "3"),
      tasks_dir_option(),
      choice_option("kind", "K", {"template", "repair", "both"},
                    "episodes: template = one verified templated kernel per task (single-shot);\n"
                    "repair = a verified kernel broken by one real error class, the toolchain's feedback, the fix (agent);\n"
                    "both = the template episode and then the repair episodes of each task, in one file",
                    "template"),
      integer_option("jobs", "N", 1, 256,
                     "episodes: tasks generated at once (same records in the same order for any N); finished tasks\n"
                     "are journaled in JOURNAL.jsonl beside --out and not redone when the command runs again",
                     "1"),
      flag_option("dry-run", "episodes: only write which template each task would try (coverage), run nothing"),
      integer_option("max-tasks", "N", 0, 10000000, "episodes: only the first N task directories (sorted); 0 = all", "0"),
      integer_option("max-tokens", "N", 0, 10000000,
                     "token budget per record (estimated at 4 characters a token); longer tool results are cut in the\n"
                     "middle to fit, records that still do not fit are dropped; 0 = no limit",
                     "32768"),
      bench,
      secret,
      real_option("kernel-seconds", "S", 0.1, 3600, "wall-clock limit for compiling or simulating one kernel", "60"),
      text_option("prompts", "DIR", "prompt files for generated episodes (default: $NKI_PROMPTS_DIR or prompts/)"),
  };
}

train::PipelineOptions pipeline_from(const ParsedOptions& o) {
  train::PipelineOptions p;
  p.format = train::format_from_name(o.text("format"));
  p.tasks_dir = tasks_root_from(o);
  p.token_budget = *o.integer("max-tokens");
  p.check.fresh_trials = static_cast<int>(*o.integer("min-trials"));
  p.check.run.isolation.wall_seconds = *o.real("kernel-seconds");
  if (o.has("held-out-secret")) {
    std::optional<int64_t> s = to_integer(o.text("held-out-secret"));
    if (!s || *s < 0) throw UsageError("--held-out-secret expects a non-negative integer, got '" + o.text("held-out-secret") + "'");
    p.check.secret = static_cast<uint64_t>(*s);
  }
  p.prompts_dir = o.text("prompts");
  std::string bench = o.has("benchmark-dir") ? o.text("benchmark-dir") : default_tasks_root();
  if (bench != "none") {
    std::filesystem::path solutions = std::filesystem::path(bench).parent_path() / "solutions";
    p.benchmark = std::make_shared<const train::BenchmarkIndex>(train::BenchmarkIndex::load(bench, solutions.string()));
  }
  return p;
}

void print_summary(const train::Funnel& f, const std::string& out) {
  std::cout << "kept " << f.kept << " of " << f.input << " record(s) -> " << out << "\n";
  for (const auto& [reason, n] : f.dropped) std::cout << "  dropped " << reason << ": " << n << "\n";
  for (const auto& [note, n] : f.notes) std::cout << "  " << note << ": " << n << "\n";
  if (f.truncated_records) std::cout << "  truncated: " << f.truncated_records << " record(s), " << f.cut_chars << " characters cut\n";
  std::filesystem::path dir = std::filesystem::path(out).parent_path();
  std::cout << "funnel: " << (dir.empty() ? std::string("FUNNEL.md") : (dir / "FUNNEL.md").string()) << "\n";
}

int export_command(const ParsedOptions& o) {
  if (o.positionals().empty()) throw UsageError("export needs a command: sft or episodes");
  const std::string& sub = o.positionals()[0];
  if (!o.has("out")) throw UsageError("export " + sub + " needs --out FILE.jsonl");
  std::string out = o.text("out");
  if (sub == "sft") {
    train::SftExportOptions s;
    s.runs = o.all("runs");
    for (size_t i = 1; i < o.positionals().size(); ++i) s.runs.push_back(o.positionals()[i]);
    if (s.runs.empty()) throw UsageError("export sft needs --runs RUN_DIR (one or more)");
    s.out = out;
    s.pipeline = pipeline_from(o);
    print_summary(train::export_sft(s), out);
    return 0;
  }
  if (sub == "episodes") {
    if (o.positionals().size() > 1) throw UsageError("unexpected argument '" + o.positionals()[1] + "'");
    train::EpisodeExportOptions e;
    e.tasks_dir = tasks_root_from(o);
    e.kind = o.text("kind") == "repair" ? train::EpisodeKind::Repair
             : o.text("kind") == "both" ? train::EpisodeKind::Both
                                        : train::EpisodeKind::Template;
    e.jobs = static_cast<int>(*o.integer("jobs"));
    e.dry_run = o.flag("dry-run");
    e.out = out;
    e.max_tasks = static_cast<int>(*o.integer("max-tasks"));
    e.pipeline = pipeline_from(o);
    if (e.pipeline.format == train::Format::Dpo) throw UsageError("export episodes writes openai or sharegpt records");
    print_summary(train::export_episodes(e), out);
    return 0;
  }
  throw UsageError("unknown export command '" + sub + "' (sft or episodes)");
}

}  // namespace

Command make_export_command() {
  CommandSpec spec;
  spec.name = "export";
  spec.synopsis =
      "nkiagent export sft --runs RUN_DIR... --out FILE.jsonl [--format openai|sharegpt|dpo] [--min-trials N]\n"
      "       nkiagent export episodes --tasks-dir DIR --kind template|repair|both --out FILE.jsonl [--jobs N]";
  spec.description =
      "Fine-tuning data (docs/training.md). Every record passes the validators, in this order, or is\n"
      "dropped with a reason code counted in FUNNEL.md/.json: not_passed, unknown_task, bad_structure,\n"
      "no_kernel_function, wrong_kernel_name, wrong_arg_order, wrong_args, duplicate, contaminated,\n"
      "over_token_budget, compile_failed, rank_mismatch, output_not_stored, reverify_failed (the final\n"
      "kernel re-verified in an isolated child on the task's trials plus --min-trials fresh held-out\n"
      "ones), tool_result_mismatch (a compile_kernel / verify_kernel / profile_kernel result the record\n"
      "shows is not what the toolchain returns when that call is run again), and for dpo no_rejected.\n"
      "Provenance (model:NAME, scripted:NAME, template, repair) is a field of every record.";
  spec.options = export_options();
  spec.epilog = "templates cover:\n" + train::template_coverage_text() +
                "exit status: 0 written (even when every record was dropped: read the funnel), 2 usage or I/O error";
  return {spec, export_command};
}

}  // namespace nki::cli
