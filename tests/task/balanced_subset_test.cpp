// The balanced150 rule on synthetic task lists (the real list can only be generated once every
// level has at least 50 tasks; repository_test.cpp checks it against tasks/ then).
#include "task/balanced_subset.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <stdexcept>

namespace nki {
namespace {

TaskProfile task(const std::string& id, int level, const std::string& category, const std::string& dtype,
                 const std::string& family) {
  TaskProfile p;
  p.id = id;
  p.level = level;
  p.category = category;
  p.dtype = dtype;
  p.family = family;
  return p;
}

// Per level: 60 activation/fp32 tasks in 20 families of 3, 30 reduction/bf16 in 30 families,
// 9 matmul/fp16 in 3 families, 1 layout/fp32: 100 tasks, 4 strata.
std::vector<TaskProfile> synthetic_pool() {
  std::vector<TaskProfile> pool;
  for (int level = 1; level <= 3; ++level) {
    std::string l = "l" + std::to_string(level) + "_";
    for (int i = 0; i < 60; ++i) pool.push_back(task(l + "act" + std::to_string(i), level, "activation", "fp32", "act" + std::to_string(i / 3)));
    for (int i = 0; i < 30; ++i) pool.push_back(task(l + "red" + std::to_string(i), level, "reduction", "bf16", "red" + std::to_string(i)));
    for (int i = 0; i < 9; ++i) pool.push_back(task(l + "mm" + std::to_string(i), level, "matmul", "fp16", "mm" + std::to_string(i / 3)));
    pool.push_back(task(l + "lay0", level, "layout", "fp32", "lay"));
  }
  return pool;
}

std::map<std::string, int> count_by(const std::vector<std::string>& ids, const std::vector<TaskProfile>& pool,
                                    const std::function<std::string(const TaskProfile&)>& key) {
  std::map<std::string, int> c;
  for (const std::string& id : ids)
    for (const TaskProfile& t : pool)
      if (t.id == id) ++c[key(t)];
  return c;
}

TEST(BalancedSubset, ExactlyPerLevelAndProportionalWithEveryStratumPresent) {
  std::vector<TaskProfile> pool = synthetic_pool();
  std::vector<std::string> ids = select_balanced(pool, 50);
  ASSERT_EQ(ids.size(), 150u);
  EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()).size(), 150u);
  auto levels = count_by(ids, pool, [](const TaskProfile& t) { return std::to_string(t.level); });
  EXPECT_EQ(levels, (std::map<std::string, int>{{"1", 50}, {"2", 50}, {"3", 50}}));
  // One seat each, then 46 seats in proportion to 59 : 29 : 8 : 0 (of 96):
  // 28.27 -> 28, 13.90 -> 13, 3.83 -> 3 (44 given), the two left go to remainders .90 and .83.
  auto strata = count_by(ids, pool, [](const TaskProfile& t) { return "L" + std::to_string(t.level) + " " + t.category; });
  for (int level = 1; level <= 3; ++level) {
    std::string l = "L" + std::to_string(level) + " ";
    EXPECT_EQ(strata[l + "activation"], 29) << level;
    EXPECT_EQ(strata[l + "reduction"], 15) << level;
    EXPECT_EQ(strata[l + "matmul"], 5) << level;
    EXPECT_EQ(strata[l + "layout"], 1) << level;
  }
  // Families are spread: 5 matmul seats over 3 families of 3 give 2/2/1, never 3/2/0.
  auto families = count_by(ids, pool, [](const TaskProfile& t) { return std::to_string(t.level) + t.family; });
  for (int level = 1; level <= 3; ++level)
    for (int f = 0; f < 3; ++f) {
      int n = families[std::to_string(level) + "mm" + std::to_string(f)];
      EXPECT_GE(n, 1);
      EXPECT_LE(n, 2);
    }
  // Output order: by level, then id.
  EXPECT_TRUE(std::is_sorted(ids.begin(), ids.end()));
}

TEST(BalancedSubset, DeterministicWhateverTheInputOrder) {
  std::vector<TaskProfile> pool = synthetic_pool();
  std::vector<std::string> first = select_balanced(pool, 50);
  std::mt19937 rng(7);
  for (int k = 0; k < 3; ++k) {
    std::shuffle(pool.begin(), pool.end(), rng);
    EXPECT_EQ(select_balanced(pool, 50), first);
  }
}

TEST(BalancedSubset, TooFewTasksInALevelIsAnErrorNamingIt) {
  std::vector<TaskProfile> pool = synthetic_pool();
  pool.erase(std::remove_if(pool.begin(), pool.end(),
                            [](const TaskProfile& t) { return t.level == 2 && t.category != "activation"; }),
             pool.end());
  pool.erase(std::remove_if(pool.begin(), pool.end(),
                            [](const TaskProfile& t) { return t.level == 2 && t.id > "l2_act4"; }),
             pool.end());
  try {
    select_balanced(pool, 50);
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("level 2 has"), std::string::npos) << e.what();
  }
  std::vector<TaskProfile> twice = {task("a", 1, "c", "fp32", "f"), task("a", 1, "c", "fp32", "f")};
  EXPECT_THROW(select_balanced(twice, 1), std::invalid_argument);
}

TEST(BalancedSubset, MoreStrataThanSeatsTakesTheLargest) {
  std::vector<TaskProfile> pool;
  for (int s = 0; s < 5; ++s)
    for (int i = 0; i <= s; ++i)
      pool.push_back(task("t" + std::to_string(s) + "_" + std::to_string(i), 1, "c" + std::to_string(s), "fp32", "f"));
  std::vector<std::string> ids = select_balanced(pool, 3);
  ASSERT_EQ(ids.size(), 3u);
  auto strata = count_by(ids, pool, [](const TaskProfile& t) { return t.category; });
  EXPECT_EQ(strata, (std::map<std::string, int>{{"c2", 1}, {"c3", 1}, {"c4", 1}}));
}

TEST(BalancedSubset, ListFileHasAHeaderAndOneIdPerLine) {
  std::string s = render_balanced_list({"l1_a", "l2_b"}, 1);
  EXPECT_EQ(s.substr(0, 2), "# ");
  EXPECT_NE(s.find("\nl1_a\nl2_b\n"), std::string::npos) << s;
}

}  // namespace
}  // namespace nki
