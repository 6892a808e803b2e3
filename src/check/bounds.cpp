#include "check/bounds.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <tuple>

#include "base/diag_codes.h"
#include "base/diagnostic.h"
#include "ir/atom_env.h"
#include "ir/scalar_expr.h"
#include "ir/walk.h"

namespace nki::check {

using ir::shape_str;

namespace {

constexpr int64_t kMaxVisits = 2'000'000;  // instruction visits; beyond this, runtime checks only

struct Range {
  int64_t lo, hi;
};

class BoundsChecker {
 public:
  explicit BoundsChecker(const ir::Kernel& k) : k_(k), env_(k) {}

  void run() {
    std::vector<int64_t> grid = k_.grid.empty() ? std::vector<int64_t>{1} : k_.grid;
    int64_t instances = 1;
    for (int64_t g : grid) instances *= g;
    std::vector<int64_t> pid(grid.size(), 0);
    for (int64_t n = 0; n < instances && visits_ < kMaxVisits; ++n) {
      int64_t rem = n;
      for (size_t a = grid.size(); a-- > 0;) {
        pid[a] = rem % grid[a];
        rem /= grid[a];
      }
      env_.set_program_ids(pid);
      walk(k_.body);
    }
  }

 private:
  // Atom values come from the simulator's environment (ir/atom_env.h): the same arithmetic.
  int64_t eval(const ir::ScalarExpr& e) { return env_.eval(e); }
  bool holds(const ir::Predicate& p) { return env_.holds(p); }

  // Runs the loops with concrete values (a static walk cannot: bounds depend on the iteration).
  void walk(const std::vector<ir::Stmt>& body) {
    for (const ir::Stmt& s : body) {
      if (visits_ >= kMaxVisits) return;
      ir::visit_stmt(
          s,
          [&](const ir::Instr& in) {
            ++visits_;
            check(in);
          },
          [&](const ir::Loop& lp) {
            int64_t n = lp.trip_count();
            // Iterations count as visits too: an empty loop of 10**15 trips must not stall the check.
            for (int64_t i = 0; i < n && visits_ < kMaxVisits; ++i, ++visits_) {
              env_.set_loop(lp.id, lp.start + i * lp.step);
              walk(lp.body);
            }
          },
          [&](const ir::If& iff) {
            bool taken = std::all_of(iff.cond.terms.begin(), iff.cond.terms.end(), [&](const ir::Predicate& p) { return holds(p); });
            walk(ir::branch_body(iff, taken));
          });
    }
  }

  // Coordinate ranges of an iteration space narrowed by the mask; nullopt = cannot tell (or empty).
  std::optional<std::vector<Range>> ranges(const std::vector<int64_t>& shape, const std::optional<ir::Mask>& mask) {
    std::vector<Range> r(shape.size());
    for (size_t j = 0; j < shape.size(); ++j) r[j] = {0, shape[j] - 1};
    if (!mask) return r;
    for (const ir::Predicate& p : mask->terms) {
      if (p.coef.size() != shape.size()) return std::nullopt;
      int nz = -1, count = 0;
      for (size_t j = 0; j < p.coef.size(); ++j)
        if (p.coef[j] != 0) {
          nz = static_cast<int>(j);
          ++count;
        }
      int64_t rest = eval(p.rest);
      if (count == 0) {
        ir::Predicate q = p;
        if (!holds(q)) return std::nullopt;  // never active
        continue;
      }
      if (count > 1) return std::nullopt;
      int64_t c = p.coef[nz];
      // c*k + rest CMP 0
      auto tighten = [&](bool upper, long double bound) {
        if (upper) r[nz].hi = std::min<int64_t>(r[nz].hi, static_cast<int64_t>(bound));
        else r[nz].lo = std::max<int64_t>(r[nz].lo, static_cast<int64_t>(bound));
      };
      long double x = static_cast<long double>(-rest) / c;  // boundary value of k
      bool pos = c > 0;
      switch (p.cmp) {
        case ir::CmpKind::Lt: pos ? tighten(true, std::ceil(x) - 1) : tighten(false, std::floor(x) + 1); break;
        case ir::CmpKind::Le: pos ? tighten(true, std::floor(x)) : tighten(false, std::ceil(x)); break;
        case ir::CmpKind::Gt: pos ? tighten(false, std::floor(x) + 1) : tighten(true, std::ceil(x) - 1); break;
        case ir::CmpKind::Ge: pos ? tighten(false, std::ceil(x)) : tighten(true, std::floor(x)); break;
        case ir::CmpKind::Eq:
          if (std::floor(x) != x) return std::nullopt;
          tighten(true, x);
          tighten(false, x);
          break;
        case ir::CmpKind::Ne: break;
      }
      if (r[nz].lo > r[nz].hi) return std::nullopt;
    }
    return r;
  }

