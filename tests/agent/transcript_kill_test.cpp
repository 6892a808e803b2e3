// A transcript survives SIGKILL mid-episode: every line written before the kill is complete and
// parseable. Kept in its own binary because it forks.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "agent/agent_loop.h"
#include "agent/openai_client.h"
#include "fake_llm_server.h"
#include "test_support.h"

namespace nki::agent {
namespace {

using namespace nki::agent::testing;
namespace fs = std::filesystem;

// The child's whole life: one agent episode against the parent's server, then _exit.
[[noreturn]] void run_child(const std::string& base_url, const std::string& path) {
  try {
    ClientConfig cfg = fast_config(base_url);
    cfg.timeout_s = 30;  // the parent kills us long before this
    cfg.retry.max_attempts = 1;
    OpenAIClient client(cfg);
    MarkerTools tools;
    TaskInfo task;
    task.id = "kill";
    task.inputs = {{"a", "[128, 128]", "float32"}};
    EpisodePrompts prompts = build_episode_prompts(std::string(NKI_SOURCE_DIR) + "/prompts", task, Mode::Agent, 10);
    EpisodeConfig ec;
    ec.task_id = "kill";
    TranscriptWriter writer(path);
    run_episode(ec, prompts, client, tools, &writer);
  } catch (...) {
  }
  _exit(0);
}

TEST(TranscriptKill, EveryCompletedLineSurvivesSigkillAfterTheSecondResponse) {
  std::string path = (fs::temp_directory_path() / ("nki_agent_kill_" + std::to_string(getpid()) + ".jsonl")).string();
  FakeLlmServer server;  // listening before the fork; its thread starts only in the parent
  server.push(ok(openai_tool_call_body("c1", "compile_kernel", kBadKernel)));
  server.push(ok(openai_tool_call_body("c2", "verify_kernel", kWrongKernel)));
  FakeResponse hang = ok(openai_text_body("never delivered"));
  hang.kind = FakeResponse::Kind::Hang;
  hang.delay_s = 20;
  server.push(hang);

  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) run_child(server.base_url(), path);

  server.start();
  // The third request means the child has handled both responses and logged request 3.
  bool third = server.wait_for_requests(3, 15);
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  server.stop();
  ASSERT_TRUE(third) << "child never sent its third request";
  EXPECT_TRUE(WIFSIGNALED(status));

  TranscriptFile f = read_transcript(path);
  EXPECT_FALSE(f.torn_tail);
  std::vector<std::string> types;
  for (const auto& e : f.events) types.push_back(e["type"]);
  EXPECT_EQ(types, (std::vector<std::string>{"header", "request", "response", "tool_call", "tool_result",
                                             "request", "response", "tool_call", "tool_result", "request"}));
  EXPECT_EQ(f.events[2]["message"]["tool_calls"][0]["id"], "c1");
  EXPECT_EQ(f.events[8]["text"], "MISMATCH: output 0 differs at [0, 0]: got 1.0, expected 2.0");
  EXPECT_EQ(f.events.back()["turn"], 3);
  fs::remove(path);
}

}  // namespace
}  // namespace nki::agent
