#include "serve/evaluate.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "task/verify.h"

namespace nki::serve {

using ojson = nlohmann::ordered_json;

namespace {

// Rewards of the graded scheme, one per tier (docs/serve.md). A kernel that runs but mismatches
// earns kRuns plus kRunsSpan times the fraction of output elements within tolerance.
constexpr double kParses = 0.1;      // parses, fails the checker
constexpr double kCompiles = 0.3;    // compiles, fails while running
constexpr double kRuns = 0.4;        // runs to completion, outputs wrong
constexpr double kRunsSpan = 0.5;    // ... up to 0.9 when almost every element is right
constexpr double kPassReward = 1.0;
constexpr double kFailReward = -0.5;  // the paper's binary reward
// perf: a passing kernel earns kPassReward + log2(speedup) clamped to [-1, 2] (0 at half the
// baseline's speed, 3 at four times it), so a slower kernel still beats a failing one.
constexpr double kPerfLogMin = -1.0;
constexpr double kPerfLogMax = 2.0;

const Diagnostic* first_error(const std::vector<Diagnostic>& diags) {
  for (const Diagnostic& d : diags)
    if (d.severity == Severity::Error) return &d;
  return nullptr;
}

bool any_limit(const std::vector<Diagnostic>& diags) {
  for (const Diagnostic& d : diags)
    if (d.severity == Severity::Error && is_limit_code(d.code)) return true;
  return false;
}

bool report_hit_limit(const VerifyReport& r) {
  for (const TrialReport& t : r.trials)
    if (any_limit(t.diagnostics)) return true;
  return false;
}

// Fraction of output elements within tolerance in the last trial run (the failing one); an
// output of the wrong shape or dtype counts as entirely wrong.
double fraction_correct(const VerifyReport& r) {
  if (r.trials.empty()) return 0;
  int64_t total = 0, right = 0;
  for (const OutputComparison& o : r.trials.back().outputs) {
    int64_t n = 1;
    for (int64_t d : o.expected_shape) n *= d;
    total += n;
    if (o.shape_ok && o.dtype_ok) right += std::max<int64_t>(0, o.elements - o.mismatches);
  }
  return total > 0 ? static_cast<double>(right) / static_cast<double>(total) : 0.0;
}

VerifyReport run_verify(const TaskSpec& task, const std::string& code, const VerifyOptions& vo, const EvalSettings& s) {
  auto file = std::make_shared<SourceFile>("kernel.py", code);
  VerifyOptions with = vo;
  with.shared_golden = s.golden;
  return verify_task(task, with, s.runner ? s.runner : toolchain::make_runner(file, s.run));
}

}  // namespace

std::optional<RewardKind> parse_reward_kind(const std::string& s) {
  if (s == "binary") return RewardKind::Binary;
  if (s == "graded") return RewardKind::Graded;
  if (s == "perf") return RewardKind::Perf;
  return std::nullopt;
}

const char* reward_kind_name(RewardKind k) {
  switch (k) {
    case RewardKind::Binary: return "binary";
    case RewardKind::Graded: return "graded";
    case RewardKind::Perf: return "perf";
  }
  return "binary";
}

// The sandbox's and the evaluators' budget codes (toolchain/isolated.cpp, docs/reliability.md).
bool is_limit_code(const std::string& code) {
  return code == "evaluation_budget" || code == "sim_budget" || code == "evaluation_memory" ||
         code == "sim_memory_limit";
}

ojson compile_kernel_json(const TaskSpec& task, const std::string& code, const EvalSettings& s) {
  auto file = std::make_shared<SourceFile>("kernel.py", code);
  front::TraceOptions opts = s.run.trace;
  opts.args.clear();
  for (const TensorSpec& t : task.kernel_args()) opts.args.push_back(front::ArgSpec{t.shape, t.dtype});
  toolchain::CompileResult r = toolchain::compile(file, opts, s.run.isolation);
  ojson diags = ojson::parse(render_json(r.diagnostics, r.ok())).at("diagnostics");
  std::string text;
  for (const Diagnostic& d : r.diagnostics) text += render_text(d);
  return {{"ok", r.ok()},
          {"kernel", r.ok() ? r.kernel->name : ""},
          {"diagnostics", diags},
          {"text", text},
          {"limit_exceeded", any_limit(r.diagnostics)}};
}

ojson verify_kernel_json(const TaskSpec& task, const std::string& code, const EvalSettings& s) {
  VerifyReport r = run_verify(task, code, {}, s);
  return {{"status", verify_status_name(r.status)},
          {"passed", r.status == VerifyStatus::Pass},
          {"text", render_verify_text(r)},
          {"report", ojson::parse(render_verify_json(r))},
          {"limit_exceeded", report_hit_limit(r)}};
}

ojson reward_json(const TaskSpec& task, const std::string& code, RewardKind kind, const EvalSettings& s) {
  VerifyOptions vo;
  vo.held_out = held_out_trials(task, s.held_out_secret, s.held_out_trials);
  VerifyReport r = run_verify(task, code, vo, s);
  std::string tier;
  double graded = 0, fraction = r.status == VerifyStatus::Pass ? 1.0 : 0.0;
  switch (r.status) {
    case VerifyStatus::Pass: tier = "passes"; graded = kPassReward; break;
    case VerifyStatus::CompileError: {
      const Diagnostic* d = r.trials.empty() ? nullptr : first_error(r.trials.back().diagnostics);
      bool syntax = d && d->code == "syntax";
      tier = syntax ? "none" : "parses";
      graded = syntax ? 0.0 : kParses;
      break;
    }
    case VerifyStatus::RuntimeError: tier = "compiles"; graded = kCompiles; break;
    case VerifyStatus::Mismatch:
      tier = "runs";
      fraction = fraction_correct(r);
      graded = kRuns + kRunsSpan * fraction;
      break;
  }
  bool pass = r.status == VerifyStatus::Pass;
  double reward = kind == RewardKind::Graded ? graded : (pass ? kPassReward : kFailReward);
  ojson perf;
  if (kind == RewardKind::Perf) {
    std::optional<double> est, base = s.baselines ? s.baselines->latency_ns(task.id) : std::nullopt, speedup;
    if (pass) {
      toolchain::EstimateOutcome e =
          toolchain::estimate_for_task(task, std::make_shared<SourceFile>("kernel.py", code), s.run.isolation, s.target);
      if (e.estimate) est = e.estimate->latency_ns;
    }
    if (est && base && *est > 0) {
      speedup = *base / *est;
      reward = kPassReward + std::clamp(std::log2(*speedup), kPerfLogMin, kPerfLogMax);
    }
    auto num = [](const std::optional<double>& v) { return v ? ojson(*v) : ojson(); };
    perf = {{"estimated_ns", num(est)}, {"baseline_ns", num(base)}, {"speedup", num(speedup)}};
  }
  ojson out = {{"reward", reward},
          {"kind", reward_kind_name(kind)},
          {"verdict", verify_status_name(r.status)},
          {"passed", pass},
          {"tier", tier},
          {"fraction_correct", fraction},
          {"trials", r.trials.size()},
          {"held_out_trials", vo.held_out.size()},
          {"limit_exceeded", report_hit_limit(r)}};
  for (auto& [k, v] : perf.items()) out[k] = v;
  return out;
}

}  // namespace nki::serve
