// Text and JSON renderings of a VerifyReport (declared in verify.h).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "task/verify.h"

namespace nki {

namespace {

std::string num(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.6g", v);
  return buf;
}

std::string percent(double fraction) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.3g%%", fraction * 100.0);
  return buf;
}

// Where the largest share of the tolerance is used, over every compared output of every trial:
// |err| / (atol + rtol * |ref|), the quantity the pass criterion bounds by 1. max rel err alone
// says little: near-zero references inflate it while the element is well within atol.
struct WorstTolerance {
  const TrialReport* trial = nullptr;  // null: no output had comparable values
  const OutputComparison* output = nullptr;
};

WorstTolerance worst_tolerance(const VerifyReport& r) {
  WorstTolerance w;
  for (const TrialReport& t : r.trials) {
    for (const OutputComparison& c : t.outputs) {
      if (!c.shape_ok || !c.dtype_ok) continue;
      if (!w.output || c.tolerance_used > w.output->tolerance_used) w = {&t, &c};
    }
  }
  return w;
}

const char* kToleranceRatio = "|err|/(atol+rtol*|ref|)";

// "0.42 at out0[3, 17]" (no location when nothing differs).
std::string tolerance_used_text(const OutputComparison& c, bool with_output) {
  std::string s = num(c.tolerance_used);
  if (!c.tolerance_used_index.empty())
    s += " at " + (with_output ? "out" + std::to_string(c.index) : std::string()) + format_index(c.tolerance_used_index);
  return s;
}

std::string trial_name(const TrialReport& t) {
  return std::string(t.held_out ? "held-out trial " : "trial ") + std::to_string(t.trial);
}

void render_output(const OutputComparison& c, std::string& s) {
  std::string name = "out" + std::to_string(c.index);
  if (!c.shape_ok) {
    s += "  " + name + ": shape " + format_shape(c.actual_shape) + ", expected " +
         format_shape(c.expected_shape) + "\n";
  }
  if (!c.dtype_ok) {
    s += "  " + name + ": dtype " + dtype_name(c.actual_dtype) + ", expected " +
         dtype_name(c.expected_dtype) + "\n";
  }
  if (!c.shape_ok || !c.dtype_ok) return;
  s += "  " + name + " " + format_shape(c.expected_shape) + " " + dtype_name(c.expected_dtype) +
       " (atol=" + num(c.tol.atol) + ", rtol=" + num(c.tol.rtol) + "): ";
  if (c.passed) {
    s += "ok, max abs err " + num(c.max_abs_err) + ", max rel err " + num(c.max_rel_err) + ", worst " +
         kToleranceRatio + " " + tolerance_used_text(c, false) + "\n";
    return;
  }
  s += std::to_string(c.mismatches) + " of " + std::to_string(c.elements) +
       " elements mismatch (" + percent(c.mismatch_fraction) + ")";
  if (c.mismatches > c.never_written) {
    // Error statistics are over elements where both values are finite.
    s += "; max abs err " + num(c.max_abs_err);
    if (!c.max_abs_index.empty()) s += " at " + format_index(c.max_abs_index);
    s += ", max rel err " + num(c.max_rel_err) + ", rel L2 " + num(c.rel_l2) + ", worst " + kToleranceRatio +
         " " + tolerance_used_text(c, false);
  }
  s += "\n";
  if (c.never_written > 0) {
    s += "    never written: " + std::to_string(c.never_written) +
         " elements are NaN where the reference is finite (first at " +
         format_index(c.first_never_written) + "); the kernel did not store them\n";
  }
  if (c.nan_count > c.never_written) {
    s += "    " + std::to_string(c.nan_count - c.never_written) + " other NaN elements\n";
  }
  if (c.inf_count > 0) s += "    " + std::to_string(c.inf_count) + " infinite elements\n";
  for (const ElementMismatch& m : c.examples) {
    s += "    at " + format_index(m.index) + ": expected " + num(m.expected) + ", got " +
         num(m.actual) + "\n";
  }
}

nlohmann::json diag_json(const Diagnostic& d) {
  return {{"severity", severity_name(d.severity)}, {"code", d.code}, {"message", d.message},
          {"file", d.file}, {"line", d.line}, {"col", d.col}, {"hint", d.hint}};
}

nlohmann::json output_json(const OutputComparison& c) {
  nlohmann::json examples = nlohmann::json::array();
  for (const ElementMismatch& m : c.examples) {
    examples.push_back({{"index", m.index}, {"expected", m.expected}, {"actual", m.actual}});
  }
  return {{"index", c.index},
          {"passed", c.passed},
          {"expected_shape", c.expected_shape},
          {"actual_shape", c.actual_shape},
          {"expected_dtype", dtype_name(c.expected_dtype)},
          {"actual_dtype", dtype_name(c.actual_dtype)},
          {"shape_ok", c.shape_ok},
          {"dtype_ok", c.dtype_ok},
          {"atol", c.tol.atol},
          {"rtol", c.tol.rtol},
          {"elements", c.elements},
          {"mismatches", c.mismatches},
          {"mismatch_fraction", c.mismatch_fraction},
          {"max_abs_err", c.max_abs_err},
          {"max_abs_index", c.max_abs_index},
          {"max_rel_err", c.max_rel_err},
          {"rel_l2", c.rel_l2},
          {"tolerance_used", c.tolerance_used},
          {"tolerance_used_index", c.tolerance_used_index},
          {"nan_count", c.nan_count},
          {"inf_count", c.inf_count},
          {"never_written", c.never_written},
          {"first_never_written", c.first_never_written},
          {"examples", examples}};
}

}  // namespace

