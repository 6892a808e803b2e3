#include "train/tool_replay.h"

#include <memory>

#include "agent/code_extract.h"
#include "task/sha256.h"
#include "task/verify.h"
#include "toolchain/profile.h"
#include "toolchain/toolchain.h"

namespace nki::train {

namespace {

bool starts_with(const std::string& s, const std::string& prefix, size_t at = 0) {
  return at <= s.size() && s.compare(at, prefix.size(), prefix) == 0;
}

// The code of the first error a rendered text names: `error[CODE]` at the start of a line or
// after "file:line:col: " (render_text's layout), from `from` on.
std::string first_error_code_in(const std::string& text, size_t from = 0) {
  for (size_t p = text.find("error[", from); p != std::string::npos; p = text.find("error[", p + 1)) {
    if (p != 0 && text[p - 1] != '\n' && text[p - 1] != ' ') continue;
    size_t end = text.find(']', p);
    if (end == std::string::npos) return {};
    return text.substr(p + 6, end - p - 6);
  }
  return {};
}

std::string first_error_code_of(const std::vector<Diagnostic>& diags) {
  for (const Diagnostic& d : diags)
    if (d.severity == Severity::Error) return d.code;
  return {};
}

Claim verdict(bool passed, std::string code = {}) {
  Claim c;
  c.kind = Claim::Verdict;
  c.passed = passed;
  c.error_code = std::move(code);
  return c;
}

Claim not_run() {
  Claim c;
  c.kind = Claim::NotRun;
  return c;
}

// A verify_kernel text (render_verify_text) starting at `at`.
Claim verify_claim_at(const std::string& text, size_t at) {
  if (starts_with(text, "PASS ", at)) return verdict(true);
  if (starts_with(text, "FAIL ", at)) return verdict(false, first_error_code_in(text, at));
  if (starts_with(text, "verify: not run", at)) return not_run();
  return {};
}

std::vector<front::ArgSpec> task_args(const TaskSpec& task) {
  std::vector<front::ArgSpec> args;
  for (const TensorSpec& t : task.kernel_args()) args.push_back(front::ArgSpec{t.shape, t.dtype});
  return args;
}

}  // namespace

std::vector<ShownResult> shown_results(const TrainingRecord& r) {
  std::vector<ShownResult> out;
  const bool feedback_mode = r.mode == "agent" || r.mode == "optimize";
  const auto& msgs = r.messages;
  for (size_t i = 0; i < msgs.size(); ++i) {
    const agent::Message& m = msgs[i];
    if (m.role != agent::Role::Assistant) continue;
    for (const agent::ToolCall& c : m.tool_calls) {
      std::string code = agent::extract_code_from_arguments(c.arguments).code;
      if (code.empty()) continue;  // bad_structure rejects such a call before this check
      for (size_t j = i + 1; j < msgs.size(); ++j)
        if (msgs[j].role == agent::Role::Tool && msgs[j].tool_call_id == c.id) {
          out.push_back({c.name, code, msgs[j].content, j, false});
          break;
        }
    }
    if (!m.tool_calls.empty() || !feedback_mode || i + 1 >= msgs.size() || msgs[i + 1].role != agent::Role::User) continue;
    // A prose answer with a kernel: the harness verified it and the next user turn says how.
    std::string code = agent::extract_code_from_text(m.content);
    if (!code.empty()) out.push_back({"verify_kernel", code, msgs[i + 1].content, i + 1, true});
  }
  return out;
}

Claim claimed_verdict(const std::string& tool, const std::string& text, bool harness) {
  if (tool == "verify_kernel") {
    if (!harness) return verify_claim_at(text, 0);
    // The feedback template wraps the tool's text: its first verdict line is the claim.
    for (size_t at = 0;;) {
      Claim c = verify_claim_at(text, at);
      if (c.kind != Claim::Unreadable) return c;
      size_t eol = text.find('\n', at);
      if (eol == std::string::npos) return {};
      at = eol + 1;
    }
  }
  if (tool == "compile_kernel") {
    if (starts_with(text, "compile: ok")) return verdict(true);
    if (starts_with(text, "compile: not run")) return not_run();
    std::string code = first_error_code_in(text);
    // Transcripts written before the "compile: failed" line show the diagnostics alone.
    if (starts_with(text, "compile: failed") || !code.empty()) return verdict(false, code);
    return {};
  }
  if (tool == "profile_kernel") {
    if (starts_with(text, "profile: estimate")) return verdict(true);
    if (starts_with(text, "profile: not run")) return not_run();
    if (starts_with(text, "profile: the kernel does not compile")) return verdict(false, first_error_code_in(text));
    if (starts_with(text, "profile: the cost model gave up")) return verdict(false);
    return {};
  }
  return {};
}

std::string ToolReplay::key(const std::string& tool, const std::string& code, const TaskSpec& task,
                            const std::string& nki) {
  return task.dir + '\n' + task.id + '\n' + nki + '\n' + tool + '\n' + sha256_hex(code);
}

void ToolReplay::remember(const std::string& tool, const std::string& code, const TaskSpec& task,
                          const std::string& nki, ToolVerdict v) {
  cache_.emplace(key(tool, code, task, nki), std::move(v));
}

ToolVerdict ToolReplay::rerun(const std::string& tool, const std::string& code, const TaskSpec& task,
                              const std::string& nki) {
  std::string k = key(tool, code, task, nki);
  if (auto it = cache_.find(k); it != cache_.end()) return it->second;
  ++runs_;
  toolchain::RunSettings run = settings_.run;
  run.trace.dialect = nki;
  auto file = std::make_shared<SourceFile>("kernel.py", code);
  ToolVerdict v;
  if (tool == "compile_kernel") {
    // As SimulatorTools::compile_kernel: the full check with the task's argument shapes.
    front::TraceOptions opts = run.trace;
    opts.args = task_args(task);
    toolchain::CompileResult c = toolchain::compile(file, opts, run.isolation);
    v = {c.ok(), first_error_code_of(c.diagnostics)};
  } else if (tool == "verify_kernel") {
    // As SimulatorTools::verify_kernel: the public trials only (no held-out trials).
    VerifyOptions vo;
    vo.golden = settings_.golden;
    VerifyReport rep = verify_task(task, vo, toolchain::make_runner(file, run));
    v.passed = rep.status == VerifyStatus::Pass;
    // The shown text names the diagnostics of the first failing trial (render_verify_text).
    for (const TrialReport& t : rep.trials)
      if (!t.passed) {
        v.error_code = first_error_code_of(t.diagnostics);
        break;
      }
  } else if (tool == "profile_kernel") {
    toolchain::ProfileSettings ps;
    ps.isolation = run.isolation;
    ps.trace = run.trace;
    ps.trace.args = task_args(task);
    ps.cost.keep_events = false;
    toolchain::ProfileOutcome p = toolchain::profile(file, ps);
    v = {p.compiled.ok() && p.report.has_value(), first_error_code_of(p.compiled.diagnostics)};
  } else {
    v = {false, "unknown_tool"};
  }
  return cache_.emplace(k, v).first->second;
}

Verdict ToolReplay::check(const TrainingRecord& r, const std::vector<ShownResult>& shown, const TaskSpec& task) {
  for (const ShownResult& s : shown) {
    std::string where = "message " + std::to_string(s.message + 1) + " (" + s.tool + (s.harness ? ", harness feedback" : "") + ")";
    Claim c = claimed_verdict(s.tool, s.text, s.harness);
    if (c.kind == Claim::NotRun) continue;
    if (c.kind == Claim::Unreadable)
      return Rejection{"tool_result_mismatch", where + ": the shown result states no verdict in the tool's wording"};
    ++checked_;
    ToolVerdict v = rerun(s.tool, s.code, task, r.nki);
    auto say = [](bool passed, const std::string& code) {
      return std::string(passed ? "a pass" : "a failure") + (code.empty() ? "" : " (" + code + ")");
    };
    if (c.passed != v.passed || (!c.passed && c.error_code != v.error_code))
      return Rejection{"tool_result_mismatch", where + ": the record shows " + say(c.passed, c.error_code) +
                                                   ", the toolchain returns " + say(v.passed, v.error_code)};
  }
  return std::nullopt;
}

}  // namespace nki::train
