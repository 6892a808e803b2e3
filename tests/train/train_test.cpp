// The validators of src/train, each fed a record it must reject (and, where it matters, one it
// must keep), the record formats, transcript reading and the shared n-gram rule.
#include <gtest/gtest.h>

#include "agent/toolbox.h"
#include "task/ngram_similarity.h"
#include "toolchain/agent_glue.h"
#include "train/kernel_facts.h"
#include "train/record.h"
#include "train/transcript_source.h"
#include "train/validators.h"
#include "train_fixture.h"

namespace nki::train {
namespace {

using namespace testing;

const char* kAddKernel = R"(import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def kernel(a, b):
    out = nl.ndarray((256, 64), dtype=nl.float32, buffer=nl.shared_hbm)
    for i in nl.affine_range(2):
        x = nl.load(a[i * 128:(i + 1) * 128, :])
        y = nl.load(b[i * 128:(i + 1) * 128, :])
        nl.store(out[i * 128:(i + 1) * 128, :], value=x + y)
    return out
)";

std::string replace(std::string s, const std::string& from, const std::string& to) {
  size_t p = s.find(from);
  EXPECT_NE(p, std::string::npos) << from;
  if (p != std::string::npos) s.replace(p, from.size(), to);
  return s;
}

agent::Message msg(agent::Role role, std::string content) {
  agent::Message m;
  m.role = role;
  m.content = std::move(content);
  return m;
}

agent::Message call(const std::string& id, const std::string& code) {
  agent::Message m = msg(agent::Role::Assistant, "verifying");
  nlohmann::json args = {{"code", code}};
  m.tool_calls.push_back({id, "verify_kernel", args.dump()});
  return m;
}

agent::Message result(const std::string& id, const std::string& text) {
  agent::Message m = msg(agent::Role::Tool, text);
  m.tool_call_id = id;
  m.tool_name = "verify_kernel";
  return m;
}

// A well-formed two-turn agent record on task t_add.
TrainingRecord agent_record() {
  TrainingRecord r;
  r.id = "test";
  r.task_id = "t_add";
  r.provenance = "repair";
  r.mode = "agent";
  r.system = "system prompt";
  r.tools = agent::kernel_tool_specs();
  r.messages = {msg(agent::Role::User, "task"), call("c1", "bad"), result("c1", "FAIL"), call("c2", kAddKernel),
                result("c2", "PASS")};
  r.final_kernel = kAddKernel;
  r.episode_passed = true;
  return r;
}

TEST(TrainStructure, WellFormedAgentRecordPassesBothFormats) {
  TrainingRecord r = agent_record();
  EXPECT_FALSE(check_structure(r, Format::OpenAI));
  EXPECT_FALSE(check_structure(r, Format::ShareGPT));
  nlohmann::json sg = to_sharegpt(r);
  EXPECT_EQ(sg["conversations"].size(), 4u);  // the final PASS observation is left out
  EXPECT_EQ(sg["conversations"][1]["from"], "function_call");
}

TEST(TrainStructure, UnansweredToolCallIsRejected) {
  TrainingRecord r = agent_record();
  r.messages.erase(r.messages.begin() + 2);  // drop the first tool result
  Verdict v = check_structure(r, Format::OpenAI);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->reason, "bad_structure");
}

TEST(TrainStructure, EmptyTurnAndRepeatedRoleAreRejected) {
  TrainingRecord r = agent_record();
  r.messages.insert(r.messages.begin() + 1, msg(agent::Role::User, "again"));
  EXPECT_TRUE(check_structure(r, Format::OpenAI));
  TrainingRecord e = agent_record();
  e.messages.push_back(msg(agent::Role::User, "more"));
  e.messages.push_back(msg(agent::Role::Assistant, ""));
  Verdict v = check_structure(e, Format::OpenAI);
  ASSERT_TRUE(v);
  EXPECT_NE(v->message.find("empty assistant"), std::string::npos) << v->message;
}

TEST(TrainStructure, ShareGptOddTurnCountIsRejected) {
  nlohmann::json j = {{"system", "s"}, {"conversations", {{{"from", "human"}, {"value", "task"}}}}};
  Verdict v = check_sharegpt_json(j);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->reason, "bad_structure");
}

agent::TaskInfo add_info() {
  agent::TaskInfo info;
  info.inputs = {{"a", "[256, 64]", "float32"}, {"b", "[256, 64]", "float32"}};
  return info;
}

