// The committed sample of generated episodes (tests/data/episodes_sample: 100 records of
// `nkiagent export episodes --kind both` on the synthesised corpus, with the task directories
// they were made from) run through the validators again: every record must still be clean.
// Structure, signature, duplicates and decontamination always run; compile, rank and the
// re-verification on fresh trials need PyTorch for the golden data (skipped without it).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <cstdio>
#include <set>

#include "agent/code_extract.h"
#include "base/diagnostic.h"
#include "task/python_env.h"
#include "toolchain/agent_glue.h"
#include "train/decontam.h"
#include "train/kernel_facts.h"
#include "train/tool_replay.h"
#include "train/validators.h"

namespace nki::train {
namespace {

namespace fs = std::filesystem;

const std::string kSample = std::string(NKI_SOURCE_DIR) + "/tests/data/episodes_sample";

std::vector<nlohmann::json> sample_records() {
  std::vector<nlohmann::json> out;
  std::ifstream in(kSample + "/episodes.jsonl");
  for (std::string l; std::getline(in, l);)
    if (!l.empty()) out.push_back(nlohmann::json::parse(l));
  return out;
}

// Every kernel the record's assistant turns submit, in order (the last one is the answer).
std::vector<std::string> kernels_of(const nlohmann::json& r) {
  std::vector<std::string> ks;
  for (const auto& m : r.at("messages")) {
    if (m.at("role") != "assistant") continue;
    if (m.contains("tool_calls"))
      for (const auto& c : m["tool_calls"]) ks.push_back(agent::extract_code_from_arguments(c["function"]["arguments"].get<std::string>()).code);
    else if (m.contains("content") && m["content"].is_string())
      if (std::string k = agent::extract_code_from_text(m["content"].get<std::string>()); !k.empty()) ks.push_back(k);
  }
  return ks;
}

TEST(EpisodeSample, HasTemplateAndRepairRecords) {
  std::vector<nlohmann::json> recs = sample_records();
  ASSERT_EQ(recs.size(), 100u);
  std::map<std::string, int> by;
  for (const auto& r : recs) ++by[r.at("provenance").get<std::string>()];
  EXPECT_GT(by["template"], 0);
  EXPECT_GT(by["repair"], 0);
  EXPECT_EQ(by["template"] + by["repair"], 100);
}

TEST(EpisodeSample, EveryRecordPassesTheStaticValidators) {
  BenchmarkIndex bench = BenchmarkIndex::load(std::string(NKI_SOURCE_DIR) + "/tasks", std::string(NKI_SOURCE_DIR) + "/solutions");
  DuplicateFilter dups;
  for (const auto& r : sample_records()) {
    std::string id = r.at("task_id");
    SCOPED_TRACE(id + " " + r.at("provenance").get<std::string>());
    EXPECT_FALSE(check_openai_json(r)) << check_openai_json(r)->message;
    std::vector<std::string> ks = kernels_of(r);
    ASSERT_FALSE(ks.empty());
    if (r["provenance"] == "repair") {
      EXPECT_EQ(ks.size(), 2u);  // the broken kernel, then the fix
    }
    TaskSpec task = load_task(kSample + "/tasks/" + id);
    agent::TaskInfo info = toolchain::task_info(task);
    Verdict sig = check_signature(ks.back(), info);
    EXPECT_FALSE(sig) << sig->reason << ": " << sig->message;
    std::string trajectory = r["provenance"].get<std::string>();
    for (const auto& k : ks) trajectory += ";" + normalized_kernel_hash(k);
    EXPECT_FALSE(dups.check(id, trajectory));
    Verdict c = check_contamination(task, info.reference_source, ks.back(), bench);
    EXPECT_FALSE(c) << c->message;
  }
}

TEST(EpisodeSample, EveryFinalKernelCompilesAndReverifies) {
  try {
    find_torch_python();
  } catch (const IoError& e) {
    GTEST_SKIP() << "no torch-capable python: " << e.what();
  }
  CheckSettings s;  // the export's defaults: isolated child, 3 fresh held-out trials
  std::set<std::string> checked;
  for (const auto& r : sample_records()) {
    std::string id = r.at("task_id");
    std::string k = kernels_of(r).back();
    if (!checked.insert(id + "\n" + k).second) continue;  // the repairs of a task end in one kernel
    SCOPED_TRACE(id);
    TaskSpec task = load_task(kSample + "/tasks/" + id);
    Verdict rank = check_rank(k, task, s);
    EXPECT_FALSE(rank) << rank->reason << ": " << rank->message;
    Verdict v = check_reverify(k, task, s);
    EXPECT_FALSE(v) << v->reason << ": " << v->message;
  }
}

// A sample line (openai format) as the record it was written from: what shown_results reads.
TrainingRecord record_of(const nlohmann::json& j) {
  TrainingRecord r;
  r.task_id = j.at("task_id").get<std::string>();
  r.mode = j.at("mode").get<std::string>();
  r.nki = j.at("nki").get<std::string>();
  for (const auto& m : j.at("messages")) {
    if (m.at("role") == "system") continue;
    agent::Message x;
    x.role = agent::role_from_name(m.at("role").get<std::string>());
    x.content = m.value("content", "");
    if (m.contains("tool_calls"))
      for (const auto& c : m["tool_calls"]) x.tool_calls.push_back({c.at("id").get<std::string>(), c.at("function").at("name").get<std::string>(),
                               c.at("function").at("arguments").get<std::string>()});
    x.tool_call_id = m.value("tool_call_id", "");
    r.messages.push_back(std::move(x));
  }
  return r;
}

// Golden data with the task's argument shapes and dtypes, all zeros: enough to re-run a check
// that stops at compilation (its verdict does not look at values), nothing else.
GoldenProvider zeros_golden() {
  return [](const TaskSpec& t, int trial) {
    GoldenTrial g;
    g.trial = trial;
    g.seed = t.trial_seed(trial);
    for (const TensorSpec& s : t.kernel_args()) {
      HostTensor h;
      h.dtype = s.dtype;
      h.shape = s.shape;
      h.data.assign(static_cast<size_t>(h.element_count()) * dtype_size(s.dtype), 0);
      g.arg_names.push_back(s.name);
      g.args.push_back(std::move(h));
    }
    for (const TensorSpec& o : t.outputs) {
      HostTensor h;
      h.dtype = dtype_is_float(o.dtype) ? DType::Float32 : DType::Int32;
      h.shape = o.shape;
      h.data.assign(static_cast<size_t>(h.element_count()) * 4, 0);
      g.expected.push_back(std::move(h));
    }
    return g;
  };
}

// Every tool result the sample shows states a verdict, and each failure that stopped at
// compilation is the toolchain's own (re-run here; the rest needs PyTorch, next test).
TEST(EpisodeSample, ShownCompileFailuresAreTheToolchains) {
  CheckSettings s;
  s.golden = zeros_golden();
  ToolReplay replay(s);
  int shown = 0, rerun = 0, records_with_results = 0;
  for (const auto& j : sample_records()) {
    TrainingRecord r = record_of(j);
    SCOPED_TRACE(r.task_id + " " + j.at("provenance").get<std::string>());
    std::vector<ShownResult> results = shown_results(r);
    records_with_results += !results.empty();
    std::vector<ShownResult> compile_stage;
    for (const ShownResult& x : results) {
      ++shown;
      Claim c = claimed_verdict(x.tool, x.text, x.harness);
      EXPECT_EQ(c.kind, Claim::Verdict) << x.text.substr(0, 200);
      if (c.kind == Claim::Verdict && !c.passed && !c.error_code.empty() && x.text.find(": compile error") != std::string::npos)
        compile_stage.push_back(x);
    }
    rerun += static_cast<int>(compile_stage.size());
    TaskSpec task = load_task(kSample + "/tasks/" + r.task_id);
    Verdict v = replay.check(r, compile_stage, task);
    EXPECT_FALSE(v) << v->message;
  }
  // The repair records show two results each (the broken kernel's, then the fix's); the
  // template records none.
  EXPECT_EQ(records_with_results, 50);
  EXPECT_EQ(shown, 100);
  EXPECT_GT(rerun, 0);
  std::printf("sample: %d shown results, %d compile-stage failures re-run (%lld runs)\n", shown, rerun, replay.runs());
}

// The whole check on the sample, as the export runs it (golden data from PyTorch).
TEST(EpisodeSample, EveryShownResultIsTheToolchains) {
  try {
    find_torch_python();
  } catch (const IoError& e) {
    GTEST_SKIP() << "no torch-capable python: " << e.what();
  }
  ToolReplay replay(CheckSettings{});
  for (const auto& j : sample_records()) {
    TrainingRecord r = record_of(j);
    SCOPED_TRACE(r.task_id);
    Verdict v = replay.check(r, shown_results(r), load_task(kSample + "/tasks/" + r.task_id));
    EXPECT_FALSE(v) << v->message;
  }
}

TEST(EpisodeSample, RepairRecordsShowARealFailureFirst) {
  for (const auto& r : sample_records()) {
    if (r["provenance"] != "repair") continue;
    SCOPED_TRACE(r.at("task_id").get<std::string>());
    // messages: system, task, verify(broken), its result, verify(fixed), its result
    const auto& m = r.at("messages");
    ASSERT_GE(m.size(), 6u);
    std::string first_result = m[3].at("content"), last_result = m[5].at("content");
    EXPECT_EQ(first_result.rfind("FAIL", 0), 0u) << first_result.substr(0, 200);
    EXPECT_EQ(last_result.rfind("PASS", 0), 0u) << last_result.substr(0, 200);
    EXPECT_NE(kernels_of(r)[0], kernels_of(r)[1]);
  }
}

}  // namespace
}  // namespace nki::train
