#include "base/cpu_deadline.h"

#include <time.h>

#include <cmath>

namespace nki {

namespace {
int64_t read_ns(clockid_t clock) {
  timespec ts;
  clock_gettime(clock, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}
// The coarse clock lags by up to one timer tick (1-4 ms); rechecking a tick early is harmless.
constexpr int64_t kTickNs = 4'000'000;
}  // namespace

int64_t CpuDeadline::coarse_wall_ns() { return read_ns(CLOCK_MONOTONIC_COARSE); }
int64_t CpuDeadline::thread_cpu_ns() { return read_ns(CLOCK_THREAD_CPUTIME_ID); }

CpuDeadline::CpuDeadline(double seconds) : start_cpu_ns_(thread_cpu_ns()) { set_budget(seconds); }

void CpuDeadline::set_budget(double seconds) {
  budget_seconds_ = seconds;
  budget_ns_ = !(seconds > 0) ? 0 : seconds >= 9e9 ? INT64_MAX / 4 : static_cast<int64_t>(std::ceil(seconds * 1e9));
  next_check_wall_ns_ = 0;  // read the CPU clock at the next check
}

bool CpuDeadline::recheck() {
  int64_t left = budget_ns_ - (thread_cpu_ns() - start_cpu_ns_);
  if (left < 0) return true;
  // Not yet: the thread cannot spend `left` CPU nanoseconds in less than `left` wall ones.
  next_check_wall_ns_ = coarse_wall_ns() + left - kTickNs;
  return false;
}

}  // namespace nki
