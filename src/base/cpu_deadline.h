#pragma once
// A time budget measured in CPU time of the calling thread, checked cheaply.
//
// Why CPU time and not wall time: the same kernel must get the same verdict on an idle laptop
// and on a CI runner or RL server running eight jobs on two cores. A wall-clock budget turned
// "out of memory after 2 s of work" into "over the 20 s time budget" whenever the machine was
// loaded. The sandbox (src/sandbox) keeps a wall-clock limit as the backstop against a thread
// that stops making progress.
//
// Why it is cheap: a thread's CPU time never runs ahead of the wall clock, so the CPU clock (a
// system call) only needs reading once the coarse wall clock (vDSO, a few ns) has passed the
// point where the remaining CPU budget could possibly be spent.
#include <cstdint>

namespace nki {

class CpuDeadline {
 public:
  CpuDeadline() = default;
  // Starts the budget now; `seconds` <= 0 means unlimited.
  explicit CpuDeadline(double seconds);
  // Changes the budget, still counted from construction.
  void set_budget(double seconds);

  // True once the thread has used more than the budget since construction.
  bool expired() {
    if (budget_ns_ <= 0) return false;
    if (coarse_wall_ns() < next_check_wall_ns_) return false;
    return recheck();
  }
  double budget_seconds() const { return budget_seconds_; }

  static int64_t coarse_wall_ns();
  static int64_t thread_cpu_ns();

 private:
  bool recheck();

  double budget_seconds_ = 0;
  int64_t budget_ns_ = 0;
  int64_t start_cpu_ns_ = 0;
  int64_t next_check_wall_ns_ = 0;
};

}  // namespace nki
