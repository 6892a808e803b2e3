#include "eval/merge.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>

#include "eval/metrics.h"
#include "eval/results_db.h"
#include "eval/runner.h"
#include "eval/task_list.h"
#include "eval_test_support.h"

namespace nki::eval {
namespace {

using testing::fake_outcome;

struct Fixture {
  std::string root = testing::make_temp_dir("shard");
  std::string tasks = root + "/tasks";
  Fixture() { testing::write_fake_tasks(tasks, 3); }

  BenchOptions options(const std::string& run, ShardSpec shard = {}) const {
    auto o = testing::quiet_options(tasks, root + "/" + run);
    o.config.samples = 3;
    o.config.max_turns = 5;
    o.config.shard = shard;
    return o;
  }
};

std::map<EpisodeKey, std::string> verdicts(const std::string& run_dir) {
  std::map<EpisodeKey, std::string> out;
  ResultsDb db(results_db_path(run_dir));
  for (const auto& e : db.load_episodes(true))
    out[{e.task.id, e.sample}] = std::string(verdict_kind_name(e.outcome.verdict.kind)) + e.outcome.verdict.code +
                                 "/" + std::to_string(e.outcome.turns.size()) + "/" +
                                 std::to_string(e.outcome.tokens_in);
  return out;
}

TEST(ShardMerge, MergedShardsEqualTheUnshardedRun) {
  Fixture f;
  EpisodeFn fn = [](const EpisodeRequest& r) { return fake_outcome(r); };
  run_bench(f.options("whole"), fn);
  std::vector<std::string> shards;
  for (int i = 0; i < 3; ++i) {
    run_bench(f.options("s" + std::to_string(i), {i, 3}), fn);
    shards.push_back(f.root + "/s" + std::to_string(i));
  }
  auto summary = merge_runs(f.root + "/merged", shards);
  EXPECT_EQ(summary.merged, 27);
  EXPECT_EQ(summary.expected, 27);
  EXPECT_TRUE(summary.warnings.empty());

  EXPECT_EQ(verdicts(f.root + "/merged"), verdicts(f.root + "/whole"));
  auto a = load_run_metrics(f.root + "/whole"), b = load_run_metrics(f.root + "/merged");
  EXPECT_EQ(a.config, b.config);  // the merged run is an unsharded run of the same config
  EXPECT_EQ(b.expected_episodes, 27);
  EXPECT_EQ(a.overall.passed, b.overall.passed);
  EXPECT_EQ(a.pass_at_k, b.pass_at_k);
  EXPECT_NEAR(a.cost_usd, b.cost_usd, 1e-9);

  // Transcript paths now point from the merged dir into the shard dirs.
  for (const auto& t : b.tasks)
    for (const auto& s : t.samples) {
      EXPECT_TRUE(std::filesystem::path(s.transcript_path).is_absolute());
      EXPECT_NE(s.transcript_path.find("/s"), std::string::npos) << s.transcript_path;
    }
}

TEST(ShardMerge, DuplicatesAreDetected) {
  Fixture f;
  EpisodeFn fn = [](const EpisodeRequest& r) { return fake_outcome(r); };
  run_bench(f.options("a", {0, 2}), fn);
  try {
    merge_runs(f.root + "/m", {f.root + "/a", f.root + "/a"});
    FAIL() << "expected a duplicate error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("is in both"), std::string::npos) << e.what();
  }
  auto s = merge_runs(f.root + "/m2", {f.root + "/a", f.root + "/a"}, {/*keep_first=*/true});
  EXPECT_EQ(s.duplicates_skipped, s.merged);
  EXPECT_FALSE(s.warnings.empty());  // shard 1/2 missing, and coverage incomplete
}

TEST(ShardMerge, MergedRunCanBeCompletedByAnUnshardedBench) {
  Fixture f;
  EpisodeFn fn = [](const EpisodeRequest& r) { return fake_outcome(r); };
  run_bench(f.options("s0", {0, 2}), fn);  // shard 1/2 never ran (say its array task died)
  auto summary = merge_runs(f.root + "/m", {f.root + "/s0"});
  EXPECT_EQ(summary.merged, 14);
  std::set<EpisodeKey> ran;
  auto s = run_bench(f.options("m"), [&](const EpisodeRequest& r) {
    ran.insert({r.task_id, r.sample});
    return fake_outcome(r);
  });
  EXPECT_EQ(s.ran, 13);
  EXPECT_EQ(s.finished_total, 27);
  for (const auto& w : expand_work(load_subset(f.tasks, "mini"), 3, {1, 2}))
    EXPECT_EQ(ran.count({w.task.id, w.sample}), 1u) << w.task.id;
}

TEST(ShardMerge, ConfigMismatchIsRefused) {
  Fixture f;
  EpisodeFn fn = [](const EpisodeRequest& r) { return fake_outcome(r); };
  run_bench(f.options("a", {0, 2}), fn);
  auto other = f.options("b", {1, 2});
  other.config.model = "another-model";
  run_bench(other, fn);
  EXPECT_THROW(merge_runs(f.root + "/m", {f.root + "/a", f.root + "/b"}), ConfigMismatch);
  EXPECT_THROW(merge_runs(f.root + "/m", {f.root + "/nonexistent"}), std::runtime_error);
}

}  // namespace
}  // namespace nki::eval
