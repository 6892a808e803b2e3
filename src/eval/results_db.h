// The run database, RUN_DIR/results.sqlite: the single source of truth for a run.
//
// Tables (docs/evaluation.md has the full schema):
//   runs      one row: the RunConfig (as JSON and as columns for ad-hoc SQL)
//   episodes  one row per (task_id, sample); status 'started' while running, 'finished' after
//   turns     per-turn records of finished episodes
//   usage     tokens and dollars per (episode, model)
//
// Crash safety: an episode is marked 'started' in its own transaction, and everything it
// produced is written in one transaction when it ends. A killed process therefore leaves only
// complete finished episodes plus 'started' rows, which a resumed run re-executes.
#pragma once

#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "eval/episode.h"
#include "eval/run_config.h"
#include "eval/sqlite.h"
#include "eval/task_list.h"

namespace nki::eval {

// The run config in the database differs from the one requested.
class ConfigMismatch : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

using EpisodeKey = std::pair<std::string, int>;  // (task_id, sample)

// An episode row as read back from a database.
struct StoredEpisode {
  TaskRef task;
  int sample = 0;
  bool finished = false;
  int attempts = 0;     // how many times it was started (>1 means it was interrupted before)
  std::string model;    // the model that produced the usage row
  EpisodeOutcome outcome;  // meaningful only when finished; turns filled only on request
};

std::string results_db_path(const std::string& run_dir);  // RUN_DIR/results.sqlite

// Thread-safe: one connection guarded by a mutex (writes are tiny compared with an episode).
class ResultsDb {
 public:
  // ReadWrite creates the schema in a new (empty) database. Both modes check an existing one:
  // a file that is not SQLite, an unknown user_version, or a missing table or column throws
  // nki::IoError naming the file and the problem (exit code 2 in the CLI). ReadOnly (report,
  // merge inputs) never writes or creates files next to the database; see OpenMode.
  explicit ResultsDb(const std::string& path, OpenMode mode = OpenMode::ReadWrite);
  ~ResultsDb();

  // Records `config` in a new database, or checks it against the stored one. Throws
  // ConfigMismatch naming the differing fields.
  void init_run(const RunConfig& config);
  std::optional<RunConfig> stored_config();

  std::set<EpisodeKey> finished_keys();
  int count_interrupted();  // rows left 'started' by a killed or crashed run

  // Marks the episode 'started' (bumping attempts) and drops anything a previous interrupted
  // attempt left behind.
  void mark_started(const TaskRef& task, int sample);
  // Writes the outcome, its turns and its usage atomically and marks the episode 'finished'.
  void record_finished(const TaskRef& task, int sample, const std::string& model,
                       const EpisodeOutcome& outcome);

  std::vector<StoredEpisode> load_episodes(bool with_turns = false);

 private:
  void create_or_check_schema();
  std::vector<TurnRecord> load_turns(const std::string& task_id, int sample);

  std::string path_;
  std::unique_ptr<Database> db_;
  bool has_speed_columns_ = true;  // false: a version-1 database opened read-only
  std::mutex mu_;
};

}  // namespace nki::eval
