// The schema of results.sqlite (docs/evaluation.md): creating it in a new database and checking
// an existing one before anything is read from or written to it.
#pragma once

#include <string>
#include <vector>

namespace nki::eval {

class Database;

// Schema version written to PRAGMA user_version (docs/evaluation.md).
constexpr int kResultsSchemaVersion = 1;

// Creates every table and sets user_version, in one transaction.
void create_results_schema(Database& db);

// Throws nki::IoError naming db.path() and the problem when `user_version` is not the version
// this build reads or when a table or column of that version is missing. `tables` are the
// table names the database holds. Extra tables and columns are accepted (ad-hoc additions).
void check_results_schema(Database& db, int user_version, const std::vector<std::string>& tables);

}  // namespace nki::eval
