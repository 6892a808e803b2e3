// `nkiagent solve`: its option table, usage errors and exit codes, with fake tasks, tools and
// a fake model server (the episode itself is tested in tests/agent/solve_command_test.cpp).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "agent/transcript.h"
#include "cli/cmd_solve.h"
#include "fake_llm_server.h"
#include "test_support.h"

namespace nki::cli {
namespace {

using namespace nki::agent::testing;
using agent::read_transcript;
namespace fs = std::filesystem;

// argv with "solve" first, as the dispatcher passes it.
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

agent::TaskInfo add_task(const std::string& id) {
  agent::TaskInfo t;
  t.id = id;
  t.reference_source = "def forward(a, b): return a + b\n";
  t.inputs = {{"a", "[256, 1024]", "float32"}, {"b", "[256, 1024]", "float32"}};
  t.outputs = {{"out0", "[256, 1024]", "float32"}};
  t.tolerance = "atol=1e-3, rtol=1e-3";
  return t;
}

Command solve_with_marker_tools() {
  return make_solve_command([](const ParsedOptions&) {
    agent::SolveDeps d;
    d.load_task = [](const std::string& id) {
      if (id == "missing") throw std::runtime_error("unknown task 'missing'");
      return add_task(id);
    };
    d.make_tools = [](const std::string&, const std::string&) { return std::make_unique<MarkerTools>(); };
    return d;
  });
}

agent::SolveOptions parse(std::vector<std::string> a) {
  Args args(std::move(a));
  Command c = solve_with_marker_tools();
  return solve_options_from(parse_command_line(c.spec, args.argc(), args.argv()));
}

int run(std::vector<std::string> a) {
  Args args(std::move(a));
  return run_command(solve_with_marker_tools(), args.argc(), args.argv());
}

class SolveCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    out = fs::temp_directory_path() / ("nki_cli_solve_" + std::to_string(::getpid()) + "_" +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
  }
  void TearDown() override { fs::remove_all(out); }
  fs::path out;
};

TEST(SolveOptions, ParsesEveryOptionInBothSpellings) {
  agent::SolveOptions o = parse({"--task", "t1", "--model=openai:gpt-4o", "--mode", "multi-turn", "--max-turns", "4",
                                 "--out", "/tmp/x", "--base-url", "http://h/v1", "--timeout=2.5", "--max-tokens", "100",
                                 "--temperature", "0", "--max-cost", "1.5", "--max-wall", "60", "--prompts", "/p",
                                 "--prices", "/p.json", "--no-prompt-cache"});
  EXPECT_EQ(o.task_id, "t1");
  EXPECT_EQ(o.model_spec, "openai:gpt-4o");
  EXPECT_EQ(o.mode, agent::Mode::MultiTurn);
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
}

TEST(SolveOptions, DefaultsMatchTheLibrary) {
  agent::SolveOptions o = parse({"--task", "t", "--model", "openai:x"});
  agent::SolveOptions library;
  EXPECT_EQ(o.mode, library.mode);
  EXPECT_FALSE(o.mode_given);
  EXPECT_EQ(o.max_turns, library.max_turns);
  EXPECT_DOUBLE_EQ(o.timeout_s, library.timeout_s);
  EXPECT_EQ(o.max_tokens, library.max_tokens);
  EXPECT_FALSE(o.temperature.has_value());
  EXPECT_TRUE(o.prompt_cache);
}

TEST(SolveOptions, RejectsBadCommandLinesWithOneLineMessages) {
  for (auto bad : std::vector<std::vector<std::string>>{
           {"--model", "openai:x"},                                  // no task
           {"--task", "t"},                                          // no model or replay
           {"--task", "t", "--model", "openai:x", "--mode", "chat"},  // bad mode
           {"--task", "t", "--model", "openai:x", "--max-turns", "0"},
           {"--task", "t", "--model", "openai:x", "--max-turns", "2.5"},
           {"--task", "t", "--model", "openai:x", "--timeout", "-1"},
           {"--task", "t", "--model", "openai:x", "--max-tokens", "1e20"},
           {"--task", "t", "--model", "openai:x", "--max-cost", "nan"},
           {"--task", "t", "--model", "openai:x", "--frobnicate", "1"},
           {"--task", "t", "--model", "openai:x", "stray"},
           {"--task"}}) {
    try {
      parse(bad);
      ADD_FAILURE() << "accepted: " << ::testing::PrintToString(bad);
    } catch (const UsageError& e) {
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    }
  }
}

// Issue 17 item 9: the old hand-written parser asked for a value before it looked the name up.
TEST(SolveOptions, UnknownOptionIsReportedAsUnknownNotAsMissingItsValue) {
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(run({"--bogus"}), 2);
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("unknown option --bogus"), std::string::npos) << err;
  EXPECT_EQ(err.find("needs a value"), std::string::npos) << err;
}

