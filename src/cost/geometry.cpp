#include "cost/geometry.h"

#include <algorithm>
#include <climits>

namespace nki::cost {

namespace {
int64_t sat_add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return b > 0 ? INT64_MAX : INT64_MIN;
  return r;
}
int64_t sat_mul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return (a < 0) != (b < 0) ? INT64_MIN : INT64_MAX;
  return r;
}
}  // namespace

std::vector<int64_t> storage_strides(const ir::TensorDecl& t) {
  const size_t r = t.shape.size();
  std::vector<int64_t> s(r, 0);
  const bool on_chip = ir::is_on_chip(t.buffer);
  int64_t run = 1;
  for (size_t d = r; d-- > 0;) {
    if (on_chip && static_cast<int>(d) == t.partition_dim) continue;
    s[d] = run;
    run = sat_mul(run, std::max<int64_t>(t.shape[d], 1));
  }
  return s;
}

bool overlaps(const Box& a, const Box& b) {
  if (a.whole || b.whole || a.rank != b.rank) return true;
  for (size_t d = 0; d < a.rank; ++d)
    if (a.hi[d] < b.lo[d] || b.hi[d] < a.lo[d]) return false;
  return true;
}

bool covers(const Box& outer, const Box& inner) {
  if (outer.whole) return true;
  if (inner.whole || outer.rank != inner.rank) return false;
  for (size_t d = 0; d < outer.rank; ++d)
    if (inner.lo[d] < outer.lo[d] || inner.hi[d] > outer.hi[d]) return false;
  return true;
}

Box bounding(const Box& a, const Box& b) {
  if (a.whole || b.whole || a.rank != b.rank) return Box::whole_tensor();
  Box r = a;
  for (size_t d = 0; d < a.rank; ++d) {
    r.lo[d] = std::min(a.lo[d], b.lo[d]);
    r.hi[d] = std::max(a.hi[d], b.hi[d]);
  }
  return r;
}

Box access_box(const ir::Kernel& k, const ir::Access& a, const ir::AtomEnv& env) {
  Box b;
  const ir::TensorDecl& t = k.tensors[static_cast<size_t>(a.tensor)];
  // Views share storage with another shape: track them as the whole root tensor.
  if (t.alias_of >= 0 || a.offset.size() != t.shape.size() || t.shape.size() > Box::kMaxRank) return Box::whole_tensor();
  const size_t r = t.shape.size();
  b.rank = static_cast<uint8_t>(r);
  for (size_t d = 0; d < r; ++d) {
    if (a.indirect && a.indirect->dim == static_cast<int>(d)) {
      b.lo[d] = 0;
      b.hi[d] = t.shape[d] - 1;
      continue;
    }
    int64_t lo = env.eval(a.offset[d]), hi = lo;
    if (d < a.coef.size()) {
      for (size_t j = 0; j < a.coef[d].size() && j < a.shape.size(); ++j) {
        int64_t span = sat_mul(a.coef[d][j], std::max<int64_t>(a.shape[j] - 1, 0));
        if (span < 0) lo = sat_add(lo, span);
        else hi = sat_add(hi, span);
      }
    }
    b.lo[d] = lo;
    b.hi[d] = hi;
  }
  return b;
}

DimWalk dim_walk(const ir::Kernel& k, const ir::Access& a) {
  const ir::TensorDecl& t = k.tensors[static_cast<size_t>(a.tensor)];
  std::vector<int64_t> ts = storage_strides(t);
  const bool on_chip = ir::is_on_chip(t.buffer);
  DimWalk w;
  w.stride.assign(a.shape.size(), 0);
  w.partition.assign(a.shape.size(), false);
  for (size_t d = 0; d < a.coef.size() && d < ts.size(); ++d) {
    for (size_t j = 0; j < a.coef[d].size() && j < a.shape.size(); ++j) {
      if (a.coef[d][j] == 0) continue;
      if (on_chip && static_cast<int>(d) == t.partition_dim) w.partition[j] = true;
      else w.stride[j] = sat_add(w.stride[j], sat_mul(a.coef[d][j], ts[d]));
    }
  }
  return w;
}

Layout layout_of(const ir::Kernel& k, const ir::Access& a) {
  const ir::TensorDecl& t = k.tensors[static_cast<size_t>(a.tensor)];
  Layout l;
  l.dtype = t.dtype;
  l.psum = t.buffer == ir::Buffer::Psum;
  l.sbuf = t.buffer == ir::Buffer::Sbuf;
  l.hbm = ir::is_hbm(t.buffer);
  DimWalk w = dim_walk(k, a);
  l.elements = 1;
  l.partitions = 1;
  bool any_free = false;
  for (size_t j = 0; j < a.shape.size(); ++j) {
    int64_t n = std::max<int64_t>(a.shape[j], 0);
    l.elements = sat_mul(l.elements, n);
    // NKI tiles put the partition dim first; an iteration dim that walks partitions (or dim 0
    // of an HBM operand's tile) counts as partitions, the rest as the free size.
    bool part = ir::is_on_chip(t.buffer) ? w.partition[j] : j == 0 && a.shape.size() > 1;
    if (part) l.partitions = sat_mul(l.partitions, n);
    else if (n > 1) {
      any_free |= w.stride[j] != 0 || !ir::is_on_chip(t.buffer);
      l.inner_stride_bytes = std::llabs(w.stride[j]) * static_cast<int64_t>(dtype_size(t.dtype));
    }
  }
  l.free_elems = l.partitions > 0 ? l.elements / l.partitions : 0;
  l.broadcast_free = !any_free;
  return l;
}

}  // namespace nki::cost
