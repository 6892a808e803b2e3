// SIGINT/SIGTERM handling for a benchmark run.
#pragma once

#include <signal.h>

#include <atomic>

namespace nki::cli {

// While alive: the first SIGINT/SIGTERM raises `requested()` (no new episodes start, running
// ones finish and are recorded); a second one exits at once with 130 (the database stays
// consistent; interrupted episodes rerun on resume). The previous handlers are restored after.
class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
  const std::atomic<bool>* requested() const;

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

}  // namespace nki::cli
