#include "cost/branch_segments.h"

#include <algorithm>
#include <climits>

#include "ir/walk.h"

namespace nki::cost {

namespace {

// Beyond these, a loop whose conditions are not affine in its index is not enumerated: it is
// scheduled iteration by iteration (the scheduler's own budget then bounds the work).
constexpr int64_t kMaxEnumeratedTrips = int64_t{1} << 16;
constexpr int64_t kMaxEnumeratedEvaluations = int64_t{1} << 22;

struct Range {
  int64_t lo = 0, hi = 0;
};

int64_t saturate(__int128 v) {
  if (v > static_cast<__int128>(INT64_MAX)) return INT64_MAX;
  if (v < static_cast<__int128>(INT64_MIN)) return INT64_MIN;
  return static_cast<int64_t>(v);
}

// Interval evaluation of index expressions while one iteration of the iterated loop (or grid
// instance) runs: the iterated value is a point, the variables of the loops nested in the body
// range over all their values, everything else (enclosing loops) is the environment's value.
class RangeEval {
 public:
  RangeEval(const ir::Kernel& k, const ir::AtomEnv& env, const ir::Loop* loop, const BranchSegmenter::Scope& scope)
      : k_(k), env_(env), loop_(loop), pid_(k.grid.size(), 0) {
    for (const ir::Loop* lp : scope.inner) {
      const int64_t n = lp->trip_count();
      const int64_t last = saturate(static_cast<__int128>(lp->start) + static_cast<__int128>(std::max<int64_t>(n - 1, 0)) * lp->step);
      inner_.resize(std::max<size_t>(inner_.size(), static_cast<size_t>(lp->id) + 1));
      inner_[static_cast<size_t>(lp->id)] = Range{std::min(lp->start, last), std::max(lp->start, last)};
      is_inner_.resize(inner_.size(), false);
      is_inner_[static_cast<size_t>(lp->id)] = true;
    }
  }

  // Binds iteration (instance) i.
  void bind(int64_t i) {
    if (loop_) {
      value_ = saturate(static_cast<__int128>(loop_->start) + static_cast<__int128>(i) * loop_->step);
      return;
    }
    for (size_t d = k_.grid.size(); d-- > 0;) {
      const int64_t n = std::max<int64_t>(k_.grid[d], 1);
      pid_[d] = i % n;
      i /= n;
    }
  }

  Range eval(const ir::ScalarExpr& e) const {
    __int128 lo = e.constant, hi = e.constant;
    for (const auto& [id, c] : e.terms) {
      const Range r = atom(id);
      const __int128 a = static_cast<__int128>(c) * r.lo, b = static_cast<__int128>(c) * r.hi;
      lo += std::min(a, b);
      hi += std::max(a, b);
    }
    return Range{saturate(lo), saturate(hi)};
  }

  // Whether `e` changes with the iterated value, and whether it does so only through terms of
  // the value itself (affine: its outcome is monotone in the iteration).
  bool depends(const ir::ScalarExpr& e, bool* affine) const {
    bool any = false;
    for (const auto& [id, c] : e.terms) {
      if (c == 0) continue;
      const ir::Atom& a = k_.atoms[static_cast<size_t>(id)];
      if (is_iterated(a)) {
        any = true;
        if (!loop_ && k_.grid.size() > 1) *affine = false;  // a program id of a multi-axis grid
      } else if (a.kind == ir::AtomKind::FloorDiv || a.kind == ir::AtomKind::Mod) {
        bool inner_affine = true;
        if (depends(a.operand, &inner_affine)) {
          any = true;
          *affine = false;
        }
      }
    }
    return any;
  }

 private:
  bool is_iterated(const ir::Atom& a) const {
    return loop_ ? a.kind == ir::AtomKind::LoopVar && a.loop == loop_->id : a.kind == ir::AtomKind::ProgramId;
  }

  Range atom(int id) const {
    const ir::Atom& a = k_.atoms[static_cast<size_t>(id)];
    switch (a.kind) {
      case ir::AtomKind::LoopVar: {
        if (loop_ && a.loop == loop_->id) return Range{value_, value_};
        if (a.loop >= 0 && static_cast<size_t>(a.loop) < is_inner_.size() && is_inner_[static_cast<size_t>(a.loop)])
          return inner_[static_cast<size_t>(a.loop)];
        const int64_t v = env_.atom(id);
        return Range{v, v};
      }
      case ir::AtomKind::ProgramId: {
        if (!loop_ && a.axis >= 0 && static_cast<size_t>(a.axis) < pid_.size()) {
          const int64_t v = pid_[static_cast<size_t>(a.axis)];
          return Range{v, v};
        }
        const int64_t v = env_.atom(id);
        return Range{v, v};
      }
      case ir::AtomKind::FloorDiv: {
        const Range r = eval(a.operand);
        if (a.divisor <= 0) return Range{INT64_MIN, INT64_MAX};
        return Range{ir::floor_div(r.lo, a.divisor), ir::floor_div(r.hi, a.divisor)};
      }
      case ir::AtomKind::Mod: {
        const Range r = eval(a.operand);
        if (a.divisor <= 0) return Range{INT64_MIN, INT64_MAX};
        const Range all{0, a.divisor - 1};
        if (static_cast<__int128>(r.hi) - r.lo >= a.divisor - 1) return all;
        const int64_t x = ir::py_mod(r.lo, a.divisor), y = ir::py_mod(r.hi, a.divisor);
        return x <= y ? Range{x, y} : all;
      }
    }
    return Range{INT64_MIN, INT64_MAX};
  }

