// The live progress line a bench run prints on stderr.
//
// On a terminal one line is redrawn in place; otherwise (CI logs, Slurm output files) a plain
// line is printed per finished episode, so logs stay greppable and never fill with '\r'.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>

#include "eval/episode.h"

namespace nki::eval {

// Compact human numbers used by the progress line and the reports: 950, 12.3k, 4.56M.
std::string human_count(std::int64_t n);
std::string human_duration(double seconds);  // 42s, 4m12s, 3h05m
std::string dollars(double usd);             // $0.0123, $3.21, $1,234

class Progress {
 public:
  // `total` counts every episode of the run; `already` of them were finished by earlier runs.
  Progress(std::FILE* out, bool tty, int total);

  // Folds in an episode finished before this process started (counts, no ETA effect).
  void add_previous(const EpisodeOutcome& o);
  void episode_finished(const EpisodeOutcome& o, const std::string& what);
  void episode_crashed(const std::string& what, const std::string& error);
  void finish();  // final line (and newline on a TTY)

  std::string line() const;  // the current status text, without control characters

 private:
  void count(const EpisodeOutcome& o);
  void print(const std::string& detail);
  std::string text() const;  // line() without taking the lock

  std::FILE* out_;
  bool tty_;
  int total_;
  int done_ = 0;
  int done_here_ = 0;  // finished by this process: the ETA's rate
  int passes_ = 0;
  int crashed_ = 0;
  std::map<std::string, int> failures_;
  std::int64_t tokens_in_ = 0, tokens_out_ = 0;
  double cost_ = 0.0;
  std::chrono::steady_clock::time_point start_;
  mutable std::mutex mu_;
};

}  // namespace nki::eval
