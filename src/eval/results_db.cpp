#include "eval/results_db.h"

#include <filesystem>

#include "base/diagnostic.h"
#include "eval/results_db_schema.h"
#include "eval/sqlite.h"

namespace nki::eval {

namespace {

constexpr const char* kNow = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

}  // namespace

std::string results_db_path(const std::string& run_dir) {
  return (std::filesystem::path(run_dir) / "results.sqlite").string();
}

ResultsDb::ResultsDb(const std::string& path, OpenMode mode) : path_(path) {
  try {
    db_ = std::make_unique<Database>(path, mode);
  } catch (const SqliteError& e) {
    throw IoError(path + ": cannot read the results database: " + e.what());
  }
  create_or_check_schema();
}

ResultsDb::~ResultsDb() = default;

void ResultsDb::create_or_check_schema() {
  int version = 0;
  std::vector<std::string> tables;
  try {
    auto st = db_->prepare("PRAGMA user_version");
    if (st.step()) version = static_cast<int>(st.integer(0));
    auto names = db_->prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
    while (names.step()) tables.push_back(names.text(0));
  } catch (const SqliteError& e) {
    throw IoError(path_ + ": cannot read the results database: " + e.what());
  }
  if (version == 0 && tables.empty()) {
    if (db_->mode() == OpenMode::ReadOnly)
      throw IoError(path_ + ": the database is empty (no tables, user_version 0): not a bench run");
    create_results_schema(*db_);
    return;
  }
  check_results_schema(*db_, version, tables);
  if (version < kResultsSchemaVersion) {
    if (db_->mode() == OpenMode::ReadOnly) has_speed_columns_ = false;
    else migrate_results_schema(*db_, version);
  }
}

std::optional<RunConfig> ResultsDb::stored_config() {
  std::lock_guard lock(mu_);
  auto st = db_->prepare("SELECT config_json FROM runs WHERE id = 1");
  if (!st.step()) return std::nullopt;
  return config_from_json(st.text(0));
}

void ResultsDb::init_run(const RunConfig& config) {
  if (auto stored = stored_config()) {
    std::string diff = describe_config_difference(*stored, config);
    if (!diff.empty())
      throw ConfigMismatch("this run directory holds a run with a different configuration (" + diff +
                           "); use a new --run-dir or repeat the original options");
    return;
  }
  std::lock_guard lock(mu_);
  db_->prepare("INSERT INTO runs (id, config_json, model, mode, subset, samples, max_turns, shard, nki, target) "
               "VALUES (1, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)")
      .bind(1, config_to_json(config))
      .bind(2, config.model)
      .bind(3, std::string(mode_name(config.mode)))
      .bind(4, config.subset)
      .bind(5, config.samples)
      .bind(6, config.max_turns)
      .bind(7, shard_text(config.shard))
      .bind(8, config.nki)
      .bind(9, config.target)
      .run();
}

std::set<EpisodeKey> ResultsDb::finished_keys() {
  std::lock_guard lock(mu_);
  std::set<EpisodeKey> keys;
  auto st = db_->prepare("SELECT task_id, sample FROM episodes WHERE status = 'finished'");
  while (st.step()) keys.emplace(st.text(0), static_cast<int>(st.integer(1)));
  return keys;
}

int ResultsDb::count_interrupted() {
  std::lock_guard lock(mu_);
  auto st = db_->prepare("SELECT COUNT(*) FROM episodes WHERE status = 'started'");
  st.step();
  return static_cast<int>(st.integer(0));
}

void ResultsDb::mark_started(const TaskRef& task, int sample) {
  std::lock_guard lock(mu_);
  Transaction tx(*db_);
  // Children of an interrupted attempt cannot exist (they are written with 'finished'), but a
  // row finished by a different, later-abandoned writer could; clear them to be safe.
  db_->prepare("DELETE FROM turns WHERE task_id = ?1 AND sample = ?2").bind(1, task.id).bind(2, sample).run();
  db_->prepare("DELETE FROM usage WHERE task_id = ?1 AND sample = ?2").bind(1, task.id).bind(2, sample).run();
  db_->prepare(std::string("INSERT INTO episodes (task_id, sample, level, status, attempts, started_at) "
                           "VALUES (?1, ?2, ?3, 'started', 1, ") + kNow + ") "
               "ON CONFLICT (task_id, sample) DO UPDATE SET status = 'started', "
               "attempts = attempts + 1, started_at = excluded.started_at, finished_at = NULL")
      .bind(1, task.id)
      .bind(2, sample)
      .bind(3, task.level)
      .run();
  tx.commit();
}

void ResultsDb::record_finished(const TaskRef& task, int sample, const std::string& model,
                                const EpisodeOutcome& o) {
  std::lock_guard lock(mu_);
  Transaction tx(*db_);
  db_->prepare(std::string("INSERT INTO episodes (task_id, sample, level, status, attempts, started_at) "
                           "VALUES (?1, ?2, ?3, 'started', 1, ") + kNow + ") "
               "ON CONFLICT (task_id, sample) DO NOTHING")
      .bind(1, task.id).bind(2, sample).bind(3, task.level).run();
  db_->prepare(std::string("UPDATE episodes SET status = 'finished', verdict = ?3, compile_code = ?4, "
                           "turns_used = ?5, pass_turn = ?6, strict_pass = ?7, tolerance_pass = ?8, "
                           "wall_seconds = ?9, kernel_path = ?10, transcript_path = ?11, "
                           "error_message = ?12, est_latency_ns = ?13, pct_of_peak = ?14, baseline_ns = ?15, "
                           "finished_at = ") + kNow +
               " WHERE task_id = ?1 AND sample = ?2")
      .bind(1, task.id)
      .bind(2, sample)
      .bind(3, std::string(verdict_kind_name(o.verdict.kind)))
      .bind(4, o.verdict.code)
      .bind(5, o.turns_used)
      .bind(6, o.pass_turn)
      .bind(7, o.strict_pass ? 1 : 0)
      .bind(8, o.tolerance_pass ? 1 : 0)
      .bind(9, o.wall_seconds)
      .bind(10, o.final_kernel_path)
      .bind(11, o.transcript_path)
      .bind(12, o.error_message)
      .bind(13, o.est_latency_ns)
      .bind(14, o.pct_of_peak)
      .bind(15, o.baseline_ns)
      .run();
  db_->prepare("DELETE FROM turns WHERE task_id = ?1 AND sample = ?2").bind(1, task.id).bind(2, sample).run();
  auto ins = db_->prepare(
      "INSERT INTO turns (task_id, sample, idx, turn, action, result, tokens_in, tokens_out, tokens_cached, "
      "cost_usd, wall_seconds) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
  for (size_t i = 0; i < o.turns.size(); ++i) {
    const auto& t = o.turns[i];
    ins.reset();
    ins.bind(1, task.id)
        .bind(2, sample)
        .bind(3, static_cast<int>(i))
        .bind(4, t.turn)
        .bind(5, t.action)
        .bind(6, t.result)
        .bind(7, t.tokens_in)
        .bind(8, t.tokens_out)
        .bind(9, t.tokens_cached)
        .bind(10, t.cost_usd)
        .bind(11, t.wall_seconds)
        .run();
  }
  db_->prepare("INSERT OR REPLACE INTO usage (task_id, sample, model, tokens_in, tokens_out, tokens_cached, "
               "cost_usd, cost_known) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)")
      .bind(1, task.id)
      .bind(2, sample)
      .bind(3, model)
      .bind(4, o.tokens_in)
      .bind(5, o.tokens_out)
      .bind(6, o.tokens_cached)
      .bind(7, o.cost_usd)
      .bind(8, o.cost_known ? 1 : 0)
      .run();
  tx.commit();
}

std::vector<TurnRecord> ResultsDb::load_turns(const std::string& task_id, int sample) {
  std::vector<TurnRecord> turns;
  auto st = db_->prepare(
      "SELECT turn, action, result, tokens_in, tokens_out, tokens_cached, cost_usd, wall_seconds "
      "FROM turns WHERE task_id = ?1 AND sample = ?2 ORDER BY idx");
  st.bind(1, task_id).bind(2, sample);
  while (st.step()) {
    TurnRecord t;
    t.turn = static_cast<int>(st.integer(0));
    t.action = st.text(1);
    t.result = st.text(2);
    t.tokens_in = st.integer(3);
    t.tokens_out = st.integer(4);
    t.tokens_cached = st.integer(5);
    t.cost_usd = st.real(6);
    t.wall_seconds = st.real(7);
    turns.push_back(std::move(t));
  }
  return turns;
}

std::vector<StoredEpisode> ResultsDb::load_episodes(bool with_turns) {
  std::lock_guard lock(mu_);
  std::vector<StoredEpisode> out;
  const char* speed = has_speed_columns_ ? "e.est_latency_ns, e.pct_of_peak, e.baseline_ns"
                                          : "NULL, NULL, NULL";
  auto st = db_->prepare(
      std::string("SELECT e.task_id, e.sample, e.level, e.status, e.attempts, e.verdict, e.compile_code, e.turns_used, "
      "e.pass_turn, e.strict_pass, e.tolerance_pass, e.wall_seconds, e.kernel_path, e.transcript_path, "
      "e.error_message, ") + speed + ", u.model, u.tokens_in, u.tokens_out, u.tokens_cached, u.cost_usd, u.cost_known "
      "FROM episodes e LEFT JOIN (SELECT task_id, sample, group_concat(model, '+') AS model, "
      "SUM(tokens_in) AS tokens_in, SUM(tokens_out) AS tokens_out, SUM(tokens_cached) AS tokens_cached, "
      "SUM(cost_usd) AS cost_usd, MIN(cost_known) AS cost_known FROM usage GROUP BY task_id, sample) u "
      "ON u.task_id = e.task_id AND u.sample = e.sample ORDER BY e.rowid");
  auto optional_real = [&st](int col) { return st.is_null(col) ? std::nullopt : std::optional<double>(st.real(col)); };
  while (st.step()) {
    StoredEpisode e;
    e.task = {st.text(0), static_cast<int>(st.integer(2))};
    e.sample = static_cast<int>(st.integer(1));
    e.finished = st.text(3) == "finished";
    e.attempts = static_cast<int>(st.integer(4));
    auto& o = e.outcome;
    if (e.finished) {
      auto kind = parse_verdict_kind(st.text(5));
      if (!kind) throw SqliteError("unknown verdict '" + st.text(5) + "' for " + e.task.id);
      o.verdict = {*kind, st.text(6)};
      o.turns_used = static_cast<int>(st.integer(7));
      if (!st.is_null(8)) o.pass_turn = static_cast<int>(st.integer(8));
      o.strict_pass = st.integer(9) != 0;
      o.tolerance_pass = st.integer(10) != 0;
      o.wall_seconds = st.real(11);
      o.final_kernel_path = st.text(12);
      o.transcript_path = st.text(13);
      o.error_message = st.text(14);
      o.est_latency_ns = optional_real(15);
      o.pct_of_peak = optional_real(16);
      o.baseline_ns = optional_real(17);
      e.model = st.text(18);
      o.tokens_in = st.integer(19);
      o.tokens_out = st.integer(20);
      o.tokens_cached = st.integer(21);
      o.cost_usd = st.real(22);
      o.cost_known = st.is_null(23) || st.integer(23) != 0;
    }
    out.push_back(std::move(e));
  }
  if (with_turns)
    for (auto& e : out)
      if (e.finished) e.outcome.turns = load_turns(e.task.id, e.sample);
  return out;
}

}  // namespace nki::eval
