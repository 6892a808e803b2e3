// bench, merge and report through their command lines, with fake episodes.
#include <gtest/gtest.h>

#include <filesystem>

#include "cli/cmd_bench.h"
#include "cli/commands.h"
#include "eval/results_db.h"
#include "eval_test_support.h"

namespace nki::cli {
namespace {

namespace fs = std::filesystem;
using eval::EpisodeFn;
using eval::EpisodeRequest;
namespace testing = eval::testing;

struct Argv {
  std::vector<std::string> args;
  std::vector<char*> ptrs;
  explicit Argv(std::vector<std::string> a) : args(std::move(a)) {
    for (auto& s : args) ptrs.push_back(s.data());
  }
  int argc() { return static_cast<int>(ptrs.size()); }
  char** argv() { return ptrs.data(); }
};

EpisodeFn fake() {
  return [](const EpisodeRequest& r) { return testing::fake_outcome(r); };
}

int cmd_bench(int argc, char** argv, EpisodeFn fn) {
  return run_command(make_bench_command([fn](const ParsedOptions&) { return fn; }), argc, argv);
}
int cmd_merge(int argc, char** argv) { return run_command(make_merge_command(), argc, argv); }
int cmd_report(int argc, char** argv) { return run_command(make_report_command(), argc, argv); }

TEST(Commands, HelpAndUsageErrors) {
  ::testing::internal::CaptureStdout();
  Argv help({"bench", "--help"});
  EXPECT_EQ(cmd_bench(help.argc(), help.argv(), fake()), 0);
  std::string out = ::testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("--shard I/N"), std::string::npos);
  EXPECT_NE(out.find("--samples K"), std::string::npos);

  ::testing::internal::CaptureStderr();
  Argv missing({"bench", "--mode", "agent"});
  EXPECT_EQ(cmd_bench(missing.argc(), missing.argv(), fake()), 2);
  Argv bad_mode({"bench", "--model", "m", "--mode", "chat", "--subset", "x"});
  EXPECT_EQ(cmd_bench(bad_mode.argc(), bad_mode.argv(), fake()), 2);
  Argv bad_shard({"bench", "--model", "m", "--mode", "agent", "--subset", "x", "--shard", "4/4"});
  EXPECT_EQ(cmd_bench(bad_shard.argc(), bad_shard.argv(), fake()), 2);
  Argv unknown({"bench", "--modle", "m"});
  EXPECT_EQ(cmd_bench(unknown.argc(), unknown.argv(), fake()), 2);
  Argv merge_few({"merge", "only_out"});
  EXPECT_EQ(cmd_merge(merge_few.argc(), merge_few.argv()), 2);
  Argv report_none({"report"});
  EXPECT_EQ(cmd_report(report_none.argc(), report_none.argv()), 2);
  Argv report_missing({"report", "/nonexistent/run"});
  EXPECT_EQ(cmd_report(report_missing.argc(), report_missing.argv()), 2);
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("missing --model"), std::string::npos) << err;
  EXPECT_NE(err.find("--shard expects I/N"), std::string::npos) << err;
  EXPECT_NE(err.find("unknown option --modle"), std::string::npos) << err;
}

TEST(Commands, BenchShardsMergeAndReportEndToEnd) {
  auto root = testing::make_temp_dir("cmd");
  std::string tasks = root + "/tasks";
  testing::write_fake_tasks(tasks, 2);
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  for (int i = 0; i < 2; ++i) {
    Argv a({"bench", "--model", "fake", "--mode", "multi-turn", "--subset", "mini", "--jobs", "2",
            "--tasks-dir", tasks, "--shard", std::to_string(i) + "/2", "--run-dir", root + "/shard" + std::to_string(i)});
    EXPECT_EQ(cmd_bench(a.argc(), a.argv(), fake()), 0);
  }
  Argv m({"merge", root + "/all", root + "/shard0", root + "/shard1"});
  EXPECT_EQ(cmd_merge(m.argc(), m.argv()), 0);
  Argv r({"report", root + "/all", "--out", root + "/r.html", "--md", root + "/r.md"});
  EXPECT_EQ(cmd_report(r.argc(), r.argv()), 0);
  // Re-running a shard with another config is refused with a clear message.
  Argv clash({"bench", "--model", "other", "--mode", "multi-turn", "--subset", "mini", "--tasks-dir", tasks,
              "--shard", "0/2", "--run-dir", root + "/shard0"});
  EXPECT_EQ(cmd_bench(clash.argc(), clash.argv(), fake()), 2);
  std::string out = ::testing::internal::GetCapturedStdout();
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(out.find("merged 6 episodes"), std::string::npos) << out;
  EXPECT_NE(err.find("model: fake vs other"), std::string::npos) << err;
  EXPECT_TRUE(fs::exists(root + "/r.html"));
  EXPECT_NE(testing::read_file(root + "/r.md").find("# NKI-Agent benchmark report"), std::string::npos);
}

}  // namespace
}  // namespace nki::cli
