// What the agent needs from the outside world, injected by the caller (src/eval wires these to
// the NKI front end and simulator; tests use fakes). This layer knows nothing about NKI itself.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "agent/message.h"
#include "base/episode_vocab.h"

namespace nki::agent {

// The episode vocabulary is declared once, in base (shared with src/eval).
using nki::Mode;
using nki::mode_name;
using nki::mode_from_name;
using nki::VerdictKind;
using nki::verdict_kind_name;

// Why a check failed, when the tool knows. Adapters should set it; when a failed verify leaves
// it Unspecified, the loop tells compile errors from wrong answers by calling compile_kernel.
enum class FailureKind { Unspecified, CompileError, RuntimeError, Mismatch };

const char* failure_kind_name(FailureKind k);

struct ToolResult {
  // A constructor rather than aggregate init, so {true, "ok"} compiles warning-free under -Wextra.
  ToolResult(bool passed_ = false, std::string text_ = {},
             FailureKind failure_ = FailureKind::Unspecified, std::string code_ = {})
      : passed(passed_), text(std::move(text_)), failure(failure_), code(std::move(code_)) {}

  bool passed = false;
  std::string text;  // shown to the model verbatim (diagnostics, mismatch summary, ...)
  FailureKind failure = FailureKind::Unspecified;
  std::string code;  // optional: code of the first diagnostic (e.g. an err_* name), for reports
};

// One tool the model may call with a kernel: its schema, its turn-log label and what it runs.
// Every kernel tool takes the `code` argument (kernel_code_schema()); the tool box extracts it.
struct KernelTool {
  ToolSpec spec;
  std::string action;  // turn-log label, e.g. "compile", "verify", "profile"
  std::function<ToolResult(const std::string& code)> run;
  bool pass_ends_episode = false;  // verify_kernel: a passing check solves the task
};

// Which tools an episode offers (--tools): compile_kernel and verify_kernel by default,
// profile_kernel on request. Either of the first two may be dropped where the mode allows it
// (validate_tool_offer).
struct ToolOffer {
  bool compile = true, verify = true, profile = false;
  bool operator==(const ToolOffer& o) const { return compile == o.compile && verify == o.verify && profile == o.profile; }
};
// "compile,verify,profile" in any order and subset; throws std::invalid_argument naming an
// unknown or repeated tool, or an empty list.
ToolOffer parse_tool_offer(const std::string& text);
// The canonical spelling: the offered tools in the order compile, verify, profile.
std::string tool_offer_text(const ToolOffer& o);
// Empty, or why `mode` cannot run with these tools: optimize mode keeps only kernels that passed
// verify_kernel, so it needs verify; single-shot and multi-turn offer no tools at all.
std::string validate_tool_offer(const ToolOffer& o, Mode mode);

class KernelTools {
 public:
  virtual ~KernelTools() = default;
  // Which of compile_kernel / verify_kernel / profile_kernel the model is offered.
  void set_offer(const ToolOffer& o) { offer_ = o; }
  const ToolOffer& offer() const { return offer_; }
  // Parses, traces and statically checks the kernel without running it.
  virtual ToolResult compile_kernel(const std::string& code) = 0;
  // Runs the kernel on the task's inputs and compares with the reference within tolerance.
  virtual ToolResult verify_kernel(const std::string& code) = 0;
  // The harness verdict on the episode's final kernel. The default is verify_kernel; the
  // simulator tools add held-out trials whose inputs the model never saw, so a kernel that
  // memorised the public trials' outputs fails (docs/reliability.md).
  virtual ToolResult final_verdict(const std::string& code) { return verify_kernel(code); }
  // Tool calls made after this must finish by `deadline` (the episode's wall-clock budget); a
  // call still running then is stopped and reported as a failed check.
  virtual void set_deadline(std::chrono::steady_clock::time_point deadline) { (void)deadline; }
  // Tools offered to the model after compile_kernel and verify_kernel (e.g. a profiler): adding
  // one is a registration here, not an edit of the loop.
  virtual std::vector<KernelTool> extra_tools() { return {}; }
  // Estimated latency of the kernel in ns (a cost model), or nullopt when it has none (does not
  // compile, no model). Optimize mode keeps the fastest verified kernel by it.
  virtual std::optional<double> estimate_latency(const std::string& code) {
    (void)code;
    return std::nullopt;
  }

 protected:
  ToolOffer offer_;
};

// A named tensor of the task, as text the prompt shows verbatim.
struct TensorInfo {
  std::string name;   // e.g. "a"; the manifest's name, possibly not a Python identifier ("fc.weight")
  std::string shape;  // e.g. "[256, 512]"
  std::string dtype;  // e.g. "float32"
};

// The task as the prompts need it; filled by the caller's task loader.
struct TaskInfo {
  std::string id;
  std::string reference_source;     // reference.py
  std::vector<TensorInfo> inputs;   // forward() inputs, in order
  std::vector<TensorInfo> params;   // module parameters, in registration order
  std::vector<TensorInfo> buffers;  // module buffers, in registration order
  std::vector<TensorInfo> outputs;  // forward() results, in order
  std::string tolerance;            // e.g. "float32: atol=0.001, rtol=0.001"
  std::string constructor;          // how the reference module is built, e.g. "Model(1024, 1e-06)"
  int max_rank = 2;                 // largest input rank: selects the rank-aware prompt section
  std::string kernel_name = "kernel";
  // Optimize mode: the correct kernel the episode starts from, and a line about its speed
  // (e.g. "estimated latency 12.3 us on trn1 (cost model)").
  std::string start_kernel;
  std::string start_note;
};

// Legal, distinct Python parameter names for the given manifest names, in order: characters
// other than letters, digits and '_' become '_' ("fc.weight" -> "fc_weight"), a leading digit
// gets a '_' prefix, and names that are keywords, clash with the primer's module aliases
// (nki, nl, nisa, np) or repeat an earlier result get '_' appended until they are unique.
// The harness passes kernel arguments by position, so the names only have to be legal.
std::vector<std::string> kernel_arg_names(const std::vector<std::string>& names);

// kernel_arg_names of the inputs, then params, then buffers: the names the prompt shows.
std::vector<std::string> task_arg_names(const TaskInfo& task);

// "def kernel(a, b, fc_weight):" from task_arg_names(task).
std::string required_signature(const TaskInfo& task);

}  // namespace nki::agent
