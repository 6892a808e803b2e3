#include "toolchain/agent_glue.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "agent/model_factory.h"
#include "agent/pricing.h"
#include "agent/prompts.h"
#include "agent/replay_client.h"
#include "agent/task_episode.h"
#include "agent/toolbox.h"

namespace nki::toolchain {

namespace {

std::string shape_text(const std::vector<int64_t>& s) {
  std::string t = "[";
  for (size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
  return t + "]";
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw IoError("cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string first_error_code(const std::vector<Diagnostic>& diags) {
  for (const Diagnostic& d : diags)
    if (d.severity == Severity::Error) return d.code;
  return {};
}

// Diagnostics as the model sees them: the contract's text form, errors first. A compile reports
// at most nki::front::Tracer::kMaxErrors errors, and the model sees all of them.
std::string diagnostics_text(const std::vector<Diagnostic>& diags, size_t max = 20) {
  std::string out;
  size_t n = 0;
  for (const Diagnostic& d : diags) {
    if (d.severity != Severity::Error) continue;
    if (n++ == max) {
      out += "(more errors omitted)\n";
      break;
    }
    out += render_text(d);
  }
  for (const Diagnostic& d : diags)
    if (d.severity == Severity::Warning) out += render_text(d);
  return out;
}

// A JSON value as the Python literal Model(*init_args) receives (golden.py passes the parsed
// JSON list): numbers as written, strings quoted, true/false/null as True/False/None.
std::string python_literal(const nlohmann::json& v) {
  if (v.is_boolean()) return v.get<bool>() ? "True" : "False";
  if (v.is_null()) return "None";
  if (v.is_string()) {
    std::string out = "'";
    for (char c : v.get<std::string>()) {
      if (c == '\\' || c == '\'') out += '\\';
      if (c == '\n') { out += "\\n"; continue; }
      out += c;
    }
    return out + "'";
  }
  if (v.is_array()) {
    std::string out = "[";
    for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + python_literal(v[i]);
    return out + "]";
  }
  if (v.is_object()) {
    std::string out = "{";
    bool first = true;
    for (auto it = v.begin(); it != v.end(); ++it) {
      out += (first ? "" : ", ") + python_literal(it.key()) + ": " + python_literal(it.value());
      first = false;
    }
    return out + "}";
  }
  return v.dump();  // numbers: JSON and Python spell them alike (1024, 1e-06, 0.5)
}

std::string constructor_text(const std::string& init_args_json) {
  nlohmann::json args = init_args_json.empty() ? nlohmann::json::array() : nlohmann::json::parse(init_args_json);
  std::string out = "Model(";
  for (size_t i = 0; i < args.size(); ++i) out += (i ? ", " : "") + python_literal(args[i]);
  return out + ")";
}

std::string start_note(const std::optional<KernelEstimate>& e, std::optional<double> baseline_ns, nki::Target target) {
  std::string note = "It passes verification.";
  char buf[200];
  if (e) {
    std::snprintf(buf, sizeof buf, " Its estimated latency is %.2f us on one %s NeuronCore (cost model; %s-bound).",
                  e->latency_ns / 1e3, target_name(target), e->bound.c_str());
    note += buf;
  }
  if (baseline_ns) {
    std::snprintf(buf, sizeof buf, " Speedups are measured against %.2f us (the reference solution's estimate).",
                  *baseline_ns / 1e3);
    note += buf;
  }
  return note;
}

}  // namespace

agent::TaskInfo task_info(const TaskSpec& task) {
  agent::TaskInfo info;
  info.id = task.id;
  info.reference_source = read_text(task.dir + "/reference.py");
  auto add = [&](const std::vector<TensorSpec>& specs, std::vector<agent::TensorInfo>& out) {
    for (const TensorSpec& s : specs) {
      out.push_back({s.name, shape_text(s.shape), dtype_name(s.dtype)});
      info.max_rank = std::max(info.max_rank, static_cast<int>(s.shape.size()));
    }
  };
  info.max_rank = 0;
  add(task.inputs, info.inputs);
  add(task.parameters, info.params);
  add(task.buffers, info.buffers);
  for (size_t i = 0; i < task.outputs.size(); ++i)
    info.outputs.push_back({"out" + std::to_string(i), shape_text(task.outputs[i].shape), dtype_name(task.outputs[i].dtype)});
  std::string tol;
  for (const TensorSpec& o : task.outputs) {
    Tolerance t = task.tolerance_for(o.dtype, false);
    std::ostringstream s;
    s << dtype_name(o.dtype) << " outputs atol=" << t.atol << ", rtol=" << t.rtol;
    if (t.atol == 0 && t.rtol == 0) s << " (exact)";
    if (tol.find(s.str()) == std::string::npos) tol += (tol.empty() ? "" : "; ") + s.str();
  }
  info.tolerance = tol;
  info.constructor = constructor_text(task.init_args_json);
  if (info.max_rank < 2) info.max_rank = 2;
  if (info.max_rank > 4) info.max_rank = 4;
  return info;
}

SimulatorTools::SimulatorTools(TaskSpec task, RunSettings settings, HeldOut held_out)
    : task_(std::move(task)), settings_(std::move(settings)), held_out_(held_out) {}

// The final verdict may run after the episode's deadline has passed (the last kernel was
// written just before it): it gets this much time at least.
constexpr double kFinalVerdictSeconds = 10.0;

std::optional<RunSettings> SimulatorTools::settings_until_deadline(double min_seconds) const {
  RunSettings s = settings_;
  if (!deadline_) return s;
  double left = std::chrono::duration<double>(*deadline_ - std::chrono::steady_clock::now()).count();
  left = std::max(left, min_seconds);
  if (left <= 0) return std::nullopt;
  s.isolation.wall_seconds = s.isolation.wall_seconds > 0 ? std::min(s.isolation.wall_seconds, left) : left;
  s.machine.max_seconds = s.machine.max_seconds > 0 ? std::min(s.machine.max_seconds, left) : left;
  return s;
}

agent::ToolResult SimulatorTools::compile_kernel(const std::string& code) {
  auto file = std::make_shared<SourceFile>("kernel.py", code);
  std::optional<RunSettings> s = settings_until_deadline(0);
  if (!s) return agent::ToolResult(false, "compile: not run: the episode's time budget is spent\n",
                                   agent::FailureKind::Unspecified);
  front::TraceOptions opts = s->trace;
  opts.args.clear();
  for (const TensorSpec& t : task_.kernel_args()) opts.args.push_back(front::ArgSpec{t.shape, t.dtype});
  CompileResult r = compile(file, opts, s->isolation);
  if (r.ok()) {
    std::string text = "compile: ok (kernel '" + r.kernel->name + "')\n" + diagnostics_text(r.diagnostics);
    return agent::ToolResult(true, text);
  }
  return agent::ToolResult(false, "compile: failed\n" + diagnostics_text(r.diagnostics),
                           agent::FailureKind::CompileError, first_error_code(r.diagnostics));
}

agent::ToolResult SimulatorTools::verify_with(const std::string& code, const VerifyOptions& vo, double min_seconds) {
  std::optional<RunSettings> s = settings_until_deadline(min_seconds);
  if (!s) return agent::ToolResult(false, "verify: not run: the episode's time budget is spent\n",
                                   agent::FailureKind::Unspecified);
  auto file = std::make_shared<SourceFile>("kernel.py", code);
  VerifyReport rep = verify_task(task_, vo, make_runner(file, *s));
  std::string text = render_verify_text(rep);
  switch (rep.status) {
    case VerifyStatus::Pass: return agent::ToolResult(true, text);
    case VerifyStatus::CompileError: {
      std::string code_ = rep.trials.empty() ? "" : first_error_code(rep.trials.back().diagnostics);
      return agent::ToolResult(false, text, agent::FailureKind::CompileError, code_);
    }
    case VerifyStatus::RuntimeError: {
      std::string code_ = rep.trials.empty() ? "" : first_error_code(rep.trials.back().diagnostics);
      return agent::ToolResult(false, text, agent::FailureKind::RuntimeError, code_);
    }
    case VerifyStatus::Mismatch: return agent::ToolResult(false, text, agent::FailureKind::Mismatch);
  }
  return agent::ToolResult(false, text);
}

agent::ToolResult SimulatorTools::verify_kernel(const std::string& code) { return verify_with(code, {}, 0); }

agent::ToolResult SimulatorTools::final_verdict(const std::string& code) {
  VerifyOptions vo;
  vo.held_out = held_out_trials(task_, held_out_.secret, held_out_.trials);
  agent::ToolResult r = verify_with(code, vo, kFinalVerdictSeconds);
  // For reproduction (nkiagent verify --held-out-secret S --held-out-trials N); the model never
  // sees a final verdict.
  if (!vo.held_out.empty())
    r.text += "final verdict: " + std::to_string(vo.held_out.size()) + " held-out trial(s), secret " +
              std::to_string(held_out_.secret) + "\n";
  return r;
}

std::vector<agent::KernelTool> SimulatorTools::extra_tools() {
  if (!offer_.profile) return {};
  return {agent::profile_kernel_tool([this](const std::string& code) { return profile_kernel(code); })};
}

std::optional<KernelEstimate> SimulatorTools::estimate(const std::string& code) {
  auto it = estimates_.find(code);
  if (it != estimates_.end()) return it->second;
  std::optional<RunSettings> s = settings_until_deadline(kFinalVerdictSeconds);
  std::optional<KernelEstimate> est;
  if (s)
    est = estimate_for_task(task_, std::make_shared<SourceFile>("kernel.py", code), s->isolation,
                            s->trace.target)
              .estimate;
  estimates_[code] = est;
  return est;
}

std::optional<double> SimulatorTools::estimate_latency(const std::string& code) {
  std::optional<KernelEstimate> e = estimate(code);
  if (!e) return std::nullopt;
  return e->latency_ns;
}

agent::ToolResult SimulatorTools::profile_kernel(const std::string& code) {
  std::optional<RunSettings> s = settings_until_deadline(0);
  if (!s) return agent::ToolResult(false, "profile: not run: the episode's time budget is spent\n",
                                   agent::FailureKind::Unspecified);
  auto file = std::make_shared<SourceFile>("kernel.py", code);
  ProfileSettings ps;
  ps.isolation = s->isolation;
  ps.trace = s->trace;
  ps.trace.args.clear();
  for (const TensorSpec& t : task_.kernel_args()) ps.trace.args.push_back(front::ArgSpec{t.shape, t.dtype});
  ps.cost.keep_events = false;
  ProfileOutcome p = profile(file, ps);
  if (!p.compiled.ok())
    return agent::ToolResult(false, "profile: the kernel does not compile\n" + diagnostics_text(p.compiled.diagnostics),
                             agent::FailureKind::CompileError, first_error_code(p.compiled.diagnostics));
  if (!p.report) return agent::ToolResult(false, "profile: the cost model gave up: " + p.error + "\n");
  estimates_[code] = KernelEstimate{p.report->latency_ns, p.report->pct_of_peak, p.report->bound, p.report->bottleneck};
  std::string text = "profile: estimate by a Trainium cost model (not a measurement; correctness not checked)\n" +
                     cost::render_summary(*p.report, *p.compiled.kernel, 8);
  for (const cost::Lint& l : p.report->lints)
    text += "kernel.py:" + std::to_string(l.line) + ":" + std::to_string(l.col) + ": warning[" + l.code + "]: " +
            l.message + "\n  hint: " + l.hint + "\n";
  return agent::ToolResult(true, text);
}

bool SimulatorTools::verify_strict(const std::string& code) {
  VerifyOptions vo;
  vo.strict = true;
  vo.held_out = held_out_trials(task_, held_out_.secret, held_out_.trials);
  return verify_with(code, vo, kFinalVerdictSeconds).passed;
}

agent::SolveDeps solve_deps(const std::string& tasks_root) {
  agent::SolveDeps deps;
  deps.load_task = [tasks_root](const std::string& id) { return task_info(load_task(resolve_task_dir(id, tasks_root))); };
  deps.make_tools = [tasks_root](const std::string& id, const std::string& nki) -> std::unique_ptr<agent::KernelTools> {
    // Every kernel of the episode is read as its dialect, whatever it imports: a legacy kernel
    // in a 0.6 episode gets the migration diagnostics instead of a pass.
    RunSettings run;
    run.trace.dialect = nki;
    // A fresh secret per episode: the held-out trials are new to every solve.
    return std::make_unique<SimulatorTools>(load_task(resolve_task_dir(id, tasks_root)), run,
                                            HeldOut{HeldOut{}.trials, fresh_secret()});
  };
  deps.default_start = [tasks_root](const std::string& id, const std::string& nki) {
    return default_solutions_dir(tasks_root, nki != agent::kLegacyNki) + "/" + id + ".py";
  };
  return deps;
}

eval::EpisodeFn make_episode_fn(const EpisodeSettings& settings) {
  std::string prompts = agent::resolve_prompts_dir(settings.prompts_dir);
  auto prices = std::make_shared<const agent::PriceTable>(
      agent::PriceTable::load(agent::resolve_price_table_path("", prompts)));
  // A run's speedups divide by its own dialect's reference kernels (the ones optimize starts from).
  auto baselines = std::make_shared<const BaselineLookup>(settings.tasks_root, settings.target,
                                                          settings.nki != agent::kLegacyNki);
  // Reported once per run: every episode is then recorded without a baseline (no speedup).
  if (!baselines->problem().empty()) std::cerr << "nkiagent bench: no speedup baselines: " << baselines->problem() << "\n";
  return [settings, prompts, prices, baselines](const eval::EpisodeRequest& req) {
    auto start = std::chrono::steady_clock::now();
    TaskSpec task = load_task(resolve_task_dir(req.task_id, settings.tasks_root));
    RunSettings run;
    run.trace.target = settings.target;
    run.trace.dialect = settings.nki;
    SimulatorTools tools(task, run, HeldOut{settings.held_out_trials, req.held_out_secret});
    tools.set_offer(settings.tools);
    std::unique_ptr<agent::ModelClient> client;
    if (!settings.replay_dir.empty()) {
      client = agent::ReplayClient::from_transcript(settings.replay_dir + "/" + req.task_id + ".jsonl");
    } else {
      agent::ClientOptions co;
      co.model_spec = req.model;
      co.base_url = settings.base_url;
      co.timeout_s = settings.timeout_s;
      co.prices = prices;
      client = agent::make_model_client(co);
    }
    agent::TaskEpisode ep;
    ep.task = task_info(task);
    if (req.mode == Mode::Optimize) {
      std::string dir = settings.solutions_dir.empty() ? default_solutions_dir(settings.tasks_root, settings.nki != agent::kLegacyNki)
                                                       : settings.solutions_dir;
      ep.task.start_kernel = read_text(dir + "/" + req.task_id + ".py");
      ep.task.start_note = start_note(tools.estimate(ep.task.start_kernel), baselines->latency_ns(req.task_id), settings.target);
    }
    ep.mode = req.mode;
    ep.max_turns = req.max_turns;
    ep.prompts_dir = prompts;
    ep.transcript_path = req.transcript_path;
    ep.model_label = req.model;
    ep.nki = settings.nki;
    agent::EpisodeResult r = agent::run_task_episode(ep, *client, tools);

    eval::EpisodeOutcome out;
    out.verdict.kind = r.verdict;
    if (out.verdict.kind == eval::VerdictKind::CompileError) out.verdict.code = r.final_check.code;
    out.turns_used = r.turns;
    if (r.pass_turn > 0) out.pass_turn = r.pass_turn;
    for (const agent::TurnRecord& t : r.turn_log) {
      eval::TurnRecord tr;
      tr.turn = t.turn;
      tr.action = t.action;
      tr.result = t.result;
      tr.tokens_in = t.usage.input_tokens;
      tr.tokens_out = t.usage.output_tokens;
      tr.tokens_cached = t.usage.cached_tokens;
      tr.cost_usd = t.usage.cost_usd;
      tr.wall_seconds = t.usage.latency_s;
      out.turns.push_back(tr);
    }
    out.tokens_in = r.usage.input_tokens;
    out.tokens_out = r.usage.output_tokens;
    out.tokens_cached = r.usage.cached_tokens;
    out.cost_usd = r.usage.cost_usd;
    out.cost_known = r.usage.price_known;
    out.tolerance_pass = r.verdict == VerdictKind::Pass;
    if (!r.final_kernel.empty()) {
      std::filesystem::create_directories(req.work_dir);
      out.final_kernel_path = req.work_dir + "/kernel.py";
      std::ofstream(out.final_kernel_path) << r.final_kernel;
      out.strict_pass = out.tolerance_pass && tools.verify_strict(r.final_kernel);
      if (std::optional<KernelEstimate> e = tools.estimate(r.final_kernel)) {
        out.est_latency_ns = e->latency_ns;
        out.pct_of_peak = e->pct_of_peak;
      }
    }
    out.baseline_ns = baselines->latency_ns(req.task_id);
    out.transcript_path = req.transcript_path;
    if (!out.verdict.passed()) out.error_message = r.error.empty() ? r.final_check.text.substr(0, 500) : r.error;
    out.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
  };
}

}  // namespace nki::toolchain
