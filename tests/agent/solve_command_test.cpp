// `nkiagent solve`: argument parsing, artefacts on disk, exit codes, replay of the shipped example.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "agent/solve_command.h"
#include "fake_llm_server.h"
#include "test_support.h"

namespace nki::agent {
namespace {

using namespace nki::agent::testing;
namespace fs = std::filesystem;

// Builds argv from strings ("solve" first, as the CLI dispatcher passes it).
struct Args {
  explicit Args(std::vector<std::string> a) : store(std::move(a)) {
    store.insert(store.begin(), "solve");
    for (auto& s : store) ptrs.push_back(s.data());
  }
  int argc() { return static_cast<int>(ptrs.size()); }
  char** argv() { return ptrs.data(); }
  std::vector<std::string> store;
  std::vector<char*> ptrs;
};

SolveOptions parse(std::vector<std::string> a) {
  Args args(std::move(a));
  return parse_solve_args(args.argc(), args.argv());
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
  d.make_tools = [](const std::string&) { return std::make_unique<Tools>(); };
  return d;
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
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

TEST(SolveArgs, ParsesEveryOptionInBothSpellings) {
  SolveOptions o = parse({"--task", "t1", "--model=openai:gpt-4o", "--mode", "multi-turn", "--max-turns", "4",
                          "--out", "/tmp/x", "--base-url", "http://h/v1", "--timeout=2.5", "--max-tokens", "100",
                          "--temperature", "0", "--max-cost", "1.5", "--max-wall", "60", "--prompts", "/p", "--prices", "/p.json", "--no-prompt-cache"});
  EXPECT_EQ(o.task_id, "t1");
  EXPECT_EQ(o.model_spec, "openai:gpt-4o");
  EXPECT_EQ(o.mode, Mode::MultiTurn);
  EXPECT_TRUE(o.mode_given);
  EXPECT_EQ(o.max_turns, 4);
  EXPECT_EQ(o.out_dir, "/tmp/x");
  EXPECT_EQ(o.base_url, "http://h/v1");
  EXPECT_DOUBLE_EQ(o.timeout_s, 2.5);
  EXPECT_EQ(o.max_tokens, 100);
  EXPECT_EQ(*o.temperature, 0);
  EXPECT_DOUBLE_EQ(o.max_cost_usd, 1.5);
  EXPECT_DOUBLE_EQ(o.max_wall_s, 60);
  EXPECT_EQ(o.prompts_dir, "/p");
  EXPECT_EQ(o.prices_path, "/p.json");
  EXPECT_FALSE(o.prompt_cache);
  EXPECT_TRUE(parse({"--task", "t", "--model", "openai:x"}).prompt_cache);
  EXPECT_TRUE(parse({"--help"}).help);
}

TEST(SolveArgs, RejectsBadCommandLinesWithOneLineMessages) {
  for (auto bad : std::vector<std::vector<std::string>>{
           {"--model", "openai:x"},                                  // no task
           {"--task", "t"},                                          // no model or replay
           {"--task", "t", "--model", "openai:x", "--mode", "chat"},  // bad mode
           {"--task", "t", "--model", "openai:x", "--max-turns", "0"},
           {"--task", "t", "--model", "openai:x", "--max-turns", "2.5"},
           {"--task", "t", "--model", "openai:x", "--timeout", "-1"},
           {"--task", "t", "--model", "openai:x", "--frobnicate", "1"},
           {"--task", "t", "--model", "openai:x", "stray"},
           {"--task"}}) {
    try {
      parse(bad);
      ADD_FAILURE() << "accepted: " << bad[0];
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    }
  }
}

TEST_F(SolveTest, AgentRunOverHttpWritesKernelTranscriptAndResultAndExitsZero) {
  FakeLlmServer server;
  server.push(ok(openai_tool_call_body("c1", "compile_kernel", kBadKernel)));
  server.push(ok(openai_tool_call_body("c2", "verify_kernel", kGoodKernel)));
  server.start();
  setenv("OPENAI_API_KEY", "k-test", 1);
  Args args({"--task", "l1_add_fp32", "--model", "openai:gpt-4o", "--base-url", server.base_url(),
             "--timeout", "5", "--out", out.string()});
  ::testing::internal::CaptureStdout();
  int rc = cmd_solve(args.argc(), args.argv(), deps_with<MarkerTools>());
  std::string stdout_text = ::testing::internal::GetCapturedStdout();
  unsetenv("OPENAI_API_KEY");
  EXPECT_EQ(rc, 0);
  EXPECT_EQ(stdout_text.rfind("PASS pass task=l1_add_fp32 model=openai:gpt-4o mode=agent turns=2", 0), 0u)
      << stdout_text;
  EXPECT_EQ(std::count(stdout_text.begin(), stdout_text.end(), '\n'), 1);
  EXPECT_EQ(server.requests()[0].headers["authorization"], "Bearer k-test");

  std::ifstream k(out / "kernel.py");
  std::string kernel((std::istreambuf_iterator<char>(k)), {});
  EXPECT_EQ(kernel, kGoodKernel);
  auto result = read_json((out / "result.json").string());
  EXPECT_EQ(result["verdict"], "pass");
  EXPECT_EQ(result["turns"], 2);
  EXPECT_TRUE(result["usage"]["price_known"]);  // gpt-4o is in prompts/prices.json
  EXPECT_GT(result["usage"]["cost_usd"].get<double>(), 0);
  EXPECT_EQ(read_transcript((out / "transcript.jsonl").string()).events.back()["type"], "result");
}

TEST_F(SolveTest, FailingKernelExitsOne) {
  FakeLlmServer server;
  server.push(ok(openai_text_body("```python\n" + std::string(kWrongKernel) + "```")));
  server.start();
  setenv("OPENAI_API_KEY", "k", 1);
  Args args({"--task", "t", "--model", "openai:gpt-4o", "--mode", "single-shot", "--base-url",
             server.base_url(), "--out", out.string()});
  ::testing::internal::CaptureStdout();
  int rc = cmd_solve(args.argc(), args.argv(), deps_with<MarkerTools>());
  std::string text = ::testing::internal::GetCapturedStdout();
  unsetenv("OPENAI_API_KEY");
  EXPECT_EQ(rc, 1);
  EXPECT_EQ(text.rfind("FAIL mismatch", 0), 0u) << text;
}

TEST_F(SolveTest, SetupErrorsExitTwoWithOneLine) {
  unsetenv("ANTHROPIC_API_KEY");
  Args no_key({"--task", "t", "--model", "anthropic:claude-x", "--out", out.string()});
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(cmd_solve(no_key.argc(), no_key.argv(), deps_with<MarkerTools>()), 2);
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(err, "nkiagent solve: ANTHROPIC_API_KEY is not set\n");

  Args missing_task({"--task", "missing", "--replay", "x.jsonl"});
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(cmd_solve(missing_task.argc(), missing_task.argv(), deps_with<MarkerTools>()), 2);
  EXPECT_NE(::testing::internal::GetCapturedStderr().find("unknown task 'missing'"), std::string::npos);

  Args bad_replay({"--task", "t", "--replay", "/nonexistent.jsonl"});
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(cmd_solve(bad_replay.argc(), bad_replay.argv(), deps_with<MarkerTools>()), 2);
  EXPECT_NE(::testing::internal::GetCapturedStderr().find("replay"), std::string::npos);

  Args usage({"--task"});
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(cmd_solve(usage.argc(), usage.argv(), deps_with<MarkerTools>()), 2);
  EXPECT_NE(::testing::internal::GetCapturedStderr().find("usage: nkiagent solve"), std::string::npos);

  Args help({"--help"});
  ::testing::internal::CaptureStdout();
  EXPECT_EQ(cmd_solve(help.argc(), help.argv(), deps_with<MarkerTools>()), 0);
  EXPECT_NE(::testing::internal::GetCapturedStdout().find("--replay FILE"), std::string::npos);
}

TEST_F(SolveTest, ShippedExampleReplaysInTwoTurnsInItsRecordedMode) {
  std::string example = std::string(NKI_SOURCE_DIR) + "/examples/replays/l1_add_fp32_compile_fix.jsonl";
  auto events = read_transcript(example).events;
  ASSERT_FALSE(events.empty());
  EXPECT_NE(events[0]["note"].get<std::string>().find("SCRIPTED"), std::string::npos);

  SolveOptions o = parse({"--task", "l1_add_fp32", "--replay", example, "--out", out.string()});
  SolveOutcome s = run_solve(o, deps_with<AcceptAllTools>());
  EXPECT_EQ(s.result.verdict, Verdict::Pass);
  EXPECT_EQ(s.result.turns, 2);
  EXPECT_EQ(s.result.tool_calls, 2);
  EXPECT_NE(s.result.final_kernel.find("nl.affine_range(rows // 128)"), std::string::npos);
  EXPECT_NE(s.summary.find("model=anthropic:claude-sonnet-4"), std::string::npos) << s.summary;
  EXPECT_NE(s.summary.find("mode=agent"), std::string::npos);
}

TEST_F(SolveTest, ReplayRefusesToOverwriteItsOwnTranscript) {
  std::string example = std::string(NKI_SOURCE_DIR) + "/examples/replays/l1_add_fp32_compile_fix.jsonl";
  SolveOptions first = parse({"--task", "l1_add_fp32", "--replay", example, "--out", out.string()});
  run_solve(first, deps_with<AcceptAllTools>());
  std::string own = (out / "transcript.jsonl").string();
  SolveOptions again = parse({"--task", "l1_add_fp32", "--replay", own, "--out", out.string()});
  EXPECT_THROW(run_solve(again, deps_with<AcceptAllTools>()), std::exception);
  EXPECT_EQ(read_transcript(own).events.back()["type"], "result");  // untouched
}

}  // namespace
}  // namespace nki::agent
