// A minimal RAII layer over the SQLite C API: only what the results database needs.
// Every failure throws SqliteError with SQLite's own message, so callers never check codes.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

struct sqlite3;
struct sqlite3_stmt;

namespace nki::eval {

class SqliteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Statement {
 public:
  Statement(sqlite3* db, const std::string& sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  // Parameters are 1-based, as in SQL "?1".
  Statement& bind(int i, const std::string& v);
  Statement& bind(int i, std::int64_t v);
  Statement& bind(int i, int v) { return bind(i, static_cast<std::int64_t>(v)); }
  Statement& bind(int i, double v);
  Statement& bind(int i, std::optional<int> v);
  Statement& bind(int i, std::optional<double> v);

  // Advances; true while a row is available. Finishing a write returns false.
  bool step();
  // Makes the statement reusable with fresh bindings.
  void reset();
  void run() { while (step()) {} }

  std::string text(int col) const;
  std::int64_t integer(int col) const;
  double real(int col) const;
  bool is_null(int col) const;

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

enum class OpenMode {
  // Opens (creating if needed) and switches to WAL with synchronous=NORMAL: a finished
  // transaction survives a killed process; only an OS crash may lose the last few.
  ReadWrite,
  // Never writes or creates anything next to the file (report, merge inputs), so a run
  // directory on read-only storage or owned by someone else can be read. Without -wal/-shm
  // files beside it (no writer is live and every commit is in the main file) the database is
  // opened immutable: no locks, no WAL index, no new files even for root. With them (a bench
  // is running, or was killed before its last checkpoint) it is opened read-only through the
  // existing WAL, so committed episodes are not missed; SQLite may then update the existing
  // -shm index, but creates no file and never writes the database or the WAL.
  ReadOnly,
};

class Database {
 public:
  explicit Database(const std::string& path, OpenMode mode = OpenMode::ReadWrite);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  void exec(const std::string& sql);
  Statement prepare(const std::string& sql) { return Statement(db_, sql); }
  std::int64_t changes() const;
  const std::string& path() const { return path_; }
  OpenMode mode() const { return mode_; }

 private:
  std::string path_;
  OpenMode mode_;
  sqlite3* db_ = nullptr;
};

// BEGIN IMMEDIATE on construction, ROLLBACK in the destructor unless commit() was called.
class Transaction {
 public:
  explicit Transaction(Database& db);
  ~Transaction();
  void commit();

 private:
  Database& db_;
  bool done_ = false;
};

}  // namespace nki::eval
