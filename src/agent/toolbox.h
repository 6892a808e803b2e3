// The tools offered to the model in agent mode, behind one generic interface (the shape of
// mini-swe-agent's Environment.execute): the loop asks for the specs to send and hands every
// tool call to execute(); it never names a tool itself.
#pragma once

#include <string>
#include <vector>

#include "agent/message.h"
#include "agent/tools.h"

namespace nki::agent {

// What one tool call did.
struct ToolExecution {
  const KernelTool* tool = nullptr;  // null: the model named a tool that does not exist
  std::string code;                  // the kernel from the call's arguments (use it only if !bad_call)
  bool bad_call = false;             // unknown tool or unusable arguments; result.text says why
  ToolResult result;                 // what the model is shown
  // Turn-log label. An unknown tool counts as a compile attempt, as it always has in reports.
  std::string action() const { return tool ? tool->action : "compile"; }
  // A passing call of a tool that solves the task (verify_kernel): the episode ends.
  bool solved() const { return tool && !bad_call && tool->pass_ends_episode && result.passed; }
};

class Toolbox {
 public:
  // Registers a tool; throws std::invalid_argument when its name is taken.
  void add(KernelTool tool);
  std::vector<ToolSpec> specs() const;
  std::vector<std::string> names() const;
  bool empty() const { return tools_.empty(); }
  // Finds the tool and extracts the `code` argument. Never throws for what the model wrote: an
  // unknown name or malformed arguments is a bad_call with the reason in result.text.
  ToolExecution prepare(const ToolCall& call) const;
  // Runs a prepared call unless it is a bad_call; exceptions of the tool propagate.
  static void run(ToolExecution& x);
  ToolExecution execute(const ToolCall& call) const {
    ToolExecution x = prepare(call);
    run(x);
    return x;
  }

 private:
  std::vector<KernelTool> tools_;
};

// JSON Schema of the one argument every kernel tool takes: {"code": "<module source>"}.
const char* kernel_code_schema();

// The paper's two tools, running `compile` and `verify`. With `pass_ends_episode` false (optimize
// mode) a pass is reported but the episode goes on.
KernelTool compile_kernel_tool(std::function<ToolResult(const std::string&)> compile);
KernelTool verify_kernel_tool(std::function<ToolResult(const std::string&)> verify, bool pass_ends_episode = true);
// `profile_kernel`: the estimated latency and where the time goes (a cost model), without running
// the kernel (--tools compile,verify,profile).
KernelTool profile_kernel_tool(std::function<ToolResult(const std::string&)> profile);

// The specs of those two tools (for prompts, perf and tests that need no tool behind them).
std::vector<ToolSpec> kernel_tool_specs();

}  // namespace nki::agent
