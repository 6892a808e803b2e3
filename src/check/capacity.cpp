#include "check/capacity.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/diag_codes.h"
#include "check/liveness.h"
#include "ir/scalar_expr.h"
#include "ir/walk.h"

namespace nki::check {

using ir::shape_str;

namespace {

// How one tensor sits in the 128 partitions. Partition start rules (direct-allocation guide,
// general/nki/nki_direct_allocation_guide.rst, and nki/compiler/sbuf.py alloc()): a tile of
// (64, 128] partitions starts at 0, of (32, 64] at 0 or 64, of (0, 32] at 0/32/64/96. So a tile
// of <= 64 partitions uses only half or a quarter of the partitions, and several such tiles can
// share the same bytes in different quadrants. Each block (B dims) is one tile.
struct Footprint {
  int64_t blocks = 1;    // physical tiles counted
  int64_t bytes = 0;     // per partition, per tile: prod(F) * dtype size
  int quadrants = 4;     // quadrants (of 32 partitions) one tile covers: 1, 2 or 4
};

Footprint footprint(const ir::TensorDecl& d, int64_t tiles) {
  Footprint f;
  const size_t p = static_cast<size_t>(std::max(d.partition_dim, 0));
  f.blocks = tiles;
  f.bytes = static_cast<int64_t>(dtype_size(d.dtype));
  for (size_t i = p + 1; i < d.shape.size(); ++i) f.bytes *= d.shape[i];
  const int64_t parts = p < d.shape.size() ? d.shape[p] : 1;
  f.quadrants = parts > 64 ? 4 : parts > 32 ? 2 : 1;
  return f;
}

int64_t all_blocks(const ir::TensorDecl& d) {
  int64_t n = 1;
  for (size_t i = 0; i < static_cast<size_t>(std::max(d.partition_dim, 0)) && i < d.shape.size(); ++i) n *= d.shape[i];
  return n;
}

// Lower bound of the fullest partition for a set of live tiles. Tiles covering all quadrants
// load every partition; the others (q quadrants, b bytes each) can be spread over the four
// quadrants, so the fullest quadrant holds at least their quadrant-bytes / 4, and at least the
// biggest of them.
class Usage {
 public:
  void add(const Footprint& f) { update(f, +1); }
  void remove(const Footprint& f) { update(f, -1); }
  int64_t bound() const {
    const int64_t spread = (quarter_bytes_ + 3) / 4;
    const int64_t biggest = small_.empty() ? 0 : *small_.rbegin();
    return full_ + std::max(spread, biggest);
  }