  void check_access(const ir::Instr& in, const ir::Access& a, const std::optional<std::vector<Range>>& masked) {
    const ir::TensorDecl& t = k_.tensors[a.tensor];
    std::vector<Range> r;
    if (masked && masked->size() == a.shape.size()) {
      r = *masked;
      for (size_t j = 0; j < r.size(); ++j) r[j].hi = std::min(r[j].hi, a.shape[j] - 1);
    } else {
      for (int64_t s : a.shape) r.push_back({0, s - 1});
    }
    for (size_t d = 0; d < a.offset.size() && d < t.shape.size(); ++d) {
      if (a.indirect && a.indirect->dim == static_cast<int>(d)) continue;
      // 128-bit: a huge coefficient must show as out of bounds, not wrap into range.
      __int128 wlo = eval(a.offset[d]), whi = wlo;
      for (size_t j = 0; j < a.coef[d].size() && j < r.size(); ++j) {
        __int128 c = a.coef[d][j];
        if (c >= 0) {
          wlo += c * r[j].lo;
          whi += c * r[j].hi;
        } else {
          wlo += c * r[j].hi;
          whi += c * r[j].lo;
        }
      }
      auto clamp64 = [](__int128 x) {
        return x > INT64_MAX ? INT64_MAX : x < INT64_MIN ? INT64_MIN : static_cast<int64_t>(x);
      };
      const int64_t lo = clamp64(wlo), hi = clamp64(whi);
      if (lo < 0 || hi >= t.shape[d]) {
        SourceLoc at = a.loc.valid() ? a.loc : in.loc;
        if (!reported_.insert({at.line, at.col, a.tensor}).second) continue;
        if (found_.size() >= max_errors_) {
          visits_ = kMaxVisits;  // enough: stop the walk
          return;
        }
        found_.push_back(make_diagnostic(
            Severity::Error, diag::Code::err_tensor_access_out_of_bound,
            "out-of-bound access to tensor '" + t.name + "' of shape " + shape_str(t.shape) + ": index range [" +
                std::to_string(lo) + ", " + std::to_string(hi) + "] on dimension " + std::to_string(d) + " of size " +
                std::to_string(t.shape[d]) + location_note(),
            k_.file, at, "mask the access (mask=(i < n)) or shrink the tile so every index stays in range"));
      }
    }
  }

  std::string location_note() {
    std::string s;
    for (size_t i = 0; i < k_.atoms.size(); ++i) {
      const ir::Atom& a = k_.atoms[i];
      if (a.kind == ir::AtomKind::LoopVar || (a.kind == ir::AtomKind::ProgramId && !k_.grid.empty())) {
        if (active_atom(i)) s += (s.empty() ? " (at " : ", ") + a.name + "=" + std::to_string(env_.atom(static_cast<int>(i)));
      }
    }
    return s.empty() ? s : s + ")";
  }

  bool active_atom(size_t) { return true; }

  void check(const ir::Instr& in) {
    std::optional<std::vector<Range>> masked;
    const std::vector<int64_t>& space = in.op == ir::Opcode::Reduce && !in.srcs.empty() && !in.srcs[0].is_imm
                                            ? in.srcs[0].access.shape
                                            : in.dst.shape;
    masked = ranges(space, in.mask);
    if (!masked) {
      if (in.mask) return;  // coupled or never-active mask: leave it to the runtime check
    }
    if (in.op != ir::Opcode::Reduce) check_access(in, in.dst, masked);
    else check_access(in, in.dst, std::nullopt);
    for (const ir::Operand& o : in.srcs)
      if (!o.is_imm) check_access(in, o.access, in.op == ir::Opcode::Matmul ? std::nullopt : masked);
    if (in.reduce_res) check_access(in, *in.reduce_res, std::nullopt);
  }

  const ir::Kernel& k_;
  ir::AtomEnv env_;
  int64_t visits_ = 0;
 public:
  size_t max_errors_ = 1;
  std::vector<Diagnostic> found_;
  std::set<std::tuple<int, int, int>> reported_;  // (line, col, tensor) of the accesses found
};

}  // namespace

std::vector<Diagnostic> static_bounds_errors(const ir::Kernel& k, size_t max_errors) {
  BoundsChecker c(k);
  c.max_errors_ = max_errors;
  c.run();
  return std::move(c.found_);
}

}  // namespace nki::check
