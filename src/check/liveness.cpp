#include "check/liveness.h"

#include <algorithm>
#include <limits>
#include <optional>

#include "ir/scalar_expr.h"
#include "ir/walk.h"

namespace nki::check {

namespace {

// A Loop or If statement: the instruction positions it spans.
struct Compound {
  int64_t first = 0, last = -1;
  const ir::Loop* loop = nullptr;  // nullptr: an If
};

// One access of a tensor: where, inside which compounds (outermost first), and how. Several
// operands of one instruction on the same tensor are one touch with all their accesses.
struct Touch {
  int64_t pos = 0;
  std::vector<int> stack;
  bool read = false;
  bool whole = false;                        // every element (the fill of nl.zeros / nl.full)
  std::vector<const ir::Access*> accesses;
};

struct Walker {
  const ir::Kernel& k;
  std::vector<Compound> comps;
  std::vector<int> stack;
  std::vector<std::vector<Touch>> touches;  // per root tensor
  std::vector<const ir::Loop*> loops;       // by loop id
  std::vector<PositionOperands> at;
  int64_t pos = 0;

  int root(int t) const {
    while (t >= 0 && k.tensors[static_cast<size_t>(t)].alias_of >= 0)
      t = k.tensors[static_cast<size_t>(t)].alias_of;
    return t;
  }

  static void add_unique(std::vector<int>& v, int t) {
    if (std::find(v.begin(), v.end(), t) == v.end()) v.push_back(t);
  }

  void touch(const ir::Access& a, bool read, bool write) {
    if (a.indirect && a.indirect->index) touch(*a.indirect->index, true, false);
    int r = root(a.tensor);
    if (r < 0 || !ir::is_on_chip(k.tensors[static_cast<size_t>(r)].buffer)) return;
    PositionOperands& here = at.back();
    if (read) add_unique(here.reads, r);
    if (write) add_unique(here.writes, r);
    auto& list = touches[static_cast<size_t>(r)];
    // Several operands of one instruction: a read-modify-write is a read first.
    if (!list.empty() && list.back().pos == pos) {
      list.back().read = list.back().read || read;
      list.back().accesses.push_back(&a);
      return;
    }
    list.push_back(Touch{pos, stack, read, false, {&a}});
  }

  void walk(const std::vector<ir::Stmt>& body) {
    ir::WalkCallbacks cb;
    cb.instr = [&](const ir::Instr& in, int) {
      at.emplace_back();
      // Sources are read before the destination is written. `+=` (rmw) and accumulating
      // matmuls read the destination too.
      for (const ir::Operand& o : in.srcs)
        if (!o.is_imm) touch(o.access, true, false);
      const bool dst_read = in.rmw.has_value() || (in.op == ir::Opcode::Matmul && in.accumulate);
      touch(in.dst, dst_read, true);
      if (in.reduce_res) touch(*in.reduce_res, false, true);
      ++pos;
    };
    cb.enter_loop = [&](const ir::Loop& lp, int) {
      if (lp.id >= 0) {
        if (loops.size() <= static_cast<size_t>(lp.id)) loops.resize(static_cast<size_t>(lp.id) + 1, nullptr);
        loops[static_cast<size_t>(lp.id)] = &lp;
      }
      open(&lp);
      return true;
    };
    cb.exit_loop = [&](const ir::Loop&, int) { close(); };
    // Both arms of an if make one compound.
    cb.enter_branch = [&](const ir::If&, bool then_branch, int) {
      if (then_branch) open(nullptr);
      return true;
    };
    cb.exit_branch = [&](const ir::If&, bool then_branch, int) {
      if (!then_branch) close();
    };
    ir::walk(body, cb);
  }

