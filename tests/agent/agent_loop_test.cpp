// The episode loop in each mode, end to end over real HTTP against the fake server (both
// protocols) and offline with scripted replies; transcripts and replay.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "agent/agent_loop.h"
#include "agent/anthropic_client.h"
#include "agent/openai_client.h"
#include "agent/replay_client.h"
#include "agent/task_episode.h"
#include "base/diagnostic.h"
#include "fake_llm_server.h"
#include "test_support.h"

namespace nki::agent {
namespace {

using namespace nki::agent::testing;
namespace fs = std::filesystem;

TaskInfo add_task() {
  TaskInfo t;
  t.id = "l1_add_fp32";
  t.reference_source = "class Model(nn.Module):\n    def forward(self, a, b):\n        return a + b\n";
  t.inputs = {{"a", "[256, 1024]", "float32"}, {"b", "[256, 1024]", "float32"}};
  t.outputs = {{"out0", "[256, 1024]", "float32"}};
  t.tolerance = "atol=1e-3, rtol=1e-3";
  return t;
}

std::string fenced(const std::string& code) { return "Here is the kernel:\n```python\n" + code + "```\n"; }

ModelReply text_reply(const std::string& content) {
  ModelReply r;
  r.message = {Role::Assistant, content, {}, "", "", false};
  r.usage.calls = 1;
  r.usage.input_tokens = 10;
  r.usage.output_tokens = 5;
  r.usage.cost_usd = 0.01;
  return r;
}

ModelReply tool_reply(const std::string& id, const std::string& name, const std::string& code) {
  ModelReply r = text_reply("");
  r.message.tool_calls.push_back({id, name, nlohmann::json({{"code", code}}).dump()});
  return r;
}

class AgentLoopTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("nki_agent_loop_" + std::to_string(::getpid()) + "_" +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }

  EpisodeResult run(ModelClient& client, Mode mode, int max_turns, const std::string& transcript = "") {
    EpisodeConfig cfg;
    cfg.mode = mode;
    cfg.max_turns = max_turns;
    cfg.task_id = "l1_add_fp32";
    cfg.max_cost_usd = max_cost;
    EpisodePrompts p = build_episode_prompts(std::string(NKI_SOURCE_DIR) + "/prompts", add_task(), mode, max_turns);
    if (transcript.empty()) return run_episode(cfg, p, client, tools, nullptr);
    TranscriptWriter w(transcript);
    return run_episode(cfg, p, client, tools, &w);
  }

  std::vector<std::string> event_types(const std::string& path) {
    std::vector<std::string> types;
    for (const auto& e : read_transcript(path).events) types.push_back(e["type"]);
    return types;
  }

  fs::path dir;
  MarkerTools tools;
  double max_cost = 0;
};

TEST_F(AgentLoopTest, OpenAIAgentRepairsACompileErrorAndPassesOverHttp) {
  FakeLlmServer server;
  server.push(ok(openai_tool_call_body("call_1", "compile_kernel", kBadKernel)));
  server.push(ok(openai_tool_call_body("call_2", "verify_kernel", kGoodKernel)));
  server.start();
  OpenAIClient client(fast_config(server.base_url(), "gpt-4o"));
  std::string path = (dir / "t.jsonl").string();

  EpisodeResult r = run(client, Mode::Agent, 10, path);
  EXPECT_EQ(r.verdict, VerdictKind::Pass);
  EXPECT_STREQ(stop_reason_name(r.stop_reason), "verified");
  EXPECT_EQ(r.turns, 2);
  EXPECT_EQ(r.pass_turn, 2);
  EXPECT_EQ(r.tool_calls, 2);
  EXPECT_EQ(r.final_kernel, kGoodKernel);
  EXPECT_EQ(r.usage.input_tokens, 200);
  EXPECT_EQ(tools.verifies, 1);  // one verify_kernel tool call
  EXPECT_EQ(tools.finals, 1);    // and the harness's own final verdict (held-out trials)
  ASSERT_EQ(r.turn_log.size(), 2u);
  EXPECT_EQ(r.turn_log[0].action, "compile");
  EXPECT_EQ(r.turn_log[0].result, "compile_error");
  EXPECT_EQ(r.turn_log[1].result, "ok");

  // The second request carries the compile error back as a tool message for call_1.
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 2u);
  auto body = nlohmann::json::parse(reqs[1].body);
  EXPECT_EQ(body["tools"].size(), 2u);
  const auto& last = body["messages"].back();
  EXPECT_EQ(last["role"], "tool");
  EXPECT_EQ(last["tool_call_id"], "call_1");
  EXPECT_NE(last["content"].get<std::string>().find("error[syntax]"), std::string::npos);

