// `nkiagent synth` end to end on ~300 candidates (issue 13): the corpus has exactly --target
// tasks, every one passes golden.py --check and loads in `nkiagent tasks`, and a run killed
// with SIGKILL part-way and resumed writes byte-identical outputs.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace {

namespace fs = std::filesystem;

const std::string kArgs = "--target 60 --candidates 300 --jobs 2 --seed 7 --quiet";

bool torch_available() {
  return std::system("/usr/bin/python3 -c 'import torch, numpy' >/dev/null 2>&1") == 0;
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int lines_in(const fs::path& p) {
  std::ifstream in(p);
  int n = 0;
  for (std::string l; std::getline(in, l);) ++n;
  return n;
}

int run(const std::string& cmd) {
  int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

// Every file under tasks/ plus the manifest and the funnel, as one string.
std::string corpus_bytes(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(dir / "tasks"))
    if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::string all = read(dir / "manifest.jsonl") + read(dir / "funnel.json") + read(dir / "funnel.md");
  for (const fs::path& f : files) all += fs::relative(f, dir).string() + "\n" + read(f);
  return all;
}

class SynthPipeline : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!torch_available()) GTEST_SKIP() << "/usr/bin/python3 cannot import torch";
    root_ = fs::temp_directory_path() / ("synth_pipeline_" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override {
    if (!root_.empty()) fs::remove_all(root_);
  }
  fs::path root_;
};

TEST_F(SynthPipeline, FullRunThenKilledAndResumedRunAreIdentical) {
  const std::string bin = NKIAGENT_PATH;
  fs::path a = root_ / "a", b = root_ / "b";
  ASSERT_EQ(run(bin + " synth --out " + a.string() + " " + kArgs), 0);
  int tasks = 0;
  std::string dirs;
  for (const auto& e : fs::directory_iterator(a / "tasks")) {
    ++tasks;
    dirs += " " + e.path().string();
  }
  EXPECT_EQ(tasks, 60);
  EXPECT_EQ(lines_in(a / "manifest.jsonl"), 60);
  EXPECT_NE(read(a / "funnel.md").find("| selected (balanced) | 60 |"), std::string::npos) << read(a / "funnel.md");
  // the benchmark's own checker and task loader accept every synthesised task
  EXPECT_EQ(run("/usr/bin/python3 " + std::string(NKI_SOURCE_DIR) + "/tools/golden/golden.py --check" + dirs + " >/dev/null"), 0);
  EXPECT_EQ(run(bin + " tasks list --subset all --tasks-dir " + (a / "tasks").string() + " >/dev/null"), 0);

  // Second run into b, killed with SIGKILL once the journal has some verdicts, then resumed.
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    std::string out = b.string();
    execl(bin.c_str(), bin.c_str(), "synth", "--out", out.c_str(), "--target", "60", "--candidates", "300", "--jobs",
          "2", "--seed", "7", "--quiet", static_cast<char*>(nullptr));
    _exit(127);
  }
  auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(3);
  while (lines_in(b / "journal.jsonl") < 60 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the run finished before it could be killed";
  int journalled = lines_in(b / "journal.jsonl");
  EXPECT_FALSE(fs::exists(b / "manifest.jsonl"));
  std::string resumed_log = (root_ / "resume.txt").string();
  ASSERT_EQ(run(bin + " synth --out " + b.string() + " " + kArgs + " > " + resumed_log), 0);
  // the resumed run reused the journal instead of evaluating everything again
  std::string log = read(resumed_log);
  EXPECT_NE(log.find(" from the journal"), std::string::npos) << log;
  EXPECT_EQ(log.find(", 0 from the journal"), std::string::npos) << log;
  EXPECT_GE(journalled, 60);
  EXPECT_EQ(corpus_bytes(a), corpus_bytes(b));

  // A third run over the finished directory evaluates nothing and rewrites the same bytes.
  ASSERT_EQ(run(bin + " synth --out " + b.string() + " " + kArgs + " > " + resumed_log), 0);
  EXPECT_NE(read(resumed_log).find(" 0 evaluated now"), std::string::npos) << read(resumed_log);
  EXPECT_EQ(corpus_bytes(a), corpus_bytes(b));
}

TEST_F(SynthPipeline, CommittedSampleIsValid) {
  fs::path sample = fs::path(NKI_SOURCE_DIR) / "tests/data/synth_sample";
  ASSERT_TRUE(fs::exists(sample / "manifest.jsonl"));
  std::string dirs;
  int n = 0;
  for (const auto& e : fs::directory_iterator(sample / "tasks")) {
    dirs += " " + e.path().string();
    ++n;
  }
  EXPECT_EQ(n, 60);
  EXPECT_EQ(lines_in(sample / "manifest.jsonl"), 60);
  EXPECT_EQ(run("/usr/bin/python3 " + std::string(NKI_SOURCE_DIR) + "/tools/golden/golden.py --check" + dirs + " >/dev/null"), 0);
}

}  // namespace