  const ir::Kernel& k_;
  const ir::AtomEnv& env_;
  const ir::Loop* loop_;
  int64_t value_ = 0;
  std::vector<int64_t> pid_;
  std::vector<Range> inner_;
  std::vector<bool> is_inner_;
};

// A condition's outcome over one iteration: fixed (below, at or above zero for every value of
// the inner loops), or varying with the inner loops' indices.
enum Outcome : uint8_t { kBelow, kZero, kAbove, kVaries };

Outcome outcome(const RangeEval& ev, const ir::Predicate& p) {
  const Range r = ev.eval(p.rest);
  if (r.hi < 0) return kBelow;
  if (r.lo > 0) return kAbove;
  return r.lo == r.hi ? kZero : kVaries;
}

// Order along a monotone sweep: below < {zero or varies} < above.
int level(Outcome o) { return o == kBelow ? 0 : o == kAbove ? 2 : 1; }

// The iterations in (lo, hi] where an affine condition's outcome changes, by bisection: its level
// is monotone in the iteration, so equal levels at both ends mean no change in between.
void find_changes(RangeEval& ev, const ir::Predicate& p, int64_t lo, int lo_level, int64_t hi, int hi_level,
                  std::vector<int64_t>& out) {
  if (lo_level == hi_level) return;
  if (hi - lo == 1) {
    out.push_back(hi);
    return;
  }
  const int64_t mid = lo + (hi - lo) / 2;
  ev.bind(mid);
  const int mid_level = level(outcome(ev, p));
  find_changes(ev, p, lo, lo_level, mid, mid_level, out);
  find_changes(ev, p, mid, mid_level, hi, hi_level, out);
}

}  // namespace

const BranchSegmenter::Scope& BranchSegmenter::scope(const ir::Loop* loop) {
  auto it = scopes_.find(loop);
  if (it != scopes_.end()) return it->second;
  Scope s;
  ir::AtomEnv unused(k_);
  RangeEval ev(k_, unused, loop, s);
  ir::WalkCallbacks cb;
  cb.enter_loop = [&](const ir::Loop& lp, int) {
    s.inner.push_back(&lp);
    return true;
  };
  cb.enter_branch = [&](const ir::If& c, bool then_branch, int) {
    if (then_branch)
      for (const ir::Predicate& p : c.cond.terms) {
        bool affine = true;
        if (ev.depends(p.rest, &affine)) {
          s.dependent.push_back(&p);
          s.linear &= affine;
        }
      }
    return true;
  };
  ir::walk(loop ? loop->body : k_.body, cb);
  return scopes_.emplace(loop, std::move(s)).first->second;
}

std::vector<IterationSegment> BranchSegmenter::segments(const ir::AtomEnv& env, const ir::Loop* loop, int64_t trips) {
  if (trips <= 0) return {};
  const Scope& s = scope(loop);
  if (s.dependent.empty()) return {IterationSegment{0, trips, true}};
  RangeEval ev(k_, env, loop, s);
  const size_t np = s.dependent.size();
  std::vector<Outcome> at(np);
  auto evaluate = [&](int64_t i) {
    ev.bind(i);
    for (size_t j = 0; j < np; ++j) at[j] = outcome(ev, *s.dependent[j]);
  };
  auto regular = [&] { return std::none_of(at.begin(), at.end(), [](Outcome o) { return o == kVaries; }); };

  std::vector<int64_t> cuts;  // iterations where some outcome differs from the previous iteration's
  if (s.linear) {
    for (const ir::Predicate* p : s.dependent) {
      ev.bind(0);
      const int first = level(outcome(ev, *p));
      ev.bind(trips - 1);
      const int last = level(outcome(ev, *p));
      find_changes(ev, *p, 0, first, trips - 1, last, cuts);
    }
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    // Within a level-1 stretch of an exact condition (`if i == K`), only one iteration is at zero;
    // the bisection finds both of its edges.
  } else if (trips <= kMaxEnumeratedTrips && trips * static_cast<int64_t>(np) <= kMaxEnumeratedEvaluations) {
    std::vector<Outcome> prev;
    for (int64_t i = 0; i < trips; ++i) {
      evaluate(i);
      if (i > 0 && at != prev) cuts.push_back(i);
      prev = at;
    }
  } else {
    return {IterationSegment{0, trips, false}};
  }

  std::vector<IterationSegment> out;
  int64_t begin = 0;
  cuts.push_back(trips);
  for (int64_t end : cuts) {
    if (end <= begin) continue;
    evaluate(begin);
    const bool reg = regular();
    // Irregular iterations are all scheduled, so neighbouring ones are one segment.
    if (!reg && !out.empty() && !out.back().regular)
      out.back().end = end;
    else
      out.push_back(IterationSegment{begin, end, reg});
    begin = end;
  }
  return out;
}

}  // namespace nki::cost
