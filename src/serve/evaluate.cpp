#include "serve/evaluate.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <stdexcept>

#include "nki/no_kernel.h"
#include "task/golden_cache.h"
#include "task/trivial_credit.h"
#include "task/verify.h"

namespace nki::serve {

using ojson = nlohmann::ordered_json;

namespace {

// Rewards of the graded scheme, one per tier, in the order of docs/serve.md: nothing to judge <
// does not parse < does not compile < fails while running < runs with wrong outputs < passes.
// A kernel that runs but mismatches earns kRuns plus kRunsSpan times its correctness credit
// beyond trivial kernels (task/trivial_credit.h), so storing zeros, a constant or a copied input
// sits exactly at kRuns however many elements happen to match.
constexpr double kNoKernel = 0.0;    // no code, or source without a kernel function
constexpr double kSyntax = 0.05;     // a kernel that does not parse
constexpr double kParses = 0.1;      // parses; the checker rejects it, or its signature does not fit
constexpr double kCompiles = 0.3;    // compiles, fails while running
constexpr double kRuns = 0.4;        // runs to completion, outputs wrong
constexpr double kRunsSpan = 0.5;    // ... up to 0.9 for a kernel right everywhere a trivial one is wrong
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

VerifyReport run_verify(const TaskSpec& task, const std::string& code, const VerifyOptions& vo, const EvalSettings& s,
                        const std::function<KernelRunner(KernelRunner)>& wrap = {}) {
  auto file = std::make_shared<SourceFile>("kernel.py", code);
  VerifyOptions with = vo;
  with.shared_golden = s.golden;
  KernelRunner runner = s.runner ? s.runner : toolchain::make_runner(file, s.run);
  return verify_task(task, with, wrap ? wrap(std::move(runner)) : std::move(runner));
}

// What the reward needs from the kernel runs beyond the report: the outputs of the last run
// (verify stops at the first failing trial, so those are the failing trial's) and the message
// of a toolchain error raised before the kernel could run (no kernel, a signature that does
// not fit the task's arguments).
struct RunRecord {
  std::vector<HostTensor> last_outputs;
  std::optional<std::string> setup_error;
};

KernelRunner recording(KernelRunner inner, RunRecord& rec) {
  return [inner = std::move(inner), &rec](const std::vector<HostTensor>& args) {
    rec.last_outputs.clear();
    try {
      KernelRunResult r = inner(args);
      rec.last_outputs = r.outputs;
      return r;
    } catch (const IoError& e) {
      rec.setup_error = e.what();
      throw;  // verify records it as before (a runtime error); only the tier differs
    }
  };
}

std::shared_ptr<const GoldenTrial> golden_of(const TaskSpec& task, int trial, const EvalSettings& s) {
  if (s.golden) return s.golden(task, trial);
  return std::make_shared<const GoldenTrial>(load_golden(task, trial));  // cached by verify
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

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

namespace {

struct Grade {
  std::string tier;
  double reward = 0;
  double credit = 0;  // correctness credit beyond trivial kernels (runs tier only)
};

Grade grade(const TaskSpec& task, const VerifyReport& r, const RunRecord& rec, const EvalSettings& s) {
  switch (r.status) {
    case VerifyStatus::Pass: return {"passes", kPassReward, 1.0};
    case VerifyStatus::CompileError: {
      const Diagnostic* d = r.trials.empty() ? nullptr : first_error(r.trials.back().diagnostics);
      if (d && d->code == "syntax") return {"syntax", kSyntax};
      return {"parses", kParses};
    }
    case VerifyStatus::RuntimeError:
      // A toolchain error before the kernel ran is not a kernel failing at run time: no kernel
      // function at all is nothing to judge; any other (several kernels, a signature that does
      // not take the task's arguments) is a kernel that does not compile for the task.
      if (rec.setup_error) {
        if (starts_with(*rec.setup_error, front::kNoKernelFound)) return {"none", kNoKernel};
        return {"parses", kParses};
      }
      return {"compiles", kCompiles};
    case VerifyStatus::Mismatch: break;
  }
  Grade g{"runs", kRuns};
  if (!r.trials.empty()) {
    std::shared_ptr<const GoldenTrial> golden = golden_of(task, r.trials.back().trial, s);
    g.credit = trivial_credit(task, *golden, rec.last_outputs, r.strict).credit;
    g.reward = kRuns + kRunsSpan * g.credit;
  }
  return g;
}

// The perf reward of a passing kernel, or why it gets none: a kernel without a usable estimate
// is refused (the failure reward), never paid as if it had matched the baseline.
struct Perf {
  std::optional<double> est, base, speedup;
  std::optional<std::string> error;
  double reward = kFailReward;
};

Perf perf_reward(const TaskSpec& task, const std::string& code, bool pass, const EvalSettings& s) {
  Perf p;
  p.base = s.baselines ? s.baselines->latency_ns(task.id) : std::nullopt;
  if (p.base && !(std::isfinite(*p.base) && *p.base > 0)) p.base.reset();  // a broken baseline is none
  if (!pass) return p;
  toolchain::EstimateOutcome e =
      toolchain::estimate_for_task(task, std::make_shared<SourceFile>("kernel.py", code), s.run.isolation, s.target);
  if (!e.estimate) {
    p.error = "no cost estimate: " + (e.error.empty() ? std::string("the cost model gave none") : e.error);
    return p;
  }
  p.est = e.estimate->latency_ns;
  if (!(std::isfinite(*p.est) && *p.est > 0)) {
    p.error = "the cost estimate is not a positive finite number of nanoseconds";
    return p;
  }
  p.reward = kPassReward;  // no baseline for the task: a pass is a pass
  if (p.base) {
    p.speedup = *p.base / *p.est;
    p.reward = kPassReward + std::clamp(std::log2(*p.speedup), kPerfLogMin, kPerfLogMax);
  }
  return p;
}

}  // namespace

ojson reward_json(const TaskSpec& task, const std::string& code, RewardKind kind, const EvalSettings& s) {
  VerifyOptions vo;
  vo.held_out = held_out_trials(task, s.held_out_secret, s.held_out_trials);
  RunRecord rec;
  VerifyReport r = run_verify(task, code, vo, s, [&rec](KernelRunner k) { return recording(std::move(k), rec); });
  const bool pass = r.status == VerifyStatus::Pass;
  const double fraction = pass ? 1.0 : r.status == VerifyStatus::Mismatch ? fraction_correct(r) : 0.0;
  const Grade g = grade(task, r, rec, s);  // the tier and credit are reported for every kind
  double reward = kind == RewardKind::Graded ? g.reward : (pass ? kPassReward : kFailReward);
  ojson out = {{"reward", reward},
               {"kind", reward_kind_name(kind)},
               {"verdict", verify_status_name(r.status)},
               {"passed", pass},
               {"tier", g.tier},
               {"fraction_correct", fraction},
               {"credit", g.credit},
               {"trials", r.trials.size()},
               {"held_out_trials", vo.held_out.size()},
               {"limit_exceeded", report_hit_limit(r)}};
  if (kind == RewardKind::Perf) {
    Perf p = perf_reward(task, code, pass, s);
    auto num = [](const std::optional<double>& v) { return v ? ojson(*v) : ojson(); };
    out["reward"] = p.reward;
    out["estimated_ns"] = num(p.est);
    out["baseline_ns"] = num(p.base);
    out["speedup"] = num(p.speedup);
    out["perf_error"] = p.error ? ojson(*p.error) : ojson();
  }
  return out;
}

}  // namespace nki::serve
