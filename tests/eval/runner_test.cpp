#include "eval/runner.h"

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <mutex>
#include <set>

#include "eval/results_db.h"
#include "eval_test_support.h"

namespace nki::eval {
namespace {

using testing::fake_outcome;
using testing::make_temp_dir;
using testing::quiet_options;
using testing::write_fake_tasks;

TEST(Runner, RunsEveryEpisodeOnceInParallelAndRecordsIt) {
  auto root = make_temp_dir("runner");
  write_fake_tasks(root + "/tasks", 3);
  auto opt = quiet_options(root + "/tasks", root + "/run");
  opt.config.samples = 2;
  opt.config.max_turns = 4;
  opt.jobs = 4;
  std::mutex mu;
  std::multiset<std::string> calls;
  std::set<std::string> transcripts;
  auto fn = [&](const EpisodeRequest& r) {
    std::lock_guard lock(mu);
    calls.insert(r.task_id + "#" + std::to_string(r.sample));
    transcripts.insert(r.transcript_path);
    EXPECT_EQ(r.max_turns, 4);
    EXPECT_EQ(r.model, "fake-model");
    EXPECT_TRUE(std::filesystem::is_directory(r.work_dir));
    EXPECT_EQ(r.level, r.task_id[1] - '0');
    return fake_outcome(r);
  };
  auto s = run_bench(opt, fn);
  EXPECT_EQ(s.total, 18);
  EXPECT_EQ(s.ran, 18);
  EXPECT_EQ(s.finished_total, 18);
  EXPECT_EQ(calls.size(), 18u);
  for (const auto& c : calls) EXPECT_EQ(calls.count(c), 1u) << c;
  EXPECT_EQ(transcripts.size(), 18u);

  ResultsDb db(results_db_path(root + "/run"));
  auto eps = db.load_episodes();
  ASSERT_EQ(eps.size(), 18u);
  for (const auto& e : eps) {
    // Paths inside the run directory are stored relative to it.
    EXPECT_EQ(e.outcome.transcript_path,
              "transcripts/" + e.task.id + "/s" + std::to_string(e.sample) + ".jsonl");
  }

  // A second identical run finds nothing to do.
  auto again = run_bench(opt, [&](const EpisodeRequest& r) {
    ADD_FAILURE() << "re-ran " << r.task_id;
    return fake_outcome(r);
  });
  EXPECT_EQ(again.ran, 0);
  EXPECT_EQ(again.already_finished, 18);
}

TEST(Runner, CrashedEpisodesStayUnfinishedAndAreRetried) {
  auto root = make_temp_dir("runner");
  write_fake_tasks(root + "/tasks", 1);
  auto opt = quiet_options(root + "/tasks", root + "/run");
  auto s = run_bench(opt, [](const EpisodeRequest& r) -> EpisodeOutcome {
    if (r.task_id == "l2_t0") throw std::runtime_error("provider exploded");
    return fake_outcome(r);
  });
  EXPECT_EQ(s.crashed, 1);
  EXPECT_EQ(s.finished_total, 2);
  auto retry = run_bench(opt, [](const EpisodeRequest& r) { return fake_outcome(r); });
  EXPECT_EQ(retry.ran, 1);
  EXPECT_EQ(retry.restarted, 1);
  EXPECT_EQ(retry.finished_total, 3);
}

TEST(Runner, RetryApiErrorsRerunsOnlyThose) {
  auto root = make_temp_dir("runner");
  write_fake_tasks(root + "/tasks", 2);
  auto opt = quiet_options(root + "/tasks", root + "/run");
  run_bench(opt, [](const EpisodeRequest& r) {
    EpisodeOutcome o;
    bool outage = r.task_id == "l1_t1" || r.task_id == "l3_t0";
    o.verdict = outage ? Verdict::of(VerdictKind::ApiError) : Verdict::pass();
    return o;
  });
  std::set<std::string> again;
  opt.retry_api_errors = true;
  auto s = run_bench(opt, [&](const EpisodeRequest& r) {
    again.insert(r.task_id);
    return fake_outcome(r);
  });
  EXPECT_EQ(again, (std::set<std::string>{"l1_t1", "l3_t0"}));
  EXPECT_EQ(s.retried_api_errors, 2);
  EXPECT_EQ(s.finished_total, 6);
}

TEST(Runner, DifferentConfigIntoSameDirIsRefused) {
  auto root = make_temp_dir("runner");
  write_fake_tasks(root + "/tasks", 1);
  auto opt = quiet_options(root + "/tasks", root + "/run");
  run_bench(opt, [](const EpisodeRequest& r) { return fake_outcome(r); });
  opt.config.max_turns = 3;
  EXPECT_THROW(run_bench(opt, [](const EpisodeRequest& r) { return fake_outcome(r); }), ConfigMismatch);
  // Parallelism is not part of the config.
  opt.config.max_turns = 10;
  opt.jobs = 3;
  EXPECT_NO_THROW(run_bench(opt, [](const EpisodeRequest& r) { return fake_outcome(r); }));
}

TEST(Runner, SecondConcurrentBenchInSameDirIsRefused) {
  auto root = make_temp_dir("runner");
  write_fake_tasks(root + "/tasks", 1);
  auto opt = quiet_options(root + "/tasks", root + "/run");
  bool inner_refused = false;
  run_bench(opt, [&](const EpisodeRequest& r) {
    if (r.task_id == "l1_t0") {
      try {
        run_bench(opt, [](const EpisodeRequest& q) { return fake_outcome(q); });
      } catch (const std::runtime_error& e) {
        inner_refused = std::string(e.what()).find("another bench is running") != std::string::npos;
      }
    }
    return fake_outcome(r);
  });
  EXPECT_TRUE(inner_refused);
}

TEST(Runner, StopRequestFinishesInFlightAndStartsNothingNew) {
  auto root = make_temp_dir("runner");
  write_fake_tasks(root + "/tasks", 3);  // 9 episodes
  auto opt = quiet_options(root + "/tasks", root + "/run");
  std::atomic<bool> stop{false};
  opt.stop = &stop;
  std::atomic<int> calls{0};
  auto s = run_bench(opt, [&](const EpisodeRequest& r) {
    if (++calls == 3) stop = true;  // e.g. Ctrl-C while the third episode runs
    return fake_outcome(r);
  });
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(s.ran, 3);  // the in-flight episode was still recorded
  EXPECT_EQ(s.not_started, 6);
  stop = false;
  auto rest = run_bench(opt, [](const EpisodeRequest& r) { return fake_outcome(r); });
  EXPECT_EQ(rest.ran, 6);
  EXPECT_EQ(rest.restarted, 0);
  EXPECT_EQ(rest.finished_total, 9);
}

TEST(Runner, NormalisesInconsistentOutcomes) {
  auto root = make_temp_dir("runner");
  write_fake_tasks(root + "/tasks", 1);
  auto opt = quiet_options(root + "/tasks", root + "/run");
  run_bench(opt, [](const EpisodeRequest& r) {
    EpisodeOutcome o;
    o.turns_used = 4;
    if (r.level == 1) {
      o.verdict = Verdict::pass();  // no pass_turn, tolerance_pass left false
    } else {
      o.verdict = Verdict::of(VerdictKind::Mismatch);
      o.verdict.code = "stray";
      o.pass_turn = 2;
      o.tolerance_pass = true;
    }
    return o;
  });
  ResultsDb db(results_db_path(root + "/run"));
  for (const auto& e : db.load_episodes()) {
    if (e.task.level == 1) {
      EXPECT_TRUE(e.outcome.tolerance_pass);
      EXPECT_EQ(e.outcome.pass_turn, 4);
    } else {
      EXPECT_FALSE(e.outcome.tolerance_pass);
      EXPECT_FALSE(e.outcome.pass_turn.has_value());
      EXPECT_EQ(e.outcome.verdict.code, "");
    }
  }
}

TEST(Runner, ShardRunsOnlyItsSlice) {
  auto root = make_temp_dir("runner");
  write_fake_tasks(root + "/tasks", 3);  // 9 tasks
  auto opt = quiet_options(root + "/tasks", root + "/run");
  opt.config.shard = {1, 4};
  std::set<std::string> ran;
  auto s = run_bench(opt, [&](const EpisodeRequest& r) {
    ran.insert(r.task_id);
    return fake_outcome(r);
  });
  EXPECT_EQ(s.total, 2);  // items 1 and 5 of 9
  EXPECT_EQ(ran, (std::set<std::string>{"l1_t1", "l2_t2"}));
}

}  // namespace
}  // namespace nki::eval
