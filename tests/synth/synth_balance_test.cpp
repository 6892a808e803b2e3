// The balance rule of the corpus synthesiser (synth/balance.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "synth/balance.h"

namespace nki::synth {
namespace {

std::vector<PoolEntry> pool_of(int level, const std::string& cat, const std::string& dtype, const std::string& fam, int n,
                               const std::string& prefix) {
  std::vector<PoolEntry> p;
  for (int i = 0; i < n; ++i) p.push_back(PoolEntry{prefix + std::to_string(i), level, cat, dtype, fam});
  return p;
}

TEST(WaterFill, EqualSharesAndRedistribution) {
  auto s = water_fill({{"a", 100}, {"b", 100}, {"c", 100}}, 90);
  EXPECT_EQ(s["a"], 30);
  EXPECT_EQ(s["b"], 30);
  EXPECT_EQ(s["c"], 30);
  s = water_fill({{"a", 5}, {"b", 100}, {"c", 100}}, 90);  // a is short: its seats move on
  EXPECT_EQ(s["a"], 5);
  EXPECT_EQ(s["b"] + s["c"], 85);
  EXPECT_LE(std::abs(s["b"] - s["c"]), 1);
  s = water_fill({{"a", 5}, {"b", 7}}, 100);  // not enough: everything
  EXPECT_EQ(s["a"] + s["b"], 12);
  s = water_fill({{"a", 10}, {"b", 20}, {"c", 30}}, 2);  // fewer seats than buckets: largest first
  EXPECT_EQ(s["c"], 1);
  EXPECT_EQ(s["b"], 1);
  EXPECT_EQ(s["a"], 0);
}

TEST(Balance, ExactTargetSpreadOverLevelsStrataAndFamilies) {
  std::vector<PoolEntry> pool;
  for (auto& p : {pool_of(1, "act", "float32", "relu", 50, "a"), pool_of(1, "act", "bfloat16", "gelu", 50, "b"),
                  pool_of(2, "gemm", "float32", "g1", 40, "c"), pool_of(2, "gemm", "float32", "g2", 2, "d"),
                  pool_of(3, "attn", "float16", "sdpa", 8, "e")})
    pool.insert(pool.end(), p.begin(), p.end());
  std::vector<std::string> chosen = balance(pool, 60, 1);
  ASSERT_EQ(chosen.size(), 60u);
  EXPECT_TRUE(std::is_sorted(chosen.begin(), chosen.end()));
  std::map<char, int> by_prefix;
  for (const std::string& id : chosen) ++by_prefix[id[0]];
  EXPECT_EQ(by_prefix['e'], 8);                      // L3 has only 8: all taken
  EXPECT_EQ(by_prefix['a'] + by_prefix['b'], 26);    // the 52 other seats split over L1 and L2
  EXPECT_EQ(by_prefix['c'] + by_prefix['d'], 26);
  EXPECT_EQ(by_prefix['a'], by_prefix['b']);         // two equal strata in L1
  EXPECT_EQ(by_prefix['d'], 2);                      // round-robin: the small family is not starved
  // deterministic, independent of the pool's order
  std::vector<PoolEntry> reversed(pool.rbegin(), pool.rend());
  EXPECT_EQ(balance(reversed, 60, 1), chosen);
  EXPECT_NE(balance(pool, 60, 2), chosen);  // another seed picks other members
  EXPECT_EQ(balance(pool, 1000, 1).size(), pool.size());
}

TEST(Balance, AwkwardShareFollowsTheTargetAcrossStrata) {
  // Three strata of 60 tasks, 60 % of them awkward; 90 seats at a target share of 0.46.
  std::vector<PoolEntry> pool;
  for (const char* dtype : {"float32", "bfloat16", "float16"})
    for (int i = 0; i < 60; ++i)
      pool.push_back(PoolEntry{std::string(dtype) + std::to_string(i), 1, "act", dtype, "f" + std::to_string(i % 7), i % 5 < 3});
  auto awkward_in = [&](const std::vector<std::string>& ids) {
    int n = 0;
    for (const PoolEntry& e : pool) n += e.awkward && std::binary_search(ids.begin(), ids.end(), e.id);
    return n;
  };
  std::vector<std::string> chosen = balance(pool, 90, 3, 0.46);
  ASSERT_EQ(chosen.size(), 90u);
  EXPECT_EQ(awkward_in(chosen), 41);  // round(0.46 * 90)
  std::vector<std::string> plain = balance(pool, 90, 3);
  EXPECT_GT(awkward_in(plain), 45);   // without the split the pool's 60 % shows through
  // Not enough nice tasks (24 per stratum): the awkward side takes the rest of the seats.
  std::vector<std::string> mostly = balance(pool, 150, 3, 0.2);
  ASSERT_EQ(mostly.size(), 150u);
  EXPECT_EQ(awkward_in(mostly), 150 - 72);
}

}  // namespace
}  // namespace nki::synth
