// agent::run_solve: artefacts on disk and replay of the shipped example. The command line and
// exit codes of `nkiagent solve` are tested with the CLI (tests/cli/solve_command_test.cpp).
#include <gtest/gtest.h>

#include <filesystem>

#include "agent/solve_command.h"
#include "fake_llm_server.h"
#include "test_support.h"

namespace nki::agent {
namespace {

using namespace nki::agent::testing;
namespace fs = std::filesystem;

// The options of a replay of `transcript` into `out` (what `solve --replay` parses into).
SolveOptions replay_options(const std::string& task, const std::string& transcript, const fs::path& out) {
  SolveOptions o;
  o.task_id = task;
  o.replay_path = transcript;
  o.out_dir = out.string();
  return o;
}

class AcceptAllTools : public KernelTools {
 public:
  ToolResult compile_kernel(const std::string&) override { return {true, "OK"}; }
  ToolResult verify_kernel(const std::string&) override { return {true, "PASS"}; }
};

TaskInfo add_task(const std::string& id) {
  TaskInfo t;
  t.id = id;
  t.reference_source = "def forward(a, b): return a + b\n";
  t.inputs = {{"a", "[256, 1024]", "float32"}, {"b", "[256, 1024]", "float32"}};
  t.outputs = {{"out0", "[256, 1024]", "float32"}};
  t.tolerance = "atol=1e-3, rtol=1e-3";
  return t;
}

template <typename Tools>
SolveDeps deps_with() {
  SolveDeps d;
  d.load_task = [](const std::string& id) {
    if (id == "missing") throw std::runtime_error("unknown task 'missing'");
    return add_task(id);
  };
  d.make_tools = [](const std::string&, const std::string&) { return std::make_unique<Tools>(); };
  return d;
}

class SolveTest : public ::testing::Test {
 protected:
  void SetUp() override {
    out = fs::temp_directory_path() / ("nki_agent_solve_" + std::to_string(::getpid()) + "_" +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
  }
  void TearDown() override { fs::remove_all(out); }
  fs::path out;
};

TEST_F(SolveTest, ShippedExampleReplaysInTwoTurnsInItsRecordedMode) {
  std::string example = std::string(NKI_SOURCE_DIR) + "/examples/replays/l1_add_fp32_compile_fix.jsonl";
  auto events = read_transcript(example).events;
  ASSERT_FALSE(events.empty());
  EXPECT_NE(events[0]["note"].get<std::string>().find("SCRIPTED"), std::string::npos);

  SolveOptions o = replay_options("l1_add_fp32", example, out);
  SolveOutcome s = run_solve(o, deps_with<AcceptAllTools>());
  EXPECT_EQ(s.result.verdict, VerdictKind::Pass);
  EXPECT_EQ(s.result.turns, 2);
  EXPECT_EQ(s.result.tool_calls, 2);
  EXPECT_NE(s.result.final_kernel.find("nl.affine_range(rows // 128)"), std::string::npos);
  EXPECT_NE(s.summary.find("model=anthropic:claude-sonnet-4"), std::string::npos) << s.summary;
  EXPECT_NE(s.summary.find("mode=agent"), std::string::npos);
}

TEST_F(SolveTest, ReplayRefusesToOverwriteItsOwnTranscript) {
  std::string example = std::string(NKI_SOURCE_DIR) + "/examples/replays/l1_add_fp32_compile_fix.jsonl";
  SolveOptions first = replay_options("l1_add_fp32", example, out);
  run_solve(first, deps_with<AcceptAllTools>());
  std::string own = (out / "transcript.jsonl").string();
  SolveOptions again = replay_options("l1_add_fp32", own, out);
  EXPECT_THROW(run_solve(again, deps_with<AcceptAllTools>()), std::exception);
  EXPECT_EQ(read_transcript(own).events.back()["type"], "result");  // untouched
}

// A harness that rejects every kernel with the given check text.
template <const char* Text, FailureKind Kind>
class RejectingTools : public KernelTools {
 public:
  ToolResult compile_kernel(const std::string&) override { return {false, Text, Kind}; }
  ToolResult verify_kernel(const std::string&) override { return {false, Text, Kind}; }
};

constexpr char kCompileFailure[] =
    "FAIL l1_add_fp32: compile error\n"
    "  kernel.py:3:5: warning[shadowed_tensor]: a warning printed before the error\n"
    "  kernel.py:7:9: error[err_num_partition_exceed_arch_limit]: number of partitions 256 exceeds 128\n"
    "      t = nl.load(x[0:256, :])\n";
constexpr char kMismatch[] =
    "FAIL l1_add_fp32: wrong result on trial 0 (seed 7)\n"
    "  out0 [256, 1024] float32: 12 of 262144 elements differ (0.0046%)\n"
    "    at [0, 3]: expected 1, got 2\n";

TEST_F(SolveTest, FailedVerdictLineShowsTheFirstDiagnostic) {
  std::string example = std::string(NKI_SOURCE_DIR) + "/examples/replays/l1_add_fp32_compile_fix.jsonl";
  SolveOptions o = replay_options("l1_add_fp32", example, out);
  SolveOutcome s = run_solve(o, deps_with<RejectingTools<kCompileFailure, FailureKind::CompileError>>());
  EXPECT_NE(s.result.verdict, VerdictKind::Pass);
  EXPECT_EQ(s.summary.find('\n'), std::string::npos) << "one line: " << s.summary;
  EXPECT_NE(s.summary.find(" first: kernel.py:7:9: error[err_num_partition_exceed_arch_limit]: number of "
                           "partitions 256 exceeds 128"),
            std::string::npos)
      << s.summary;

  fs::remove_all(out);
  o = replay_options("l1_add_fp32", example, out);
  s = run_solve(o, deps_with<RejectingTools<kMismatch, FailureKind::Mismatch>>());
  EXPECT_NE(s.summary.find(" first: out0 [256, 1024] float32: 12 of 262144 elements differ"), std::string::npos)
      << s.summary;
}

TEST_F(SolveTest, PassingVerdictLineHasNoDiagnostic) {
  std::string example = std::string(NKI_SOURCE_DIR) + "/examples/replays/l1_add_fp32_compile_fix.jsonl";
  SolveOutcome s = run_solve(replay_options("l1_add_fp32", example, out), deps_with<AcceptAllTools>());
  EXPECT_EQ(s.summary.find("first:"), std::string::npos) << s.summary;
}

}  // namespace
}  // namespace nki::agent
