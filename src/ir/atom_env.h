// Concrete values of index-arithmetic atoms (loop variables, program ids, floor-div/mod nodes)
// and evaluation of ScalarExprs / Predicates over them: the one atom environment of the
// simulator (machine/interpreter.cpp), the static bounds check (check/bounds.cpp) and the
// cost model's scheduler (cost/scheduler.cpp).
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <vector>

#include "ir/ir.h"
#include "ir/scalar_expr.h"

namespace nki::ir {

// Python semantics: floor division rounds toward -inf; the remainder has the divisor's sign.
inline int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
inline int64_t py_mod(int64_t a, int64_t b) { return a - floor_div(a, b) * b; }

inline bool compare(CmpKind c, int64_t v) { return cmp_holds(c, v); }

// What eval does when a value leaves int64: the simulator and the bounds check must not go on
// with a wrong index (Throw: IndexOverflow, which the executor reports); the cost model only
// needs a box to track dependencies, and a saturated bound is a conservative one (Saturate).
enum class OnOverflow : uint8_t { Throw, Saturate };

class AtomEnv {
 public:
  explicit AtomEnv(const Kernel& k, OnOverflow overflow = OnOverflow::Throw)
      : k_(k), loop_(static_cast<size_t>(std::max(k.loop_count, 0)) + 1, 0), overflow_(overflow) {
    for (const Atom& a : k.atoms)
      if (a.kind == AtomKind::LoopVar && a.loop >= static_cast<int>(loop_.size()))
        loop_.resize(static_cast<size_t>(a.loop) + 1, 0);
  }

  void set_loop(int loop_id, int64_t v) {
    if (loop_id < 0) return;
    if (loop_id >= static_cast<int>(loop_.size())) loop_.resize(static_cast<size_t>(loop_id) + 1);
    loop_[static_cast<size_t>(loop_id)] = v;
  }
  void set_program_ids(std::vector<int64_t> pid) { pid_ = std::move(pid); }
  const std::vector<int64_t>& program_ids() const { return pid_; }

  int64_t atom(int id) const {
    const Atom& a = k_.atoms[static_cast<size_t>(id)];
    switch (a.kind) {
      case AtomKind::LoopVar: return a.loop >= 0 ? loop_[static_cast<size_t>(a.loop)] : 0;
      case AtomKind::ProgramId:
        return a.axis >= 0 && a.axis < static_cast<int>(pid_.size())
                   ? pid_[static_cast<size_t>(a.axis)]
                   : 0;
      case AtomKind::FloorDiv: return floor_div(eval(a.operand), a.divisor);
      case AtomKind::Mod: return py_mod(eval(a.operand), a.divisor);
    }
    return 0;
  }

  // Throws IndexOverflow when the value leaves int64 (the executor reports it), or saturates
  // (OnOverflow::Saturate).
  int64_t eval(const ScalarExpr& e) const {
    int64_t v = e.constant;
    for (const auto& [id, c] : e.terms) {
      const int64_t x = atom(id);
      int64_t t, sum;
      if (__builtin_mul_overflow(c, x, &t)) {
        if (overflow_ == OnOverflow::Throw) throw IndexOverflow();
        t = (c < 0) != (x < 0) ? INT64_MIN : INT64_MAX;
      }
      if (__builtin_add_overflow(v, t, &sum)) {
        if (overflow_ == OnOverflow::Throw) throw IndexOverflow();
        sum = t > 0 ? INT64_MAX : INT64_MIN;
      }
      v = sum;
    }
    return v;
  }

  // A predicate without iteration-space terms (an `if` condition).
  bool holds(const Predicate& p) const { return compare(p.cmp, eval(p.rest)); }
  bool holds(const Mask& m) const {
    for (const Predicate& p : m.terms)
      if (!holds(p)) return false;
    return true;
  }

 private:
  const Kernel& k_;
  std::vector<int64_t> loop_;
  std::vector<int64_t> pid_;
  OnOverflow overflow_;
};

}  // namespace nki::ir
