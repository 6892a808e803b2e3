#include "agent/toolbox.h"

#include <stdexcept>

#include "agent/code_extract.h"

namespace nki::agent {

void Toolbox::add(KernelTool tool) {
  for (const KernelTool& t : tools_)
    if (t.spec.name == tool.spec.name) throw std::invalid_argument("tool '" + tool.spec.name + "' is registered twice");
  tools_.push_back(std::move(tool));
}

std::vector<ToolSpec> Toolbox::specs() const {
  std::vector<ToolSpec> out;
  for (const KernelTool& t : tools_) out.push_back(t.spec);
  return out;
}

std::vector<std::string> Toolbox::names() const {
  std::vector<std::string> out;
  for (const KernelTool& t : tools_) out.push_back(t.spec.name);
  return out;
}

namespace {

// "a", "a and b", "a, b and c".
std::string name_list(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " and " : ", ";
    out += names[i];
  }
  return out;
}

}  // namespace

ToolExecution Toolbox::prepare(const ToolCall& call) const {
  ToolExecution x;
  for (const KernelTool& t : tools_)
    if (t.spec.name == call.name) x.tool = &t;
  ArgumentsCode args = extract_code_from_arguments(call.arguments);
  x.code = args.code;
  if (!x.tool) {
    x.bad_call = true;
    x.result.text = "unknown tool '" + call.name + "'; the tools are " + name_list(names());
  } else if (!args.error.empty()) {
    x.bad_call = true;
    x.result.text = args.error;
  }
  return x;
}

void Toolbox::run(ToolExecution& x) {
  if (!x.bad_call) x.result = x.tool->run(x.code);
}

const char* kernel_code_schema() {
  return R"({"type":"object","properties":{"code":{"type":"string","description":)"
         R"("Complete Python source of the kernel module: imports, @nki.jit decorator and the )"
         R"(kernel function."}},"required":["code"]})";
}

KernelTool compile_kernel_tool(std::function<ToolResult(const std::string&)> compile) {
  return {{"compile_kernel",
           "Parse, trace and statically check an NKI kernel without running it. Returns compiler "
           "diagnostics, or OK.",
           kernel_code_schema()},
          "compile",
          std::move(compile),
          false};
}

KernelTool verify_kernel_tool(std::function<ToolResult(const std::string&)> verify, bool pass_ends_episode) {
  std::string what =
      "Compile the kernel, run it on the task's inputs in the NeuronCore simulator and compare "
      "every output with the reference within the task's tolerance. ";
  what += pass_ends_episode ? "A pass ends the task."
                            : "A pass does not end the task: the fastest kernel that passed is your answer.";
  return {{"verify_kernel", what, kernel_code_schema()}, "verify", std::move(verify), pass_ends_episode};
}

KernelTool profile_kernel_tool(std::function<ToolResult(const std::string&)> profile) {
  return {{"profile_kernel",
           "Compile the kernel and estimate its latency on one NeuronCore with a Trainium cost model "
           "(no run, no numerics): total latency, busy time per engine and DMA queue, the bottleneck, "
           "the critical path with source lines, roofline and performance hints. Does not check "
           "correctness.",
           kernel_code_schema()},
          "profile",
          std::move(profile),
          false};
}

std::vector<ToolSpec> kernel_tool_specs() {
  return {compile_kernel_tool(nullptr).spec, verify_kernel_tool(nullptr).spec};
}

}  // namespace nki::agent
