// The committed sample of generated episodes (tests/data/episodes_sample: 100 records of
// `nkiagent export episodes --kind both` on the synthesised corpus, with the task directories
// they were made from) run through the validators again: every record must still be clean.
// Structure, signature, duplicates and decontamination always run; compile, rank and the
// re-verification on fresh trials need PyTorch for the golden data (skipped without it).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "agent/code_extract.h"
#include "base/diagnostic.h"
#include "task/python_env.h"
#include "toolchain/agent_glue.h"
#include "train/decontam.h"
#include "train/kernel_facts.h"
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
