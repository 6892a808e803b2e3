// A per-thread heap budget for work whose memory use is controlled by untrusted input (the
// compile-time evaluation of a model-written kernel: `[0] * 10**12`, `"x" * 10**12`, doubling
// a string in a loop). While a MemoryBudget is alive on a thread, every operator new on that
// thread that would take the thread's net heap growth past the limit throws std::bad_alloc, and
// refused() tells the catcher that the budget, not the machine, ran out.
//
// The counting lives in replacements of the global operator new/delete (memory_budget.cpp),
// which count the usable size of every block per thread at all times; a budget compares the
// growth since it was opened. Blocks freed by another thread than the one that allocated them
// only skew the estimate of the thread that allocated them.
//
// Usage:
//   MemoryBudget budget(int64_t{2} << 30);
//   try { evaluate(); } catch (const std::bad_alloc&) { if (budget.refused()) ...; }
#pragma once

#include <cstdint>

namespace nki {

class MemoryBudget {
 public:
  explicit MemoryBudget(int64_t limit_bytes);
  ~MemoryBudget();
  MemoryBudget(const MemoryBudget&) = delete;
  MemoryBudget& operator=(const MemoryBudget&) = delete;

  int64_t limit() const { return limit_; }
  int64_t used() const;      // net heap growth of this thread since the budget was opened
  bool refused() const;      // an allocation was refused because of this budget
  int64_t refused_bytes() const;  // the size of the refused request (0 if none)

  // Forgets this thread's allocation history and any open budget. Called first thing in a
  // forked child: the fork copies the calling thread's counters, which describe the parent
  // (blocks other threads will free, budgets the child never opened), not the child.
  static void reset_thread_after_fork();

 private:
  int64_t limit_;
  int64_t base_;
  int64_t saved_threshold_;
  bool saved_refused_;
};

}  // namespace nki
