// A static walk over a kernel body: one place that knows the shape of the statement tree
// (Instr / Loop / If), so passes say what they do per node instead of re-writing the recursion
// (shared/docs/architecture-review.md §1). The walk visits every statement once, in program
// order, without evaluating loops or conditions; passes that need concrete loop values (the
// simulator, the bounds checker, the cost model's scheduler) iterate themselves and dispatch
// each statement with `visit_stmt`.
#pragma once

#include <functional>
#include <variant>
#include <vector>

#include "ir/ir.h"

namespace nki::ir {

// The one switch over the kinds of statement: calls exactly one of the three handlers. Templated
// so the simulator's per-iteration dispatch costs no indirect call.
template <class OnInstr, class OnLoop, class OnIf>
inline void visit_stmt(const Stmt& s, OnInstr&& on_instr, OnLoop&& on_loop, OnIf&& on_if) {
  if (const auto* in = std::get_if<Instr>(&s.node)) on_instr(*in);
  else if (const auto* lp = std::get_if<Loop>(&s.node)) on_loop(*lp);
  else if (const auto* cond = std::get_if<If>(&s.node)) on_if(*cond);
}

// The statements of one arm of an if.
inline const std::vector<Stmt>& branch_body(const If& cond, bool then_branch) {
  return then_branch ? cond.then_body : cond.else_body;
}

struct WalkCallbacks {
  // Every instruction, with the number of enclosing blocks (0 = kernel body).
  std::function<void(const Instr&, int depth)> instr;
  // A loop before its body; return false to skip the body (exit_loop is still called).
  std::function<bool(const Loop&, int depth)> enter_loop;
  std::function<void(const Loop&, int depth)> exit_loop;
  // One branch of an if before its statements (then_branch says which, the then arm first);
  // false skips it (exit_branch is still called).
  std::function<bool(const If&, bool then_branch, int depth)> enter_branch;
  std::function<void(const If&, bool then_branch, int depth)> exit_branch;
};

namespace detail {
inline void walk_body(const std::vector<Stmt>& body, const WalkCallbacks& cb, int depth) {
  for (const Stmt& s : body) {
    visit_stmt(
        s, [&](const Instr& in) { if (cb.instr) cb.instr(in, depth); },
        [&](const Loop& lp) {
          if (!cb.enter_loop || cb.enter_loop(lp, depth)) walk_body(lp.body, cb, depth + 1);
          if (cb.exit_loop) cb.exit_loop(lp, depth);
        },
        [&](const If& cond) {
          for (bool then_branch : {true, false}) {
            if (!cb.enter_branch || cb.enter_branch(cond, then_branch, depth))
              walk_body(branch_body(cond, then_branch), cb, depth + 1);
            if (cb.exit_branch) cb.exit_branch(cond, then_branch, depth);
          }
        });
  }
}
}  // namespace detail

inline void walk(const std::vector<Stmt>& body, const WalkCallbacks& cb) { detail::walk_body(body, cb, 0); }
inline void walk(const Kernel& k, const WalkCallbacks& cb) { detail::walk_body(k.body, cb, 0); }

// Every tensor an instruction names: dst, sources, indirect index tensors, reduce_res.
inline void for_each_access(const Instr& in, const std::function<void(const Access&, bool written)>& f) {
  std::function<void(const Access&, bool)> visit = [&](const Access& a, bool written) {
    if (a.tensor < 0) return;
    f(a, written);
    if (a.indirect && a.indirect->index) visit(*a.indirect->index, false);
  };
  visit(in.dst, true);
  for (const Operand& o : in.srcs)
    if (!o.is_imm) visit(o.access, false);
  if (in.reduce_res) visit(*in.reduce_res, true);
}

}  // namespace nki::ir