  EXPECT_EQ(event_types(path),
            (std::vector<std::string>{"header", "request", "response", "tool_call", "tool_result",
                                      "request", "response", "tool_call", "tool_result",
                                      "harness_check", "result"}));
  auto events = read_transcript(path).events;
  EXPECT_EQ(events.back()["verdict"], "pass");
  EXPECT_EQ(events.back()["final_kernel"], kGoodKernel);
  EXPECT_EQ(events[0]["model"], "openai:gpt-4o");
  EXPECT_EQ(events[2]["usage"]["input_tokens"], 100);
  for (size_t i = 0; i < events.size(); ++i) EXPECT_EQ(events[i]["seq"], i);
}

TEST_F(AgentLoopTest, AnthropicAgentSendsToolResultBlocksAndPasses) {
  FakeLlmServer server;
  server.push(ok(anthropic_tool_use_body("toolu_1", "verify_kernel", kWrongKernel)));
  server.push(ok(anthropic_tool_use_body("toolu_2", "verify_kernel", kGoodKernel)));
  server.start();
  AnthropicClient client(fast_config(server.base_url(), "claude-test"));
  EpisodeResult r = run(client, Mode::Agent, 10);
  EXPECT_EQ(r.verdict, VerdictKind::Pass);
  EXPECT_EQ(r.turns, 2);

  auto body = nlohmann::json::parse(server.requests()[1].body);
  const auto& msgs = body["messages"];
  ASSERT_EQ(msgs.size(), 3u);
  EXPECT_EQ(msgs[1]["role"], "assistant");
  EXPECT_EQ(msgs[1]["content"][1]["type"], "tool_use");
  EXPECT_EQ(msgs[2]["content"][0]["type"], "tool_result");
  EXPECT_EQ(msgs[2]["content"][0]["tool_use_id"], "toolu_1");
  EXPECT_EQ(msgs[2]["content"][0]["is_error"], true);
  EXPECT_NE(msgs[2]["content"][0]["content"].get<std::string>().find("MISMATCH"), std::string::npos);
  EXPECT_EQ(body["tools"][1]["name"], "verify_kernel");
}

TEST_F(AgentLoopTest, AgentRunsOutOfTurnsAndTheHarnessJudgesTheLastKernel) {
  ReplayClient client({tool_reply("1", "compile_kernel", kWrongKernel),
                       tool_reply("2", "compile_kernel", kWrongKernel),
                       tool_reply("3", "compile_kernel", kBadKernel)}, "scripted");
  EpisodeResult r = run(client, Mode::Agent, 3);
  EXPECT_STREQ(stop_reason_name(r.stop_reason), "max_turns");
  EXPECT_EQ(r.turns, 3);
  EXPECT_EQ(r.verdict, VerdictKind::CompileError);  // the last kernel submitted, not the best one
  EXPECT_EQ(r.final_kernel, kBadKernel);
  EXPECT_EQ(r.final_check.code, "syntax");
}

TEST_F(AgentLoopTest, AgentProseAnswerIsVerifiedByTheHarnessAndFedBack) {
  ReplayClient client({text_reply(fenced(kWrongKernel)), text_reply(fenced(kGoodKernel))}, "scripted");
  std::string path = (dir / "t.jsonl").string();
  EpisodeResult r = run(client, Mode::Agent, 5, path);
  EXPECT_EQ(r.verdict, VerdictKind::Pass);
  EXPECT_EQ(r.turns, 2);
  EXPECT_EQ(r.pass_turn, 2);
  auto events = read_transcript(path).events;
  // Turn 2's request carries the harness feedback with the mismatch text.
  std::string feedback = events[4]["new_messages"][0]["content"];
  EXPECT_EQ(events[4]["type"], "request");
  EXPECT_NE(feedback.find("MISMATCH"), std::string::npos) << feedback;
}