 private:
  void update(const Footprint& f, int sign) {
    if (f.blocks <= 0 || f.bytes <= 0) return;
    if (f.quadrants == 4) {
      full_ += sign * f.blocks * f.bytes;
      return;
    }
    quarter_bytes_ += sign * f.blocks * f.bytes * f.quadrants;
    if (sign > 0) small_.insert(f.bytes);
    else small_.erase(small_.find(f.bytes));
  }
  int64_t full_ = 0;
  int64_t quarter_bytes_ = 0;
  std::multiset<int64_t> small_;
};

std::string bytes_str(int64_t b) {
  if (b % 1024 == 0) return std::to_string(b / 1024) + " KiB";
  return std::to_string(b) + " bytes";
}

// "'a' [16, 8, 128, 2, 512] float32 (4 KiB: 1 of its 128 tiles, line 9)"
std::string describe(const ir::TensorDecl& d, int64_t tiles) {
  const int64_t all = all_blocks(d);
  std::string size = bytes_str(tiles * tile_partition_bytes(d));
  if (all > 1) size += ": " + std::to_string(tiles) + " of its " + std::to_string(all) + " tiles";
  return "'" + d.name + "' " + shape_str(d.shape) + " " + dtype_name(d.dtype) + " (" + size + ", line " +
         std::to_string(d.loc.line) + ")";
}

// The biggest first, at most four, then "and N more".
std::string describe_list(const ir::Kernel& k, std::vector<std::pair<int, int64_t>> items) {
  std::sort(items.begin(), items.end());  // equal sizes in creation order
  std::stable_sort(items.begin(), items.end(), [&](const auto& a, const auto& b) {
    return a.second * tile_partition_bytes(k.tensors[static_cast<size_t>(a.first)]) >
           b.second * tile_partition_bytes(k.tensors[static_cast<size_t>(b.first)]);
  });
  std::string names;
  const size_t shown = std::min<size_t>(items.size(), 4);
  for (size_t i = 0; i < shown; ++i)
    names += (i ? ", " : "") + describe(k.tensors[static_cast<size_t>(items[i].first)], items[i].second);
  if (items.size() > shown) names += " and " + std::to_string(items.size() - shown) + " more";
  return names;
}

std::string capacity_str(bool psum, int64_t limit, Target target) {
  const TargetDesc& hw = nki::describe(target);
  return psum ? "the " + bytes_str(hw.psum_partition_bytes) + " of a PSUM partition (" + std::to_string(hw.psum_banks) +
                    " banks of " + bytes_str(hw.psum_bank_bytes) + ")"
              : "the " + bytes_str(limit) + " of a " + hw.name + " SBUF partition";
}

// ------------------------------------------------------------------ the live-range estimate

struct SweepResult {
  int64_t peak = 0;
  int culprit = -1;                          // a tensor allocated where the usage first exceeds the limit
  int64_t culprit_tiles = 1;
  int64_t usage = 0;                         // the usage at that point
  std::vector<std::pair<int, int64_t>> live;  // (tensor, tiles) live at that point
};

bool contains(const std::vector<int>& v, int t) { return std::find(v.begin(), v.end(), t) != v.end(); }

// Walks the ranges of `buf` in program order, adding each at its first position and dropping
// it after its last one. At an instruction, the results it creates may take the place of sources
// whose last use it is: the usage there is the larger of "sources and everything else live" and
// "results and everything that survives the instruction".
SweepResult sweep(const ir::Kernel& k, const Liveness& lv, ir::Buffer buf, int64_t limit) {
  std::vector<const LiveRange*> ranges;
  for (const LiveRange& r : lv.ranges)
    if (k.tensors[static_cast<size_t>(r.tensor)].buffer == buf) ranges.push_back(&r);
  std::stable_sort(ranges.begin(), ranges.end(),
                   [](const LiveRange* a, const LiveRange* b) { return a->first < b->first; });
  auto fp = [&](const LiveRange* r) { return footprint(k.tensors[static_cast<size_t>(r->tensor)], r->tiles); };
  SweepResult res;
  Usage usage;
  std::multimap<int64_t, const LiveRange*> active;  // last position -> range
  size_t i = 0;
  while (i < ranges.size()) {
    const int64_t p = ranges[i]->first;
    while (!active.empty() && active.begin()->first < p) {
      usage.remove(fp(active.begin()->second));
      active.erase(active.begin());
    }
    const PositionOperands* ops = p >= 0 && static_cast<size_t>(p) < lv.at.size() ? &lv.at[static_cast<size_t>(p)] : nullptr;
    std::vector<const LiveRange*> fresh;  // results of instruction p that start here
    const LiveRange* starting = ranges[i];
    for (; i < ranges.size() && ranges[i]->first == p; ++i) {
      const LiveRange* r = ranges[i];
      if (ops && contains(ops->writes, r->tensor)) {
        fresh.push_back(r);
      } else {
        usage.add(fp(r));
        active.emplace(r->last, r);
      }
    }
    const int64_t before = usage.bound();
    std::vector<const LiveRange*> donors;
    if (ops)
      for (auto it = active.lower_bound(p); it != active.end() && it->first == p; ++it)
        if (contains(ops->reads, it->second->tensor) && !contains(ops->writes, it->second->tensor))
          donors.push_back(it->second);
    for (const LiveRange* d : donors) usage.remove(fp(d));
    for (const LiveRange* f : fresh) usage.add(fp(f));
    const int64_t after = usage.bound();
    for (const LiveRange* d : donors) usage.add(fp(d));
    for (const LiveRange* f : fresh) active.emplace(f->last, f);
    const int64_t now = std::max(before, after);
    res.peak = std::max(res.peak, now);
    if (res.culprit < 0 && now > limit) {
      const LiveRange* c = starting;
      for (const LiveRange* f : fresh)
        if (c == starting || fp(f).bytes * f->tiles > fp(c).bytes * c->tiles) c = f;
      res.culprit = c->tensor;
      res.culprit_tiles = c->tiles;
      res.usage = now;
      for (const auto& [last, r] : active) {
        const bool gone = after >= before ? std::find(donors.begin(), donors.end(), r) != donors.end()
                                          : std::find(fresh.begin(), fresh.end(), r) != fresh.end();
        if (!gone) res.live.emplace_back(r->tensor, r->tiles);
      }
    }
  }
  return res;
}

Diagnostic estimate_warning(const ir::Kernel& k, const SweepResult& s, bool psum, int64_t limit,
                            Target target) {
  const ir::TensorDecl& culprit = k.tensors[static_cast<size_t>(s.culprit)];
  const std::string where = psum ? "PSUM" : "SBUF";
  const std::string hint =
      psum ? "if neuronxcc cannot allocate it, keep fewer PSUM tiles live at once: accumulate fewer output tiles per "
             "pass, or copy finished results to SBUF before starting the next ones"
           : "if neuronxcc cannot allocate it, use smaller tiles, create each tile inside the loop that uses it, or "
             "keep the data in HBM and load it tile by tile";
  return make_diagnostic(Severity::Warning, psum ? diag::name(diag::Code::psum_capacity_estimate) : diag::name(diag::Code::sbuf_capacity_estimate),
                         "estimated " + where + " use reaches " + bytes_str(s.usage) + " per partition when '" +
                             culprit.name + "' is allocated, more than " + capacity_str(psum, limit, target) +
                             " (a live-range estimate; the compiler's allocator decides); largest live: " +
                             describe_list(k, s.live),
                         k.file, culprit.loc, hint);
}

// ------------------------------------------------------------------ provable errors

// One tile larger than a partition: no allocation holds it.
std::optional<Diagnostic> tile_error(const ir::Kernel& k, const Liveness& lv, ir::Buffer buf, int64_t limit,
                                     Target target) {
  const bool psum = buf == ir::Buffer::Psum;
  for (const LiveRange& r : lv.ranges) {
    const ir::TensorDecl& d = k.tensors[static_cast<size_t>(r.tensor)];
    if (d.buffer != buf || tile_partition_bytes(d) <= limit) continue;
    const bool blocks = all_blocks(d) > 1;
    return make_diagnostic(Severity::Error, psum ? diag::name(diag::Code::psum_capacity_exceeded) : diag::name(diag::Code::sbuf_capacity_exceeded),
                           std::string(blocks ? "one tile of '" : "'") + d.name + "' " + shape_str(d.shape) + " " +
                               dtype_name(d.dtype) + " needs " + bytes_str(tile_partition_bytes(d)) +
                               " per partition, more than " + capacity_str(psum, limit, target),
                           k.file, d.loc,
                           "split the free dimension into tiles that fit and loop over them (load, compute and "
                           "store one tile at a time)");
  }
  return std::nullopt;
}

int root_of(const ir::Kernel& k, int t) {
  while (t >= 0 && k.tensors[static_cast<size_t>(t)].alias_of >= 0) t = k.tensors[static_cast<size_t>(t)].alias_of;
  return t;
}

// Two accesses certainly select different blocks: on some block dimension both select one index
// (no iteration-space coefficient, no indirect index) and the indices differ by a constant.
bool distinct_blocks(const ir::Access& a, const ir::Access& b, size_t nb) {
  for (size_t d = 0; d < nb && d < a.offset.size() && d < b.offset.size(); ++d) {
    auto single = [&](const ir::Access& x) {
      if (x.indirect && x.indirect->dim == static_cast<int>(d)) return false;
      if (d < x.coef.size())
        for (int64_t c : x.coef[d])
          if (c != 0) return false;
      return true;
    };
    if (!single(a) || !single(b)) continue;
    const ir::ScalarExpr diff = ir::sub(a.offset[d], b.offset[d]);
    if (diff.is_constant() && diff.constant != 0) return true;
  }
  return false;
}

// A lower bound of the tiles of a block tensor that one instruction's accesses touch.
int64_t touched_tiles(const ir::TensorDecl& d, const std::vector<const ir::Access*>& accs) {
  const size_t nb = static_cast<size_t>(std::max(d.partition_dim, 0));
  if (nb == 0) return 1;
  int64_t best = 1;
  std::vector<const ir::Access*> reps;
  for (const ir::Access* a : accs) {
    for (size_t b = 0; b < nb && b < a->coef.size(); ++b)
      for (size_t j = 0; j < a->coef[b].size() && j < a->shape.size(); ++j)
        if (a->coef[b][j] != 0) best = std::max(best, a->shape[j]);
    if (std::all_of(reps.begin(), reps.end(), [&](const ir::Access* r) {
          try {
            return distinct_blocks(*a, *r, nb);
          } catch (const ir::IndexOverflow&) {
            return false;
          }
        }))
      reps.push_back(a);
  }
  best = std::max<int64_t>(best, static_cast<int64_t>(reps.size()));
  return std::min(best, all_blocks(d));
}

class OperandCheck {
 public:
  OperandCheck(const ir::Kernel& k, Target target) : k_(k), target_(target) {}