std::string render_verify_text(const VerifyReport& r) {
  std::string s;
  const std::string strict = r.strict ? " [strict]" : "";
  if (r.status == VerifyStatus::Pass) {
    double max_abs = 0, max_rel = 0;
    for (const TrialReport& t : r.trials) {
      for (const OutputComparison& c : t.outputs) {
        max_abs = std::max(max_abs, c.max_abs_err);
        max_rel = std::max(max_rel, c.max_rel_err);
      }
    }
    s = "PASS " + r.task_id + strict + ": " + std::to_string(r.trials.size()) + "/" +
        std::to_string(r.trials_requested) + " trials correct (max abs err " + num(max_abs) +
        ", max rel err " + num(max_rel);
    WorstTolerance w = worst_tolerance(r);
    if (w.output) {
      s += ", worst " + std::string(kToleranceRatio) + " " + tolerance_used_text(*w.output, true);
      if (!w.output->tolerance_used_index.empty()) s += " in " + trial_name(*w.trial);
    }
    s += ")\n";
    return s;
  }
  const TrialReport* bad = nullptr;
  for (const TrialReport& t : r.trials) {
    if (!t.passed) {
      bad = &t;
      break;
    }
  }
  if (!bad) return "FAIL " + r.task_id + strict + "\n";
  std::string trial = trial_name(*bad) + " (seed " + std::to_string(bad->seed) + ")";
  switch (r.status) {
    case VerifyStatus::CompileError: s = "FAIL " + r.task_id + strict + ": compile error\n"; break;
    case VerifyStatus::RuntimeError:
      s = "FAIL " + r.task_id + strict + ": runtime error on " + trial + "\n";
      break;
    default: s = "FAIL " + r.task_id + strict + ": wrong result on " + trial + "\n"; break;
  }
  for (const Diagnostic& d : bad->diagnostics) {
    std::string text = render_text(d);
    // Indent every line of the diagnostic under the verdict.
    std::string indented = "  ";
    for (char ch : text) {
      indented += ch;
      if (ch == '\n') indented += "  ";
    }
    while (!indented.empty() && (indented.back() == ' ' || indented.back() == '\n')) {
      indented.pop_back();
    }
    s += indented + "\n";
  }
  if (!bad->problem.empty()) s += "  " + bad->problem + "\n";
  for (const OutputComparison& c : bad->outputs) render_output(c, s);
  for (const InputChange& ch : bad->modified_inputs) {
    s += "  input '" + ch.name + "' (argument " + std::to_string(ch.arg_index) + ") was " +
         (ch.layout_changed ? std::string("replaced (shape/dtype changed)")
                            : "modified (" + std::to_string(ch.changed_elements) +
                                  " elements changed)") +
         "; kernels must not write their inputs\n";
  }
  return s;
}

std::string render_verify_json(const VerifyReport& r) {
  nlohmann::json trials = nlohmann::json::array();
  for (const TrialReport& t : r.trials) {
    nlohmann::json diags = nlohmann::json::array();
    for (const Diagnostic& d : t.diagnostics) diags.push_back(diag_json(d));
    nlohmann::json outs = nlohmann::json::array();
    for (const OutputComparison& c : t.outputs) outs.push_back(output_json(c));
    nlohmann::json mods = nlohmann::json::array();
    for (const InputChange& ch : t.modified_inputs) {
      mods.push_back({{"arg_index", ch.arg_index}, {"name", ch.name},
                      {"changed_elements", ch.changed_elements},
                      {"layout_changed", ch.layout_changed}});
    }
    trials.push_back({{"trial", t.trial},
                      {"seed", t.seed},
                      {"run_status", run_status_name(t.run_status)},
                      {"passed", t.passed},
                      {"held_out", t.held_out},
                      {"problem", t.problem},
                      {"diagnostics", diags},
                      {"outputs", outs},
                      {"modified_inputs", mods}});
  }
  // The worst |err| / (atol + rtol |ref|) of the whole report and where (null: nothing compared).
  nlohmann::json worst = nullptr;
  if (WorstTolerance w = worst_tolerance(r); w.output) {
    worst = {{"value", w.output->tolerance_used},
             {"trial", w.trial->trial},
             {"held_out", w.trial->held_out},
             {"output", w.output->index},
             {"index", w.output->tolerance_used_index}};
  }
  nlohmann::json j = {{"task", r.task_id},
                      {"status", verify_status_name(r.status)},
                      {"ok", r.status == VerifyStatus::Pass},
                      {"exit_code", verify_exit_code(r)},
                      {"strict", r.strict},
                      {"trials_requested", r.trials_requested},
                      {"tolerance_used", worst},
                      {"trials", trials}};
  return j.dump();
}

}  // namespace nki