TEST_F(AgentLoopTest, BadToolCallsAreAnsweredAndTheEpisodeContinues) {
  ModelReply bad_args = text_reply("");
  bad_args.message.tool_calls.push_back({"a", "compile_kernel", "{not json"});
  bad_args.message.tool_calls.push_back({"b", "run_shell", R"({"code":"ls"})"});
  ReplayClient client({bad_args, tool_reply("c", "verify_kernel", kGoodKernel)}, "scripted");
  std::string path = (dir / "t.jsonl").string();
  EpisodeResult r = run(client, Mode::Agent, 5, path);
  EXPECT_EQ(r.verdict, VerdictKind::Pass);
  EXPECT_EQ(r.turn_log[0].result, "bad_call");
  int errors = 0;
  for (const auto& e : read_transcript(path).events)
    if (e["type"] == "tool_result" && !e["passed"].get<bool>()) ++errors;
  EXPECT_EQ(errors, 2);
}

TEST_F(AgentLoopTest, MultiTurnUsesEveryTurnWithoutToolsAndGradesTheLastKernel) {
  FakeLlmServer server;
  server.push(ok(openai_text_body(fenced(kWrongKernel))));
  server.push(ok(openai_text_body(fenced(kGoodKernel))));
  server.push(ok(openai_text_body("Looks right to me; no changes.")));
  server.start();
  OpenAIClient client(fast_config(server.base_url()));
  EpisodeResult r = run(client, Mode::MultiTurn, 3);
  EXPECT_EQ(r.turns, 3);
  EXPECT_STREQ(stop_reason_name(r.stop_reason), "max_turns");
  EXPECT_EQ(r.verdict, VerdictKind::Pass);  // turn 3 had no code: turn 2's kernel is final
  EXPECT_EQ(r.kernel_turn, 2);
  EXPECT_EQ(tools.verifies, 0);          // no feedback: the model never sees a check
  EXPECT_EQ(tools.finals, 1);            // only the harness's final verdict
  for (const auto& req : server.requests())
    EXPECT_FALSE(nlohmann::json::parse(req.body).contains("tools"));
  auto body = nlohmann::json::parse(server.requests()[1].body);
  EXPECT_NE(body["messages"].back()["content"].get<std::string>().find("Review"), std::string::npos);
}

TEST_F(AgentLoopTest, KernelThatPassesTheVerifyToolButNotTheFinalVerdictIsAMismatch) {
  // A kernel that memorised the public trials: the verify tool passes it, the final verdict's
  // held-out trials do not. The episode must not count as passed, nor keep a pass turn.
  const std::string memorised = std::string(kGoodKernel) + "\n# MEMORISED\n";
  ReplayClient client({tool_reply("c1", "verify_kernel", memorised)}, "scripted");
  EpisodeResult r = run(client, Mode::Agent, 5);
  EXPECT_STREQ(stop_reason_name(r.stop_reason), "verified");
  EXPECT_EQ(r.verdict, VerdictKind::Mismatch);
  EXPECT_EQ(r.pass_turn, 0);
  EXPECT_EQ(tools.verifies, 1);
  EXPECT_EQ(tools.finals, 1);
  EXPECT_NE(r.final_check.text.find("held-out"), std::string::npos);
}

TEST_F(AgentLoopTest, MultiTurnFinalKernelIsTheLatestEvenIfWorse) {
  ReplayClient client({text_reply(fenced(kGoodKernel)), text_reply(fenced(kWrongKernel))}, "scripted");
  EpisodeResult r = run(client, Mode::MultiTurn, 2);
  EXPECT_EQ(r.verdict, VerdictKind::Mismatch);
  EXPECT_EQ(r.final_kernel, kWrongKernel);
}

TEST_F(AgentLoopTest, SingleShotMakesExactlyOneCall) {
  FakeLlmServer server;
  server.push(ok(anthropic_text_body(fenced(kGoodKernel))));
  server.start();
  AnthropicClient client(fast_config(server.base_url()));
  EpisodeResult r = run(client, Mode::SingleShot, 10);
  EXPECT_EQ(r.verdict, VerdictKind::Pass);
  EXPECT_EQ(r.turns, 1);
  EXPECT_STREQ(stop_reason_name(r.stop_reason), "answered");
  EXPECT_EQ(server.request_count(), 1u);
  EXPECT_FALSE(nlohmann::json::parse(server.requests()[0].body).contains("tools"));
}

