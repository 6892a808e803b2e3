#include "eval/metrics.h"

#include <gtest/gtest.h>

#include "eval_test_support.h"

namespace nki::eval {
namespace {

EpisodeOutcome outcome(Verdict v, int turns, bool strict, double cost, std::int64_t tin, std::int64_t tout) {
  EpisodeOutcome o;
  o.verdict = v;
  o.turns_used = turns;
  if (v.passed()) o.pass_turn = turns;
  o.tolerance_pass = v.passed();
  o.strict_pass = strict;
  o.cost_usd = cost;
  o.tokens_in = tin;
  o.tokens_out = tout;
  o.wall_seconds = turns * 10.0;
  return o;
}

// A hand-built run: 2 samples for each of 4 tasks, one episode left unfinished.
class MetricsOnSyntheticDb : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::make_temp_dir("metrics");
    ResultsDb db(results_db_path(dir_));
    RunConfig c;
    c.model = "m";
    c.subset = "mini";
    c.samples = 2;
    c.max_turns = 10;
    c.task_count = 4;
    c.task_list_fingerprint = "f";
    db.init_run(c);
    auto put = [&](TaskRef t, int s, EpisodeOutcome o) {
      db.mark_started(t, s);
      db.record_finished(t, s, "m", o);
    };
    TaskRef a{"a", 1}, b{"b", 1}, c2{"c", 2}, d{"d", 3};
    put(a, 0, outcome(Verdict::pass(), 1, true, 0.10, 1000, 100));
    put(a, 1, outcome(Verdict::pass(), 3, false, 0.30, 3000, 300));
    put(b, 0, outcome(Verdict::compile_error("err_x"), 10, false, 0.50, 5000, 500));
    put(b, 1, outcome(Verdict::compile_error("err_y"), 4, false, 0.20, 2000, 200));
    put(c2, 0, outcome(Verdict::of(VerdictKind::Mismatch), 10, false, 0.40, 4000, 400));
    put(c2, 1, outcome(Verdict::pass(), 3, true, 0.30, 3000, 300));
    auto unpriced = outcome(Verdict::of(VerdictKind::BudgetExhausted), 10, false, 0.20, 2000, 200);
    unpriced.cost_known = false;
    put(d, 0, unpriced);
    db.mark_started(d, 1);  // killed mid-episode
    m_ = load_run_metrics(dir_);
  }
  std::string dir_;
  RunMetrics m_;
};

TEST_F(MetricsOnSyntheticDb, CountsAndRates) {
  EXPECT_EQ(m_.expected_episodes, 8);
  EXPECT_EQ(m_.finished, 7);
  EXPECT_EQ(m_.unfinished, 1);
  EXPECT_EQ(m_.overall.passed, 3);
  EXPECT_EQ(m_.overall.total, 7);
  EXPECT_EQ(m_.by_level.at(1).passed, 2);
  EXPECT_EQ(m_.by_level.at(1).total, 4);
  EXPECT_EQ(m_.by_level.at(2).passed, 1);
  EXPECT_EQ(m_.by_level.at(3).total, 1);
  EXPECT_EQ(m_.strict_overall.passed, 2);
  EXPECT_EQ(m_.strict_by_level.at(1).passed, 1);
  EXPECT_EQ(m_.tasks_seen, 4);
  EXPECT_EQ(m_.tasks_solved, 2);
}

TEST_F(MetricsOnSyntheticDb, TurnsFailuresAndCost) {
  EXPECT_EQ(m_.turns_to_pass, (std::map<int, int>{{1, 1}, {3, 2}}));
  EXPECT_NEAR(m_.mean_turns_to_pass, 7.0 / 3.0, 1e-12);
  EXPECT_EQ(m_.failures, (std::map<std::string, int>{{"compile_error", 2}, {"mismatch", 1}, {"budget_exhausted", 1}}));
  EXPECT_EQ(m_.compile_codes, (std::map<std::string, int>{{"err_x", 1}, {"err_y", 1}}));
  EXPECT_NEAR(m_.cost_usd, 2.0, 1e-12);
  EXPECT_EQ(m_.cost_unknown_episodes, 1);
  EXPECT_NEAR(m_.cost_per_episode(), 2.0 / 7, 1e-12);
  EXPECT_NEAR(m_.cost_per_pass(), 2.0 / 3, 1e-12);
  EXPECT_EQ(m_.tokens_in, 20000);
  EXPECT_EQ(m_.tokens_out, 2000);
  EXPECT_NEAR(m_.tokens_per_pass(), 22000.0 / 3, 1e-9);
  EXPECT_NEAR(m_.wall_seconds_total, 410.0, 1e-9);
  EXPECT_NEAR(m_.wall_seconds_p50, 40.0, 1e-9);   // sorted: 10 30 30 40 100 100 100
  EXPECT_NEAR(m_.wall_seconds_p90, 100.0, 1e-9);
}

