// A results.sqlite that is not what this build wrote (unknown user_version, a missing table or
// column, a foreign or non-SQLite file) is refused with an IoError naming the file and the
// problem, in every command (exit code 2), instead of being read silently.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "base/diagnostic.h"
#include "cli/cmd_bench.h"
#include "cli/command.h"
#include "cli/commands.h"
#include "eval/results_db.h"
#include "eval/results_db_schema.h"
#include "eval/runner.h"
#include "eval/sqlite.h"
#include "eval_test_support.h"

namespace nki::eval {
namespace {

// The commands through the CLI's one parser, as nkiagent runs them.
int cmd_report(int argc, char** argv) { return cli::run_command(cli::make_report_command(), argc, argv); }
int cmd_merge(int argc, char** argv) { return cli::run_command(cli::make_merge_command(), argc, argv); }
int cmd_bench(int argc, char** argv, EpisodeFn fn) {
  return cli::run_command(cli::make_bench_command([fn](const cli::ParsedOptions&) { return fn; }), argc, argv);
}

namespace fs = std::filesystem;

struct Argv {
  std::vector<std::string> args;
  std::vector<char*> ptrs;
  explicit Argv(std::vector<std::string> a) : args(std::move(a)) {
    for (auto& s : args) ptrs.push_back(s.data());
  }
  int argc() { return static_cast<int>(ptrs.size()); }
  char** argv() { return ptrs.data(); }
};

// A finished bench run, then `damage` applied to its database with a raw connection.
std::string damaged_run(const std::string& sql) {
  std::string root = testing::make_temp_dir("schema");
  testing::write_fake_tasks(root + "/tasks", 1);
  auto o = testing::quiet_options(root + "/tasks", root + "/run");
  run_bench(o, [](const EpisodeRequest& r) { return testing::fake_outcome(r); });
  if (!sql.empty()) {
    Database raw(results_db_path(o.run_dir));
    raw.exec(sql);
  }
  return o.run_dir;
}

std::string open_error(const std::string& path, OpenMode mode) {
  try {
    ResultsDb db(path, mode);
  } catch (const IoError& e) {
    return e.what();
  }
  return "(no error)";
}

// What report, merge (as an input) and bench (resuming) say about the run: each must exit 2.
std::string command_errors(const std::string& run_dir) {
  std::string root = fs::path(run_dir).parent_path().string();
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  Argv report({"report", run_dir, "--out", root + "/r.html"});
  EXPECT_EQ(cmd_report(report.argc(), report.argv()), 2);
  Argv merge({"merge", root + "/merged", run_dir});
  EXPECT_EQ(cmd_merge(merge.argc(), merge.argv()), 2);
  Argv bench({"bench", "--model", "fake-model", "--mode", "agent", "--subset", "mini", "--tasks-dir",
              root + "/tasks", "--run-dir", run_dir});
  EXPECT_EQ(cmd_bench(bench.argc(), bench.argv(),
                      [](const EpisodeRequest& r) { return testing::fake_outcome(r); }),
            2);
  ::testing::internal::GetCapturedStdout();
  return ::testing::internal::GetCapturedStderr();
}

size_t count_of(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t p = text.find(needle); p != std::string::npos; p = text.find(needle, p + 1)) ++n;
  return n;
}

TEST(ResultsDbSchema, UnknownUserVersionIsAnIoErrorNamingTheFile) {
  std::string run = damaged_run("PRAGMA user_version = 7");
  std::string path = results_db_path(run);
  for (OpenMode mode : {OpenMode::ReadOnly, OpenMode::ReadWrite}) {
    std::string err = open_error(path, mode);
    EXPECT_NE(err.find(path + ": unknown results schema version 7"), std::string::npos) << err;
    EXPECT_NE(err.find("reads versions 1 to " + std::to_string(kResultsSchemaVersion) + ": it was written by a newer nkiagent"), std::string::npos) << err;
  }
  std::string err = command_errors(run);
  EXPECT_EQ(count_of(err, path + ": unknown results schema version 7"), 3u) << err;
}

TEST(ResultsDbSchema, MissingTableIsAnIoErrorNamingTheTable) {
  std::string run = damaged_run("DROP TABLE usage");
  std::string path = results_db_path(run);
  EXPECT_NE(open_error(path, OpenMode::ReadOnly).find(path + ": table 'usage' is missing"), std::string::npos);
  EXPECT_EQ(count_of(command_errors(run), path + ": table 'usage' is missing"), 3u);
}

TEST(ResultsDbSchema, MissingColumnIsAnIoErrorNamingTheColumn) {
  std::string run = damaged_run("ALTER TABLE episodes DROP COLUMN error_message");
  std::string err = open_error(results_db_path(run), OpenMode::ReadOnly);
  EXPECT_NE(err.find("table 'episodes' lacks column 'error_message'"), std::string::npos) << err;
}

TEST(ResultsDbSchema, ForeignAndNonSqliteFilesAreRefused) {
  std::string run = damaged_run("");
  std::string path = results_db_path(run);
  fs::remove(path);
  {
    Database foreign(path);
    foreign.exec("CREATE TABLE notes (x)");
  }
  std::string err = open_error(path, OpenMode::ReadWrite);
  EXPECT_NE(err.find(path + ": not an NKI-Agent results database (user_version 0; it holds tables notes)"),
            std::string::npos)
      << err;
  EXPECT_EQ(count_of(command_errors(run), "not an NKI-Agent results database"), 3u);

  fs::remove(path);
  std::ofstream(path) << "this is not a database, just text that happens to be long enough to have a header";
  err = open_error(path, OpenMode::ReadOnly);
  EXPECT_NE(err.find(path + ": cannot read the results database"), std::string::npos) << err;
  EXPECT_NE(err.find("file is not a database"), std::string::npos) << err;
  EXPECT_EQ(count_of(command_errors(run), path + ": cannot read the results database"), 3u);

  // An empty file is a new database for bench, but nothing a report could read.
  fs::remove(path);
  std::ofstream{path};
  err = open_error(path, OpenMode::ReadOnly);
  EXPECT_NE(err.find(path + ": the database is empty"), std::string::npos) << err;
}

TEST(ResultsDbSchema, AFreshDatabaseGetsTheCurrentVersionAndPassesTheCheck) {
  auto dir = testing::make_temp_dir("schema_fresh");
  std::string path = results_db_path(dir);
  { ResultsDb created(path); }
  Database raw(path);
  auto st = raw.prepare("PRAGMA user_version");
  ASSERT_TRUE(st.step());
  EXPECT_EQ(st.integer(0), kResultsSchemaVersion);
  EXPECT_NO_THROW({ ResultsDb check(path, OpenMode::ReadOnly); });
  // Ad-hoc additions (an analyst's own table or column) are tolerated.
  raw.exec("CREATE TABLE my_notes (x); ALTER TABLE episodes ADD COLUMN my_flag INTEGER");
  EXPECT_NO_THROW({ ResultsDb check(path, OpenMode::ReadOnly); });
  fs::remove_all(dir);
}

// A database written before the speed columns existed (version 1): report and merge read it as
// having no estimates; bench (read-write) adds the columns and bumps the version.
TEST(ResultsDbSchema, VersionOneDatabasesOpenAndMigrate) {
  std::string run = damaged_run(
      "ALTER TABLE episodes DROP COLUMN est_latency_ns; ALTER TABLE episodes DROP COLUMN pct_of_peak; "
      "ALTER TABLE episodes DROP COLUMN baseline_ns; PRAGMA user_version = 1");
  std::string path = results_db_path(run);
  {
    ResultsDb old(path, OpenMode::ReadOnly);
    auto eps = old.load_episodes();
    ASSERT_FALSE(eps.empty());
    EXPECT_FALSE(eps[0].outcome.est_latency_ns.has_value());
    EXPECT_FALSE(eps[0].outcome.baseline_ns.has_value());
  }
  {
    Database raw(path);
    auto st = raw.prepare("PRAGMA user_version");
    ASSERT_TRUE(st.step());
    EXPECT_EQ(st.integer(0), 1) << "a read-only open must not migrate";
  }
  {
    ResultsDb migrated(path);
    auto eps = migrated.load_episodes();
    ASSERT_FALSE(eps.empty());
    EpisodeOutcome o = eps[0].outcome;
    o.est_latency_ns = 2000.0;
    o.baseline_ns = 3000.0;
    o.pct_of_peak = 12.5;
    migrated.record_finished(eps[0].task, eps[0].sample, "fake-model", o);
  }
  Database raw(path);
  auto st = raw.prepare("PRAGMA user_version");
  ASSERT_TRUE(st.step());
  EXPECT_EQ(st.integer(0), kResultsSchemaVersion);
  ResultsDb again(path, OpenMode::ReadOnly);
  auto eps = again.load_episodes();
  ASSERT_TRUE(eps[0].outcome.est_latency_ns.has_value());
  EXPECT_DOUBLE_EQ(*eps[0].outcome.est_latency_ns, 2000.0);
  EXPECT_DOUBLE_EQ(*eps[0].outcome.baseline_ns, 3000.0);
  EXPECT_DOUBLE_EQ(*eps[0].outcome.pct_of_peak, 12.5);
  fs::remove_all(fs::path(run).parent_path());
}

// A version-2 database (before runs had the nki and target columns): it opens read-only as is, and
// a read-write open adds the columns with the values of those runs, 2.24 on trn1.
TEST(ResultsDbSchema, VersionTwoDatabasesGainTheDialectColumns) {
  std::string run = damaged_run("ALTER TABLE runs DROP COLUMN nki; ALTER TABLE runs DROP COLUMN target; "
                                "PRAGMA user_version = 2");
  std::string path = results_db_path(run);
  EXPECT_NO_THROW({ ResultsDb old(path, OpenMode::ReadOnly); });
  { ResultsDb migrated(path); }
  Database raw(path);
  auto version = raw.prepare("PRAGMA user_version");
  ASSERT_TRUE(version.step());
  EXPECT_EQ(version.integer(0), kResultsSchemaVersion);
  auto st = raw.prepare("SELECT nki, target FROM runs WHERE id = 1");
  ASSERT_TRUE(st.step());
  EXPECT_EQ(st.text(0), "2.24");
  EXPECT_EQ(st.text(1), "trn1");
  fs::remove_all(fs::path(run).parent_path());
}

// A new run stores its dialect and target as columns too, for SQL over many run databases.
TEST(ResultsDbSchema, RunsRecordTheirDialectAsAColumn) {
  std::string dir = testing::make_temp_dir("schema_nki");
  RunConfig c;
  c.model = "m";
  c.subset = "all";
  c.nki = "0.6";
  c.target = "trn2";
  {
    ResultsDb db(dir + "/results.sqlite");
    db.init_run(c);
  }
  Database raw(dir + "/results.sqlite");
  auto st = raw.prepare("SELECT nki, target, json_extract(config_json, '$.nki') FROM runs WHERE id = 1");
  ASSERT_TRUE(st.step());
  EXPECT_EQ(st.text(0), "0.6");
  EXPECT_EQ(st.text(1), "trn2");
  EXPECT_EQ(st.text(2), "0.6");
  ResultsDb again(dir + "/results.sqlite", OpenMode::ReadOnly);
  ASSERT_TRUE(again.stored_config().has_value());
  EXPECT_EQ(again.stored_config()->nki, "0.6");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace nki::eval