TEST_F(AgentLoopTest, SingleShotWithoutCodeIsNoCode) {
  ReplayClient client({text_reply("I cannot write this kernel.")}, "scripted");
  EpisodeResult r = run(client, Mode::SingleShot, 10);
  EXPECT_EQ(r.verdict, VerdictKind::NoCode);
  EXPECT_EQ(r.turns, 1);
  EXPECT_EQ(tools.verifies, 0);
}

TEST_F(AgentLoopTest, RepliesWithoutCodeCountAsTurns) {
  ReplayClient client({text_reply("thinking..."), text_reply("still thinking"), text_reply("hmm")}, "scripted");
  EpisodeResult r = run(client, Mode::Agent, 3);
  EXPECT_EQ(r.verdict, VerdictKind::NoCode);
  EXPECT_EQ(r.turns, 3);
  EXPECT_EQ(r.turn_log[1].result, "no_code");
}

TEST_F(AgentLoopTest, ApiErrorMidEpisodeStopsWithApiErrorButStillJudgesTheKernel) {
  FakeLlmServer server;
  server.push(ok(openai_tool_call_body("c1", "compile_kernel", kWrongKernel)));
  server.push(status(401, R"({"error":{"message":"key revoked"}})"));
  server.start();
  OpenAIClient client(fast_config(server.base_url()));
  std::string path = (dir / "t.jsonl").string();
  EpisodeResult r = run(client, Mode::Agent, 10, path);
  EXPECT_EQ(r.verdict, VerdictKind::ApiError);
  EXPECT_STREQ(stop_reason_name(r.stop_reason), "api_error");
  EXPECT_EQ(r.turns, 2);
  EXPECT_NE(r.error.find("key revoked"), std::string::npos);
  EXPECT_EQ(tools.finals, 1);
  auto types = event_types(path);
  EXPECT_NE(std::find(types.begin(), types.end(), "model_error"), types.end());
}

TEST_F(AgentLoopTest, ApiErrorAfterAPassingKernelStillPasses) {
  // Multi-turn: the kernel from turn 1 passes even though turn 2's call failed.
  FakeLlmServer server;
  server.push(ok(openai_text_body(fenced(kGoodKernel))));
  server.push(ok("garbage"));
  server.start();
  OpenAIClient client(fast_config(server.base_url()));
  EpisodeResult r = run(client, Mode::MultiTurn, 3);
  EXPECT_EQ(r.verdict, VerdictKind::Pass);
  EXPECT_STREQ(stop_reason_name(r.stop_reason), "api_error");
}

TEST_F(AgentLoopTest, CostBudgetStopsTheEpisode) {
  max_cost = 0.015;  // each scripted reply costs 0.01
  ReplayClient client({tool_reply("1", "compile_kernel", kWrongKernel), tool_reply("2", "compile_kernel", kWrongKernel),
                       tool_reply("3", "compile_kernel", kWrongKernel)}, "scripted");
  EpisodeResult r = run(client, Mode::Agent, 10);
  EXPECT_EQ(r.turns, 2);
  EXPECT_STREQ(stop_reason_name(r.stop_reason), "cost_budget");
  EXPECT_EQ(r.verdict, VerdictKind::BudgetExhausted);
  EXPECT_NEAR(r.usage.cost_usd, 0.02, 1e-12);
}

TEST_F(AgentLoopTest, WallTimeBudgetStopsBeforeTheNextCall) {
  ReplayClient client({text_reply("no code yet")}, "scripted");
  EpisodeConfig cfg;
  cfg.max_wall_s = 1e-9;  // already spent when the first call is due
  EpisodePrompts p = build_episode_prompts(std::string(NKI_SOURCE_DIR) + "/prompts", add_task(), Mode::Agent, 10);
  EpisodeResult r = run_episode(cfg, p, client, tools, nullptr);
  EXPECT_EQ(r.turns, 0);
  EXPECT_STREQ(stop_reason_name(r.stop_reason), "time_budget");
  EXPECT_EQ(r.verdict, VerdictKind::BudgetExhausted);
  EXPECT_EQ(client.remaining(), 1u);
}

