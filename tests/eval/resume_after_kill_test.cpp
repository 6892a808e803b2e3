// The crash-safety promise: SIGKILL at any moment loses no finished episode, and re-running the
// same command finishes the rest without re-running what was done.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "cli/cmd_bench.h"
#include "eval/metrics.h"
#include "eval/results_db.h"
#include "eval/runner.h"
#include "eval_test_support.h"

namespace nki::eval {
namespace {

using testing::fake_outcome;

std::vector<std::string> bench_argv(const std::string& tasks, const std::string& run, int jobs) {
  return {"bench", "--model", "fake-model", "--mode", "agent", "--subset", "mini", "--samples", "2",
          "--jobs", std::to_string(jobs), "--tasks-dir", tasks, "--run-dir", run};
}

int call_bench(std::vector<std::string> args, EpisodeFn fn) {
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  cli::Command bench = cli::make_bench_command([&fn](const cli::ParsedOptions&) { return fn; });
  return cli::run_command(bench, static_cast<int>(argv.size()), argv.data());
}

TEST(ResumeAfterKill, FinishedEpisodesSurviveAndAreNotRerun) {
  auto root = testing::make_temp_dir("kill");
  std::string tasks = root + "/tasks", run = root + "/run";
  testing::write_fake_tasks(tasks, 4);  // 12 tasks x 2 samples = 24 episodes
  std::string db_path = results_db_path(run);

  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // The first episodes are quick; later ones hang, so however slowly the parent is scheduled,
    // the kill lands while both workers are inside an episode and never after the run ended.
    std::freopen("/dev/null", "w", stdout);
    std::freopen("/dev/null", "w", stderr);
    std::atomic<int> calls{0};
    int rc = call_bench(bench_argv(tasks, run, 2), [&calls](const EpisodeRequest& r) {
      bool quick = calls++ < 8;
      std::this_thread::sleep_for(quick ? std::chrono::milliseconds(40) : std::chrono::milliseconds(60000));
      return fake_outcome(r);
    });
    _exit(rc);
  }

  // Wait until the quick episodes are finished and both workers hang in the next ones, then kill
  // without warning.
  std::set<EpisodeKey> before;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    if (!std::filesystem::exists(db_path)) continue;
    try {
      ResultsDb probe(db_path);
      if (probe.finished_keys().size() >= 8 && probe.count_interrupted() == 2) break;
    } catch (const std::exception&) {
      // The child may be creating the schema right now.
    }
  }
  ASSERT_EQ(kill(child, SIGKILL), 0);
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the run finished before it could be killed";

  int interrupted = 0;
  {
    ResultsDb db(db_path);
    before = db.finished_keys();
    interrupted = db.count_interrupted();
  }
  EXPECT_EQ(before.size(), 8u);
  EXPECT_EQ(interrupted, 2) << "both workers were inside a hanging episode when killed";

  std::mutex mu;
  std::set<EpisodeKey> rerun;
  int rc = call_bench(bench_argv(tasks, run, 3), [&](const EpisodeRequest& r) {
    std::lock_guard lock(mu);
    rerun.insert({r.task_id, r.sample});
    return fake_outcome(r);
  });
  EXPECT_EQ(rc, 0);
  for (const auto& k : rerun) EXPECT_EQ(before.count(k), 0u) << k.first << "#" << k.second << " was run twice";
  EXPECT_EQ(rerun.size() + before.size(), 24u);

  // Totals equal those of an uninterrupted run of the same episodes.
  auto resumed = load_run_metrics(run);
  std::string clean_dir = root + "/clean";
  ASSERT_EQ(call_bench(bench_argv(tasks, clean_dir, 2), [](const EpisodeRequest& r) { return fake_outcome(r); }), 0);
  auto clean = load_run_metrics(clean_dir);
  EXPECT_EQ(resumed.finished, 24);
  EXPECT_EQ(resumed.unfinished, 0);
  EXPECT_EQ(resumed.overall.passed, clean.overall.passed);
  EXPECT_EQ(resumed.failures, clean.failures);
  EXPECT_EQ(resumed.turns_to_pass, clean.turns_to_pass);
  EXPECT_EQ(resumed.tokens_in, clean.tokens_in);
  EXPECT_NEAR(resumed.cost_usd, clean.cost_usd, 1e-9);

  // Interrupted episodes were restarted, so they show a second attempt.
  ResultsDb db(db_path);
  int restarted = 0;
  for (const auto& e : db.load_episodes())
    if (e.attempts > 1) ++restarted;
  EXPECT_EQ(restarted, interrupted);
}

TEST(ResumeAfterKill, FirstSigintFinishesEpisodesInFlight) {
  auto root = testing::make_temp_dir("sigint");
  std::string tasks = root + "/tasks", run = root + "/run";
  testing::write_fake_tasks(tasks, 4);
  std::string db_path = results_db_path(run);

  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::freopen("/dev/null", "w", stdout);
    std::freopen("/dev/null", "w", stderr);
    int rc = call_bench(bench_argv(tasks, run, 2), [](const EpisodeRequest& r) {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      return fake_outcome(r);
    });
    _exit(rc);
  }
  // Interrupt while both workers are inside an episode.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (!std::filesystem::exists(db_path)) continue;
    try {
      ResultsDb probe(db_path);
      if (probe.count_interrupted() == 2) break;
    } catch (const std::exception&) {
    }
  }
  ASSERT_EQ(kill(child, SIGINT), 0);
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status)) << "a single SIGINT must let bench exit on its own";
  EXPECT_EQ(WEXITSTATUS(status), 1);

  ResultsDb db(db_path);
  EXPECT_EQ(db.count_interrupted(), 0) << "the episodes in flight were finished and recorded";
  auto finished = db.finished_keys().size();
  EXPECT_GE(finished, 2u);
  EXPECT_LT(finished, 24u);
}

}  // namespace
}  // namespace nki::eval