  // A Loop (or an If, loop == nullptr) starts at the current position.
  void open(const ir::Loop* loop) {
    stack.push_back(static_cast<int>(comps.size()));
    comps.push_back(Compound{pos, -1, loop});
  }
  void close() {
    comps[static_cast<size_t>(stack.back())].last = pos - 1;
    stack.pop_back();
  }
};

// nl.zeros / nl.full store their value where the tensor is created: in the block of depth
// `scope_depth` that encloses the first use, before the statement holding that use (the
// executor fills it at the same point). Returns that virtual write.
Touch init_touch(const Walker& w, const ir::TensorDecl& d, const Touch& first_use) {
  Touch t;
  t.read = false;
  t.whole = true;
  const size_t depth = static_cast<size_t>(std::max(d.scope_depth, 0));
  if (depth >= first_use.stack.size()) {
    t.pos = first_use.pos;
    t.stack = first_use.stack;
  } else {
    t.stack.assign(first_use.stack.begin(), first_use.stack.begin() + static_cast<long>(depth));
    t.pos = w.comps[static_cast<size_t>(first_use.stack[depth])].first;
  }
  return t;
}

// ------------------------------------------------------------------ block dimensions

using Wide = __int128;

struct Interval {
  Wide lo = 0, hi = 0;
};

// The physical tiles of a block tensor that are live at once, and the depth of the loop nest the
// tensor behaves as if it were created in (see liveness.h).
struct BlockUse {
  size_t created = 0;
  int64_t tiles = 1;
};

class BlockAnalysis {
 public:
  BlockAnalysis(const Walker& w, const ir::TensorDecl& d, const std::vector<Touch>& ts, size_t common)
      : w_(w), d_(d), ts_(ts), common_(common) {
    for (const Touch& t : ts)
      for (const ir::Access* a : t.accesses) acc_.push_back(a);
  }

  BlockUse run() {
    const size_t nb = static_cast<size_t>(std::max(d_.partition_dim, 0));
    int64_t all = 1;
    for (size_t b = 0; b < nb && b < d_.shape.size(); ++b) all *= d_.shape[b];
    BlockUse res{static_cast<size_t>(std::max(d_.scope_depth, 0)), all};
    if (all <= 1 || acc_.empty()) return res;
    for (const Touch& t : ts_)
      if (t.whole) return res;  // a fill writes every tile at the creation point
    for (const ir::Access* a : acc_)
      if (a->offset.size() < nb || a->coef.size() < nb) return res;
    const std::vector<int>& stack = ts_.front().stack;
    size_t eff = res.created;
    while (eff < common_) {
      const Compound& c = w_.comps[static_cast<size_t>(stack[eff])];
      if (c.loop && !privatizes(*c.loop, eff)) break;
      ++eff;
    }
    outer_.clear();
    for (size_t i = 0; i < eff; ++i)
      if (const ir::Loop* l = w_.comps[static_cast<size_t>(stack[i])].loop) outer_.push_back(l->id);
    int64_t tiles = 1;
    for (size_t b = 0; b < nb; ++b) tiles *= extent(b);
    res.created = eff;
    res.tiles = std::min(tiles, all);
    return res;
  }

 private:
  bool in_outer(int loop_id) const { return std::find(outer_.begin(), outer_.end(), loop_id) != outer_.end(); }

  // Whether every access selects the same index of some block dimension with `loop`'s variable
  // (plus variables that are fixed during one of its iterations): then different iterations of
  // `loop` use different physical tiles.
  bool privatizes(const ir::Loop& loop, size_t depth) {
    outer_.clear();
    const std::vector<int>& stack = ts_.front().stack;
    for (size_t i = 0; i < depth; ++i)
      if (const ir::Loop* l = w_.comps[static_cast<size_t>(stack[i])].loop) outer_.push_back(l->id);
    const size_t nb = static_cast<size_t>(d_.partition_dim);
    for (size_t b = 0; b < nb; ++b) {
      const ir::ScalarExpr* e0 = nullptr;
      bool same = true;
      for (const ir::Access* a : acc_) {
        if (a->indirect && a->indirect->dim == static_cast<int>(b)) same = false;
        for (int64_t c : a->coef[b])
          if (c != 0) same = false;
        if (!e0) e0 = &a->offset[b];
        else if (!ir::equal(*e0, a->offset[b])) same = false;
        if (!same) break;
      }
      if (!same || !e0) continue;
      bool uses_loop = false, fixed_otherwise = true;
      for (const auto& [atom, c] : e0->terms) {
        if (c == 0) continue;
        const ir::Atom& at = w_.k.atoms[static_cast<size_t>(atom)];
        if (at.kind == ir::AtomKind::LoopVar && at.loop == loop.id) uses_loop = true;
        else if (at.kind == ir::AtomKind::ProgramId) continue;
        else if (at.kind == ir::AtomKind::LoopVar && in_outer(at.loop)) continue;
        else fixed_otherwise = false;
      }
      if (uses_loop && fixed_otherwise) return true;
    }
    return false;
  }