TEST_F(SolveCommand, AgentRunOverHttpWritesKernelTranscriptAndResultAndExitsZero) {
  FakeLlmServer server;
  server.push(ok(openai_tool_call_body("c1", "compile_kernel", kBadKernel)));
  server.push(ok(openai_tool_call_body("c2", "verify_kernel", kGoodKernel)));
  server.start();
  setenv("OPENAI_API_KEY", "k-test", 1);
  ::testing::internal::CaptureStdout();
  int rc = run({"--task", "l1_add_fp32", "--model", "openai:gpt-4o", "--base-url", server.base_url(), "--timeout", "5",
                "--out", out.string()});
  std::string stdout_text = ::testing::internal::GetCapturedStdout();
  unsetenv("OPENAI_API_KEY");
  EXPECT_EQ(rc, 0);
  EXPECT_EQ(stdout_text.rfind("PASS pass task=l1_add_fp32 model=openai:gpt-4o mode=agent nki=2.24 turns=2", 0), 0u)
      << stdout_text;
  EXPECT_EQ(std::count(stdout_text.begin(), stdout_text.end(), '\n'), 1);
  EXPECT_EQ(server.requests()[0].headers["authorization"], "Bearer k-test");

  std::ifstream k(out / "kernel.py");
  std::string kernel((std::istreambuf_iterator<char>(k)), {});
  EXPECT_EQ(kernel, kGoodKernel);
  std::ifstream rj(out / "result.json");
  auto result = nlohmann::json::parse(rj);
  EXPECT_EQ(result["verdict"], "pass");
  EXPECT_EQ(result["turns"], 2);
  EXPECT_TRUE(result["usage"]["price_known"]);  // gpt-4o is in prompts/prices.json
  EXPECT_GT(result["usage"]["cost_usd"].get<double>(), 0);
  EXPECT_EQ(read_transcript((out / "transcript.jsonl").string()).events.back()["type"], "result");
}

TEST_F(SolveCommand, FailingKernelExitsOne) {
  FakeLlmServer server;
  server.push(ok(openai_text_body("```python\n" + std::string(kWrongKernel) + "```")));
  server.start();
  setenv("OPENAI_API_KEY", "k", 1);
  ::testing::internal::CaptureStdout();
  int rc = run({"--task", "t", "--model", "openai:gpt-4o", "--mode", "single-shot", "--base-url", server.base_url(),
                "--out", out.string()});
  std::string text = ::testing::internal::GetCapturedStdout();
  unsetenv("OPENAI_API_KEY");
  EXPECT_EQ(rc, 1);
  EXPECT_EQ(text.rfind("FAIL mismatch", 0), 0u) << text;
}

TEST_F(SolveCommand, SetupErrorsExitTwoWithOneLine) {
  unsetenv("ANTHROPIC_API_KEY");
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(run({"--task", "t", "--model", "anthropic:claude-x", "--out", out.string()}), 2);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "nkiagent solve: ANTHROPIC_API_KEY is not set\n");

  ::testing::internal::CaptureStderr();
  EXPECT_EQ(run({"--task", "missing", "--replay", "x.jsonl"}), 2);
  EXPECT_NE(::testing::internal::GetCapturedStderr().find("unknown task 'missing'"), std::string::npos);

  ::testing::internal::CaptureStderr();
  EXPECT_EQ(run({"--task", "t", "--replay", "/nonexistent.jsonl"}), 2);
  EXPECT_NE(::testing::internal::GetCapturedStderr().find("replay"), std::string::npos);

  ::testing::internal::CaptureStderr();
  EXPECT_EQ(run({"--task"}), 2);
  std::string usage = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(usage.find("nkiagent solve: --task needs a value (ID)\n"), std::string::npos) << usage;
  EXPECT_NE(usage.find("usage: nkiagent solve"), std::string::npos) << usage;

  ::testing::internal::CaptureStdout();
  EXPECT_EQ(run({"--help"}), 0);
  EXPECT_NE(::testing::internal::GetCapturedStdout().find("--replay FILE"), std::string::npos);
}

}  // namespace
}  // namespace nki::cli
