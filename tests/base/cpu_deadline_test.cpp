// CpuDeadline counts the thread's CPU time, not the wall clock: a loaded machine (the thread
// waiting for a core) must not exhaust a budget, while real work must.
#include "base/cpu_deadline.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace nki {
namespace {

void spin_cpu_for(double seconds) {
  int64_t start = CpuDeadline::thread_cpu_ns();
  volatile uint64_t x = 0;
  while (static_cast<double>(CpuDeadline::thread_cpu_ns() - start) * 1e-9 < seconds) x = x + 1;
}

TEST(CpuDeadline, UnlimitedNeverExpires) {
  CpuDeadline d(0);
  spin_cpu_for(0.02);
  EXPECT_FALSE(d.expired());
}

TEST(CpuDeadline, CpuWorkExhaustsTheBudget) {
  CpuDeadline d(0.05);
  EXPECT_FALSE(d.expired());
  spin_cpu_for(0.08);
  EXPECT_TRUE(d.expired());
}

TEST(CpuDeadline, WaitingDoesNotCount) {
  CpuDeadline d(0.05);
  std::this_thread::sleep_for(std::chrono::milliseconds(150));  // wall time passes, CPU does not
  EXPECT_FALSE(d.expired());
  spin_cpu_for(0.08);  // and the budget is still enforced after a recheck pushed the check out
  EXPECT_TRUE(d.expired());
}

TEST(CpuDeadline, BudgetChangeKeepsTheStart) {
  CpuDeadline d(10);
  spin_cpu_for(0.06);
  EXPECT_FALSE(d.expired());
  d.set_budget(0.03);
  EXPECT_TRUE(d.expired());
}

}  // namespace
}  // namespace nki
