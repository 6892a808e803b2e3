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
  if (Verdict v = truncate_to_budget(r, opts_.token_budget)) return drop(*v);
  if (Verdict v = check_rank(r.final_kernel, task, opts_.check)) return drop(*v);
  if (Verdict v = check_reverify(r.final_kernel, task, opts_.check)) return drop(*v);

  std::vector<nlohmann::ordered_json> lines;
  if (opts_.format == Format::Dpo) {
    // Every distinct kernel of the episode that fails verification now is a rejected answer.
    toolchain::SimulatorTools tools(task, opts_.check.run, toolchain::HeldOut{0, 0});
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

namespace {

std::string first_error_code(const std::string& text) {
  size_t p = text.find("error[");
  if (p == std::string::npos) return {};
  size_t e = text.find(']', p);
  return e == std::string::npos ? std::string() : text.substr(p + 6, e - p - 6);
}

agent::Message assistant(std::string content, std::vector<agent::ToolCall> calls = {}) {
  agent::Message m;
  m.role = agent::Role::Assistant;
  m.content = std::move(content);
  m.tool_calls = std::move(calls);
  return m;
}

agent::ToolCall verify_call(const std::string& id, const std::string& code) {
  nlohmann::ordered_json args = {{"code", code}};
  return {id, "verify_kernel", args.dump()};
}

struct VerifiedTemplate {
  TemplateKernel kernel;
  bool found = false;
};

VerifiedTemplate first_verified(const std::vector<TemplateKernel>& cands, toolchain::SimulatorTools& tools) {
  for (const TemplateKernel& k : cands)
    if (tools.verify_kernel(k.code).passed) return {k, true};
  return {};
}

TrainingRecord template_record(const TaskSpec& task, const agent::TaskInfo& info, const TemplateKernel& k,
                               const std::string& prompts_dir) {
  agent::EpisodePrompts p = agent::build_episode_prompts(prompts_dir, info, agent::Mode::SingleShot, 1);
  TrainingRecord r;
  r.id = "template:" + task.id;
  r.task_id = task.id;
  r.provenance = "template";
  r.mode = "single-shot";
  r.system = p.system;
  r.messages.push_back({agent::Role::User, p.task, {}, {}, {}, false});
  r.messages.push_back(assistant(k.plan + "\n\n" + fenced_kernel(k.code)));
  r.final_kernel = k.code;
  r.episode_passed = true;
  r.attempts.push_back({1, k.code, true, "none"});
  r.detail = "template=" + k.name;
  return r;
}

// One repair episode through the agent environment, so that the tool messages are exactly what
// `nkiagent solve` would show. nullopt (with a note) when the broken kernel passes anyway or
// the fix does not verify.
std::optional<TrainingRecord> repair_record(const TaskSpec& task, const agent::TaskInfo& info, const TemplateKernel& k,
                                            const Mutation& mut, const std::string& broken, const std::string& prompts_dir,
                                            toolchain::SimulatorTools& tools, Funnel& funnel) {
  const int max_turns = 10;
  agent::EpisodePrompts p = agent::build_episode_prompts(prompts_dir, info, agent::Mode::Agent, max_turns);
  agent::Environment env(agent::Mode::Agent, max_turns, p, tools);
  agent::Conversation conv = env.reset();
  TrainingRecord r;
  r.id = "repair:" + task.id + ":" + mut.kind;
  r.task_id = task.id;
  r.provenance = "repair";
  r.mode = "agent";
  r.system = conv.system;
  r.tools = conv.tools;
  r.messages = conv.messages;
  agent::Message first = assistant(k.plan + " Let me verify it.", {verify_call("call_1", broken)});
  agent::StepResult s1 = env.step(first);
  if (s1.done) {
    ++funnel.notes["mutation_still_passes:" + mut.kind];
    return std::nullopt;
  }
  r.messages.push_back(first);
  std::string feedback;
  for (const agent::Message& m : s1.messages) {
    feedback += m.content;
    r.messages.push_back(m);
  }
  std::string code = first_error_code(feedback);
  std::string said = code.empty() ? "The verification fails (" + s1.result + ")." : "The checker reports " + code + ".";
  agent::Message second = assistant(said + " " + mut.fix, {verify_call("call_2", k.code)});
  agent::StepResult s2 = env.step(second);
  r.messages.push_back(second);
  for (const agent::Message& m : s2.messages) r.messages.push_back(m);
  if (!s2.done || s2.stop != agent::StopReason::Verified) {
    ++funnel.notes["fix_does_not_verify:" + mut.kind];
    return std::nullopt;
  }
  r.final_kernel = k.code;
  r.episode_passed = true;
  r.attempts = {{1, broken, false, s1.result}, {2, k.code, true, "none"}};
  r.detail = "mutation=" + mut.kind + (code.empty() ? ";" + s1.result : ";" + code);
  return r;
}

}  // namespace

Funnel export_episodes(const EpisodeExportOptions& o) {
  Funnel funnel;
  bool repair = o.kind == EpisodeKind::Repair;
  funnel.command = std::string("export episodes --kind ") + (repair ? "repair" : "template") + " --tasks-dir " +
                   o.tasks_dir + " --min-trials " + std::to_string(o.pipeline.check.fresh_trials);
  if (!fs::is_directory(o.tasks_dir)) throw IoError("--tasks-dir '" + o.tasks_dir + "' is not a directory");
  std::vector<fs::path> dirs;
  for (const auto& e : fs::directory_iterator(o.tasks_dir))
    if (e.is_directory() && fs::exists(e.path() / "task.json")) dirs.push_back(e.path());
  std::sort(dirs.begin(), dirs.end());
  if (o.max_tasks > 0 && dirs.size() > static_cast<size_t>(o.max_tasks)) dirs.resize(static_cast<size_t>(o.max_tasks));
  PipelineOptions po = o.pipeline;
  po.tasks_dir = o.tasks_dir;
  std::string prompts = agent::resolve_prompts_dir(po.prompts_dir);
  std::ofstream out = open_out(o.out);
  RecordPipeline pipe(po, funnel);
  auto write = [&](TrainingRecord r) {
    for (const auto& line : pipe.process(std::move(r))) out << line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  };
  for (const fs::path& d : dirs) {
    ++funnel.notes["tasks"];
    TaskSpec task;
    agent::TaskInfo info;
    try {
      task = load_task(d.string());
      info = toolchain::task_info(task);
    } catch (const std::exception& e) {
      ++funnel.notes["task_unreadable"];
      continue;
    }
    std::vector<TemplateKernel> cands = template_candidates(task, agent::task_arg_names(info));
    if (cands.empty()) {
      ++funnel.notes["no_template_for_family"];
      continue;
    }
    toolchain::SimulatorTools tools(task, po.check.run, toolchain::HeldOut{0, 0});
    VerifiedTemplate v;
    try {
      v = first_verified(cands, tools);
    } catch (const std::exception& e) {  // golden data could not be made (no torch, bad reference)
      ++funnel.notes["golden_unavailable"];
      continue;
    }
    if (!v.found) {
      ++funnel.notes["no_candidate_verified"];
      continue;
    }
    ++funnel.notes["template_verified"];
    if (!repair) {
      write(template_record(task, info, v.kernel, prompts));
      continue;
    }
    for (const Mutation& m : mutations()) {
      std::optional<std::string> broken = apply_mutation(m.kind, v.kernel.code);
      if (!broken) continue;
      std::optional<TrainingRecord> r = repair_record(task, info, v.kernel, m, *broken, prompts, tools, funnel);
      if (r) write(std::move(*r));
    }
  }
  write_funnel(funnel, o.out);
  return funnel;
}

}  // namespace nki::train
