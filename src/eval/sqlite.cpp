#include "eval/sqlite.h"

#include <sqlite3.h>
#include <sys/stat.h>

#include <cstdio>

namespace nki::eval {

namespace {
[[noreturn]] void fail(sqlite3* db, const std::string& what) {
  throw SqliteError(what + ": " + (db ? sqlite3_errmsg(db) : "out of memory"));
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

// "file:" URI for sqlite3_open_v2: '%', '?' and '#' would otherwise end or corrupt the path,
// and an absolute path gets an empty authority ("file:///x") so "//x" is not read as a host.
std::string file_uri(const std::string& path, const char* query) {
  std::string uri = !path.empty() && path[0] == '/' ? "file://" : "file:";
  for (char c : path) {
    if (c == '%' || c == '?' || c == '#') {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", static_cast<unsigned char>(c));
      uri += buf;
    } else {
      uri += c;
    }
  }
  return uri + "?" + query;
}

}  // namespace

Statement::Statement(sqlite3* db, const std::string& sql) : db_(db) {
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt_, nullptr) != SQLITE_OK) fail(db, "prepare '" + sql + "'");
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement& Statement::bind(int i, const std::string& v) {
  if (sqlite3_bind_text(stmt_, i, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT) != SQLITE_OK)
    fail(db_, "bind");
  return *this;
}

Statement& Statement::bind(int i, std::int64_t v) {
  if (sqlite3_bind_int64(stmt_, i, v) != SQLITE_OK) fail(db_, "bind");
  return *this;
}

Statement& Statement::bind(int i, double v) {
  if (sqlite3_bind_double(stmt_, i, v) != SQLITE_OK) fail(db_, "bind");
  return *this;
}

Statement& Statement::bind(int i, std::optional<double> v) {
  int rc = v ? sqlite3_bind_double(stmt_, i, *v) : sqlite3_bind_null(stmt_, i);
  if (rc != SQLITE_OK) fail(db_, "bind");
  return *this;
}

Statement& Statement::bind(int i, std::optional<int> v) {
  int rc = v ? sqlite3_bind_int64(stmt_, i, *v) : sqlite3_bind_null(stmt_, i);
  if (rc != SQLITE_OK) fail(db_, "bind");
  return *this;
}

bool Statement::step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  fail(db_, "step");
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

std::string Statement::text(int col) const {
  auto* p = sqlite3_column_text(stmt_, col);
  return p ? std::string(reinterpret_cast<const char*>(p)) : std::string();
}

std::int64_t Statement::integer(int col) const { return sqlite3_column_int64(stmt_, col); }
double Statement::real(int col) const { return sqlite3_column_double(stmt_, col); }
bool Statement::is_null(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }

Database::Database(const std::string& path, OpenMode mode) : path_(path), mode_(mode) {
  std::string target = path;
  int flags = SQLITE_OPEN_FULLMUTEX;
  if (mode == OpenMode::ReadWrite) {
    flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  } else {
    // A live or killed writer leaves -wal/-shm; only without them is every commit in the file.
    bool wal_present = exists(path + "-wal") || exists(path + "-shm") || exists(path + "-journal");
    target = file_uri(path, wal_present ? "mode=ro" : "mode=ro&immutable=1");
    flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI;
  }
  if (sqlite3_open_v2(target.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
    std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    throw SqliteError("cannot open " + path + ": " + msg);
  }
  // Another process (a report while a bench runs) may hold the write lock briefly.
  sqlite3_busy_timeout(db_, 10000);
  if (mode == OpenMode::ReadWrite)
    exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;");
}

Database::~Database() { sqlite3_close(db_); }

void Database::exec(const std::string& sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : "unknown error";
    sqlite3_free(err);
    throw SqliteError("exec: " + msg);
  }
}

std::int64_t Database::changes() const { return sqlite3_changes(db_); }

Transaction::Transaction(Database& db) : db_(db) { db_.exec("BEGIN IMMEDIATE"); }

Transaction::~Transaction() {
  if (!done_) {
    try {
      db_.exec("ROLLBACK");
    } catch (...) {
      // Nothing useful to do in a destructor; the connection rolls back on close anyway.
    }
  }
}

void Transaction::commit() {
  db_.exec("COMMIT");
  done_ = true;
}

}  // namespace nki::eval
