#include "machine/access.h"

#include <algorithm>
#include <string>

#include "base/diag_codes.h"
#include "machine/transfer.h"

namespace nki::machine {

namespace {

std::string shape_str(const std::vector<int64_t>& s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
  return r + "]";
}

// Calls fn(flat, coords) for every element of `shape` in row-major order (rank <= kMaxRank).
constexpr size_t kMaxRank = 32;
template <class Fn>
void for_each_coord(const std::vector<int64_t>& shape, Fn&& fn) {
  const int64_t n = ir::element_count(shape);
  const size_t r = std::min(shape.size(), kMaxRank);
  int64_t k[kMaxRank] = {0};
  for (int64_t f = 0; f < n; ++f) {
    fn(f, static_cast<const int64_t*>(k));
    for (size_t d = r; d-- > 0;) {
      if (++k[d] < shape[d]) break;
      k[d] = 0;
    }
  }
}

}  // namespace

ActiveSet eval_mask(const AtomEnv& env, const std::optional<ir::Mask>& mask,
                    const std::vector<int64_t>& shape) {
  ActiveSet s;
  if (!mask || mask->terms.empty()) return s;
  const int64_t n = ir::element_count(shape);
  std::vector<const ir::Predicate*> partial;
  std::vector<int64_t> rests;
  for (const ir::Predicate& p : mask->terms) {
    int64_t r = env.eval(p.rest);
    int64_t lo = r, hi = r;
    for (size_t j = 0; j < p.coef.size() && j < shape.size(); ++j) {
      int64_t span = p.coef[j] * (shape[j] > 0 ? shape[j] - 1 : 0);
      lo += std::min<int64_t>(0, span);
      hi += std::max<int64_t>(0, span);
    }
    bool lo_ok = compare(p.cmp, lo), hi_ok = compare(p.cmp, hi);
    // Affine over a box: monotone in each coordinate, so both extremes holding means all hold
    // for inequalities; Eq/Ne need the element-wise path unless the function is constant.
    bool constant = lo == hi;
    bool monotone = p.cmp != ir::CmpKind::Eq && p.cmp != ir::CmpKind::Ne;
    if ((monotone || constant) && lo_ok && hi_ok) continue;
    if ((monotone || constant) && !lo_ok && !hi_ok) {
      s.kind = ActiveSet::None;
      return s;
    }
    partial.push_back(&p);
    rests.push_back(r);
  }
  if (partial.empty() || n == 0) return s;
  s.kind = ActiveSet::Some;
  s.bits.assign(static_cast<size_t>(n), 1);
  for (size_t t = 0; t < partial.size(); ++t) {
    const ir::Predicate& p = *partial[t];
    const int64_t r = rests[t];
    for_each_coord(shape, [&](int64_t f, const int64_t* k) {
      int64_t v = r;
      for (size_t j = 0; j < p.coef.size() && j < shape.size(); ++j) v += p.coef[j] * k[j];
      if (!compare(p.cmp, v)) s.bits[static_cast<size_t>(f)] = 0;
    });
  }
  bool any = std::find(s.bits.begin(), s.bits.end(), 1) != s.bits.end();
  if (!any) {
    s.kind = ActiveSet::None;
    s.bits.clear();
  }
  return s;
}

View broadcast_view(ExecContext& cx, const View& v, const std::vector<int64_t>& shape) {
  if (!v.indirect.empty() || !v.dropped.empty())
    cx.fail(diag::Code::sim_bad_ir, "an indirectly indexed operand must have the instruction's shape");
  View b = v;
  b.shape = shape;
  b.strides.assign(shape.size(), 0);
  const size_t r = v.shape.size(), R = shape.size();
  if (r > R && ir::element_count(v.shape) != ir::element_count(shape))
    cx.fail(diag::Code::sim_bad_ir, "operand of shape " + shape_str(v.shape) +
                              " cannot be broadcast to " + shape_str(shape));
  for (size_t j = 0; j < r; ++j) {
    if (j >= R) break;
    size_t sd = r - 1 - j, td = R - 1 - j;
    if (v.shape[sd] == shape[td])
      b.strides[td] = v.strides[sd];
    else if (v.shape[sd] != 1)
      cx.fail(diag::Code::sim_bad_ir, "operand of shape " + shape_str(v.shape) +
                                " cannot be broadcast to " + shape_str(shape));
  }
  b.collapse();
  return b;
}

View resolve(ExecContext& cx, const ir::Access& a, const uint8_t* mask, bool oob_skip, Use use) {
  const ir::Kernel& k = cx.k;
  if (a.tensor < 0 || a.tensor >= static_cast<int>(k.tensors.size()))
    cx.fail(diag::Code::sim_bad_ir, "operand refers to an unknown tensor id " + std::to_string(a.tensor));
  const ir::TensorDecl& t = k.tensors[static_cast<size_t>(a.tensor)];
  const size_t R = t.shape.size(), r = a.shape.size();
  if (a.offset.size() != R || a.coef.size() != R)
    cx.fail(diag::Code::sim_bad_ir, "access to '" + t.name + "' has " + std::to_string(a.offset.size()) +
                              " offsets for a rank-" + std::to_string(R) + " tensor");
  if (a.shape.size() > kMaxRank)
    cx.fail(diag::Code::sim_bad_ir, "access to '" + t.name + "' has an iteration space of rank > 32");
  View v;
  v.tensor = a.tensor;
  int64_t shift = 0;  // offset into the source storage of a deferred copy (Use::Read)
  if (use == Use::Read) {
    v.data = cx.mem.read_data(a.tensor, &shift, &v.store_root);
  } else {
    if (use == Use::Write) cx.mem.prepare_write(a.tensor);
    v.data = cx.mem.data(a.tensor);
    v.store_root = cx.mem.root(a.tensor);
  }
  v.dtype = cx.mem.storage_dtype(a.tensor);
  v.elem_size = dtype_size(v.dtype);
  v.shadow = cx.mem.shadow(a.tensor);
  v.shape = a.shape;
  v.strides.assign(r, 0);

  std::vector<int64_t> rowstride(R, 1);
  for (size_t d = R; d-- > 1;) rowstride[d - 1] = rowstride[d] * t.shape[d];
  std::vector<int64_t> off(R);
  for (size_t d = 0; d < R; ++d) {
    if (a.coef[d].size() != r)
      cx.fail(diag::Code::sim_bad_ir, "access to '" + t.name + "' has a coefficient row of the wrong rank");
    off[d] = cx.env.eval(a.offset[d]);
    v.base += off[d] * rowstride[d];
    for (size_t j = 0; j < r; ++j) v.strides[j] += a.coef[d][j] * rowstride[d];
  }
  // The bounds below are computed in 128 bits: huge offsets or coefficients must be reported,
  // not wrap around into an in-bounds-looking range. Once every dimension's index range is
  // inside the tensor, base + strides * k stays inside its element count, which fits in int64.
  using Wide = __int128;
  const int64_t n = v.count();
  const int ind_dim = a.indirect ? a.indirect->dim : -1;

  // Static bounds: each affine index must stay inside its dimension on every active element.
  if (n > 0) {
    for (size_t d = 0; d < R; ++d) {
      if (static_cast<int>(d) == ind_dim) continue;
      Wide wlo = off[d], whi = off[d];
      for (size_t j = 0; j < r; ++j) {
        Wide span = static_cast<Wide>(a.coef[d][j]) * (a.shape[j] - 1);
        wlo += std::min<Wide>(0, span);
        whi += std::max<Wide>(0, span);
      }
      if (wlo >= 0 && whi < t.shape[d]) continue;
      auto clamp64 = [](Wide x) {
        return x > INT64_MAX ? INT64_MAX : x < INT64_MIN ? INT64_MIN : static_cast<int64_t>(x);
      };
      int64_t lo = clamp64(wlo), hi = clamp64(whi);
      if (mask != nullptr) {  // exact range over the active elements only
        bool any = false;
        int64_t mlo = 0, mhi = 0;
        for_each_coord(a.shape, [&](int64_t f, const int64_t* kk) {
          if (!mask[f]) return;
          int64_t x = off[d];
          for (size_t j = 0; j < r; ++j) x = clamp64(static_cast<Wide>(x) + static_cast<Wide>(a.coef[d][j]) * kk[j]);
          mlo = any ? std::min(mlo, x) : x;
          mhi = any ? std::max(mhi, x) : x;
          any = true;
        });
        if (!any || (mlo >= 0 && mhi < t.shape[d])) continue;
        lo = mlo;
        hi = mhi;
      }
      cx.fail(diag::Code::err_tensor_access_out_of_bound,
              "out-of-bound access to tensor '" + t.name + "' of shape " + shape_str(t.shape) +
                  ": index range [" + std::to_string(lo) + ", " + std::to_string(hi) +
                  "] on dimension " + std::to_string(d) + " of size " +
                  std::to_string(t.shape[d]),
              "mask the access or shrink the tile so every index stays in range");
    }
  }

  if (a.indirect) {
    if (ind_dim < 0 || ind_dim >= static_cast<int>(R) || !a.indirect->index)
      cx.fail(diag::Code::sim_bad_ir, "indirect access to '" + t.name + "' has an invalid dimension");
    View iv = resolve(cx, *a.indirect->index, nullptr, false, Use::Read);
    View bv = broadcast_view(cx, iv, a.shape);
    std::vector<int64_t> idx(static_cast<size_t>(n));
    cx.note_uninit(gather_i64(bv, mask, idx.data()), bv.tensor);
    v.indirect.assign(static_cast<size_t>(n), 0);
    const size_t dd = static_cast<size_t>(ind_dim);
    const int64_t total = ir::element_count(t.shape);
    for_each_coord(a.shape, [&](int64_t f, const int64_t* kk) {
      if (mask != nullptr && !mask[f]) return;
      Wide x = static_cast<Wide>(off[dd]) + idx[static_cast<size_t>(f)];
      for (size_t j = 0; j < r; ++j) x += static_cast<Wide>(a.coef[dd][j]) * kk[j];
      if (x < 0 || x >= t.shape[dd]) {
        if (oob_skip) {
          if (v.dropped.empty()) v.dropped.assign(static_cast<size_t>(n), 0);
          v.dropped[static_cast<size_t>(f)] = 1;
          return;
        }
        int64_t flat = v.base + idx[static_cast<size_t>(f)] * rowstride[dd];
        for (size_t j = 0; j < r; ++j) flat += v.strides[j] * kk[j];
        cx.fail(diag::Code::dynamic_oob,
                "index " + std::to_string(flat) + " is out of bounds for axis 0 with size " +
                    std::to_string(total),
                "indirect index " + std::to_string(idx[static_cast<size_t>(f)]) +
                    " on dimension " + std::to_string(dd) + " of tensor '" + t.name +
                    "' (size " + std::to_string(t.shape[dd]) +
                    "); use oob_mode.skip to drop such rows");
      }
      v.indirect[static_cast<size_t>(f)] = idx[static_cast<size_t>(f)] * rowstride[dd];
    });
  }
  v.base += shift;
  v.collapse();
  return v;
}

}  // namespace nki::machine
