#include "eval/results_db.h"

#include <gtest/gtest.h>

#include "eval/sqlite.h"
#include "eval_test_support.h"

namespace nki::eval {
namespace {

RunConfig sample_config() {
  RunConfig c;
  c.model = "m";
  c.mode = Mode::MultiTurn;
  c.subset = "mini";
  c.samples = 2;
  c.max_turns = 5;
  c.task_list_fingerprint = "abc";
  c.task_count = 3;
  return c;
}

TEST(ResultsDb, ConfigRoundTripsAndMismatchIsNamed) {
  auto dir = testing::make_temp_dir("db");
  ResultsDb db(results_db_path(dir));
  EXPECT_FALSE(db.stored_config().has_value());
  db.init_run(sample_config());
  EXPECT_EQ(*db.stored_config(), sample_config());
  db.init_run(sample_config());  // same config: fine (a resume)
  auto other = sample_config();
  other.samples = 3;
  other.model = "n";
  try {
    db.init_run(other);
    FAIL() << "expected ConfigMismatch";
  } catch (const ConfigMismatch& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("samples: 2 vs 3"), std::string::npos) << msg;
    EXPECT_NE(msg.find("model: m vs n"), std::string::npos) << msg;
  }
}

TEST(ResultsDb, StartedThenFinishedRoundTrip) {
  auto dir = testing::make_temp_dir("db");
  ResultsDb db(results_db_path(dir));
  db.init_run(sample_config());
  TaskRef t{"l2_x", 2};
  db.mark_started(t, 1);
  EXPECT_EQ(db.count_interrupted(), 1);
  EXPECT_TRUE(db.finished_keys().empty());

  EpisodeOutcome o;
  o.verdict = Verdict::compile_error("err_psum");
  o.turns_used = 2;
  o.turns = {{1, "compile", "err_psum", 10, 5, 2, 0.01, 1.0}, {2, "compile", "err_psum", 20, 6, 3, 0.02, 2.0}};
  o.tokens_in = 30;
  o.tokens_out = 11;
  o.tokens_cached = 5;
  o.cost_usd = 0.03;
  o.cost_known = false;
  o.wall_seconds = 3.0;
  o.transcript_path = "transcripts/l2_x/s1.jsonl";
  o.error_message = "psum overflow";
  db.record_finished(t, 1, "m", o);

  EXPECT_EQ(db.count_interrupted(), 0);
  EXPECT_EQ(db.finished_keys(), (std::set<EpisodeKey>{{"l2_x", 1}}));
  auto eps = db.load_episodes(true);
  ASSERT_EQ(eps.size(), 1u);
  const auto& e = eps[0];
  EXPECT_TRUE(e.finished);
  EXPECT_EQ(e.task.level, 2);
  EXPECT_EQ(e.attempts, 1);
  EXPECT_EQ(e.outcome.verdict.kind, VerdictKind::CompileError);
  EXPECT_EQ(e.outcome.verdict.code, "err_psum");
  EXPECT_FALSE(e.outcome.pass_turn.has_value());
  EXPECT_EQ(e.outcome.tokens_in, 30);
  EXPECT_DOUBLE_EQ(e.outcome.cost_usd, 0.03);
  EXPECT_FALSE(e.outcome.cost_known);
  ASSERT_EQ(e.outcome.turns.size(), 2u);
  EXPECT_EQ(e.outcome.turns[1].tokens_in, 20);
  EXPECT_EQ(e.outcome.error_message, "psum overflow");
  EXPECT_EQ(e.model, "m");
}

TEST(ResultsDb, RestartBumpsAttemptsAndDropsStaleTurns) {
  auto dir = testing::make_temp_dir("db");
  ResultsDb db(results_db_path(dir));
  db.init_run(sample_config());
  TaskRef t{"l1_y", 1};
  db.mark_started(t, 0);
  db.mark_started(t, 0);  // the first attempt was interrupted
  EpisodeOutcome o;
  o.verdict = Verdict::pass();
  o.pass_turn = 1;
  o.turns_used = 1;
  o.turns = {{1, "verify", "pass", 1, 1, 0, 0.0, 0.0}};
  db.record_finished(t, 0, "m", o);
  auto eps = db.load_episodes(true);
  ASSERT_EQ(eps.size(), 1u);
  EXPECT_EQ(eps[0].attempts, 2);
  EXPECT_EQ(eps[0].outcome.turns.size(), 1u);
  EXPECT_EQ(eps[0].outcome.pass_turn, 1);
}

TEST(ResultsDb, UsesWriteAheadLogging) {
  auto dir = testing::make_temp_dir("db");
  { ResultsDb db(results_db_path(dir)); }
  Database raw(results_db_path(dir));
  auto st = raw.prepare("PRAGMA journal_mode");
  ASSERT_TRUE(st.step());
  EXPECT_EQ(st.text(0), "wal");
}

}  // namespace
}  // namespace nki::eval
