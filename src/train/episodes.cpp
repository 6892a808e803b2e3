// `export episodes`: template and repair episodes generated from task directories without a
// model (docs/training.md, "Generated episodes"). Tasks run on --jobs threads; golden data of a
// chunk of tasks is made by one Python run before its kernels are verified; each finished task
// is journaled (episode_journal.h) and the output is written in task order at the end, so the
// records do not depend on --jobs or on a resume.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <optional>
#include <thread>

#include "agent/environment.h"
#include "agent/prompts.h"
#include "base/diagnostic.h"
#include "task/golden_batch.h"
#include "task/sha256.h"
#include "toolchain/agent_glue.h"
#include "train/episode_journal.h"
#include "train/export.h"
#include "train/kernel_facts.h"
#include "train/repairs.h"
#include "train/templates.h"

namespace nki::train {

namespace fs = std::filesystem;

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
  std::string failure;  // the last candidate's verification text, when none passed
};

VerifiedTemplate first_verified(const std::vector<TemplateKernel>& cands, toolchain::SimulatorTools& tools) {
  VerifiedTemplate v;
  for (const TemplateKernel& k : cands) {
    agent::ToolResult r = tools.verify_kernel(k.code);
    if (r.passed) return {k, true, {}};
    v.failure = (r.code.empty() ? std::string() : r.code + ": ") + r.text.substr(0, 400);
    if (std::getenv("NKI_EPISODES_DEBUG")) std::fprintf(stderr, "--- candidate %s failed:\n%s\n%s\n", k.name.c_str(), k.code.c_str(), r.text.substr(0, 1500).c_str());
  }
  return v;
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


namespace {

const char* kind_name(EpisodeKind k) {
  return k == EpisodeKind::Template ? "template" : k == EpisodeKind::Repair ? "repair" : "both";
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// One task loaded with its template candidates (cheap: no kernel is run yet).
struct PreparedTask {
  std::string id;                      // directory name
  std::optional<TaskSpec> task;        // nullopt: unreadable
  agent::TaskInfo info;
  std::vector<TemplateKernel> cands;
  std::string key;                     // journal content key
};

struct Generator {
  const EpisodeExportOptions& o;
  PipelineOptions po;
  std::string prompts;
  std::string settings;  // the export settings that change records (part of every journal key)

  PreparedTask prepare(const fs::path& d) const {
    PreparedTask p;
    p.id = d.filename().string();
    Sha256 h;
    h.update_field(settings);
    h.update_field(read_text(d / "task.json"));
    h.update_field(read_text(d / "reference.py"));
    try {
      p.task = load_task(d.string());
      p.info = toolchain::task_info(*p.task);
      p.cands = template_candidates(*p.task, agent::task_arg_names(p.info));
    } catch (const std::exception&) {
      p.task.reset();
    }
    for (const TemplateKernel& k : p.cands) h.update_field(k.code);
    for (const Mutation& m : mutations()) h.update_field(m.kind + m.fix);
    p.key = h.hex_digest();
    return p;
  }

  std::vector<int> golden_trials(const TaskSpec& t) const {
    std::vector<int> v;
    for (int k = 0; k < t.trials; ++k) v.push_back(k);
    for (int k : held_out_trials(t, po.check.secret, po.check.fresh_trials)) v.push_back(k);
    return v;
  }

  TaskOutcome run(const PreparedTask& p) const {
    TaskOutcome out;
    Funnel& funnel = out.funnel;
    ++funnel.notes["tasks"];
    if (!p.task) {
      ++funnel.notes["task_unreadable"];
      return out;
    }
    if (p.cands.empty()) {
      ++funnel.notes["no_template_for_family"];
      return out;
    }
    const TaskSpec& task = *p.task;
    RecordPipeline pipe(po, funnel);
    auto write = [&](TrainingRecord r) {
      for (const auto& line : pipe.process(std::move(r)))
        out.lines.push_back(line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    };
    toolchain::SimulatorTools tools(task, po.check.run, toolchain::HeldOut{0, 0});
    VerifiedTemplate v;
    try {
      v = first_verified(p.cands, tools);
    } catch (const std::exception&) {  // golden data could not be made (no torch, bad reference)
      ++funnel.notes["golden_unavailable"];
      return out;
    }
    if (!v.found) {
      ++funnel.notes["no_candidate_verified"];
      ++funnel.notes["no_candidate_verified:" + p.cands.front().name.substr(0, p.cands.front().name.find(':'))];
      funnel.first_example.emplace("no_candidate_verified", p.id + ": " + v.failure);
      return out;
    }
    ++funnel.notes["template_verified"];
    ++funnel.notes["template_verified:" + v.kernel.name.substr(0, v.kernel.name.find(':'))];
    if (o.kind != EpisodeKind::Repair) write(template_record(task, p.info, v.kernel, prompts));
    if (o.kind == EpisodeKind::Template) return out;
    for (const Mutation& m : mutations()) {
      std::optional<std::string> broken = apply_mutation(m.kind, v.kernel.code);
      if (!broken) continue;
      std::optional<TrainingRecord> r = repair_record(task, p.info, v.kernel, m, *broken, prompts, tools, funnel);
      if (r) write(std::move(*r));
    }
    return out;
  }

  // Never throws: a task that fails in an unexpected way is a counted verdict, not the end of
  // the run.
  TaskOutcome run_guarded(const PreparedTask& p) const {
    try {
      return run(p);
    } catch (const std::exception& e) {
      TaskOutcome out;
      ++out.funnel.notes["tasks"];
      ++out.funnel.notes["generator_error"];
      out.funnel.first_example.emplace("generator_error", p.id + ": " + e.what());
      return out;
    }
  }
};

std::string clock_text(double seconds) {
  long s = static_cast<long>(seconds + 0.5);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
  return buf;
}

}  // namespace

Funnel export_episodes(const EpisodeExportOptions& o) {
  Funnel funnel;
  funnel.command = std::string("export episodes --kind ") + kind_name(o.kind) + " --tasks-dir " + o.tasks_dir +
                   " --min-trials " + std::to_string(o.pipeline.check.fresh_trials);
  if (!fs::is_directory(o.tasks_dir)) throw IoError("--tasks-dir '" + o.tasks_dir + "' is not a directory");
  std::vector<fs::path> dirs;
  for (const auto& e : fs::directory_iterator(o.tasks_dir))
    if (e.is_directory() && fs::exists(e.path() / "task.json")) dirs.push_back(e.path());
  std::sort(dirs.begin(), dirs.end());
  if (o.max_tasks > 0 && dirs.size() > static_cast<size_t>(o.max_tasks)) dirs.resize(static_cast<size_t>(o.max_tasks));

  Generator g{o, o.pipeline, {}, {}};
  g.po.tasks_dir = o.tasks_dir;
  g.prompts = agent::resolve_prompts_dir(g.po.prompts_dir);
  g.settings = funnel.command + "|format=" + format_name(g.po.format) + "|tokens=" + std::to_string(g.po.token_budget) +
               "|secret=" + std::to_string(g.po.check.secret) + "|bench=" + (g.po.benchmark ? "on" : "none") +
               // record: the record schema (the nki field); checks: the validators (shown tool results
               // re-run); older journal lines are not reused
               "|record=nki|checks=tool_results|prompts=";
  for (const char* f : {"system.md", "task.md", "mode_single_shot.md", "mode_agent.md"})
    g.settings += sha256_hex(read_text(fs::path(g.prompts) / f)).substr(0, 16);

  if (o.dry_run) {  // coverage: which template each task would try first, nothing verified
    funnel.command += " --dry-run";
    if (fs::path(o.out).has_parent_path()) fs::create_directories(fs::path(o.out).parent_path());
    std::ofstream out(o.out);
    if (!out) throw IoError("cannot write '" + o.out + "'");
    for (const fs::path& d : dirs) {
      PreparedTask p = g.prepare(d);
      std::string kind = p.cands.empty() ? "none" : p.cands.front().name.substr(0, p.cands.front().name.find(':'));
      ++funnel.notes["tasks"];
      ++funnel.notes["candidate:" + kind];
      out << nlohmann::json({{"task_id", p.id}, {"template", p.cands.empty() ? "" : p.cands.front().name},
                             {"candidates", p.cands.size()}}).dump() << "\n";
    }
    write_funnel(funnel, o.out);
    return funnel;
  }

  fs::path outp(o.out);
  if (outp.has_parent_path()) fs::create_directories(outp.parent_path());
  EpisodeJournal journal((outp.has_parent_path() ? outp.parent_path() / "JOURNAL.jsonl" : fs::path("JOURNAL.jsonl")).string());

  const size_t n = dirs.size();
  const size_t chunk = 8;  // tasks whose golden data one Python run makes
  std::vector<std::optional<TaskOutcome>> results(n);
  std::atomic<size_t> next{0};
  std::mutex mu;
  size_t done = 0, reused = 0, fresh_done = 0;
  long long kept = 0;
  const auto t0 = std::chrono::steady_clock::now();
  double last_print = -1e9;
  auto report = [&](size_t finished_now) {  // under mu
    done += finished_now;
    if (!o.progress) return;
    double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (done < n && el - last_print < 5.0) return;  // one line every few seconds, and the last
    last_print = el;
    double rate = fresh_done > 0 ? el / static_cast<double>(fresh_done) : 0.0;
    std::fprintf(stderr, "[%zu/%zu tasks] %lld records kept, %zu reused from the journal, %.2f s/task, elapsed %s, ETA %s\n",
                 done, n, kept, reused, rate, clock_text(el).c_str(),
                 fresh_done > 0 ? clock_text(rate * static_cast<double>(n - done)).c_str() : "?");
    std::fflush(stderr);
  };
  auto worker = [&] {
    for (;;) {
      size_t begin = next.fetch_add(chunk);
      if (begin >= n) return;
      size_t end = std::min(n, begin + chunk);
      std::vector<PreparedTask> prepared;
      prepared.reserve(end - begin);  // `golden` points into it
      std::vector<GoldenWork> golden;
      for (size_t i = begin; i < end; ++i) {
        prepared.push_back(g.prepare(dirs[i]));
        PreparedTask& p = prepared.back();
        std::optional<TaskOutcome> old = journal.find(p.id, p.key);
        if (old) {
          std::lock_guard<std::mutex> lock(mu);
          kept += old->funnel.kept;
          results[i] = std::move(old);
          ++reused;
          report(1);
          continue;
        }
        if (p.task && !p.cands.empty()) golden.push_back({&*p.task, g.golden_trials(*p.task)});
      }
      if (!golden.empty()) {
        try {
          prefetch_golden_batch(golden, find_torch_python());
        } catch (const std::exception&) {
          // each task then makes its own golden data (and reports why it cannot)
        }
      }
      for (size_t i = begin; i < end; ++i) {
        if (results[i]) continue;
        const PreparedTask& p = prepared[i - begin];
        TaskOutcome out = g.run_guarded(p);
        journal.append(p.id, p.key, out);
        std::lock_guard<std::mutex> lock(mu);
        kept += out.funnel.kept;
        results[i] = std::move(out);
        ++fresh_done;
        report(1);
      }
    }
  };
  int jobs = std::max(1, o.jobs);
  std::vector<std::thread> threads;
  for (int j = 1; j < jobs; ++j) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();

  std::ofstream out(o.out);
  if (!out) throw IoError("cannot write '" + o.out + "'");
  for (size_t i = 0; i < n; ++i) {
    merge_funnel(funnel, results[i]->funnel);
    for (const std::string& l : results[i]->lines) out << l << "\n";
  }
  write_funnel(funnel, o.out);
  return funnel;
}

}  // namespace nki::train
