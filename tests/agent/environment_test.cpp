// The tool box and the reset/step environment on their own, and a third tool registered through
// KernelTools::extra_tools reaching the model and the loop without any loop change.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "agent/agent_loop.h"
#include "agent/environment.h"
#include "agent/replay_client.h"
#include "agent/toolbox.h"
#include "test_support.h"

namespace nki::agent {
namespace {

using namespace nki::agent::testing;

TaskInfo add_task() {
  TaskInfo t;
  t.id = "l1_add_fp32";
  t.reference_source = "class Model(nn.Module):\n    def forward(self, a, b):\n        return a + b\n";
  t.inputs = {{"a", "[256, 1024]", "float32"}, {"b", "[256, 1024]", "float32"}};
  t.outputs = {{"out0", "[256, 1024]", "float32"}};
  t.tolerance = "atol=1e-3, rtol=1e-3";
  return t;
}

EpisodePrompts prompts(Mode mode, int turns) {
  return build_episode_prompts(std::string(NKI_SOURCE_DIR) + "/prompts", add_task(), mode, turns);
}

Message tool_call(const std::string& name, const std::string& code) {
  Message m{Role::Assistant, "", {}, "", "", false};
  m.tool_calls.push_back({"c1", name, nlohmann::json({{"code", code}}).dump()});
  return m;
}

// MarkerTools plus a profiler: one registration, no loop edit.
struct ProfilingTools : MarkerTools {
  std::vector<KernelTool> extra_tools() override {
    KernelTool t;
    t.spec = {"profile_kernel", "Estimate the kernel's latency.", kernel_code_schema()};
    t.action = "profile";
    t.run = [this](const std::string& code) {
      ++profiles;
      return ToolResult(true, "latency: " + std::to_string(code.size()) + " us");
    };
    return {t};
  }
  int profiles = 0;
};

// MarkerTools with a latency per kernel: "LAT=<ns>" in the source (none: no estimate).
struct TimedTools : MarkerTools {
  std::optional<double> estimate_latency(const std::string& code) override {
    size_t p = code.find("LAT=");
    if (p == std::string::npos) return std::nullopt;
    return std::stod(code.substr(p + 4));
  }
};

EpisodePrompts optimize_prompts(int turns, const std::string& start) {
  TaskInfo t = add_task();
  t.start_kernel = start;
  t.start_note = "It passes verification.";
  return build_episode_prompts(std::string(NKI_SOURCE_DIR) + "/prompts", t, Mode::Optimize, turns);
}

TEST(Environment, OptimizeKeepsTheFastestVerifiedKernel) {
  TimedTools tools;
  const std::string start = "PASS_MARKER LAT=1000";
  Environment env(Mode::Optimize, 6, optimize_prompts(6, start), tools);
  Conversation c = env.reset();
  EXPECT_FALSE(c.tools.empty());
  EXPECT_NE(c.messages[0].content.find(start), std::string::npos);  // the task shows the start kernel
  for (const ToolSpec& spec : c.tools) {
    if (spec.name == "verify_kernel") {
      EXPECT_NE(spec.description.find("does not end the task"), std::string::npos);
    }
  }
  // A faster passing kernel is kept and the episode goes on.
  StepResult s1 = env.step(tool_call("verify_kernel", "PASS_MARKER LAT=400"));
  EXPECT_FALSE(s1.done);
  EXPECT_EQ(env.final_kernel(), "PASS_MARKER LAT=400");
  // Slower passing, faster failing and unverified kernels never replace it.
  env.step(tool_call("verify_kernel", "PASS_MARKER LAT=700"));
  env.step(tool_call("verify_kernel", "wrong LAT=10"));
  env.step(tool_call("compile_kernel", "PASS_MARKER LAT=5"));
  EXPECT_EQ(env.final_kernel(), "PASS_MARKER LAT=400");
  // A reply with neither a tool call nor code ends it.
  StepResult done = env.step({Role::Assistant, "I cannot make it faster.", {}, "", "", false});
  EXPECT_TRUE(done.done);
  EXPECT_EQ(done.stop, StopReason::Answered);
  Judgement j = env.finish(done.stop, 5);
  EXPECT_EQ(j.verdict, VerdictKind::Pass);
  EXPECT_EQ(j.final_kernel, "PASS_MARKER LAT=400");
  EXPECT_EQ(j.kernel_turn, 1);
  EXPECT_EQ(j.pass_turn, 1);
}

// The real failure (issue 29): after verifying a faster kernel the model sends its final answer
// as text with the kernel in a code block. That ends the episode at once, `answered`, with the
// fastest verified kernel as the answer; the text's kernel is not verified, nor fed back with
// "Fix the kernel", and a faster but unverified kernel in it does not count.
TEST(Environment, OptimizeEndsOnATextAnswerWhateverItHolds) {
  for (const std::string& final_text :
       {std::string("Done. The final kernel:\n```python\nPASS_MARKER LAT=400\n```\n"),
        std::string("Done; this one is faster still:\n```python\nPASS_MARKER LAT=10\n```\n"),
        std::string("Done:\n```python\nwrong LAT=10\n```\n")}) {
    TimedTools tools;
    const std::string start = "PASS_MARKER LAT=1000";
    Environment env(Mode::Optimize, 6, optimize_prompts(6, start), tools);
    env.reset();
    env.step(tool_call("verify_kernel", "PASS_MARKER LAT=400"));
    int verifies = tools.verifies;
    StepResult done = env.step({Role::Assistant, final_text, {}, "", "", false});
    EXPECT_TRUE(done.done) << final_text;
    EXPECT_EQ(done.stop, StopReason::Answered) << final_text;
    EXPECT_TRUE(done.messages.empty()) << final_text;  // no follow-up: nothing more is asked
    EXPECT_EQ(done.action, "answer");
    EXPECT_EQ(done.result, "done");
    EXPECT_EQ(tools.verifies, verifies) << final_text;  // the text's kernel is not checked
    Judgement j = env.finish(done.stop, 2);
    EXPECT_EQ(j.verdict, VerdictKind::Pass) << final_text;
    EXPECT_EQ(j.final_kernel, "PASS_MARKER LAT=400") << final_text;
    EXPECT_EQ(j.kernel_turn, 1);
    EXPECT_EQ(j.pass_turn, 1);
  }
  // Before anything beat the start, a text answer ends the episode with the starting kernel.
  TimedTools tools;
  Environment env(Mode::Optimize, 6, optimize_prompts(6, "PASS_MARKER LAT=1000"), tools);
  StepResult done = env.step({Role::Assistant, "```python\nPASS_MARKER LAT=5\n```", {}, "", "", false});
  EXPECT_EQ(done.stop, StopReason::Answered);
  Judgement j = env.finish(done.stop, 1);
  EXPECT_EQ(j.final_kernel, "PASS_MARKER LAT=1000");
  EXPECT_EQ(j.kernel_turn, 0);
}

// The same through run_episode with a scripted model: 2 model calls, stop `answered` (before
// issue 29: a "Fix the kernel" follow-up, and a model that had finished ran on to max_turns).
TEST(Environment, OptimizeEpisodeWithAFinalTextAnswerStopsAnswered) {
  TimedTools tools;
  std::vector<ModelReply> replies(3);
  replies[0].message = tool_call("verify_kernel", "PASS_MARKER LAT=400");
  replies[1].message = {Role::Assistant, "It passes and is faster. Final kernel:\n```python\nPASS_MARKER LAT=400\n```\n",
                        {}, "", "", false};
  replies[2].message = {Role::Assistant, "Nothing more to add.", {}, "", "", false};  // never asked for
  ReplayClient model(replies, "scripted");
  EpisodeConfig cfg;
  cfg.mode = Mode::Optimize;
  cfg.max_turns = 6;
  EpisodeResult r = run_episode(cfg, optimize_prompts(6, "PASS_MARKER LAT=1000"), model, tools, nullptr);
  EXPECT_EQ(r.stop_reason, StopReason::Answered);
  EXPECT_STREQ(stop_reason_name(r.stop_reason), "answered");
  EXPECT_EQ(r.turns, 2);
  EXPECT_EQ(r.verdict, VerdictKind::Pass);
  EXPECT_EQ(r.final_kernel, "PASS_MARKER LAT=400");
  EXPECT_EQ(r.pass_turn, 1);
  EXPECT_EQ(tools.verifies, 1);
}

// Agent mode: a pass ends the episode, so a text reply comes before any kernel passed. Its
// kernel is checked by the harness (docs/agent.md): a pass ends the episode `verified` with no
// further prompt; a failure is sent back with the repair prompt; no code gets the reminder.
TEST(Environment, AgentTextAnswerIsCheckedAndEndsTheEpisodeWhenItPasses) {
  MarkerTools tools;
  Environment env(Mode::Agent, 5, prompts(Mode::Agent, 5), tools);
  env.reset();
  env.step(tool_call("verify_kernel", kWrongKernel));
  StepResult none = env.step({Role::Assistant, "Let me think about the layout.", {}, "", "", false});
  EXPECT_FALSE(none.done);
  EXPECT_EQ(none.result, "no_code");
  ASSERT_EQ(none.messages.size(), 1u);
  EXPECT_NE(none.messages[0].content.find("contained no kernel code"), std::string::npos);
  StepResult wrong = env.step({Role::Assistant, "```python\n" + std::string(kWrongKernel) + "```", {}, "", "", false});
  EXPECT_FALSE(wrong.done);
  EXPECT_EQ(wrong.result, "mismatch");
  ASSERT_EQ(wrong.messages.size(), 1u);
  EXPECT_NE(wrong.messages[0].content.find("MISMATCH"), std::string::npos);
  EXPECT_NE(wrong.messages[0].content.find("Fix the kernel"), std::string::npos);
  StepResult good = env.step({Role::Assistant, "Final:\n```python\n" + std::string(kGoodKernel) + "```", {}, "", "", false});
  EXPECT_TRUE(good.done);
  EXPECT_EQ(good.stop, StopReason::Verified);
  EXPECT_TRUE(good.messages.empty());
  Judgement j = env.finish(good.stop, 4);
  EXPECT_EQ(j.verdict, VerdictKind::Pass);
  EXPECT_EQ(j.pass_turn, 4);
  EXPECT_EQ(j.final_kernel, kGoodKernel);
}

TEST(Environment, OptimizeFallsBackToTheStartingKernel) {
  TimedTools tools;
  const std::string start = "PASS_MARKER LAT=1000";
  Environment env(Mode::Optimize, 2, optimize_prompts(2, start), tools);
  env.reset();
  env.step(tool_call("verify_kernel", "PASS_MARKER LAT=2000"));
  StepResult last = env.step(tool_call("verify_kernel", "wrong LAT=1"));
  EXPECT_TRUE(last.done);
  EXPECT_EQ(last.stop, StopReason::MaxTurns);
  Judgement j = env.finish(last.stop, 2);
  EXPECT_EQ(j.verdict, VerdictKind::Pass);
  EXPECT_EQ(j.final_kernel, start);
  EXPECT_EQ(j.kernel_turn, 0);
  // Optimize mode refuses to start without a kernel.
  EXPECT_THROW(build_episode_prompts(std::string(NKI_SOURCE_DIR) + "/prompts", add_task(), Mode::Optimize, 2),
               std::invalid_argument);
}

TEST(Toolbox, ExecutesByNameAndReportsBadCalls) {
  int compiles = 0;
  Toolbox box;
  box.add(compile_kernel_tool([&](const std::string&) { ++compiles; return ToolResult(true, "ok"); }));
  box.add(verify_kernel_tool([](const std::string&) { return ToolResult(true, "PASS"); }));
  EXPECT_EQ(box.names(), (std::vector<std::string>{"compile_kernel", "verify_kernel"}));
  EXPECT_THROW(box.add(compile_kernel_tool(nullptr)), std::invalid_argument);

  ToolExecution ok = box.execute({"1", "compile_kernel", R"({"code":"def k(): pass"})"});
  EXPECT_FALSE(ok.bad_call);
  EXPECT_EQ(ok.code, "def k(): pass");
  EXPECT_EQ(ok.action(), "compile");
  EXPECT_FALSE(ok.solved());  // compiling never ends the episode
  EXPECT_EQ(compiles, 1);
  EXPECT_TRUE(box.execute({"2", "verify_kernel", R"({"code":"x"})"}).solved());

  ToolExecution unknown = box.execute({"3", "run_kernel", R"({"code":"x"})"});
  EXPECT_TRUE(unknown.bad_call);
  EXPECT_EQ(unknown.result.text, "unknown tool 'run_kernel'; the tools are compile_kernel and verify_kernel");
  ToolExecution bad = box.execute({"4", "compile_kernel", "{not json"});
  EXPECT_TRUE(bad.bad_call);
  EXPECT_FALSE(bad.result.text.empty());
  EXPECT_EQ(compiles, 1);  // bad calls never reach the tool
}

TEST(Environment, ResetOffersToolsOnlyInAgentMode) {
  MarkerTools tools;
  Environment agent(Mode::Agent, 3, prompts(Mode::Agent, 3), tools);
  Conversation c = agent.reset();
  ASSERT_EQ(c.tools.size(), 2u);
  ASSERT_EQ(c.messages.size(), 1u);
  EXPECT_EQ(c.messages[0].role, Role::User);
  Environment single(Mode::SingleShot, 3, prompts(Mode::SingleShot, 3), tools);
  EXPECT_TRUE(single.reset().tools.empty());
  EXPECT_EQ(single.max_turns(), 1);
}

TEST(Environment, StepsToAVerifiedPassAndJudges) {
  MarkerTools tools;
  Environment env(Mode::Agent, 3, prompts(Mode::Agent, 3), tools);
  StepResult s1 = env.step(tool_call("compile_kernel", kBadKernel));
  EXPECT_FALSE(s1.done);
  ASSERT_EQ(s1.messages.size(), 1u);
  EXPECT_EQ(s1.messages[0].role, Role::Tool);
  EXPECT_TRUE(s1.messages[0].is_error);
  EXPECT_EQ(s1.result, "compile_error");
  StepResult s2 = env.step(tool_call("verify_kernel", kGoodKernel));
  EXPECT_TRUE(s2.done);
  EXPECT_EQ(s2.stop, StopReason::Verified);
  Judgement j = env.finish(s2.stop, 2);
  EXPECT_EQ(j.verdict, VerdictKind::Pass);
  EXPECT_EQ(j.pass_turn, 2);
  EXPECT_EQ(j.tool_calls, 2);
  EXPECT_EQ(tools.finals, 1);
}

TEST(Environment, MultiTurnAsksForReviewUntilTheLastTurn) {
  MarkerTools tools;
  Environment env(Mode::MultiTurn, 2, prompts(Mode::MultiTurn, 2), tools);
  StepResult s1 = env.step({Role::Assistant, "```python\n" + std::string(kWrongKernel) + "```", {}, "", "", false});
  EXPECT_FALSE(s1.done);
  ASSERT_EQ(s1.messages.size(), 1u);
  EXPECT_EQ(s1.messages[0].role, Role::User);  // the review follow-up
  EXPECT_EQ(s1.result, "unchecked");
  StepResult s2 = env.step({Role::Assistant, "no code this time", {}, "", "", false});
  EXPECT_TRUE(s2.done);
  EXPECT_EQ(s2.stop, StopReason::MaxTurns);
  EXPECT_TRUE(s2.messages.empty());  // no follow-up after the last turn
  EXPECT_EQ(env.finish(s2.stop, 2).verdict, VerdictKind::Mismatch);
  EXPECT_EQ(tools.verifies, 0);  // multi-turn never shows the model a check
}

TEST(Environment, ARegisteredExtraToolReachesTheModelAndTheLoop) {
  ProfilingTools tools;
  std::vector<ModelReply> replies(2);
  replies[0].message = tool_call("profile_kernel", kGoodKernel);
  replies[1].message = tool_call("verify_kernel", kGoodKernel);
  ReplayClient model(replies, "scripted");
  EpisodeConfig cfg;
  cfg.max_turns = 3;
  EpisodeResult r = run_episode(cfg, prompts(Mode::Agent, 3), model, tools, nullptr);
  EXPECT_EQ(tools.profiles, 1);
  EXPECT_EQ(r.verdict, VerdictKind::Pass);
  EXPECT_EQ(r.stop_reason, StopReason::Verified);
  ASSERT_EQ(r.turn_log.size(), 2u);
  EXPECT_EQ(r.turn_log[0].action, "profile");
  EXPECT_EQ(r.turn_log[0].result, "ok");
  Environment env(Mode::Agent, 3, prompts(Mode::Agent, 3), tools);
  EXPECT_EQ(env.tool_names(), (std::vector<std::string>{"compile_kernel", "verify_kernel", "profile_kernel"}));
}

// --tools: a dropped tool is not offered, the task message names the offered set when it differs
// from the mode prompt's, and the parse / mode rules reject what a mode cannot run.
TEST(Environment, ToolOfferDropsToolsAndNamesTheOfferedSet) {
  MarkerTools tools;
  tools.set_offer(parse_tool_offer("verify"));
  Environment env(Mode::Agent, 3, prompts(Mode::Agent, 3), tools);
  Conversation c = env.reset();
  ASSERT_EQ(c.tools.size(), 1u);
  EXPECT_EQ(c.tools[0].name, "verify_kernel");
  EXPECT_NE(c.messages[0].content.find("Tools offered in this episode: `verify_kernel`"), std::string::npos);
  StepResult s = env.step(tool_call("compile_kernel", "PASS_MARKER"));
  EXPECT_EQ(s.result, "bad_call");  // not offered: answered like an unknown tool

  MarkerTools defaults;
  Environment plain(Mode::Agent, 3, prompts(Mode::Agent, 3), defaults);
  EXPECT_EQ(plain.reset().tools.size(), 2u);
  EXPECT_EQ(plain.reset().messages[0].content.find("Tools offered in this episode"), std::string::npos);

  EXPECT_EQ(tool_offer_text(parse_tool_offer("profile,compile,verify")), "compile,verify,profile");
  EXPECT_THROW(parse_tool_offer("compile,,verify"), std::invalid_argument);
  EXPECT_THROW(parse_tool_offer("verify,verify"), std::invalid_argument);
  EXPECT_THROW(parse_tool_offer("run"), std::invalid_argument);
  EXPECT_NE(validate_tool_offer(parse_tool_offer("compile,profile"), Mode::Optimize), "");
  EXPECT_EQ(validate_tool_offer(parse_tool_offer("compile,profile"), Mode::Agent), "");
  EXPECT_NE(validate_tool_offer(ToolOffer{}, Mode::SingleShot), "");
}

TEST(StopReasons, HaveStableNames) {
  EXPECT_STREQ(stop_reason_name(StopReason::Verified), "verified");
  EXPECT_STREQ(stop_reason_name(StopReason::MaxTurns), "max_turns");
  EXPECT_STREQ(stop_reason_name(StopReason::CostBudget), "cost_budget");
  EXPECT_STREQ(stop_reason_name(StopReason::TimeBudget), "time_budget");
}

}  // namespace
}  // namespace nki::agent
