#include "train/export.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "agent/environment.h"
#include "agent/prompts.h"
#include "base/diagnostic.h"
#include "toolchain/agent_glue.h"
#include "train/kernel_facts.h"
#include "train/repairs.h"
#include "train/templates.h"
#include "train/transcript_source.h"

namespace nki::train {

namespace fs = std::filesystem;

namespace {

// The kernels of a trajectory, normalised: two records are duplicates when they submit the
// same kernels in the same order for the same task (a single-turn record: its one kernel).
std::string trajectory_text(const TrainingRecord& r) {
  std::string t;
  for (const Attempt& a : r.attempts) t += normalized_kernel_hash(a.code) + ";";
  if (r.attempts.empty() || r.attempts.back().code != r.final_kernel) t += normalized_kernel_hash(r.final_kernel);
  return t;
}

std::ofstream open_out(const std::string& path) {
  fs::path p(path);
  if (p.has_parent_path()) fs::create_directories(p.parent_path());
  std::ofstream out(path);
  if (!out) throw IoError("cannot write '" + path + "'");
  return out;
}

}  // namespace

std::vector<nlohmann::ordered_json> RecordPipeline::process(TrainingRecord r) {
  ++funnel_.input;
  auto drop = [&](const Rejection& x) {
    funnel_.drop(x.reason, r.id, x.message);
    return std::vector<nlohmann::ordered_json>{};
  };
  if (!r.episode_passed || r.final_kernel.empty())
    return drop({"not_passed", "the episode's own verdict is not a pass"});
  TaskSpec task;
  try {
    r.task_dir = resolve_task_dir(r.task_id, opts_.tasks_dir);
    task = load_task(r.task_dir);
  } catch (const std::exception& e) {
    return drop({"unknown_task", e.what()});
  }
  agent::TaskInfo info = toolchain::task_info(task);
  Format structure_format = opts_.format == Format::ShareGPT ? Format::ShareGPT : Format::OpenAI;
  if (Verdict v = check_structure(r, structure_format)) return drop(*v);
  if (Verdict v = check_signature(r.final_kernel, info)) return drop(*v);
  if (Verdict v = duplicates_.check(r.task_id, trajectory_text(r))) return drop(*v);
  if (opts_.benchmark)
    if (Verdict v = check_contamination(task, info.reference_source, r.final_kernel, *opts_.benchmark)) return drop(*v);
  // The results as the episode showed them: truncation may cut their middles.
  const std::vector<ShownResult> shown = shown_results(r);
  if (Verdict v = truncate_to_budget(r, opts_.token_budget)) return drop(*v);
  // The same code can pass in one dialect and stop at its imports in the other.
  const std::string memo_key = r.task_dir + '\n' + r.nki + '\n' + r.final_kernel;
  auto memo = checked_.find(memo_key);
  if (memo == checked_.end()) {
    CheckSettings check = opts_.check;
    check.run.trace.dialect = r.nki;
    Verdict v = check_rank(r.final_kernel, task, check);
    if (!v) v = check_reverify(r.final_kernel, task, check);
    memo = checked_.emplace(memo_key, v).first;
  }
  if (memo->second) return drop(*memo->second);
  // The final kernel compiled and passed the public trials (and fresh ones): what compile_kernel
  // and verify_kernel return for it, so a call of them on it is not run again.
  replay_.remember("compile_kernel", r.final_kernel, task, r.nki, {true, ""});
  replay_.remember("verify_kernel", r.final_kernel, task, r.nki, {true, ""});
  // Every tool result the record shows must be what the toolchain returns for that call. A
  // mismatch drops the whole record, not only the turns from it on: the later turns reason from
  // the false result, and a cut record would no longer end in its verified kernel.
  const long long runs_before = replay_.runs(), checked_before = replay_.checked();
  Verdict honest = replay_.check(r, shown, task);
  if (replay_.checked() > checked_before) {
    funnel_.notes["tool_results_checked"] += replay_.checked() - checked_before;
    funnel_.notes["tool_reruns"] += replay_.runs() - runs_before;
  }
  if (honest) return drop(*honest);

  std::vector<nlohmann::ordered_json> lines;
  if (opts_.format == Format::Dpo) {
    // Every distinct kernel of the episode that fails verification now is a rejected answer.
    toolchain::RunSettings run = opts_.check.run;
    run.trace.dialect = r.nki;
    toolchain::SimulatorTools tools(task, run, toolchain::HeldOut{0, 0});
    std::set<std::string> seen = {normalized_kernel_hash(r.final_kernel)};
    for (const Attempt& a : r.attempts) {
      if (!seen.insert(normalized_kernel_hash(a.code)).second) continue;
      if (tools.verify_kernel(a.code).passed) continue;
      lines.push_back(to_dpo(r, a.code));
    }
    if (lines.empty()) return drop({"no_rejected", "no submitted kernel of the episode fails verification"});
    funnel_.notes["dpo_pairs"] += static_cast<long long>(lines.size());
  } else {
    lines.push_back(opts_.format == Format::ShareGPT ? to_sharegpt(r) : to_openai(r));
  }
  ++funnel_.kept;
  ++funnel_.kept_by_provenance[r.provenance];
  if (!r.detail.empty()) ++funnel_.kept_by_detail[r.detail];
  if (r.cut_chars > 0) {
    ++funnel_.truncated_records;
    funnel_.cut_chars += r.cut_chars;
  }
  return lines;
}

Funnel export_sft(const SftExportOptions& o) {
  Funnel funnel;
  funnel.command = std::string("export sft --format ") + format_name(o.pipeline.format) + " --min-trials " +
                   std::to_string(o.pipeline.check.fresh_trials);
  CollectedRecords c = collect_transcripts(o.runs);
  std::ofstream out = open_out(o.out);
  for (const SourceProblem& p : c.problems) {
    ++funnel.input;
    funnel.drop(p.reason, p.path, p.message);
  }
  RecordPipeline pipe(o.pipeline, funnel);
  for (TrainingRecord& r : c.records)
    for (const auto& line : pipe.process(std::move(r))) out << line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  write_funnel(funnel, o.out);
  return funnel;
}

}  // namespace nki::train
