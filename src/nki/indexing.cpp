// Tensor subscripts (shared/docs/nki-spec.md §2.3): basic indexing (ints, slices with affine
// bounds, nl.ds, ...), advanced indexing with nl.arange / nl.mgrid expressions, and indirect
// (tile-valued) indices on the partition/block dimension of DMA operands.
#include <algorithm>

#include "base/diag_codes.h"
#include "ir/scalar_expr.h"
#include "nki/lowering.h"

namespace nki::front {

using py::cast;

namespace {

enum class IdxKind { Scalar, Slice, Advanced, Indirect, Dynamic };

struct Idx {
  IdxKind kind = IdxKind::Scalar;
  ir::ScalarExpr scalar;       // Scalar
  Ref slice;                   // Slice
  IndexObj* adv = nullptr;     // Advanced
  TensorObj* indirect = nullptr;
  DynIndexObj* dynamic = nullptr;
};

ir::ScalarExpr scalar_of(const Ref& r, const char* what) {
  if (auto v = py::as_int(r)) return ir::ScalarExpr::of(*v);
  if (auto* ix = as_index(r); ix && ix->is_scalar()) return ix->rest;
  nki_error(diag::Code::invalid_index, std::string("slice ") + what + " must be an integer or a loop index expression, got " +
                                     (r ? r->repr() : std::string("None")));
}

// Statically known bounds check of one index against a dim size (constants only).
void check_const_index(int64_t v, int64_t size, int dim, const std::string& tensor) {
  if (v < 0 || v >= size)
    nki_error(diag::Code::err_tensor_access_out_of_bound,
              "index " + std::to_string(v) + " is out of bound for dimension " + std::to_string(dim) +
                  " of size " + std::to_string(size) + " of tensor '" + tensor + "'",
              "keep indices within the tensor shape; use masks for ragged tiles");
}

}  // namespace

ir::Access index_view(Tracer& t, const TensorObj& base, const Ref& key) {
  const ir::Access& A = base.view;
  const std::string& tname = t.kernel().tensors[A.tensor].name;
  size_t r = A.shape.size();
  std::vector<Ref> keys;
  if (auto* tup = cast<py::TupleObj>(key)) keys = tup->items;
  else if (auto* grid = dynamic_cast<MgridObj*>(key.get())) keys = grid->components;  // a[nl.mgrid[...]]
  else keys.push_back(key);
  // Expand a single Ellipsis.
  for (size_t i = 0; i < keys.size(); ++i) {
    if (cast<py::EllipsisObj>(keys[i])) {
      size_t fill = r + 1 > keys.size() ? r + 1 - keys.size() : 0;
      auto full = std::make_shared<py::SliceObj>();
      full->lower = full->upper = full->step = py::none();
      keys.erase(keys.begin() + i);
      keys.insert(keys.begin() + i, fill, full);
      break;
    }
  }
  if (keys.size() > r)
    nki_error(diag::Code::too_many_indices, "too many indices for tensor '" + tname + "': tensor has " +
                                          std::to_string(r) + " dimensions but " +
                                          std::to_string(keys.size()) + " were indexed");
  std::vector<Idx> idx(keys.size());
  std::vector<std::shared_ptr<DynIndexObj>> keep_alive;
  bool any_adv = false, any_slice = false;
  for (size_t j = 0; j < keys.size(); ++j) {
    const Ref& k = keys[j];
    if (py::as_int(k)) {
      idx[j].kind = IdxKind::Scalar;
      int64_t v = *py::as_int(k);
      if (v < 0) v += A.shape[j];
      check_const_index(v, A.shape[j], static_cast<int>(j), tname);
      idx[j].scalar = ir::ScalarExpr::of(v);
    } else if (cast<py::SliceObj>(k)) {
      idx[j].kind = IdxKind::Slice;
      idx[j].slice = k;
      any_slice = true;
    } else if (auto* ix = as_index(k)) {
      if (ix->is_scalar()) {
        idx[j].kind = IdxKind::Scalar;
        idx[j].scalar = ix->rest;
      } else {
        if (ix->is_arange && ix->shape.size() == 1)
          nki_error(diag::Code::err_1d_arange_not_supported,
                    "indexing tensor '" + tname + "' with 1d arange is not supported",
                    "add an axis: nl.arange(n)[:, None] for the partition dim or nl.arange(n)[None, :] for a free dim");
        idx[j].kind = IdxKind::Advanced;
        idx[j].adv = ix;
        any_adv = true;
      }
    } else if (auto* dyn = dynamic_cast<DynIndexObj*>(k.get())) {
      if (!ir::is_on_chip(base.buffer()))
        nki_error(diag::Code::invalid_index, "a runtime offset can only index an on-chip tile; use an indirect DMA for HBM");
      idx[j].kind = IdxKind::Dynamic;
      idx[j].dynamic = dyn;
      idx[j].adv = dyn->index.get();
      any_adv = true;
    } else if (auto* tt = as_tensor(k); tt && ir::is_on_chip(base.buffer()) && j != 0 &&
                                         ir::element_count(tt->shape()) == 1) {
      // A one-element tile indexing a free dim of an on-chip tile: a runtime offset.
      auto dyn = std::make_shared<DynIndexObj>();
      dyn->value = tt->view;
      dyn->index = std::make_shared<IndexObj>();
      dyn->index->tracer = &t;
      keep_alive.push_back(dyn);
      idx[j].kind = IdxKind::Dynamic;
      idx[j].dynamic = dyn.get();
      idx[j].adv = dyn->index.get();
      any_adv = true;
    } else if (auto* tt = as_tensor(k)) {
      idx[j].kind = IdxKind::Indirect;
      idx[j].indirect = tt;
      any_adv = true;
    } else if (dynamic_cast<PredObj*>(k.get())) {
      nki_error(diag::Code::invalid_index, "a mask cannot be used as an index of '" + tname + "'",
                "pass masks with mask=... to the API instead");
    } else if (py::is_none(k)) {
      nki_error(diag::Code::unsupported_index, "None (new axis) is not supported when indexing tensor '" + tname + "'",
                "use .expand_dims() or reshape the tensor");
    } else {
      nki_error(diag::Code::invalid_index, "invalid index of type '" + k->type_name() + "' for tensor '" + tname + "'");
    }
  }
  if (any_adv && any_slice)
    nki_error(diag::Code::err_unsupported_mixing_basic_advanced_tensor_indexing,
              "mixing basic tensor indexing (slices) and advanced tensor indexing (nl.arange / nl.mgrid) "
              "in one subscript of '" + tname + "' is not supported",
              "use nl.arange/nl.mgrid for every dimension, or slices for every dimension");

  ir::Access out;
  out.loc = t.current_loc();
  out.tensor = A.tensor;
  out.offset = A.offset;
  out.indirect = A.indirect;
  size_t nt = A.offset.size();

  if (!any_adv) {
    // On-chip tiles stay at least 2-D: integer indices drop dims, but when fewer than two would
    // remain, the last integer-indexed dims are kept with size 1 (spec §2.3 indexing table).
    // The official flash attention kernels index a [P, n] tile as l[:, i] and use the result as
    // the [P, 1] tile their docstring names (nki-samples attention.py, `l_buffer: (B_P_SIZE, 1)`).
    std::vector<bool> keep(r, false);
    if (ir::is_on_chip(base.buffer()) && r >= 2) {
      size_t scalars = 0;
      for (size_t j = 0; j < idx.size(); ++j) scalars += idx[j].kind == IdxKind::Scalar;
      size_t need = r - scalars < 2 ? 2 - (r - scalars) : 0;
      for (size_t j = idx.size(); j-- > 0 && need > 0;)
        if (idx[j].kind == IdxKind::Scalar) keep[j] = true, --need;
    }
    std::vector<std::vector<int64_t>> cols;  // new coef columns, per tensor dim
    for (size_t j = 0; j < r; ++j) {
      if (j < idx.size() && idx[j].kind == IdxKind::Scalar) {
        for (size_t d = 0; d < nt; ++d)
          out.offset[d] = ir::add(out.offset[d], ir::scale(idx[j].scalar, A.coef[d][j]));
        if (keep[j]) {
          out.shape.push_back(1);
          std::vector<int64_t> col(nt);
          for (size_t d = 0; d < nt; ++d) col[d] = A.coef[d][j];
          cols.push_back(col);
        }
        continue;
      }
      int64_t size = A.shape[j];
      ir::ScalarExpr start = ir::ScalarExpr::of(0);
      int64_t len = size, step = 1;
      if (j < idx.size()) {
        auto* s = cast<py::SliceObj>(idx[j].slice);
        if (!py::is_none(s->step)) {
          auto st = static_int(s->step);
          if (!st || *st <= 0)
            nki_error(diag::Code::invalid_index, "slice step must be a positive compile-time integer");
          step = *st;
        }
        bool has_lo = !py::is_none(s->lower), has_hi = !py::is_none(s->upper);
        ir::ScalarExpr lo = has_lo ? scalar_of(s->lower, "start") : ir::ScalarExpr::of(0);
        ir::ScalarExpr hi = has_hi ? scalar_of(s->upper, "stop") : ir::ScalarExpr::of(size);
        if (lo.is_constant() && lo.constant < 0) lo.constant += size;
        if (hi.is_constant() && hi.constant < 0 && has_hi) hi.constant += size;
        ir::ScalarExpr diff = ir::sub(hi, lo);
        if (!diff.is_constant())
          nki_error(diag::Code::invalid_index,
                    "the size of a slice of '" + tname + "' must be a compile-time constant (stop - start)",
                    "write slices as a[i*128:(i+1)*128] or nl.ds(i*128, 128)");
        if (lo.is_constant() && (lo.constant < 0 || lo.constant > size))
          nki_error(diag::Code::err_tensor_access_out_of_bound,
                    "slice start " + std::to_string(lo.constant) + " is out of bound for dimension " +
                        std::to_string(j) + " of size " + std::to_string(size) + " of tensor '" + tname + "'");
        if (hi.is_constant() && hi.constant > size)
          nki_error(diag::Code::err_tensor_access_out_of_bound,
                    "slice stop " + std::to_string(hi.constant) + " is out of bound for dimension " +
                        std::to_string(j) + " of size " + std::to_string(size) + " of tensor '" + tname + "'",
                    "keep slices within the tensor shape; use masks for ragged tiles");
        int64_t extent = diff.constant;
        if (extent <= 0)
          nki_error(diag::Code::invalid_index, "empty slice of tensor '" + tname + "'");
        len = (extent + step - 1) / step;
        start = lo;
      }
      for (size_t d = 0; d < nt; ++d) out.offset[d] = ir::add(out.offset[d], ir::scale(start, A.coef[d][j]));
      out.shape.push_back(len);
      std::vector<int64_t> col(nt);
      for (size_t d = 0; d < nt; ++d) col[d] = A.coef[d][j] * step;
      cols.push_back(col);
    }
    out.coef.assign(nt, std::vector<int64_t>(cols.size()));
    for (size_t c = 0; c < cols.size(); ++c)
      for (size_t d = 0; d < nt; ++d) out.coef[d][c] = cols[c][d];
    return out;
  }

  // Advanced indexing: result shape = broadcast of all index grids, then untouched trailing dims.
  // An indirect index tile holds one row index per partition ([P, 1]); its values run along the
  // partition (first) dimension of the result. When the other index expressions have a higher
  // rank (src[ids[i_p, 0], iy, iz] with 3-D nl.arange grids, HEAD nki/test/
  // test_nki_isa_dma_transpose.py), its trailing unit dims are padded on the right ([P, 1, 1]),
  // which keeps P on the partition dim; NumPy's left padding would move it to a free dim, where
  // indirect indices are not allowed (err_indirect_indices_free_dim).
  size_t adv_rank = 0;
  for (const Idx& x : idx)
    if (x.kind == IdxKind::Advanced || x.kind == IdxKind::Dynamic) adv_rank = std::max(adv_rank, x.adv->shape.size());
  auto indirect_shape = [&](const TensorObj& it) {
    std::vector<int64_t> s = it.shape();
    bool unit_tail = true;
    for (size_t d = 1; d < s.size(); ++d) unit_tail = unit_tail && s[d] == 1;
    if (unit_tail && !s.empty() && s.size() < adv_rank) s.resize(adv_rank, 1);
    return s;
  };
  std::vector<int64_t> grid;
  for (const Idx& x : idx) {
    std::vector<int64_t> ind_shape;
    const std::vector<int64_t>* s = nullptr;
    if (x.kind == IdxKind::Advanced || x.kind == IdxKind::Dynamic) s = &x.adv->shape;
    else if (x.kind == IdxKind::Indirect) s = &(ind_shape = indirect_shape(*x.indirect));
    if (!s) continue;
    auto b = broadcast_shapes(grid, *s);
    if (!b)
      nki_error(diag::Code::invalid_index, "index expressions of '" + tname + "' cannot be broadcast together: " +
                                         shape_str(grid) + " and " + shape_str(*s));
    grid = *b;
  }
  size_t g = grid.size();
  std::vector<int64_t> shape = grid;
  for (size_t j = idx.size(); j < r; ++j) shape.push_back(A.shape[j]);
  out.shape = shape;
  out.coef.assign(nt, std::vector<int64_t>(shape.size(), 0));
  for (size_t j = 0; j < idx.size(); ++j) {
    const Idx& x = idx[j];
    if (x.kind == IdxKind::Scalar) {
      for (size_t d = 0; d < nt; ++d) out.offset[d] = ir::add(out.offset[d], ir::scale(x.scalar, A.coef[d][j]));
    } else if (x.kind == IdxKind::Advanced || x.kind == IdxKind::Dynamic) {
      const IndexObj& ix = *x.adv;
      if (x.kind == IdxKind::Dynamic) {
        int tdim = -1;
        for (size_t d = 0; d < nt; ++d)
          if (A.coef[d][j] != 0) tdim = static_cast<int>(d);
        if (tdim < 0 || out.indirect)
          nki_error(diag::Code::unsupported_index, "unsupported runtime offset in a subscript of '" + tname + "'");
        ir::Indirect ind;
        ind.dim = tdim;
        ir::Access v = x.dynamic->value;
        v.shape = shape;
        for (auto& col : v.coef) col.assign(shape.size(), 0);
        ind.index = std::make_shared<ir::Access>(v);
        out.indirect = ind;
      }
      size_t ir_ = ix.shape.size();
      for (size_t d = 0; d < nt; ++d) {
        out.offset[d] = ir::add(out.offset[d], ir::scale(ix.rest, A.coef[d][j]));
        for (size_t a = 0; a < ir_; ++a) {
          size_t ga = a + (g - ir_);
          if (ix.shape[a] == grid[ga]) out.coef[d][ga] += A.coef[d][j] * ix.coef[a];
        }
      }
    } else {  // Indirect
      // Integer indices before it drop their dims, so the first non-integer subscript is the
      // access's partition dim (spec §2.3, "the first sliced dimension becomes the partition
      // dimension"): nki-samples resize_nearest gathers rows with data[b, idx_tile, i_f].
      bool leading = std::all_of(idx.begin(), idx.begin() + static_cast<std::ptrdiff_t>(j),
                                 [](const Idx& e) { return e.kind == IdxKind::Scalar; });
      if (!leading)
        nki_error(diag::Code::err_indirect_indices_free_dim,
                  "indirect (tile-valued) indices are only supported on the partition/block dimension, "
                  "not on dimension " + std::to_string(j) + " of '" + tname + "'",
                  "index free dimensions with nl.arange / slices");
      if (out.indirect)
        nki_error(diag::Code::unsupported_index, "only one indirect index per access is supported");
      const TensorObj& it = *x.indirect;
      // The index tile holds one row index per partition: an index expression that also spans
      // free positions (e.g. built from nl.mgrid) would index along a free dimension.
      for (size_t d = 1; d < it.shape().size(); ++d)
        if (it.shape()[d] != 1)
          nki_error(diag::Code::err_indirect_indices_free_dim,
                    "the indirect index of '" + tname + "' has shape " + shape_str(it.shape()) +
                        ": indirect indices must hold one index per partition ([P, 1])",
                    "build the companion indices with nl.arange (not nl.mgrid), e.g. ids[nl.arange(P)[:, None], 0]");
      if (!dtype_is_int(it.dtype()))
        nki_error(diag::Code::invalid_index, "indirect index tile must have an integer dtype, got " +
                                           std::string(dtype_name(it.dtype())));
      if (!ir::is_on_chip(it.buffer()))
        nki_error(diag::Code::err_unsupported_memory, "indirect index tile must be in SBUF",
                  "load the indices with nl.load first");
      int tdim = -1;
      for (size_t d = 0; d < nt; ++d) {
        if (A.coef[d][j] != 0) {
          if (tdim >= 0 || A.coef[d][j] != 1)
            nki_error(diag::Code::unsupported_index, "indirect indexing of a reshaped/strided view is not supported");
          tdim = static_cast<int>(d);
        }
      }
      if (tdim < 0) nki_error(diag::Code::unsupported_index, "indirect index on a broadcast dimension");
      ir::Indirect ind;
      ind.dim = tdim;
      std::vector<int64_t> bshape = shape;
      ir::Access padded = it.view;  // the tile seen with its right-padded shape (see above)
      padded.shape = indirect_shape(it);
      for (auto& col : padded.coef) col.resize(padded.shape.size(), 0);
      ind.index = std::make_shared<ir::Access>(broadcast_access(padded, std::vector<int64_t>(grid)));
      // extend the index access over trailing untouched dims (zero coefficients)
      ir::Access& ia = *ind.index;
      for (auto& col : ia.coef) col.resize(shape.size(), 0);
      ia.shape = shape;
      out.indirect = ind;
    }
  }
  for (size_t j = idx.size(); j < r; ++j)
    for (size_t d = 0; d < nt; ++d) out.coef[d][g + (j - idx.size())] = A.coef[d][j];
  return out;
}

}  // namespace nki::front
