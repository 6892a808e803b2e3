// `bench` and `tasks` expand a subset through one loader (eval/task_list.h): the same tasks,
// in the same order, for explicit lists and for `all` (every task directory); both reject a
// subsets/all.txt that would give `all` a second meaning (issue 16, step 7).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>

#include "base/diagnostic.h"
#include "cli/cmd_bench.h"
#include "cli/commands.h"
#include "eval_test_support.h"

namespace nki::cli {
namespace {

namespace fs = std::filesystem;
namespace testing = eval::testing;

struct Argv {
  std::vector<std::string> args;
  std::vector<char*> ptrs;
  explicit Argv(std::vector<std::string> a) : args(std::move(a)) {
    for (auto& s : args) ptrs.push_back(s.data());
  }
};

// A task tree whose directories are not all listed in any subset: l1_a, l2_b, l3_c, l1_z;
// subsets/two.txt lists l3_c then l1_a.
std::string make_tree() {
  std::string dir = testing::make_temp_dir("subsets") + "/tasks";
  fs::create_directories(dir + "/subsets");
  for (const std::string id : {"l1_a", "l2_b", "l3_c", "l1_z"}) {
    fs::create_directories(dir + "/" + id);
    std::ofstream(dir + "/" + id + "/task.json")
        << R"({"id": ")" << id << R"(", "level": )" << id[1]
        << R"(, "category": "elementwise", "tags": [], "description": "d", "origin": "test",
  "family": "f", "init_args": [],
  "inputs": [{"name": "x", "shape": [4], "dtype": "float32", "dist": {"kind": "normal", "mean": 0.0, "std": 1.0}}],
  "parameters": [], "buffers": [], "outputs": [{"shape": [4], "dtype": "float32"}],
  "tolerance": null, "seed": 1, "trials": 1})";
    std::ofstream(dir + "/" + id + "/reference.py") << "# never run by these tests\n";
  }
  std::ofstream(dir + "/subsets/two.txt") << "# order matters\nl3_c\nl1_a\n";
  return dir;
}

// Task ids in the order `nkiagent tasks list` prints them; *code gets the exit code.
std::vector<std::string> tasks_list(const std::string& dir, const std::string& subset, int* code,
                                    const std::string& task_flag = "") {
  std::vector<std::string> args = {"tasks", "list", "--subset", subset, "--tasks-dir", dir};
  if (!task_flag.empty()) args.insert(args.end(), {"--task", task_flag});
  Argv a(args);
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  try {
    *code = run_command(make_tasks_command(), static_cast<int>(a.ptrs.size()), a.ptrs.data());
  } catch (const IoError&) {
    *code = 2;  // what run_cli maps an IoError to
  }
  std::string out = ::testing::internal::GetCapturedStdout();
  ::testing::internal::GetCapturedStderr();
  std::vector<std::string> ids;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) ids.push_back(line.substr(0, line.find(' ')));
  return ids;
}

// Task ids `nkiagent bench` runs episodes for, in work-list order (one job, one sample).
std::vector<std::string> bench_tasks(const std::string& dir, const std::string& subset, int* code) {
  std::vector<std::string> seen;
  std::mutex m;
  eval::EpisodeFn fn = [&](const eval::EpisodeRequest& r) {
    std::lock_guard<std::mutex> lock(m);
    seen.push_back(r.task_id);
    return testing::fake_outcome(r);
  };
  std::string run_dir = testing::make_temp_dir("subsets_run") + "/run";
  Argv a({"bench", "--model", "fake", "--mode", "single-shot", "--subset", subset, "--tasks-dir", dir,
          "--run-dir", run_dir});
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  *code = run_command(make_bench_command([fn](const ParsedOptions&) { return fn; }),
                      static_cast<int>(a.ptrs.size()), a.ptrs.data());
  ::testing::internal::GetCapturedStdout();
  ::testing::internal::GetCapturedStderr();
  return seen;
}

TEST(SubsetAgreement, BenchAndTasksExpandEverySubsetTheSameWay) {
  std::string dir = make_tree();
  for (const std::string subset : {"two", "all"}) {
    int tasks_code = -1, bench_code = -1;
    std::vector<std::string> listed = tasks_list(dir, subset, &tasks_code);
    std::vector<std::string> run = bench_tasks(dir, subset, &bench_code);
    EXPECT_EQ(tasks_code, 0) << subset;
    EXPECT_EQ(bench_code, 0) << subset;
    EXPECT_EQ(listed, run) << subset;
  }
  int code = -1;
  EXPECT_EQ(tasks_list(dir, "all", &code), (std::vector<std::string>{"l1_a", "l1_z", "l2_b", "l3_c"}));
  EXPECT_EQ(tasks_list(dir, "two", &code), (std::vector<std::string>{"l3_c", "l1_a"}));
}

TEST(SubsetAgreement, BothRejectAnAllListAndUnknownSubsets) {
  std::string dir = make_tree();
  int tasks_code = -1, bench_code = -1;
  tasks_list(dir, "nope", &tasks_code);
  bench_tasks(dir, "nope", &bench_code);
  EXPECT_EQ(tasks_code, 2);
  EXPECT_EQ(bench_code, 2);
  std::ofstream(dir + "/subsets/all.txt") << "l1_a\n";
  tasks_list(dir, "all", &tasks_code);
  EXPECT_TRUE(bench_tasks(dir, "all", &bench_code).empty());
  EXPECT_EQ(tasks_code, 2);
  EXPECT_EQ(bench_code, 2);
}

// --task picks tasks by id in the given order, in place of --subset; an unknown id is an error.
TEST(SubsetAgreement, TaskFlagSelectsTasksInPlaceOfTheSubset) {
  std::string dir = make_tree();
  int code = -1;
  EXPECT_EQ(tasks_list(dir, "two", &code, "l1_z,l2_b"), (std::vector<std::string>{"l1_z", "l2_b"}));
  EXPECT_EQ(code, 0);
  tasks_list(dir, "two", &code, "l1_z,nope");
  EXPECT_EQ(code, 2);
}

}  // namespace
}  // namespace nki::cli
