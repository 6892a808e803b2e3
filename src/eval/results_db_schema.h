// The schema of results.sqlite (docs/evaluation.md): creating it in a new database and checking
// an existing one before anything is read from or written to it.
#pragma once

#include <string>
#include <vector>

namespace nki::eval {

class Database;

// Schema version written to PRAGMA user_version (docs/evaluation.md). Version 2 added the speed
// columns of episodes (est_latency_ns, pct_of_peak, baseline_ns); a version-1 database still
// opens: read-only it reads as having no estimates, read-write it is migrated in place.
// Version 3 added the runs columns nki and target (the dialect and NeuronCore of the run; they
// were already in config_json when set); older runs read as 2.24 on trn1.
constexpr int kResultsSchemaVersion = 3;
constexpr int kOldestReadableSchemaVersion = 1;

// Creates every table and sets user_version, in one transaction.
void create_results_schema(Database& db);

// Throws nki::IoError naming db.path() and the problem when `user_version` is not the version
// this build reads or when a table or column of that version is missing. `tables` are the
// table names the database holds. Extra tables and columns are accepted (ad-hoc additions).
void check_results_schema(Database& db, int user_version, const std::vector<std::string>& tables);

// Adds what later versions added (ALTER TABLE ... ADD COLUMN) and sets user_version, in one
// transaction. A no-op on a current database.
void migrate_results_schema(Database& db, int user_version);

}  // namespace nki::eval