  // Atoms whose value is fixed inside one instance of the (virtually hoisted) tensor.
  bool is_outer(int atom) const {
    const ir::Atom& at = w_.k.atoms[static_cast<size_t>(atom)];
    switch (at.kind) {
      case ir::AtomKind::ProgramId: return true;
      case ir::AtomKind::LoopVar: return in_outer(at.loop);
      case ir::AtomKind::FloorDiv:
      case ir::AtomKind::Mod:
        for (const auto& [a, c] : at.operand.terms)
          if (c != 0 && !is_outer(a)) return false;
        return true;
    }
    return false;
  }

  std::optional<Interval> atom_range(int atom, int depth) const {
    if (depth > 64) return std::nullopt;
    const ir::Atom& at = w_.k.atoms[static_cast<size_t>(atom)];
    switch (at.kind) {
      case ir::AtomKind::ProgramId: {
        const size_t ax = static_cast<size_t>(std::max(at.axis, 0));
        const int64_t n = ax < w_.k.grid.size() ? w_.k.grid[ax] : 1;
        return Interval{0, std::max<int64_t>(n, 1) - 1};
      }
      case ir::AtomKind::LoopVar: {
        if (at.loop < 0 || static_cast<size_t>(at.loop) >= w_.loops.size() || !w_.loops[static_cast<size_t>(at.loop)])
          return std::nullopt;
        const ir::Loop& l = *w_.loops[static_cast<size_t>(at.loop)];
        const int64_t n = l.trip_count();
        const Wide a = l.start, b = static_cast<Wide>(l.start) + static_cast<Wide>(l.step) * (n > 0 ? n - 1 : 0);
        return Interval{std::min(a, b), std::max(a, b)};
      }
      case ir::AtomKind::FloorDiv:
      case ir::AtomKind::Mod: {
        auto r = expr_range(at.operand, {}, depth + 1);
        if (!r || at.divisor <= 0) return std::nullopt;
        const Wide dv = at.divisor;
        auto fdiv = [&](Wide x) { return x >= 0 ? x / dv : -((-x + dv - 1) / dv); };
        if (at.kind == ir::AtomKind::FloorDiv) return Interval{fdiv(r->lo), fdiv(r->hi)};
        if (r->hi - r->lo + 1 >= dv) return Interval{0, dv - 1};
        const Wide a = r->lo - fdiv(r->lo) * dv, b = r->hi - fdiv(r->hi) * dv;
        if (a <= b) return Interval{a, b};
        return Interval{0, dv - 1};
      }
    }
    return std::nullopt;
  }

  // Range of the terms of `e` that are not outer (all terms when `split` is false), plus the
  // constant and the iteration-space part `coef`.
  std::optional<Interval> expr_range(const ir::ScalarExpr& e, const std::vector<std::pair<int64_t, int64_t>>& coef,
                                     int depth, bool split = false) const {
    Interval r{e.constant, e.constant};
    constexpr Wide kMax = static_cast<Wide>(std::numeric_limits<int64_t>::max());
    for (const auto& [atom, c] : e.terms) {
      if (c == 0 || (split && is_outer(atom))) continue;
      auto a = atom_range(atom, depth);
      if (!a) return std::nullopt;
      const Wide x = a->lo * c, y = a->hi * c;
      r.lo += std::min(x, y);
      r.hi += std::max(x, y);
      if (r.hi > kMax || r.lo < -kMax) return std::nullopt;
    }
    for (const auto& [c, n] : coef) {
      const Wide span = static_cast<Wide>(c) * (n > 0 ? n - 1 : 0);
      if (span > 0) r.hi += span;
      else r.lo += span;
      if (r.hi > kMax || r.lo < -kMax) return std::nullopt;
    }
    return r;
  }