  // The first instruction in program order whose operands do not fit.
  std::optional<Diagnostic> walk(const std::vector<ir::Stmt>& body) {
    std::optional<Diagnostic> first;
    ir::WalkCallbacks cb;
    cb.instr = [&](const ir::Instr& in, int) {
      if (!first) first = instr(in);
    };
    cb.enter_loop = [&](const ir::Loop&, int) { return !first; };
    cb.enter_branch = [&](const ir::If&, bool, int) { return !first; };
    ir::walk(body, cb);
    return first;
  }

 private:
  using Groups = std::map<int, std::vector<const ir::Access*>>;  // root tensor -> its accesses

  void add(Groups& g, const ir::Access& a, Groups* index_reads) {
    if (a.indirect && a.indirect->index) add(index_reads ? *index_reads : g, *a.indirect->index, nullptr);
    const int r = root_of(k_, a.tensor);
    if (r < 0 || !ir::is_on_chip(k_.tensors[static_cast<size_t>(r)].buffer)) return;
    g[r].push_back(&a);
  }

  std::optional<Diagnostic> instr(const ir::Instr& in) {
    Groups reads, writes;
    for (const ir::Operand& o : in.srcs)
      if (!o.is_imm) add(reads, o.access, nullptr);
    const bool dst_read = in.rmw.has_value() || (in.op == ir::Opcode::Matmul && in.accumulate);
    if (dst_read) add(reads, in.dst, nullptr);
    add(writes, in.dst, &reads);
    if (in.reduce_res) add(writes, *in.reduce_res, &reads);
    const bool fill = !dst_read && std::all_of(in.srcs.begin(), in.srcs.end(), [](const ir::Operand& o) { return o.is_imm; });
    for (ir::Buffer buf : {ir::Buffer::Sbuf, ir::Buffer::Psum}) {
      const bool psum = buf == ir::Buffer::Psum;
      const int64_t limit = psum ? nki::describe(target_).psum_partition_bytes : nki::describe(target_).sbuf_partition_bytes;
      for (const auto* g : {&reads, &writes}) {
        Usage u;
        std::vector<std::pair<int, int64_t>> items;
        for (const auto& [t, accs] : *g) {
          const ir::TensorDecl& d = k_.tensors[static_cast<size_t>(t)];
          if (d.buffer != buf) continue;
          // A fill with no tensor operand (the zero-fill of nl.zeros over a whole block
          // tensor) can be done one logical tile at a time: block dimensions are logical
          // (general/nki/nki_block_dimension_migration_guide.rst), so only one tile of it
          // provably needs room at once.
          const int64_t tiles = g == &writes && fill ? 1 : touched_tiles(d, accs);
          u.add(footprint(d, tiles));
          items.emplace_back(t, tiles);
        }
        if (items.empty() || u.bound() <= limit) continue;
        const bool srcs = g == &reads;
        return make_diagnostic(
            Severity::Error, psum ? diag::name(diag::Code::psum_capacity_exceeded) : diag::name(diag::Code::sbuf_capacity_exceeded),
"the " + std::string(srcs ? "operands that '" : "results that '") + in.name + "' " +
                (srcs ? "reads" : "writes") + " need at least " + bytes_str(u.bound()) + " of each " +
                (psum ? "PSUM" : "SBUF") + " partition at the same time, more than " +
                capacity_str(psum, limit, target_) + ": " + describe_list(k_, items),
            k_.file, in.loc,
            "split the computation into smaller tiles along the free dimension (one tile of each operand at a "
            "time)");
      }
    }
    return std::nullopt;
  }

