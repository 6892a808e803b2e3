// The kernel tools of a served episode: the agent's simulator tools (toolchain::SimulatorTools,
// the same texts as `nkiagent solve`), with two changes the server needs.
//  - compile_kernel runs wholly in a sandboxed child and the server keeps the child's answer.
//    SimulatorTools::compile_kernel, like toolchain::compile under isolation, traces the kernel a
//    second time in the calling process to rebuild its IR; in the server that is untrusted work
//    outside the sandbox (one call took the server from 18 MB to 1.8 GB).
//  - every call first asks a gate (the step's time budget, the client still connected, the
//    server not shutting down) and is not run, with a tool result saying why, when it objects.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include "agent/tools.h"
#include "toolchain/agent_glue.h"

namespace nki::serve {

class EpisodeTools : public agent::KernelTools {
 public:
  // `run` must have isolation enabled: it is what the sandboxed children run under.
  EpisodeTools(const TaskSpec& task, const toolchain::RunSettings& run, toolchain::HeldOut held_out);

  // Why a tool call must not run now (empty: it may). Set by the service before each step.
  using Gate = std::function<std::string()>;
  void set_gate(Gate gate) { gate_ = std::move(gate); }

  agent::ToolResult compile_kernel(const std::string& code) override;
  agent::ToolResult verify_kernel(const std::string& code) override;
  agent::ToolResult final_verdict(const std::string& code) override;
  void set_deadline(std::chrono::steady_clock::time_point deadline) override;

 private:
  std::string refusal() const;

  toolchain::RunSettings run_;
  toolchain::SimulatorTools isolated_;  // verify and final verdict: a child per trial, no second trace
  toolchain::SimulatorTools in_child_;  // what the compile child runs (isolation off: it is the child)
  std::optional<std::chrono::steady_clock::time_point> deadline_;
  Gate gate_;
};

}  // namespace nki::serve
