// export_sft and export_episodes end to end on real tasks, with golden data from PyTorch
// (skipped without a torch-capable Python): the shipped example transcript, and template and
// repair episodes for a copy of two benchmark tasks.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "base/diagnostic.h"
#include "task/python_env.h"
#include "train/export.h"
#include "train_fixture.h"

namespace nki::train {
namespace {

namespace fs = std::filesystem;
using namespace testing;

class TrainExport : public ::testing::Test {
 protected:
  void SetUp() override {
    try {
      find_torch_python();
    } catch (const IoError& e) {
      GTEST_SKIP() << "no torch-capable python: " << e.what();
    }
  }
};

std::vector<nlohmann::json> read_lines(const std::string& path) {
  std::vector<nlohmann::json> out;
  std::ifstream in(path);
  for (std::string l; std::getline(in, l);) out.push_back(nlohmann::json::parse(l));
  return out;
}

PipelineOptions options(Format f, const std::string& tasks_dir) {
  PipelineOptions p;
  p.format = f;
  p.tasks_dir = tasks_dir;
  p.check.fresh_trials = 1;
  return p;
}

TEST_F(TrainExport, ExampleTranscriptGivesOneRecordAndOnePreferencePair) {
  std::string src = std::string(NKI_SOURCE_DIR);
  std::string out = temp_dir("export_sft");
  SftExportOptions o;
  o.runs = {src + "/examples/replays"};
  o.out = out + "/sft.jsonl";
  o.pipeline = options(Format::OpenAI, src + "/tasks");
  Funnel f = export_sft(o);
  EXPECT_EQ(f.input, 1);
  EXPECT_EQ(f.kept, 1) << f.to_markdown();
  auto lines = read_lines(o.out);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_FALSE(check_openai_json(lines[0]));
  EXPECT_TRUE(fs::exists(out + "/FUNNEL.md") && fs::exists(out + "/FUNNEL.json"));
  // Decontaminated against the benchmark, the same record is dropped: its task is a benchmark task.
  o.pipeline.benchmark = std::make_shared<const BenchmarkIndex>(BenchmarkIndex::load(src + "/tasks", src + "/solutions"));
  Funnel d = export_sft(o);
  EXPECT_EQ(d.kept, 0);
  EXPECT_EQ(d.dropped["contaminated"], 1);
  o.pipeline.benchmark = nullptr;
  o.pipeline.format = Format::Dpo;
  o.out = out + "/dpo.jsonl";
  Funnel p = export_sft(o);
  EXPECT_EQ(p.notes["dpo_pairs"], 1);
  auto pairs = read_lines(o.out);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_NE(pairs[0]["rejected"][0]["content"].get<std::string>().find("nl.load(a)"), std::string::npos);
}

// A record keeps its episode's dialect, and the validators check its kernels in that dialect:
// the example's legacy kernel passes as 2.24, and the same transcript marked as a 0.6 episode
// is dropped (the kernel stops at its neuronxcc imports).
TEST_F(TrainExport, RecordsCarryAndAreCheckedInTheirDialect) {
  std::string src = std::string(NKI_SOURCE_DIR);
  std::string out = temp_dir("export_nki");
  SftExportOptions o;
  o.runs = {src + "/examples/replays"};
  o.out = out + "/sft.jsonl";
  o.pipeline = options(Format::OpenAI, src + "/tasks");
  ASSERT_EQ(export_sft(o).kept, 1);
  EXPECT_EQ(read_lines(o.out).at(0)["nki"], "2.24");

  fs::create_directories(out + "/runs06");
  std::ifstream in(src + "/examples/replays/l1_add_fp32_compile_fix.jsonl");
  std::ofstream rewritten(out + "/runs06/t.jsonl");
  bool first = true;
  for (std::string l; std::getline(in, l); first = false) {
    if (first) {
      nlohmann::json h = nlohmann::json::parse(l);
      ASSERT_EQ(h["type"], "header");
      h["nki"] = "0.6";
      l = h.dump();
    }
    rewritten << l << "\n";
  }
  rewritten.close();
  o.runs = {out + "/runs06"};
  o.out = out + "/sft06.jsonl";
  Funnel f = export_sft(o);
  EXPECT_EQ(f.kept, 0) << f.to_markdown();
  EXPECT_EQ(f.dropped["compile_failed"], 1) << f.to_markdown();
}

TEST_F(TrainExport, TemplateAndRepairEpisodesFromTaskDirectories) {
  std::string src = std::string(NKI_SOURCE_DIR);
  std::string root = temp_dir("export_episodes");
  fs::create_directories(root + "/tasks");
  for (const char* id : {"l1_add_fp32", "l1_sum_lastdim_fp32"})
    fs::copy(src + "/tasks/" + id, root + "/tasks/" + id, fs::copy_options::recursive);
  EpisodeExportOptions o;
  o.tasks_dir = root + "/tasks";
  o.out = root + "/tpl/tpl.jsonl";
  o.pipeline = options(Format::OpenAI, "");
  Funnel t = export_episodes(o);
  EXPECT_EQ(t.kept, 2) << t.to_markdown();
  for (const auto& j : read_lines(o.out)) {
    EXPECT_EQ(j["provenance"], "template");
    EXPECT_FALSE(check_openai_json(j));
  }
  o.kind = EpisodeKind::Repair;
  o.out = root + "/rep/rep.jsonl";
  o.pipeline.format = Format::ShareGPT;
  Funnel r = export_episodes(o);
  EXPECT_GE(r.kept, 4) << r.to_markdown();
  for (const auto& j : read_lines(o.out)) {
    EXPECT_EQ(j["provenance"], "repair");
    EXPECT_FALSE(check_sharegpt_json(j));
    // The broken kernel's feedback is the toolchain's own text.
    EXPECT_NE(j["conversations"][2]["value"].get<std::string>().find("l1_"), std::string::npos) << j.dump();
  }
}


std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// --jobs does not change the records or their order, and a run resumed from a journal torn by
// a kill writes the same file again without redoing the finished task.
TEST_F(TrainExport, BothKindsAreDeterministicAcrossJobsAndResumable) {
  std::string src = std::string(NKI_SOURCE_DIR);
  std::string root = temp_dir("export_both");
  fs::create_directories(root + "/tasks");
  for (const char* id : {"l1_add_fp32", "l1_sum_lastdim_fp32", "l1_softmax_bf16"})
    fs::copy(src + "/tasks/" + id, root + "/tasks/" + id, fs::copy_options::recursive);
  EpisodeExportOptions o;
  o.tasks_dir = root + "/tasks";
  o.kind = EpisodeKind::Both;
  o.progress = false;
  o.pipeline = options(Format::OpenAI, "");
  o.out = root + "/one/ep.jsonl";
  o.jobs = 1;
  Funnel a = export_episodes(o);
  EXPECT_GE(a.kept_by_provenance["template"], 3) << a.to_markdown();
  EXPECT_GE(a.kept_by_provenance["repair"], 6) << a.to_markdown();
  o.out = root + "/two/ep.jsonl";
  o.jobs = 2;
  Funnel b = export_episodes(o);
  EXPECT_EQ(file_text(root + "/one/ep.jsonl"), file_text(root + "/two/ep.jsonl"));
  EXPECT_EQ(a.to_json().dump(), b.to_json().dump());
  // Template first, then that task's repairs, tasks in sorted order.
  std::vector<nlohmann::json> lines = read_lines(o.out);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0]["task_id"], "l1_add_fp32");
  EXPECT_EQ(lines[0]["provenance"], "template");
  // Keep the first journal line, tear the second (a kill in the middle of a write).
  std::string journal = file_text(root + "/two/JOURNAL.jsonl");
  size_t first = journal.find('\n');
  ASSERT_NE(first, std::string::npos);
  std::ofstream(root + "/two/JOURNAL.jsonl", std::ios::trunc) << journal.substr(0, first + 1) << journal.substr(first + 1, 40);
  fs::remove(o.out);
  Funnel c = export_episodes(o);
  EXPECT_EQ(file_text(root + "/one/ep.jsonl"), file_text(o.out));
  EXPECT_EQ(a.kept, c.kept);
  // The journal now holds the first task once (reused) and the other two again.
  size_t valid = 0;
  std::ifstream j(root + "/two/JOURNAL.jsonl");
  for (std::string l; std::getline(j, l);) valid += nlohmann::json::accept(l);
  EXPECT_EQ(valid, 3u);
}

}  // namespace
}  // namespace nki::train