  const ir::Kernel& k_;
  Target target_;
};

}  // namespace

int64_t partition_bytes(const ir::TensorDecl& d) { return all_blocks(d) * tile_partition_bytes(d); }

int64_t tile_partition_bytes(const ir::TensorDecl& d) { return footprint(d, 1).bytes; }

int64_t peak_partition_bytes(const ir::Kernel& k, ir::Buffer buf) {
  return sweep(k, on_chip_liveness(k), buf, std::numeric_limits<int64_t>::max()).peak;
}

std::optional<Diagnostic> capacity_error(const ir::Kernel& k, Target target,
                                         std::vector<Diagnostic>* warnings) {
  const Liveness lv = on_chip_liveness(k);
  const int64_t sbuf_limit = nki::describe(target).sbuf_partition_bytes, psum_limit = nki::describe(target).psum_partition_bytes;
  if (auto e = tile_error(k, lv, ir::Buffer::Sbuf, sbuf_limit, target)) return e;
  if (auto e = tile_error(k, lv, ir::Buffer::Psum, psum_limit, target)) return e;
  if (auto e = OperandCheck(k, target).walk(k.body)) return e;
  if (!warnings) return std::nullopt;
  SweepResult s = sweep(k, lv, ir::Buffer::Sbuf, sbuf_limit);
  if (s.culprit >= 0) warnings->push_back(estimate_warning(k, s, false, sbuf_limit, target));
  SweepResult p = sweep(k, lv, ir::Buffer::Psum, psum_limit);
  if (p.culprit >= 0) warnings->push_back(estimate_warning(k, p, true, psum_limit, target));
  return std::nullopt;
}

}  // namespace nki::check
