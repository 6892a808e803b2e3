// The two exports behind `nkiagent export`: `sft` turns recorded episodes into training records,
// `episodes` generates template and repair episodes without a model. Both run every record
// through the same validator pipeline (validators.h) and write a funnel report (funnel.h).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "train/decontam.h"
#include "train/funnel.h"
#include "train/record.h"
#include "train/tool_replay.h"
#include "train/validators.h"

namespace nki::train {

struct PipelineOptions {
  Format format = Format::OpenAI;
  std::string tasks_dir;              // where records' tasks are resolved (resolve_task_dir)
  std::shared_ptr<const BenchmarkIndex> benchmark;  // null: no decontamination
  long long token_budget = 32768;     // estimated tokens per record; 0 = no limit
  CheckSettings check;                // compile / re-verify settings (fresh_trials = --min-trials)
  std::string prompts_dir;            // generators: the prompts episodes are built with
};

// Runs one record through every validator in funnel order (cheap ones first) and returns the
// JSON lines to write (one for openai/sharegpt; one per preference pair for dpo, possibly
// none). Drops are counted in `funnel`.
class RecordPipeline {
 public:
  RecordPipeline(PipelineOptions opts, Funnel& funnel) : opts_(std::move(opts)), funnel_(funnel), replay_(opts_.check) {}
  std::vector<nlohmann::ordered_json> process(TrainingRecord r);
  const PipelineOptions& options() const { return opts_; }

 private:
  PipelineOptions opts_;
  Funnel& funnel_;
  DuplicateFilter duplicates_;
  // compile + re-verify verdicts by task and final kernel: the repair episodes of a task all end
  // in the same verified kernel, which is then checked once.
  std::map<std::string, Verdict> checked_;
  // The shown tool results re-run (tool_replay.h), each identical call once per export.
  ToolReplay replay_;
};

struct SftExportOptions {
  std::vector<std::string> runs;
  std::string out;
  PipelineOptions pipeline;
};

// Reads every transcript of the runs, writes the kept records to `out` (JSONL) and the funnel
// next to it. Returns the funnel.
Funnel export_sft(const SftExportOptions& o);

enum class EpisodeKind { Template, Repair, Both };

struct EpisodeExportOptions {
  std::string tasks_dir;   // task directories in the benchmark format (task.json + reference.py)
  EpisodeKind kind = EpisodeKind::Template;
  std::string out;
  int max_tasks = 0;       // 0: every task
  int jobs = 1;            // tasks generated at once (the output does not depend on it)
  bool progress = true;    // a progress line with an ETA on stderr
  bool dry_run = false;    // only list each task's first template candidate (no kernel is run)
  PipelineOptions pipeline;  // format openai or sharegpt
};

// Generates the episodes of every task directory (sorted) on `jobs` threads and writes them in
// task order. Each finished task is journaled in JOURNAL.jsonl beside `out`, so a second run
// (after a kill) redoes only the unfinished tasks. A task whose generation throws counts as
// `generator_error` in the funnel's notes; the run goes on.
Funnel export_episodes(const EpisodeExportOptions& o);

}  // namespace nki::train