TEST(TrainSignature, NameAndArgumentOrderFollowTheTask) {
  EXPECT_FALSE(check_signature(kAddKernel, add_info()));
  Verdict name = check_signature(replace(kAddKernel, "def kernel(", "def add_kernel("), add_info());
  ASSERT_TRUE(name);
  EXPECT_EQ(name->reason, "wrong_kernel_name");
  Verdict order = check_signature(replace(kAddKernel, "def kernel(a, b)", "def kernel(b, a)"), add_info());
  ASSERT_TRUE(order);
  EXPECT_EQ(order->reason, "wrong_arg_order");
  Verdict args = check_signature(replace(kAddKernel, "def kernel(a, b)", "def kernel(x, y)"), add_info());
  ASSERT_TRUE(args);
  EXPECT_EQ(args->reason, "wrong_args");
  Verdict none = check_signature("def kernel(a, b):\n    return a\n", add_info());
  ASSERT_TRUE(none);
  EXPECT_EQ(none->reason, "no_kernel_function");
}

TEST(TrainRank, ReturningAReshapedOutputIsRejected) {
  std::string root = temp_dir("rank");
  TaskSpec t = load_task(write_task(root, "t_relu3d", "relu", {{2, 128, 64}}, {2, 128, 64}));
  const char* good = R"(import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def kernel(a):
    out = nl.ndarray((2, 128, 64), dtype=nl.float32, buffer=nl.shared_hbm)
    a2 = a.reshape((256, 64))
    o2 = out.reshape((256, 64))
    for i in nl.affine_range(2):
        nl.store(o2[i * 128:(i + 1) * 128, :], value=nl.relu(nl.load(a2[i * 128:(i + 1) * 128, :])))
    return out
)";
  CheckSettings s = in_process({});
  EXPECT_FALSE(check_rank(good, t, s));
  // The 3-D task flattened to 2-D and the 2-D result returned: a silent reshape.
  std::string flat = replace(replace(good, "    return out\n", "    return o2\n"), "", "");
  Verdict v = check_rank(flat, t, s);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->reason, "rank_mismatch");
  EXPECT_NE(v->message.find("[256, 64]"), std::string::npos) << v->message;
  Verdict c = check_rank("import neuronxcc.nki as nki\n@nki.jit\ndef kernel(a):\n    return undefined_name\n", t, s);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->reason, "compile_failed");
}

TEST(TrainReverify, HalfStoredOutputIsOutputNotStored) {
  std::string root = temp_dir("stored");
  TaskSpec t = load_task(write_task(root, "t_add", "add", {{256, 64}, {256, 64}}, {256, 64}));
  CheckSettings s = in_process(golden_of(add_ref));
  EXPECT_FALSE(check_reverify(kAddKernel, t, s));
  std::string half = replace(kAddKernel, "nl.affine_range(2)", "nl.affine_range(1)");
  Verdict v = check_reverify(half, t, s);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->reason, "output_not_stored");
  EXPECT_NE(v->message.find("8192 of 16384"), std::string::npos) << v->message;
}

TEST(TrainReverify, WrongValuesFailTheFreshTrials) {
  std::string root = temp_dir("reverify");
  TaskSpec t = load_task(write_task(root, "t_add", "add", {{256, 64}, {256, 64}}, {256, 64}));
  CheckSettings s = in_process(golden_of(add_ref), 3);
  Verdict v = check_reverify(replace(kAddKernel, "value=x + y", "value=x - y"), t, s);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->reason, "reverify_failed");
}

TEST(TrainDuplicates, SameKernelWithOtherCommentsIsADuplicate) {
  DuplicateFilter f;
  EXPECT_FALSE(f.check("t_add", kAddKernel));
  std::string recommented = replace(kAddKernel, "    for i", "    # two row tiles\n    for  i");
  Verdict v = f.check("t_add", recommented);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->reason, "duplicate");
  EXPECT_FALSE(f.check("t_other", kAddKernel));  // another task: not a duplicate
  EXPECT_FALSE(f.check("t_add", replace(kAddKernel, "x + y", "y + x")));
}

