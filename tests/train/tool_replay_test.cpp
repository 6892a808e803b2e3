// Honest tool results (src/train/tool_replay.h): the shipped example transcript is kept, and
// copies of it whose shown tool results were edited (a wrong kernel shown passing verify_kernel,
// a kernel with a checker error shown compiling) are dropped as tool_result_mismatch, although
// their final kernel verifies. Golden data of the benchmark's l1_add_fp32 computed in C++.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "agent/toolbox.h"
#include "train/export.h"
#include "train/tool_replay.h"
#include "train/transcript_source.h"
#include "train_fixture.h"

namespace nki::train {
namespace {

using namespace testing;
namespace fs = std::filesystem;

const std::string kSrc = NKI_SOURCE_DIR;
const std::string kExample = kSrc + "/examples/replays/l1_add_fp32_compile_fix.jsonl";

std::vector<nlohmann::json> example_events() {
  std::vector<nlohmann::json> ev;
  std::ifstream in(kExample);
  for (std::string l; std::getline(in, l);)
    if (!l.empty()) ev.push_back(nlohmann::json::parse(l));
  return ev;
}

void write_events(const std::string& path, const std::vector<nlohmann::json>& ev) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream out(path);
  for (const auto& e : ev) out << e.dump() << "\n";
}

// The example exported on its own, kernels in this process, golden data of `a + b` in C++.
Funnel export_one(const std::string& transcript, const std::string& out_dir) {
  SftExportOptions o;
  o.runs = {transcript};
  o.out = out_dir + "/sft.jsonl";
  o.pipeline.tasks_dir = kSrc + "/tasks";
  o.pipeline.check = in_process(golden_of(add_ref), 1);
  return export_sft(o);
}

// Sets what turn `turn`'s tool call shows as its result: in the tool_result event and in the
// tool message the next request carries (the text training sees).
void set_shown_result(std::vector<nlohmann::json>& ev, int turn, const std::string& text) {
  std::string id;
  for (auto& e : ev)
    if (e["type"] == "tool_result" && e["turn"] == turn) {
      id = e["id"].get<std::string>();
      e["text"] = text;
      e["passed"] = text.rfind("PASS", 0) == 0 || text.rfind("compile: ok", 0) == 0;
    }
  ASSERT_FALSE(id.empty());
  // (The last reply's results are in no request: the record takes them from tool_result.)
  for (auto& e : ev)
    if (e["type"] == "request")
      for (auto& m : e["new_messages"])
        if (m.value("tool_call_id", "") == id) m["content"] = text;
}

std::string final_kernel() {
  for (const auto& e : example_events())
    if (e["type"] == "result") return e["final_kernel"].get<std::string>();
  return {};
}

TEST(TrainToolReplay, GenuineExampleIsKeptAndTheFinalKernelIsNotRunTwice) {
  std::string out = temp_dir("replay_genuine");
  Funnel f = export_one(kExample, out);
  EXPECT_EQ(f.kept, 1) << f.to_markdown();
  // Both shown results compared; the passing verify of the final kernel is known from the
  // final-kernel checks, so only the failing compile ran again.
  EXPECT_EQ(f.notes["tool_results_checked"], 2) << f.to_markdown();
  EXPECT_EQ(f.notes["tool_reruns"], 1) << f.to_markdown();
}

TEST(TrainToolReplay, CompileResultClaimingSuccessForACheckerErrorIsDropped) {
  std::string out = temp_dir("replay_forged_compile");
  std::vector<nlohmann::json> ev = example_events();
  set_shown_result(ev, 1, "compile: ok (kernel 'kernel')\n");
  write_events(out + "/runs/t.jsonl", ev);
  Funnel f = export_one(out + "/runs/t.jsonl", out);
  EXPECT_EQ(f.kept, 0) << f.to_markdown();
  EXPECT_EQ(f.dropped["tool_result_mismatch"], 1) << f.to_markdown();
  EXPECT_NE(f.first_example["tool_result_mismatch"].find("err_num_partition_exceed_arch_limit"), std::string::npos)
      << f.first_example["tool_result_mismatch"];
  // The funnel report names the reason.
  std::ifstream md(out + "/FUNNEL.md");
  std::string text((std::istreambuf_iterator<char>(md)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("`tool_result_mismatch`"), std::string::npos) << text;
}

TEST(TrainToolReplay, VerifyResultShowingAWrongKernelPassingIsDropped) {
  std::string out = temp_dir("replay_forged_verify");
  std::vector<nlohmann::json> ev = example_events();
  // Turn 1 now verifies a kernel that subtracts, and the record shows it passing; turn 2 (the
  // honest, passing final kernel) is unchanged.
  std::string wrong = final_kernel();
  size_t p = wrong.find("nl.add(");
  ASSERT_NE(p, std::string::npos);
  wrong.replace(p, 7, "nl.subtract(");
  for (auto& e : ev) {
    if (e["type"] == "response" && e["turn"] == 1) {
      auto& c = e["message"]["tool_calls"][0];
      c["name"] = "verify_kernel";
      c["arguments"] = nlohmann::json{{"code", wrong}}.dump();
    }
    if ((e["type"] == "tool_call" || e["type"] == "tool_result") && e["turn"] == 1) e["name"] = "verify_kernel";
  }
  set_shown_result(ev, 1, "PASS l1_add_fp32: 2/2 trials correct (max abs err 0, max rel err 0)\n");
  write_events(out + "/runs/t.jsonl", ev);
  // The final kernel alone still verifies: only the shown result is false.
  TrainingRecord r = record_from_transcript(out + "/runs/t.jsonl");
  EXPECT_EQ(r.final_kernel, final_kernel());
  Funnel f = export_one(out + "/runs/t.jsonl", out);
  EXPECT_EQ(f.kept, 0) << f.to_markdown();
  EXPECT_EQ(f.dropped["tool_result_mismatch"], 1) << f.to_markdown();
  EXPECT_NE(f.first_example["tool_result_mismatch"].find("shows a pass, the toolchain returns a failure"), std::string::npos)
      << f.first_example["tool_result_mismatch"];
}

// A prose answer in agent mode is verified by the harness, whose feedback (a user message) is a
// shown result too.
TEST(TrainToolReplay, HarnessFeedbackIsCheckedLikeAToolResult) {
  std::string wrong = final_kernel();
  wrong.replace(wrong.find("nl.add("), 7, "nl.subtract(");
  TrainingRecord r;
  r.mode = "agent";
  auto msg = [](agent::Role role, std::string content) {
    agent::Message m;
    m.role = role;
    m.content = std::move(content);
    return m;
  };
  r.messages = {msg(agent::Role::User, "task"), msg(agent::Role::Assistant, "```python\n" + wrong + "```"),
                msg(agent::Role::User, "The harness ran verify_kernel on the kernel in your last reply:\n\n"
                                       "PASS l1_add_fp32: 2/2 trials correct\n")};
  std::vector<ShownResult> shown = shown_results(r);
  ASSERT_EQ(shown.size(), 1u);
  EXPECT_TRUE(shown[0].harness);
  TaskSpec t = load_task(kSrc + "/tasks/l1_add_fp32");
  ToolReplay replay(in_process(golden_of(add_ref)));
  Verdict v = replay.check(r, shown, t);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->reason, "tool_result_mismatch");
  // The same feedback telling the truth is kept.
  r.messages[2].content = "The harness ran verify_kernel on the kernel in your last reply:\n\nFAIL l1_add_fp32: wrong result on trial 0 (seed 1)\n";
  EXPECT_FALSE(replay.check(r, shown_results(r), t));
  EXPECT_EQ(replay.runs(), 1);  // the same call, run once
  // Multi-turn episodes get no feedback: their follow-ups claim nothing.
  r.mode = "multi-turn";
  EXPECT_TRUE(shown_results(r).empty());
}

TEST(TrainToolReplay, ShownTextsAreReadInTheToolsOwnWording) {
  auto is = [](const Claim& c, Claim::Kind k, bool passed, const std::string& code) {
    return c.kind == k && c.passed == passed && c.error_code == code;
  };
  EXPECT_TRUE(is(claimed_verdict("compile_kernel", "compile: ok (kernel 'kernel')\n", false), Claim::Verdict, true, ""));
  EXPECT_TRUE(is(claimed_verdict("compile_kernel", "compile: failed\nkernel.py:3:1: error[err_x]: m\nkernel.py:4:1: error[err_y]: n\n", false),
                 Claim::Verdict, false, "err_x"));
  // The diagnostics alone (transcripts older than the "compile: failed" line).
  EXPECT_TRUE(is(claimed_verdict("compile_kernel", "kernel.py:8:14: error[err_a]: too many\n", false), Claim::Verdict, false, "err_a"));
  EXPECT_TRUE(is(claimed_verdict("verify_kernel", "FAIL t: compile error\n  kernel.py:2:1: warning[w]: x\n  kernel.py:3:1: error[err_b]: y\n", false),
                 Claim::Verdict, false, "err_b"));
  EXPECT_EQ(claimed_verdict("verify_kernel", "verify: not run: the episode's time budget is spent\n", false).kind, Claim::NotRun);
  EXPECT_EQ(claimed_verdict("compile_kernel", "compile: not run: the episode's time budget is spent\n", false).kind, Claim::NotRun);
  EXPECT_TRUE(is(claimed_verdict("profile_kernel", "profile: estimate by a Trainium cost model\n", false), Claim::Verdict, true, ""));
  EXPECT_TRUE(is(claimed_verdict("profile_kernel", "profile: the kernel does not compile\nkernel.py:1:1: error[err_c]: z\n", false),
                 Claim::Verdict, false, "err_c"));
  // Anything else states no verdict, and a tool message must start with its verdict.
  EXPECT_EQ(claimed_verdict("verify_kernel", "All tests passed!", false).kind, Claim::Unreadable);
  EXPECT_EQ(claimed_verdict("verify_kernel", "note\nPASS t: 1/1 trials correct\n", false).kind, Claim::Unreadable);
  EXPECT_EQ(claimed_verdict("compile_kernel", "looks fine", false).kind, Claim::Unreadable);
}

TEST(TrainToolReplay, AResultWithoutAVerdictDropsTheRecord) {
  std::string out = temp_dir("replay_unreadable");
  std::vector<nlohmann::json> ev = example_events();
  set_shown_result(ev, 2, "All trials passed, well done.");
  write_events(out + "/runs/t.jsonl", ev);
  Funnel f = export_one(out + "/runs/t.jsonl", out);
  EXPECT_EQ(f.dropped["tool_result_mismatch"], 1) << f.to_markdown();
  EXPECT_NE(f.first_example["tool_result_mismatch"].find("states no verdict"), std::string::npos);
}

}  // namespace
}  // namespace nki::train
