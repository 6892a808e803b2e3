// Bounds on how much simulation one execute() may do, so that a kernel written to run forever
// (`for i in nl.sequential_range(10**15): pass`) ends with a clear error instead of a hang.
//
// Work is counted in units: one per loop iteration plus, per instruction, the elements it reads
// and writes (K*M*N for a matmul). Two limits apply: a unit budget (checked before the run from
// a static lower bound, and exactly while running) and a wall-clock budget. Both raise
// error[sim_budget] located at the loop that does the work; neither is a compiler rule, so the
// message says it is a limit of the simulator and how to raise it.
#pragma once

#include <cstdint>
#include <vector>

#include "base/cpu_deadline.h"
#include "ir/ir.h"

namespace nki::machine {

// Work units of one execution of `in` (shared by the static estimate and the runtime meter).
int64_t instruction_work(const ir::Instr& in);

// Work units one iteration of a register-driven loop (nl.fori_loop with a register bound,
// nl.while_loop) charges before its body. Such loops have no static trip count, so the
// precheck cannot see them; at 1 unit an iteration of an empty body costs the simulator far more
// time than a unit of element work, and a loop whose register never changes would run into the
// wall-clock budget instead. 1024 units bounds them to 2^26 iterations under the default budget
// (seconds of simulation, more than any kernel runs on hardware); --sim-work raises it.
constexpr int64_t kRegisterLoopIterationWork = 1024;

// A lower bound on the work of one SPMD instance of `k` (an If counts its cheaper arm), and
// the deepest loop whose own total work exceeds `limit`, if any.
struct StaticWork {
  int64_t units = 0;                // saturates at INT64_MAX
  const ir::Loop* heaviest = nullptr;
};
StaticWork static_work(const ir::Kernel& k, int64_t limit);

class WorkMeter {
 public:
  WorkMeter(const ir::Kernel& k, int64_t max_units, double max_seconds);

  // Called by the interpreter; `loop` is the innermost loop executing (null at top level).
  void charge(int64_t units, const ir::Loop* loop) {
    used_ += units;
    if (used_ > max_units_) over_units(loop);
    if (deadline_.expired()) over_time(loop);  // a few ns: see base/cpu_deadline.h
  }
  int64_t used() const { return used_; }

  // Throws sim_budget before running when the static lower bound already exceeds the budget.
  void precheck(int64_t instances) const;

 private:
  [[noreturn]] void over_units(const ir::Loop* loop) const;
  [[noreturn]] void over_time(const ir::Loop* loop) const;

  const ir::Kernel& k_;
  int64_t max_units_;
  double max_seconds_;
  int64_t used_ = 0;
  CpuDeadline deadline_;  // max_seconds_ of this thread's CPU time
};

}  // namespace nki::machine