TEST(TrainContamination, FamilyShapeAndNgramRulesFire) {
  std::string root = temp_dir("decontam");
  std::string bench = root + "/bench";
  write_task(bench, "b_add", "add", {{256, 64}, {256, 64}}, {256, 64}, "import torch\n# bench reference\n");
  std::filesystem::create_directories(root + "/solutions");
  std::ofstream(root + "/solutions/b_add.py") << kAddKernel;
  BenchmarkIndex idx = BenchmarkIndex::load(bench, root + "/solutions");
  ASSERT_EQ(idx.size(), 1u);
  // Same family and input shapes as the benchmark task.
  TaskSpec same = load_task(write_task(root + "/train", "t_add", "add", {{256, 64}, {256, 64}}, {256, 64}));
  Verdict v = check_contamination(same, "", "", idx);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->reason, "contaminated");
  EXPECT_NE(v->message.find("family_shape"), std::string::npos);
  // Another shape, but the benchmark's solution kernel (re-commented).
  TaskSpec other = load_task(write_task(root + "/train", "t_add2", "add", {{512, 64}, {512, 64}}, {512, 64}));
  Verdict k = check_contamination(other, "", std::string("# copied\n") + kAddKernel, idx);
  ASSERT_TRUE(k);
  EXPECT_NE(k->message.find("kernel_jaccard"), std::string::npos);
  // A different kernel and reference: clean.
  EXPECT_FALSE(check_contamination(other, "import torch\nclass M:\n    pass\n", "def f(q):\n    return q * 3\n", idx));
}

TEST(TrainNgrams, JaccardIgnoresLayoutAndComments) {
  EXPECT_DOUBLE_EQ(ngram_jaccard("a = b + c * d(e)", "a=b+c*d(e)  # same"), 1.0);
  EXPECT_DOUBLE_EQ(ngram_jaccard("alpha beta gamma delta epsilon", "one two three four five"), 0.0);
  double j = ngram_jaccard("x = 1\ny = 2\nz = 3\nw = 4\n", "x = 1\ny = 2\nz = 3\nv = 9\n");
  EXPECT_GT(j, 0.2);
  EXPECT_LT(j, 1.0);
  EXPECT_EQ(code_tokens("s = 'a # not a comment' # comment").size(), 3u);
}

TEST(TrainTruncation, LongToolResultsAreCutAndCounted) {
  TrainingRecord r = agent_record();
  r.messages[2].content = std::string(40000, 'e');
  EXPECT_FALSE(truncate_to_budget(r, 2000));
  EXPECT_GT(r.cut_chars, 38000);
  EXPECT_LE(estimate_tokens(record_chars(r)), 2000);
  EXPECT_NE(r.messages[2].content.find("characters cut"), std::string::npos);
  // The model's own turns are never cut: a record whose answer alone is over budget is dropped.
  TrainingRecord big = agent_record();
  big.messages[3].content = std::string(40000, 'k');
  Verdict v = truncate_to_budget(big, 2000);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->reason, "over_token_budget");
}

TEST(TrainTranscripts, ExampleReplayBecomesAScriptedTwoAttemptRecord) {
  std::string path = std::string(NKI_SOURCE_DIR) + "/examples/replays/l1_add_fp32_compile_fix.jsonl";
  TrainingRecord r = record_from_transcript(path);
  EXPECT_EQ(r.task_id, "l1_add_fp32");
  EXPECT_EQ(r.provenance.rfind("scripted:", 0), 0u) << r.provenance;  // its note says SCRIPTED
  EXPECT_TRUE(r.episode_passed);
  ASSERT_EQ(r.attempts.size(), 2u);
  EXPECT_FALSE(r.attempts[0].passed);
  EXPECT_EQ(r.attempts[0].failure, "compile_error");
  EXPECT_TRUE(r.attempts[1].passed);
  EXPECT_EQ(r.final_kernel, r.attempts[1].code);
  EXPECT_FALSE(check_structure(r, Format::OpenAI)) << check_structure(r, Format::OpenAI)->message;
  EXPECT_FALSE(check_structure(r, Format::ShareGPT));
  nlohmann::json o = to_openai(r);
  EXPECT_EQ(o["messages"][0]["role"], "system");
  EXPECT_EQ(o["messages"][2]["tool_calls"][0]["type"], "function");
  EXPECT_EQ(o["tools"].size(), 2u);
  nlohmann::json d = to_dpo(r, r.attempts[0].code);
  EXPECT_EQ(d["prompt"].size(), 2u);
  EXPECT_NE(d["chosen"][0]["content"].get<std::string>(), d["rejected"][0]["content"].get<std::string>());
}

TEST(TrainTranscripts, KilledEpisodeIsIncomplete) {
  std::string root = temp_dir("torn");
  std::string src = std::string(NKI_SOURCE_DIR) + "/examples/replays/l1_add_fp32_compile_fix.jsonl";
  std::ifstream in(src);
  std::ofstream out(root + "/t.jsonl");
  std::string line;
  for (int i = 0; i < 5 && std::getline(in, line); ++i) out << line << "\n";
  out.close();
  CollectedRecords c = collect_transcripts({root});
  EXPECT_TRUE(c.records.empty());
  ASSERT_EQ(c.problems.size(), 1u);
  EXPECT_EQ(c.problems[0].reason, "incomplete");
}

}  // namespace
}  // namespace nki::train