TEST_F(MetricsOnSyntheticDb, PassAtKPerTask) {
  // Tasks: a 2/2, b 0/2, c 1/2, d 0/1 (skipped for k=2).
  ASSERT_EQ(m_.pass_at_k.size(), 2u);
  EXPECT_EQ(m_.pass_at_k[0].first, 1);
  EXPECT_NEAR(m_.pass_at_k[0].second, (1.0 + 0.0 + 0.5 + 0.0) / 4, 1e-12);
  EXPECT_EQ(m_.pass_at_k[1].first, 2);
  EXPECT_NEAR(m_.pass_at_k[1].second, (1.0 + 0.0 + 1.0) / 3, 1e-12);
}

TEST(Metrics, WilsonInterval) {
  auto half = wilson_interval({5, 10});
  EXPECT_NEAR(half.lo, 0.2366, 1e-4);  // textbook values for 5/10
  EXPECT_NEAR(half.hi, 0.7634, 1e-4);
  auto none = wilson_interval({0, 10});
  EXPECT_EQ(none.lo, 0.0);
  EXPECT_NEAR(none.hi, 3.8416 / 13.8416, 1e-6);  // z^2 / (n + z^2)
  auto all = wilson_interval({10, 10});
  EXPECT_NEAR(all.lo, 10.0 / 13.8416, 1e-6);
  EXPECT_EQ(all.hi, 1.0);
  auto big = wilson_interval({116, 150});
  EXPECT_NEAR(big.lo, 0.7003, 1e-3);
  EXPECT_NEAR(big.hi, 0.8330, 1e-3);
}

// KernelBench's fast_p: correct AND speedup > p, over every finished episode; a failing kernel
// or a task without a baseline is never fast; geomean over the kernels with a speedup.
TEST(Metrics, SpeedFastPAndGeomean) {
  auto ep = [](bool pass, std::optional<double> est, std::optional<double> base) {
    EpisodeOutcome o;
    o.verdict = pass ? Verdict::pass() : Verdict::of(VerdictKind::Mismatch);
    o.est_latency_ns = est;
    o.baseline_ns = base;
    if (est) o.pct_of_peak = 10.0;
    return o;
  };
  SpeedStats sp;
  sp.add(ep(true, 500, 1000));          // 2.0x: fast_1 and fast_1.5, not fast_2 (strict >)
  sp.add(ep(true, 1000, 1000));         // 1.0x: not fast_1
  sp.add(ep(true, 250, 1000));          // 4.0x
  sp.add(ep(false, 100, 1000));         // fails: never fast, no speedup
  sp.add(ep(true, 100, std::nullopt));  // no baseline
  EXPECT_EQ(sp.episodes, 5);
  EXPECT_EQ(sp.with_speedup, 3);
  EXPECT_EQ(sp.no_baseline, 1);
  EXPECT_DOUBLE_EQ(sp.fast_p(0), 2.0 / 5);
  EXPECT_DOUBLE_EQ(sp.fast_p(1), 2.0 / 5);
  EXPECT_DOUBLE_EQ(sp.fast_p(2), 1.0 / 5);
  EXPECT_NEAR(sp.geomean_speedup(), 2.0, 1e-12);  // (2 * 1 * 4)^(1/3)
  EXPECT_DOUBLE_EQ(sp.mean_pct_of_peak(), 10.0);   // passing kernels with an estimate: 4
  EXPECT_EQ(sp.pct_of_peak_count, 4);
  EXPECT_FALSE(ep(false, 100, 1000).speedup().has_value());
  EXPECT_DOUBLE_EQ(*ep(true, 400, 1000).speedup(), 2.5);
}

TEST(Metrics, ShardSize) {
  EXPECT_EQ(shard_size(10, {0, 3}), 4);
  EXPECT_EQ(shard_size(10, {1, 3}), 3);
  EXPECT_EQ(shard_size(10, {2, 3}), 3);
  EXPECT_EQ(shard_size(2, {3, 4}), 0);
  EXPECT_EQ(shard_size(10, {}), 10);
}

}  // namespace
}  // namespace nki::eval