  // Distinct indices of block dimension `b` that the accesses can reach within one instance.
  int64_t extent(size_t b) const {
    const int64_t size = d_.shape[b];
    std::optional<ir::ScalarExpr> outer0;
    Wide lo = 0, hi = 0;
    bool first = true;
    for (const ir::Access* a : acc_) {
      if (a->indirect && a->indirect->dim == static_cast<int>(b)) return size;
      ir::ScalarExpr outer;
      for (const auto& [atom, c] : a->offset[b].terms)
        if (c != 0 && is_outer(atom)) outer.terms.emplace_back(atom, c);
      if (!outer0) outer0 = outer;
      else if (!ir::equal(*outer0, outer)) return size;
      std::vector<std::pair<int64_t, int64_t>> coef;
      for (size_t j = 0; j < a->coef[b].size() && j < a->shape.size(); ++j)
        if (a->coef[b][j] != 0) coef.emplace_back(a->coef[b][j], a->shape[j]);
      auto r = expr_range(a->offset[b], coef, 0, /*split=*/true);
      if (!r) return size;
      lo = first ? r->lo : std::min(lo, r->lo);
      hi = first ? r->hi : std::max(hi, r->hi);
      first = false;
    }
    const Wide n = hi - lo + 1;
    return n >= size ? size : std::max<int64_t>(1, static_cast<int64_t>(n));
  }

  const Walker& w_;
  const ir::TensorDecl& d_;
  const std::vector<Touch>& ts_;
  size_t common_;
  std::vector<const ir::Access*> acc_;
  std::vector<int> outer_;  // ids of the loops enclosing the (virtual) creation point
};

LiveRange range_of(const Walker& w, int tensor, std::vector<Touch> ts) {
  const ir::TensorDecl& d = w.k.tensors[static_cast<size_t>(tensor)];
  if (d.init != ir::TensorInit::Uninitialized) ts.insert(ts.begin(), init_touch(w, d, ts.front()));
  LiveRange r{tensor, ts.front().pos, ts.front().pos, 1};
  // Compounds enclosing every access (a common prefix: the stacks are chains from the root).
  size_t common = ts.front().stack.size();
  for (const Touch& t : ts) {
    r.first = std::min(r.first, t.pos);
    r.last = std::max(r.last, t.pos);
    size_t n = 0;
    while (n < common && n < t.stack.size() && t.stack[n] == ts.front().stack[n]) ++n;
    common = n;
  }
  size_t created = static_cast<size_t>(std::max(d.scope_depth, 0));
  if (d.partition_dim > 0) {
    const BlockUse b = BlockAnalysis(w, d, ts, common).run();
    created = std::max(created, b.created);
    r.tiles = b.tiles;
  }
  auto cover = [&](int c) {
    const Compound& cp = w.comps[static_cast<size_t>(c)];
    r.first = std::min(r.first, cp.first);
    r.last = std::max(r.last, cp.last);
  };
  // Loops holding some accesses but not all: the tensor crosses their boundary, so it is live
  // in every iteration.
  for (const Touch& t : ts)
    for (size_t i = common; i < t.stack.size(); ++i)
      if (w.comps[static_cast<size_t>(t.stack[i])].loop) cover(t.stack[i]);
  // Read before any write in the innermost loop holding every access: loop-carried. Only loops
  // inside the block that creates the tensor qualify (stack index >= the creation depth): an
  // enclosing loop creates a new tensor in every iteration, so nothing is carried across it. A
  // block tensor privatised by a loop counts as created inside that loop.
  const Touch& first = *std::min_element(ts.begin(), ts.end(),
                                         [](const Touch& a, const Touch& b) { return a.pos < b.pos; });
  if (first.read)
    for (size_t i = common; i-- > created;)
      if (w.comps[static_cast<size_t>(ts.front().stack[i])].loop) {
        cover(ts.front().stack[i]);
        break;
      }
  return r;
}

}  // namespace

Liveness on_chip_liveness(const ir::Kernel& k) {
  Walker w{k, {}, {}, std::vector<std::vector<Touch>>(k.tensors.size()), {}, {}, 0};
  w.walk(k.body);
  Liveness out;
  out.positions = w.pos;
  for (size_t t = 0; t < k.tensors.size(); ++t)
    if (!w.touches[t].empty()) out.ranges.push_back(range_of(w, static_cast<int>(t), w.touches[t]));
  out.at = std::move(w.at);
  return out;
}

}  // namespace nki::check
