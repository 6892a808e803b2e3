#include "serve/episode_tools.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "toolchain/isolated.h"

namespace nki::serve {

using json = nlohmann::json;

namespace {

toolchain::RunSettings without_isolation(toolchain::RunSettings run) {
  run.isolation.enabled = false;
  return run;
}

std::string to_payload(const agent::ToolResult& r) {
  // replace: a diagnostic quoting a cut multi-byte character must not make the child fail.
  return json{{"passed", r.passed}, {"text", r.text}, {"failure", static_cast<int>(r.failure)}, {"code", r.code}}
      .dump(-1, ' ', false, json::error_handler_t::replace);
}

agent::ToolResult from_payload(const std::string& payload) {
  json j = json::parse(payload);
  return agent::ToolResult(j.at("passed").get<bool>(), j.at("text").get<std::string>(),
                           static_cast<agent::FailureKind>(j.at("failure").get<int>()), j.at("code").get<std::string>());
}

}  // namespace

EpisodeTools::EpisodeTools(const TaskSpec& task, const toolchain::RunSettings& run, toolchain::HeldOut held_out)
    : run_(run), isolated_(task, run, held_out), in_child_(task, without_isolation(run), held_out) {}

void EpisodeTools::set_deadline(std::chrono::steady_clock::time_point deadline) {
  deadline_ = deadline;
  isolated_.set_deadline(deadline);
}

std::string EpisodeTools::refusal() const {
  if (gate_) return gate_();
  return {};
}

agent::ToolResult EpisodeTools::compile_kernel(const std::string& code) {
  if (std::string why = refusal(); !why.empty())
    return agent::ToolResult(false, "compile: not run: " + why + "\n", agent::FailureKind::Unspecified);
  sandbox::Limits lim = toolchain::isolation_limits(run_.isolation, run_.trace, nullptr);
  if (deadline_) {
    double left = std::chrono::duration<double>(*deadline_ - std::chrono::steady_clock::now()).count();
    if (left <= 0)
      return agent::ToolResult(false, "compile: not run: this step's time budget is spent\n",
                               agent::FailureKind::Unspecified);
    lim.wall_seconds = lim.wall_seconds > 0 ? std::min(lim.wall_seconds, left) : left;
  }
  sandbox::Result res =
      toolchain::run_work_isolated([&] { return to_payload(in_child_.compile_kernel(code)); }, lim, run_.isolation);
  if (res.ok()) {
    try {
      return from_payload(res.payload);
    } catch (const json::exception&) {
      // Only a bug of this program can garble the child's answer; judged as a failed compile.
      return agent::ToolResult(false, "compile: failed\ninternal error: the sandboxed compile answered garbage\n",
                               agent::FailureKind::CompileError, "internal_error");
    }
  }
  // The child did not answer (a limit, a crash): the same diagnostic toolchain::compile gives.
  Diagnostic d = toolchain::isolation_failure(std::make_shared<SourceFile>("kernel.py", code), res, false);
  return agent::ToolResult(false, "compile: failed\n" + render_text(d), agent::FailureKind::CompileError, d.code);
}

agent::ToolResult EpisodeTools::verify_kernel(const std::string& code) {
  if (std::string why = refusal(); !why.empty())
    return agent::ToolResult(false, "verify: not run: " + why + "\n", agent::FailureKind::Unspecified);
  return isolated_.verify_kernel(code);
}

// The final verdict is the episode's reward: it is not gated (it gets at least the toolchain's
// final-verdict time, like in `nkiagent solve`), but it runs under the same per-kernel limits.
agent::ToolResult EpisodeTools::final_verdict(const std::string& code) { return isolated_.final_verdict(code); }

}  // namespace nki::serve