TEST_F(AgentLoopTest, ReplayOfARecordedEpisodeReproducesItOffline) {
  FakeLlmServer server;
  server.push(ok(openai_tool_call_body("call_1", "compile_kernel", kBadKernel)));
  server.push(ok(openai_text_body(fenced(kWrongKernel))));
  server.push(ok(openai_tool_call_body("call_3", "verify_kernel", kGoodKernel)));
  server.start();
  OpenAIClient client(fast_config(server.base_url(), "gpt-4o"));
  std::string recorded = (dir / "recorded.jsonl").string();
  EpisodeResult live = run(client, Mode::Agent, 10, recorded);
  server.stop();  // the replay must not need the network

  auto replay = ReplayClient::from_transcript(recorded);
  EXPECT_EQ(replay->recorded_model(), "openai:gpt-4o");
  EXPECT_EQ(replay->remaining(), 3u);
  std::string replayed = (dir / "replayed.jsonl").string();
  EpisodeResult again = run(*replay, Mode::Agent, 10, replayed);
  EXPECT_EQ(again.verdict, live.verdict);
  EXPECT_EQ(again.turns, live.turns);
  EXPECT_EQ(again.final_kernel, live.final_kernel);
  EXPECT_EQ(again.usage.input_tokens, live.usage.input_tokens);
  EXPECT_EQ(event_types(replayed), event_types(recorded));
}

TEST_F(AgentLoopTest, ReplayThatRunsOutIsAnApiErrorNotACrash) {
  ReplayClient client({tool_reply("1", "compile_kernel", kWrongKernel)}, "scripted");
  EpisodeResult r = run(client, Mode::Agent, 5);
  EXPECT_STREQ(stop_reason_name(r.stop_reason), "api_error");
  EXPECT_NE(r.error.find("exhausted"), std::string::npos);
  EXPECT_EQ(r.verdict, VerdictKind::ApiError);
}

TEST_F(AgentLoopTest, TaskEpisodeRendersPromptsAndWritesTheTranscript) {
  ReplayClient client({tool_reply("1", "verify_kernel", kGoodKernel)}, "scripted");
  TaskEpisode e;
  e.task = add_task();
  e.prompts_dir = std::string(NKI_SOURCE_DIR) + "/prompts";
  e.transcript_path = (dir / "t.jsonl").string();
  e.model_label = "openai:gpt-4o";
  e.note = "unit test";
  EpisodeResult r = run_task_episode(e, client, tools);
  EXPECT_EQ(r.verdict, VerdictKind::Pass);
  auto events = read_transcript(e.transcript_path).events;
  EXPECT_EQ(events[0]["model"], "openai:gpt-4o");
  EXPECT_EQ(events[0]["note"], "unit test");
  EXPECT_NE(events[1]["new_messages"][0]["content"].get<std::string>().find("def kernel(a, b):"), std::string::npos);

  e.prompts_dir = "/nonexistent";
  EXPECT_THROW(run_task_episode(e, client, tools), IoError);
}

TEST(ReplayClientTest, BadFilesAreReplayErrors) {
  EXPECT_THROW(ReplayClient::from_transcript("/nonexistent.jsonl"), ModelError);
  std::string path = (fs::temp_directory_path() / "nki_agent_empty_replay.jsonl").string();
  { TranscriptWriter w(path); w.write("header", {{"model", "x"}}); }
  try {
    ReplayClient::from_transcript(path);
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_EQ(e.kind(), ModelErrorKind::Replay);
  }
  fs::remove(path);
}

TEST(TranscriptTest, TornFinalLineIsToleratedButABadMiddleLineIsNot) {
  std::string path = (fs::temp_directory_path() / "nki_agent_torn.jsonl").string();
  { TranscriptWriter w(path); w.write("header", {}); w.write("request", {{"turn", 1}}); }
  { std::ofstream(path, std::ios::app) << "{\"v\":1,\"seq\":2,\"ty"; }
  TranscriptFile f = read_transcript(path);
  EXPECT_EQ(f.events.size(), 2u);
  EXPECT_TRUE(f.torn_tail);
  { std::ofstream(path, std::ios::app) << "\n{\"v\":1}\n"; }
  EXPECT_THROW(read_transcript(path), IoError);
  fs::remove(path);
}

}  // namespace
}  // namespace nki::agent
