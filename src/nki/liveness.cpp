#include "nki/liveness.h"

#include <algorithm>

namespace nki::front {

namespace {

// A Loop or If statement: the instruction positions it spans.
struct Compound {
  int64_t first = 0, last = -1;
  bool loop = false;
};

// One access of a tensor: where, inside which compounds (outermost first), and how.
struct Touch {
  int64_t pos = 0;
  std::vector<int> stack;
  bool read = false;
};

struct Walker {
  const ir::Kernel& k;
  std::vector<Compound> comps;
  std::vector<int> stack;
  std::vector<std::vector<Touch>> touches;  // per root tensor
  int64_t pos = 0;

  int root(int t) const {
    while (t >= 0 && k.tensors[static_cast<size_t>(t)].alias_of >= 0)
      t = k.tensors[static_cast<size_t>(t)].alias_of;
    return t;
  }

  void touch(const ir::Access& a, bool read) {
    if (a.indirect && a.indirect->index) touch(*a.indirect->index, true);
    int r = root(a.tensor);
    if (r < 0 || !ir::is_on_chip(k.tensors[static_cast<size_t>(r)].buffer)) return;
    auto& list = touches[static_cast<size_t>(r)];
    // Several operands of one instruction: a read-modify-write is a read first.
    if (!list.empty() && list.back().pos == pos) {
      list.back().read = list.back().read || read;
      return;
    }
    list.push_back(Touch{pos, stack, read});
  }

  void walk(const std::vector<ir::Stmt>& body) {
    for (const ir::Stmt& s : body) {
      if (const auto* in = std::get_if<ir::Instr>(&s.node)) {
        // Sources are read before the destination is written. `+=` (rmw) and accumulating
        // matmuls read the destination too.
        for (const ir::Operand& o : in->srcs)
          if (!o.is_imm) touch(o.access, true);
        const bool dst_read = in->rmw.has_value() || (in->op == ir::Opcode::Matmul && in->accumulate);
        touch(in->dst, dst_read);
        if (in->reduce_res) touch(*in->reduce_res, false);
        ++pos;
      } else if (const auto* lp = std::get_if<ir::Loop>(&s.node)) {
        nest(true, [&] { walk(lp->body); });
      } else if (const auto* cond = std::get_if<ir::If>(&s.node)) {
        nest(false, [&] {
          walk(cond->then_body);
          walk(cond->else_body);
        });
      }
    }
  }

  template <class F>
  void nest(bool loop, F&& inner) {
    const int c = static_cast<int>(comps.size());
    comps.push_back(Compound{pos, -1, loop});
    stack.push_back(c);
    inner();
    stack.pop_back();
    comps[static_cast<size_t>(c)].last = pos - 1;
  }
};

// nl.zeros / nl.full store their value where the tensor is created: in the block of depth
// `scope_depth` that encloses the first use, before the statement holding that use (the
// executor fills it at the same point). Returns that virtual write.
Touch init_touch(const Walker& w, const ir::TensorDecl& d, const Touch& first_use) {
  Touch t;
  t.read = false;
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

LiveRange range_of(const Walker& w, int tensor, std::vector<Touch> ts) {
  const ir::TensorDecl& d = w.k.tensors[static_cast<size_t>(tensor)];
  if (d.init != ir::TensorInit::Uninitialized) ts.insert(ts.begin(), init_touch(w, d, ts.front()));
  LiveRange r{tensor, ts.front().pos, ts.front().pos};
  // Compounds enclosing every access (a common prefix: the stacks are chains from the root).
  size_t common = ts.front().stack.size();
  for (const Touch& t : ts) {
    r.first = std::min(r.first, t.pos);
    r.last = std::max(r.last, t.pos);
    size_t n = 0;
    while (n < common && n < t.stack.size() && t.stack[n] == ts.front().stack[n]) ++n;
    common = n;
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
  // inside the block that creates the tensor qualify (stack index >= scope_depth): an enclosing
  // loop creates a new tensor in every iteration, so nothing is carried across it.
  const Touch& first = *std::min_element(ts.begin(), ts.end(),
                                         [](const Touch& a, const Touch& b) { return a.pos < b.pos; });
  const size_t created = static_cast<size_t>(std::max(d.scope_depth, 0));
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
  Walker w{k, {}, {}, std::vector<std::vector<Touch>>(k.tensors.size()), 0};
  w.walk(k.body);
  Liveness out;
  out.positions = w.pos;
  for (size_t t = 0; t < k.tensors.size(); ++t)
    if (!w.touches[t].empty()) out.ranges.push_back(range_of(w, static_cast<int>(t), w.touches[t]));
  return out;
}

}  // namespace nki::front
