#include "eval/results_db_schema.h"

#include <algorithm>
#include <map>

#include "base/diagnostic.h"
#include "eval/sqlite.h"

namespace nki::eval {

namespace {

constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS runs (
  id          INTEGER PRIMARY KEY CHECK (id = 1),
  config_json TEXT NOT NULL,
  model       TEXT NOT NULL,
  mode        TEXT NOT NULL,
  subset      TEXT NOT NULL,
  samples     INTEGER NOT NULL,
  max_turns   INTEGER NOT NULL,
  shard       TEXT NOT NULL,
  nki         TEXT NOT NULL DEFAULT '2.24',
  target      TEXT NOT NULL DEFAULT 'trn1',
  created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE TABLE IF NOT EXISTS episodes (
  task_id         TEXT NOT NULL,
  sample          INTEGER NOT NULL,
  level           INTEGER NOT NULL,
  status          TEXT NOT NULL CHECK (status IN ('started', 'finished')),
  attempts        INTEGER NOT NULL DEFAULT 1,
  verdict         TEXT,
  compile_code    TEXT,
  turns_used      INTEGER,
  pass_turn       INTEGER,
  strict_pass     INTEGER,
  tolerance_pass  INTEGER,
  wall_seconds    REAL,
  kernel_path     TEXT,
  transcript_path TEXT,
  error_message   TEXT,
  started_at      TEXT,
  est_latency_ns  REAL,
  pct_of_peak     REAL,
  baseline_ns     REAL,
  finished_at     TEXT,
  PRIMARY KEY (task_id, sample)
);
CREATE TABLE IF NOT EXISTS turns (
  task_id       TEXT NOT NULL,
  sample        INTEGER NOT NULL,
  idx           INTEGER NOT NULL,
  turn          INTEGER NOT NULL,
  action        TEXT,
  result        TEXT,
  tokens_in     INTEGER,
  tokens_out    INTEGER,
  tokens_cached INTEGER,
  cost_usd      REAL,
  wall_seconds  REAL,
  PRIMARY KEY (task_id, sample, idx),
  FOREIGN KEY (task_id, sample) REFERENCES episodes (task_id, sample) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS usage (
  task_id       TEXT NOT NULL,
  sample        INTEGER NOT NULL,
  model         TEXT NOT NULL,
  tokens_in     INTEGER NOT NULL,
  tokens_out    INTEGER NOT NULL,
  tokens_cached INTEGER NOT NULL,
  cost_usd      REAL NOT NULL,
  cost_known    INTEGER NOT NULL DEFAULT 1,
  PRIMARY KEY (task_id, sample, model),
  FOREIGN KEY (task_id, sample) REFERENCES episodes (task_id, sample) ON DELETE CASCADE
);
)sql";

// Columns each version added (table, name, SQL type with the value older rows get); version 1
// is kSchema without them.
struct AddedColumn {
  int version;
  const char* table;
  const char* name;
  const char* type;
};
constexpr AddedColumn kAddedColumns[] = {
    {2, "episodes", "est_latency_ns", "REAL"},
    {2, "episodes", "pct_of_peak", "REAL"},
    {2, "episodes", "baseline_ns", "REAL"},
    {3, "runs", "nki", "TEXT NOT NULL DEFAULT '2.24'"},
    {3, "runs", "target", "TEXT NOT NULL DEFAULT 'trn1'"},
};

bool added_after(const std::string& table, const std::string& col, int version) {
  for (const AddedColumn& c : kAddedColumns)
    if (table == c.table && col == c.name && c.version > version) return true;
  return false;
}

using TableColumns = std::map<std::string, std::vector<std::string>>;

std::vector<std::string> columns_of(Database& db, const std::string& table) {
  std::vector<std::string> cols;
  auto st = db.prepare("SELECT name FROM pragma_table_info(?1)");
  st.bind(1, table);
  while (st.step()) cols.push_back(st.text(0));
  return cols;
}

// The tables and columns of kSchema, read back from an in-memory database so the check can never
// drift from the CREATE statements.
const TableColumns& expected_tables() {
  static const TableColumns tables = [] {
    Database mem(":memory:");
    mem.exec(kSchema);
    TableColumns t;
    auto st = mem.prepare("SELECT name FROM sqlite_master WHERE type = 'table'");
    while (st.step()) t[st.text(0)] = {};
    for (auto& [name, cols] : t) cols = columns_of(mem, name);
    return t;
  }();
  return tables;
}

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

}  // namespace

void create_results_schema(Database& db) {
  Transaction tx(db);
  db.exec(kSchema);
  db.exec("PRAGMA user_version = " + std::to_string(kResultsSchemaVersion));
  tx.commit();
}

void check_results_schema(Database& db, int version, const std::vector<std::string>& tables) {
  const std::string& path = db.path();
  if (version == 0)
    throw IoError(path + ": not an NKI-Agent results database (user_version 0; it holds tables " +
                  joined(tables) + ")");
  if (version < kOldestReadableSchemaVersion || version > kResultsSchemaVersion)
    throw IoError(path + ": unknown results schema version " + std::to_string(version) +
                  " (user_version); this nkiagent reads versions " +
                  std::to_string(kOldestReadableSchemaVersion) + " to " + std::to_string(kResultsSchemaVersion) +
                  (version > kResultsSchemaVersion ? ": it was written by a newer nkiagent" : ""));
  for (const auto& [table, want] : expected_tables()) {
    if (std::find(tables.begin(), tables.end(), table) == tables.end())
      throw IoError(path + ": table '" + table + "' is missing (results schema version " +
                    std::to_string(version) + " has runs, episodes, turns and usage)");
    std::vector<std::string> have;
    try {
      have = columns_of(db, table);
    } catch (const SqliteError& e) {
      throw IoError(path + ": cannot read the columns of table '" + table + "' (" + e.what() + ")");
    }
    for (const auto& col : want)
      if (!added_after(table, col, version) && std::find(have.begin(), have.end(), col) == have.end())
        throw IoError(path + ": table '" + table + "' lacks column '" + col + "' (results schema version " +
                      std::to_string(version) + ")");
  }
}

void migrate_results_schema(Database& db, int version) {
  if (version >= kResultsSchemaVersion) return;
  Transaction tx(db);
  for (const AddedColumn& c : kAddedColumns) {
    std::vector<std::string> have = columns_of(db, c.table);
    if (c.version > version && std::find(have.begin(), have.end(), c.name) == have.end())
      db.exec(std::string("ALTER TABLE ") + c.table + " ADD COLUMN " + c.name + " " + c.type);
  }
  db.exec("PRAGMA user_version = " + std::to_string(kResultsSchemaVersion));
  tx.commit();
}

}  // namespace nki::eval
