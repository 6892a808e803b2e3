// Honest tool results: every compile_kernel / verify_kernel / profile_kernel result a training
// record shows (and the harness feedback on a prose answer, which is a verify_kernel result) is
// re-run on the code of that call and must state the verdict the toolchain returns now. A record
// that shows a wrong kernel passing would teach exactly that; only checking the final kernel
// does not catch it (a forged intermediate result next to an honest ending).
//
// What is compared: pass or fail, and when both fail, the code of the first error the shown
// text names (`error[CODE]`) against the re-run's first error. The rest of the text (error
// counts, numbers, hints) may differ between toolchain versions and is not compared. The tools
// the model calls are deterministic given the task: verify_kernel runs the task's public trials,
// seeded by task.json (held-out trials belong to the final verdict only, which no record shows),
// compile_kernel and profile_kernel depend only on the code, the task's shapes, the dialect (the
// record's `nki`) and the target.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "task/task_spec.h"
#include "train/record.h"
#include "train/validators.h"

namespace nki::train {

// A tool result shown in a record, with the call that produced it.
struct ShownResult {
  std::string tool;    // compile_kernel, verify_kernel, profile_kernel (harness feedback: verify_kernel)
  std::string code;    // the kernel the call submitted
  std::string text;    // what the record shows as its result
  size_t message = 0;  // index of the result in the record's messages (0 = first after the system prompt)
  bool harness = false;  // harness feedback on a prose answer (a user message), not a tool message
};

// Every result shown in `r`: tool messages answering a call with a `code` argument, and in agent
// or optimize mode the user message that follows a prose reply carrying a kernel (the harness
// ran verify_kernel on it and shows the outcome).
std::vector<ShownResult> shown_results(const TrainingRecord& r);

// The verdict a shown text states.
struct Claim {
  enum Kind { Verdict, NotRun, Unreadable } kind = Unreadable;
  bool passed = false;
  std::string error_code;  // first `error[CODE]` of a failure (may be empty)
};
// NotRun: the tool said it did not run (the episode's time budget was spent), which says nothing
// about the kernel. Unreadable: no verdict in the tool's own wording (dropped: a result that
// cannot be checked is not trusted).
Claim claimed_verdict(const std::string& tool, const std::string& text, bool harness);

// A tool's verdict on a kernel now.
struct ToolVerdict {
  bool passed = false;
  std::string error_code;  // first error diagnostic's code, if any
};

// Re-runs tool calls, each (task, dialect, tool, code hash) once per instance.
class ToolReplay {
 public:
  explicit ToolReplay(CheckSettings s) : settings_(std::move(s)) {}
  ToolVerdict rerun(const std::string& tool, const std::string& code, const TaskSpec& task, const std::string& nki);
  // A verdict already known (the final kernel compiled and passed the public trials in the
  // final-kernel checks), so the same call is not run again.
  void remember(const std::string& tool, const std::string& code, const TaskSpec& task, const std::string& nki,
                ToolVerdict v);
  // tool_result_mismatch at the first shown result whose verdict is not the toolchain's.
  Verdict check(const TrainingRecord& r, const std::vector<ShownResult>& shown, const TaskSpec& task);
  long long runs() const { return runs_; }      // re-runs executed (cache misses)
  long long checked() const { return checked_; }  // shown results compared

 private:
  static std::string key(const std::string& tool, const std::string& code, const TaskSpec& task, const std::string& nki);
  CheckSettings settings_;
  std::map<std::string, ToolVerdict> cache_;
  long long runs_ = 0, checked_ = 0;
};

}  // namespace nki::train
