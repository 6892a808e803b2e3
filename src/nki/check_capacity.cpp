#include "nki/check_capacity.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "nki/liveness.h"
#include "nki/lowering.h"
#include "nki/tracer.h"

namespace nki::front {

namespace {

// How one tensor sits in the 128 partitions. Partition start rules (direct-allocation guide,
// general/nki/nki_direct_allocation_guide.rst, and nki/compiler/sbuf.py alloc()): a tile of
// (64, 128] partitions starts at 0, of (32, 64] at 0 or 64, of (0, 32] at 0/32/64/96. So a tile
// of <= 64 partitions uses only half or a quarter of the partitions, and several such tiles can
// share the same bytes in different quadrants. Each block (B dims) is one tile.
struct Footprint {
  int64_t blocks = 1;    // prod(B)
  int64_t bytes = 0;     // per partition, per block: prod(F) * dtype size
  int quadrants = 4;     // quadrants (of 32 partitions) one block covers: 1, 2 or 4
};

Footprint footprint(const ir::TensorDecl& d) {
  Footprint f;
  const size_t p = static_cast<size_t>(std::max(d.partition_dim, 0));
  f.bytes = static_cast<int64_t>(dtype_size(d.dtype));
  for (size_t i = 0; i < d.shape.size(); ++i) {
    if (i < p) f.blocks *= d.shape[i];
    else if (i > p) f.bytes *= d.shape[i];
  }
  const int64_t parts = p < d.shape.size() ? d.shape[p] : 1;
  f.quadrants = parts > 64 ? 4 : parts > 32 ? 2 : 1;
  return f;
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

struct SweepResult {
  int64_t peak = 0;
  int culprit = -1;            // tensor whose range start first takes the usage over the limit
  int64_t usage = 0;           // the usage at that point
  std::vector<int> live;       // tensors live at that point
};

// Walks the ranges of `buf` in program order, adding each at its first position and dropping
// it after its last one.
SweepResult sweep(const ir::Kernel& k, const Liveness& lv, ir::Buffer buf, int64_t limit) {
  std::vector<LiveRange> ranges;
  for (const LiveRange& r : lv.ranges)
    if (k.tensors[static_cast<size_t>(r.tensor)].buffer == buf) ranges.push_back(r);
  std::stable_sort(ranges.begin(), ranges.end(),
                   [](const LiveRange& a, const LiveRange& b) { return a.first < b.first; });
  SweepResult res;
  Usage usage;
  std::multimap<int64_t, int> active;  // last position -> tensor
  for (const LiveRange& r : ranges) {
    while (!active.empty() && active.begin()->first < r.first) {
      usage.remove(footprint(k.tensors[static_cast<size_t>(active.begin()->second)]));
      active.erase(active.begin());
    }
    usage.add(footprint(k.tensors[static_cast<size_t>(r.tensor)]));
    active.emplace(r.last, r.tensor);
    const int64_t now = usage.bound();
    res.peak = std::max(res.peak, now);
    if (res.culprit < 0 && now > limit) {
      res.culprit = r.tensor;
      res.usage = now;
      for (const auto& [last, t] : active) res.live.push_back(t);
    }
  }
  return res;
}

std::string bytes_str(int64_t b) {
  if (b % 1024 == 0) return std::to_string(b / 1024) + " KiB";
  return std::to_string(b) + " bytes";
}

std::string describe(const ir::TensorDecl& d) {
  return "'" + d.name + "' " + shape_str(d.shape) + " " + dtype_name(d.dtype) + " (" +
         bytes_str(partition_bytes(d)) + ", line " + std::to_string(d.loc.line) + ")";
}

Diagnostic over_limit(const ir::Kernel& k, const SweepResult& s, bool psum, int64_t limit,
                      Target target) {
  std::vector<int> live = s.live;
  std::sort(live.begin(), live.end());  // equal sizes in creation order
  std::stable_sort(live.begin(), live.end(), [&](int a, int b) {
    return partition_bytes(k.tensors[static_cast<size_t>(a)]) >
           partition_bytes(k.tensors[static_cast<size_t>(b)]);
  });
  std::string names;
  const size_t shown = std::min<size_t>(live.size(), 4);
  for (size_t i = 0; i < shown; ++i)
    names += (i ? ", " : "") + describe(k.tensors[static_cast<size_t>(live[i])]);
  if (live.size() > shown) names += " and " + std::to_string(live.size() - shown) + " more";
  const ir::TensorDecl& culprit = k.tensors[static_cast<size_t>(s.culprit)];
  const std::string where = psum ? "PSUM" : "SBUF";
  const std::string cap = psum ? "the 16 KiB of a PSUM partition (8 banks of 2 KiB)"
                               : std::string("the ") + bytes_str(limit) + " of a " +
                                     (target == Target::Trn2 ? "trn2" : "trn1") + " SBUF partition";
  const std::string hint =
      psum ? "keep fewer PSUM tiles live at once: accumulate fewer output tiles per pass, or copy "
             "finished results to SBUF before starting the next ones"
           : "use smaller tiles, reuse one buffer across iterations (create the tile inside the "
             "loop that uses it), or keep the data in HBM and load it tile by tile";
  return make_diagnostic(Severity::Error, psum ? "psum_capacity_exceeded" : "sbuf_capacity_exceeded",
                         "allocating '" + culprit.name + "' brings the live " + where +
                             " tensors to at least " + bytes_str(s.usage) +
                             " per partition, more than " + cap + "; live: " + names,
                         k.file, culprit.loc, hint);
}

}  // namespace

int64_t sbuf_partition_limit(Target t) { return t == Target::Trn2 ? 224 * 1024 : 192 * 1024; }

int64_t partition_bytes(const ir::TensorDecl& d) {
  const Footprint f = footprint(d);
  return f.blocks * f.bytes;
}

int64_t peak_partition_bytes(const ir::Kernel& k, ir::Buffer buf) {
  return sweep(k, on_chip_liveness(k), buf, std::numeric_limits<int64_t>::max()).peak;
}

std::optional<Diagnostic> capacity_error(const ir::Kernel& k, Target target) {
  const Liveness lv = on_chip_liveness(k);
  const int64_t sbuf_limit = sbuf_partition_limit(target);
  SweepResult s = sweep(k, lv, ir::Buffer::Sbuf, sbuf_limit);
  if (s.culprit >= 0) return over_limit(k, s, false, sbuf_limit, target);
  SweepResult p = sweep(k, lv, ir::Buffer::Psum, kPsumPartitionLimit);
  if (p.culprit >= 0) return over_limit(k, p, true, kPsumPartitionLimit, target);
  return std::nullopt;
}

}  // namespace nki::front
