#include "eval/task_list.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "eval_test_support.h"

namespace nki::eval {
namespace {

using testing::make_temp_dir;
using testing::write_fake_tasks;

TEST(TaskList, LoadsSubsetInFileOrderWithLevels) {
  auto dir = make_temp_dir("tasks");
  auto ids = write_fake_tasks(dir, 2);
  auto tasks = load_subset(dir, "mini");
  ASSERT_EQ(tasks.size(), 6u);
  for (size_t i = 0; i < tasks.size(); ++i) EXPECT_EQ(tasks[i].id, ids[i]);
  EXPECT_EQ(tasks[0].level, 1);
  EXPECT_EQ(tasks[5].level, 3);
}

TEST(TaskList, AllMeansEveryTaskDirectorySorted) {
  auto dir = make_temp_dir("tasks");
  write_fake_tasks(dir, 1);
  auto tasks = load_subset(dir, "all");
  ASSERT_EQ(tasks.size(), 3u);
  EXPECT_EQ(tasks[0].id, "l1_t0");
  EXPECT_EQ(tasks[2].id, "l3_t0");
}

TEST(TaskList, AllIsReservedForEveryTaskDirectory) {
  auto dir = make_temp_dir("tasks");
  write_fake_tasks(dir, 1);
  std::ofstream(std::filesystem::path(dir) / "subsets" / "all.txt") << "l1_t0\n";
  try {
    load_subset(dir, "all");
    FAIL() << "a subsets/all.txt must not silently change what 'all' means";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("all.txt"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("reserved"), std::string::npos) << e.what();
  }
}

TEST(TaskList, ErrorsNameTheFile) {
  auto dir = make_temp_dir("tasks");
  write_fake_tasks(dir, 1);
  try {
    load_subset(dir, "nope");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("nope.txt"), std::string::npos) << e.what();
  }
  std::ofstream(std::filesystem::path(dir) / "subsets" / "bad.txt") << "l1_t0\nmissing_task\n";
  EXPECT_THROW(load_subset(dir, "bad"), std::runtime_error);
  std::ofstream(std::filesystem::path(dir) / "l1_t0" / "task.json") << "{\"level\": 7}";
  EXPECT_THROW(load_subset(dir, "mini"), std::runtime_error);
}

TEST(TaskList, FingerprintChangesWithIdsAndLevels) {
  std::vector<TaskRef> a = {{"x", 1}, {"y", 2}};
  auto b = a;
  b[1].level = 3;
  std::vector<TaskRef> c = {{"xy", 1}, {"", 2}};
  EXPECT_EQ(fingerprint(a), fingerprint(a));
  EXPECT_NE(fingerprint(a), fingerprint(b));
  EXPECT_NE(fingerprint(a), fingerprint(c));
  EXPECT_EQ(fingerprint(a).size(), 16u);
}

TEST(TaskList, ShardsPartitionTheWorkList) {
  std::vector<TaskRef> tasks;
  for (int i = 0; i < 7; ++i) tasks.push_back({"t" + std::to_string(i), 1 + i % 3});
  auto whole = expand_work(tasks, 3, {});
  ASSERT_EQ(whole.size(), 21u);
  std::multiset<std::pair<std::string, int>> seen;
  for (int s = 0; s < 4; ++s)
    for (const auto& w : expand_work(tasks, 3, {s, 4})) seen.insert({w.task.id, w.sample});
  EXPECT_EQ(seen.size(), 21u);
  for (const auto& w : whole) EXPECT_EQ(seen.count({w.task.id, w.sample}), 1u);
  // Deterministic: the same shard twice gives the same list.
  auto a = expand_work(tasks, 3, {1, 4}), b = expand_work(tasks, 3, {1, 4});
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].task.id + std::to_string(a[i].sample), b[i].task.id + std::to_string(b[i].sample));
}

TEST(TaskList, ParseShard) {
  EXPECT_EQ(parse_shard("0/4"), (ShardSpec{0, 4}));
  EXPECT_EQ(parse_shard("3/4"), (ShardSpec{3, 4}));
  for (const char* bad : {"4/4", "-1/4", "1/0", "a/b", "1/", "/2", "1/2x", "12"})
    EXPECT_THROW(parse_shard(bad), std::invalid_argument) << bad;
}

}  // namespace
}  // namespace nki::eval
