#include "machine/work_budget.h"

#include <algorithm>
#include <limits>
#include <string>
#include <variant>

#include "base/diag_codes.h"
#include "ir/walk.h"
#include "machine/sim_error.h"

namespace nki::machine {

namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

int64_t sat_add(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_add_overflow(a, b, &r) ? kMax : r;
}
int64_t sat_mul(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_mul_overflow(a, b, &r) ? kMax : r;
}
int64_t sat_count(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n = sat_mul(n, d < 0 ? 0 : d);
  return n;
}

// Work units of a body: instructions plus, per loop, trips x (body + 1); of an if, the cheaper
// arm. Sums saturate. Sets *heaviest to the deepest loop whose own work exceeds `limit`.
int64_t block_work(const std::vector<ir::Stmt>& body, int64_t limit, const ir::Loop** heaviest) {
  std::vector<int64_t> open{0};                // running total of each enclosing block
  std::vector<const ir::Loop*> heaviest_before;  // per open loop
  std::vector<int64_t> then_work;              // per open if: the work of its then arm
  ir::WalkCallbacks cb;
  cb.instr = [&](const ir::Instr& in, int) { open.back() = sat_add(open.back(), instruction_work(in)); };
  cb.enter_loop = [&](const ir::Loop&, int) {
    heaviest_before.push_back(*heaviest);
    open.push_back(0);
    return true;
  };
  cb.exit_loop = [&](const ir::Loop& lp, int) {
    // A register-driven loop may run zero times: it adds nothing to the lower bound.
    const int64_t w = lp.has_static_trip_count() ? sat_mul(lp.trip_count(), sat_add(open.back(), 1)) : 0;
    open.pop_back();
    if (*heaviest == heaviest_before.back() && w > limit) *heaviest = &lp;  // deepest loop over the limit
    heaviest_before.pop_back();
    open.back() = sat_add(open.back(), w);
  };
  cb.enter_branch = [&](const ir::If&, bool, int) {
    open.push_back(0);
    return true;
  };
  cb.exit_branch = [&](const ir::If&, bool then_branch, int) {
    const int64_t arm = open.back();
    open.pop_back();
    if (then_branch) {
      then_work.push_back(arm);
      return;
    }
    // Which arm runs depends on loop values: only the cheaper arm is certain.
    open.back() = sat_add(open.back(), std::min(then_work.back(), arm));
    then_work.pop_back();
  };
  ir::walk(body, cb);
  return open.back();
}

std::string loop_text(const ir::Loop& lp) {
  return "the " + std::string(ir::loop_kind_name(lp.kind)) + " loop over '" + lp.var_name + "' (" +
         (lp.has_static_trip_count() ? std::to_string(lp.trip_count()) : std::string("register-driven")) + " iterations)";
}

const char* kHint =
    "this is a limit of the simulator, not a compiler rule: shrink the problem or the trip "
    "count, or raise the budget (--sim-work UNITS / --sim-seconds S)";

}  // namespace

int64_t instruction_work(const ir::Instr& in) {
  if (in.op == ir::Opcode::Matmul && !in.srcs.empty() && !in.srcs[0].is_imm &&
      !in.srcs[0].access.shape.empty()) {
    // dst[M, N] += stationary[K, M]^T @ moving[K, N]
    return sat_mul(sat_count(in.dst.shape), in.srcs[0].access.shape[0]);
  }
  int64_t n = sat_count(in.dst.shape);
  for (const ir::Operand& o : in.srcs)
    if (!o.is_imm) n = sat_add(n, sat_count(o.access.shape));
  return n;
}

StaticWork static_work(const ir::Kernel& k, int64_t limit) {
  StaticWork w;
  w.units = block_work(k.body, limit, &w.heaviest);
  return w;
}

WorkMeter::WorkMeter(const ir::Kernel& k, int64_t max_units, double max_seconds)
    : k_(k),
      max_units_(max_units > 0 ? max_units : kMax),
      max_seconds_(max_seconds),
      deadline_(max_seconds) {}

void WorkMeter::precheck(int64_t instances) const {
  if (max_units_ == kMax) return;
  StaticWork w = static_work(k_, max_units_);
  int64_t total = sat_mul(w.units, instances < 1 ? 1 : instances);
  if (total <= max_units_) return;
  std::string where = w.heaviest ? "; most of it is in " + loop_text(*w.heaviest) : "";
  throw_sim_error(k_, w.heaviest ? w.heaviest->loc : SourceLoc{}, diag::Code::sim_budget,
                  "simulating this kernel needs at least " +
                      (total == kMax ? std::string("2^63") : std::to_string(total)) +
                      " work units (loop iterations plus elements processed), more than the "
                      "simulator's budget of " + std::to_string(max_units_) + where,
                  kHint);
}

void WorkMeter::over_units(const ir::Loop* loop) const {
  std::string where = loop ? " while running " + loop_text(*loop) : "";
  throw_sim_error(k_, loop ? loop->loc : SourceLoc{}, diag::Code::sim_budget,
                  "simulation exceeded the simulator's work budget of " +
                      std::to_string(max_units_) +
                      " units (loop iterations plus elements processed)" + where,
                  kHint);
}

void WorkMeter::over_time(const ir::Loop* loop) const {
  std::string where = loop ? " while running " + loop_text(*loop) : "";
  char secs[32];
  std::snprintf(secs, sizeof secs, "%g", max_seconds_);
  throw_sim_error(k_, loop ? loop->loc : SourceLoc{}, diag::Code::sim_budget,
                  "simulation exceeded the simulator's time budget of " + std::string(secs) +
                      " s of CPU time" + where,
                  kHint);
}

}  // namespace nki::machine
