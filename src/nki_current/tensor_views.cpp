// NkiTensor attributes of the current dialect (shared/docs/nki-spec.md §3.3; nki/api/nki/
// language/__init__.py, NkiTensor at aws-neuron-sdk HEAD): element address = offset +
// sum_k strides[k] * i_k into the tensor's storage, and `.ap(pattern, offset)` as a raw access
// pattern over that storage. Views lower to ir::Access over a flat alias of the storage.
#include <algorithm>

#include "base/diag_codes.h"
#include "ir/scalar_expr.h"
#include "nki/api_common.h"
#include "nki_current/api_versions.h"
#include "nki_current/bind.h"
#include "nki_current/current_tracer.h"

namespace nki::current {

namespace {

using front::TensorObj;

// Row-major element strides of a shape.
std::vector<int64_t> row_major(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) s[d - 1] = s[d] * shape[d];
  return s;
}

// A view's strides and offset in elements of its storage (constant parts: the unrolled dialect
// has no loop atoms).
void strides_of(CurrentTracer& t, const TensorObj& x, std::vector<int64_t>* strides, int64_t* offset) {
  const ir::TensorDecl& d = t.kernel().tensors[x.view.tensor];
  std::vector<int64_t> rm = row_major(d.shape);
  strides->assign(x.view.shape.size(), 0);
  *offset = 0;
  for (size_t dim = 0; dim < d.shape.size(); ++dim) {
    *offset += x.view.offset[dim].constant * rm[dim];
    for (size_t k = 0; k < x.view.shape.size(); ++k) (*strides)[k] += x.view.coef[dim][k] * rm[dim];
  }
}

// The storage offset of the view `.ap` is called on (nki/api/nki/language/__init__.py, NkiTensor.ap:
// `offset` is added to the view's own storage offset, which None keeps), and the stride of its
// dim 0 (what `indirect_dim=0` scales a dynamic offset by).
void ap_base(CurrentTracer& t, const TensorObj& self, const std::string& api, int64_t* view_offset, int64_t* dim0_stride) {
  for (const ir::ScalarExpr& e : self.view.offset)
    if (!e.terms.empty())
      current_error(diag::Code::unsupported_api, api + " on a view whose offset depends on a loop index is not implemented by this simulator yet",
                    "call .ap on the whole tensor and put the offset in offset=");
  std::vector<int64_t> strides;
  strides_of(t, self, &strides, view_offset);
  *dim0_stride = strides.empty() ? 1 : strides[0];
}

Ref int_tuple(const std::vector<int64_t>& v) {
  std::vector<Ref> items;
  for (int64_t x : v) items.push_back(py::make_int(x));
  return py::make_tuple(items);
}

// [[stride, count], ...] of .ap(): compile-time integer pairs, count >= 1.
void ap_pattern(py::Interp& in, const Ref& pattern, const std::string& api, std::vector<int64_t>* steps,
                std::vector<int64_t>* counts) {
  for (const Ref& pair : pattern->iterate(in)) {
    std::vector<int64_t> sc;
    for (const Ref& x : pair->iterate(in)) {
      auto v = front::static_int(x);
      if (!v) current_error(diag::Code::invalid_arguments, api + " pattern entries are [stride, count] pairs of integers");
      sc.push_back(*v);
    }
    if (sc.size() != 2 || sc[1] < 1)
      current_error(diag::Code::invalid_arguments, api + " pattern entries are [stride, count] pairs with count >= 1");
    steps->push_back(sc[0]);
    counts->push_back(sc[1]);
  }
  if (steps->empty()) current_error(diag::Code::invalid_arguments, api + " needs a non-empty pattern");
}

// .ap(pattern, offset, scalar_offset= / vector_offset=, indirect_dim=0) on an HBM tensor
// (nki/migration/index.rst, "Scalar dynamic access" / "Vector dynamic access"): the element is
// base.flat[offset + sum_k stride_k * i_k + value * row], row = the base's elements right of
// dim 0, value = the SBUF scalar_offset ([1, 1]) or vector_offset[i_0] (then stride_0 is
// ignored). Lowers to an ir::Indirect on dim 0 of a [rows, row] alias of the storage, the
// indirect DMA the 2.24 `x[idx_tile, ...]` builds; a stride that is neither a multiple of row nor
// stays inside a row is not modelled (the bounds pass reports it).
Ref dynamic_access_pattern(CurrentTracer& t, py::Interp& in, const Bound& b, const TensorObj& self, const ir::TensorDecl& base,
                           int storage) {
  const std::string api = "NkiTensor.ap";
  const bool vector = b.has(3);
  if (b.has(2) && vector) current_error(diag::Code::invalid_arguments, api + " takes scalar_offset or vector_offset, not both");
  if (!ir::is_hbm(base.buffer))
    current_error(diag::Code::unsupported_api, api + " with a dynamic offset on an on-chip tensor (tensor indirection, NKI 0.5+ "
                                           "on NeuronCore-v4) is not implemented by this simulator yet");
  TensorObj* idx = front::as_tensor(b[vector ? 3 : 2]);
  if (!idx)
    current_error(diag::Code::unsupported_api, api + "(" + b.name(vector ? 3 : 2) + "=) from a register is not implemented by "
                                           "this simulator yet",
                  "pass an SBUF tensor of int32 offsets");
  if (!dtype_is_int(idx->dtype()) || idx->buffer() != ir::Buffer::Sbuf)
    current_error(diag::Code::invalid_arguments, api + " " + b.name(vector ? 3 : 2) + " must be an integer tensor in SBUF");
  std::vector<int64_t> steps, counts;
  ap_pattern(in, b[0], api, &steps, &counts);
  int64_t offset = 0;
  if (b.has(1)) {
    auto v = front::static_int(b[1]);
    if (!v) current_error(diag::Code::invalid_arguments, api + " offset must be a compile-time integer");
    offset = *v;
  }
  // The offset scales by the stride of dim 0 of the tensor `.ap` is called on (a reshaped view
  // has its own rows), from that view's storage offset on.
  int64_t view_offset = 0, row = 1;
  ap_base(t, self, api, &view_offset, &row);
  offset += view_offset;
  const int64_t total = ir::element_count(base.shape);
  if (row < 1 || total % row != 0)
    current_error(diag::Code::unsupported_api, api + " with a dynamic offset on a view whose dim-0 stride (" + std::to_string(row) +
                                           ") does not divide the tensor is not implemented by this simulator yet");
  int64_t idx_free = 1;
  for (size_t d = 1; d < idx->shape().size(); ++d) idx_free *= idx->shape()[d];
  if (vector && (idx->shape()[0] != counts[0] || idx_free != 1))
    current_error(diag::Code::invalid_arguments, api + " vector_offset must hold one offset per element of the pattern's first "
                                           "dim: shape [" + std::to_string(counts[0]) + ", 1], got " +
                                           front::shape_str(idx->shape()));
  if (!vector && ir::element_count(idx->shape()) != 1)
    current_error(diag::Code::invalid_arguments, api + " scalar_offset must be a single element ([1, 1]), got " +
                                           front::shape_str(idx->shape()));
  auto alias = t.new_tensor({total / row, row}, base.dtype, base.buffer, base.name, 0);
  ir::TensorDecl& nd = t.kernel().tensors[alias->view.tensor];
  nd.alias_of = storage;
  nd.role = ir::TensorRole::Internal;
  size_t r = counts.size();
  ir::Access a;
  a.tensor = alias->view.tensor;
  a.shape = counts;
  a.loc = t.loc();
  a.offset = {ir::ScalarExpr::of(offset / row), ir::ScalarExpr::of(offset % row)};
  a.coef.assign(2, std::vector<int64_t>(r, 0));
  for (size_t k = vector ? 1 : 0; k < r; ++k) {
    if (steps[k] != 0 && steps[k] % row == 0) a.coef[0][k] = steps[k] / row;
    else a.coef[1][k] = steps[k];
  }
  // The offsets read at the instruction's coordinates: vector_offset[i_0, 0], or the one scalar.
  ir::Access ia = idx->view;
  ia.shape = counts;
  for (auto& c : ia.coef) {
    int64_t p = c.empty() ? 0 : c[0];
    c.assign(r, 0);
    if (vector) c[0] = p;
  }
  ir::Indirect ind;
  ind.dim = 0;
  ind.index = std::make_shared<ir::Access>(ia);
  a.indirect = ind;
  return t.view_of(a);
}

// t.ap(pattern, offset=None, scalar_offset=None, vector_offset=None, indirect_dim=0, dtype=None).
Ref access_pattern(CurrentTracer& t, py::Interp& in, std::shared_ptr<TensorObj> self, py::CallArgs& call) {
  const std::string api = "NkiTensor.ap";
  Bound b(call, api, {"pattern", "offset", "scalar_offset", "vector_offset", "indirect_dim", "dtype"}, 1, false);
  if (b.has(5))
    current_error(diag::Code::unsupported_api, api + "(dtype=...) is in NKI 0.6 but not implemented by this simulator yet");
  if (b.has(4) && front::static_int(b[4]).value_or(1) != 0)
    // nki/migration/index.rst, "Vector dynamic access": only indirect_dim=0 is supported.
    current_error(diag::Code::unsupported_api, api + "(indirect_dim=...) other than 0 is not supported",
                  "index the leading dim of the base tensor (indirect_dim=0)");
  int storage = t.storage_of(self->view.tensor);
  const ir::TensorDecl base = t.kernel().tensors[storage];
  if (b.has(2) || b.has(3)) return dynamic_access_pattern(t, in, b, *self, base, storage);
  std::vector<int64_t> steps, counts;
  for (const Ref& pair : b[0]->iterate(in)) {
    std::vector<int64_t> sc;
    for (const Ref& x : pair->iterate(in)) {
      auto v = front::static_int(x);
      if (!v) current_error(diag::Code::invalid_arguments, api + " pattern entries are [stride, count] pairs of integers");
      sc.push_back(*v);
    }
    if (sc.size() != 2 || sc[1] < 1)
      current_error(diag::Code::invalid_arguments, api + " pattern entries are [stride, count] pairs with count >= 1");
    steps.push_back(sc[0]);
    counts.push_back(sc[1]);
  }
  if (steps.empty()) current_error(diag::Code::invalid_arguments, api + " needs a non-empty pattern");
  int64_t offset = 0;
  if (b.has(1)) {
    auto v = front::static_int(b[1]);
    if (!v) current_error(diag::Code::invalid_arguments, api + " offset must be a compile-time integer");
    offset = *v;
  }
  int64_t view_offset = 0, unused_stride = 0;
  ap_base(t, *self, api, &view_offset, &unused_stride);
  offset += view_offset;
  bool on_chip = !ir::is_hbm(base.buffer);
  int64_t free = 1;
  for (size_t d = 1; d < base.shape.size(); ++d) free *= base.shape[d];
  // The storage seen flat: [P, F] on chip (partitions cannot be strided), [N] in HBM.
  std::vector<int64_t> flat_shape = on_chip ? std::vector<int64_t>{base.shape[0], free}
                                            : std::vector<int64_t>{ir::element_count(base.shape)};
  if (on_chip && steps[0] != free)
    current_error(diag::Code::ap_partition_stride,
                  api + ": the first pattern entry is the partition access, whose stride must equal the tensor's "
                        "elements per partition (" + std::to_string(free) + "), got " + std::to_string(steps[0]),
                  "partitions cannot be strided: start the pattern with [" + std::to_string(free) + ", partitions]");
  auto alias = t.new_tensor(flat_shape, base.dtype, base.buffer, base.name, 0);
  ir::TensorDecl& nd = t.kernel().tensors[alias->view.tensor];
  nd.alias_of = storage;
  nd.role = ir::TensorRole::Internal;
  ir::Access a;
  a.tensor = alias->view.tensor;
  a.shape = counts;
  a.loc = t.loc();
  size_t r = counts.size();
  if (on_chip) {
    a.offset = {ir::ScalarExpr::of(offset / free), ir::ScalarExpr::of(offset % free)};
    a.coef.assign(2, std::vector<int64_t>(r, 0));
    a.coef[0][0] = 1;
    for (size_t k = 1; k < r; ++k) a.coef[1][k] = steps[k];
  } else {
    a.offset = {ir::ScalarExpr::of(offset)};
    a.coef.assign(1, steps);
  }
  return t.view_of(a);
}

// The NkiTensor view methods (nki/api/nki/language/__init__.py, NkiTensor at HEAD): no data is
// copied, each returns a new ir::Access over the same tensor. Constraints are the docstrings'.
Ref view_method(CurrentTracer& t, py::Interp& in, std::shared_ptr<TensorObj> self, const std::string& name,
                py::CallArgs& call) {
  const std::string api = "NkiTensor." + name;
  ir::Access v = self->view;
  const bool on_chip = !ir::is_hbm(self->buffer());
  const int64_t rank = static_cast<int64_t>(v.shape.size());
  auto need_int = [&](const Ref& r, const std::string& what) {
    auto x = front::static_int(r);
    if (!x) current_error(diag::Code::invalid_arguments, api + " " + what + " must be a compile-time integer");
    return *x;
  };
  auto need_dim = [&](const Ref& r, bool allow_end) {
    int64_t d = need_int(r, "dim");
    if (d < 0) d += rank + (allow_end ? 1 : 0);
    if (d < 0 || d > rank || (!allow_end && d == rank))
      current_error(diag::Code::invalid_view, api + ": dim out of range for a " + std::to_string(rank) + "-D tensor");
    return d;
  };
  auto not_partition = [&](int64_t d) {
    if (on_chip && d == 0)
      current_error(diag::Code::invalid_view, api + " cannot apply to dim 0 (the partition dim) of an on-chip tensor");
  };
  auto erase_column = [&](int64_t d) {
    v.shape.erase(v.shape.begin() + d);
    for (auto& c : v.coef) c.erase(c.begin() + d);
  };
  if (name == "slice") {
    Bound b(call, api, {"dim", "start", "end", "step"}, 3, false);
    int64_t d = need_dim(b[0], false), start = need_int(b[1], "start"), end = need_int(b[2], "end");
    int64_t step = b.has(3) ? need_int(b[3], "step") : 1;
    if (!(0 <= start && start < end && end <= v.shape[d]) || step < 1)
      current_error(diag::Code::invalid_view, api + "(" + std::to_string(d) + ", " + std::to_string(start) + ", " +
                                        std::to_string(end) + ", " + std::to_string(step) +
                                        ") needs 0 <= start < end <= shape[dim] (" + std::to_string(v.shape[d]) +
                                        ") and step >= 1");
    for (size_t k = 0; k < v.coef.size(); ++k) {
      v.offset[k].constant += v.coef[k][d] * start;
      v.coef[k][d] *= step;
    }
    v.shape[d] = (end - start + step - 1) / step;
  } else if (name == "select") {
    Bound b(call, api, {"dim", "index"}, 2, false);
    int64_t d = need_dim(b[0], false);
    if (front::as_tensor(b[1]))
      current_error(diag::Code::unsupported_api, "NkiTensor.select with a tensor index (dynamic select) is not implemented "
                                       "by this simulator yet");
    int64_t i = need_int(b[1], "index");
    if (i < 0 || i >= v.shape[d])
      current_error(diag::Code::invalid_view, api + ": index " + std::to_string(i) + " out of range [0, " +
                                        std::to_string(v.shape[d]) + ")");
    for (size_t k = 0; k < v.coef.size(); ++k) v.offset[k].constant += v.coef[k][d] * i;
    erase_column(d);
  } else if (name == "permute") {
    Bound b(call, api, {"dims"}, 1, false);
    std::vector<int64_t> dims;
    for (const Ref& r : b[0]->iterate(in)) dims.push_back(need_int(r, "dims entries"));
    std::vector<int64_t> sorted = dims;
    std::sort(sorted.begin(), sorted.end());
    bool perm = static_cast<int64_t>(dims.size()) == rank;
    for (int64_t k = 0; perm && k < rank; ++k) perm = sorted[k] == k;
    if (!perm) current_error(diag::Code::invalid_view, api + ": dims must be a permutation of range(" + std::to_string(rank) + ")");
    if (on_chip && dims[0] != 0)
      current_error(diag::Code::invalid_view, api + ": on-chip tensors keep the partition dim first (dims[0] must be 0)");
    ir::Access p = v;
    for (int64_t k = 0; k < rank; ++k) {
      p.shape[k] = v.shape[dims[k]];
      for (size_t c = 0; c < v.coef.size(); ++c) p.coef[c][k] = v.coef[c][dims[k]];
    }
    v = p;
  } else if (name == "broadcast") {
    Bound b(call, api, {"dim", "size"}, 2, false);
    int64_t d = need_dim(b[0], false), size = need_int(b[1], "size");
    not_partition(d);
    if (v.shape[d] != 1 || size < 1)
      current_error(diag::Code::invalid_view, api + ": dim " + std::to_string(d) + " must have size 1 (it has " +
                                        std::to_string(v.shape[d]) + ") and size must be positive");
    v.shape[d] = size;
    for (auto& c : v.coef) c[d] = 0;
  } else if (name == "expand_dim") {
    Bound b(call, api, {"dim"}, 1, false);
    int64_t d = need_dim(b[0], true);
    not_partition(d);
    v.shape.insert(v.shape.begin() + d, 1);
    for (auto& c : v.coef) c.insert(c.begin() + d, 0);
  } else if (name == "reshape_dim") {
    // Split dim into `shape` (one entry may be -1); a split of an affine dim stays affine:
    // sub-dim k steps by the dim's coefficient times the sizes to its right.
    Bound b(call, api, {"dim", "shape"}, 2, false);
    int64_t d = need_dim(b[0], false);
    std::vector<int64_t> parts;
    int infer = -1;
    for (const Ref& x : b[1]->iterate(in)) {
      int64_t n = need_int(x, "shape entry");
      if (n == -1) {
        if (infer >= 0) current_error(diag::Code::invalid_view, api + ": at most one shape entry may be -1");
        infer = static_cast<int>(parts.size());
      } else if (n < 1) {
        current_error(diag::Code::invalid_view, api + ": shape entries must be positive (or one -1)");
      }
      parts.push_back(n);
    }
    if (parts.empty()) current_error(diag::Code::invalid_view, api + " needs a non-empty shape");
    int64_t known = 1;
    for (size_t k = 0; k < parts.size(); ++k)
      if (static_cast<int>(k) != infer) known *= parts[k];
    if (infer >= 0) {
      if (known == 0 || v.shape[d] % known != 0)
        current_error(diag::Code::invalid_view, api + ": cannot infer -1 for dim of size " + std::to_string(v.shape[d]));
      parts[infer] = v.shape[d] / known;
    }
    if (ir::element_count(parts) != v.shape[d])
      current_error(diag::Code::invalid_view, api + ": prod(shape) " + std::to_string(ir::element_count(parts)) +
                                        " != t.shape[" + std::to_string(d) + "] " + std::to_string(v.shape[d]));
    if (d == 0 && on_chip && parts.size() > 1)
      current_error(diag::Code::invalid_view, api + " cannot split dim 0 (the partition dim) of an on-chip tensor");
    std::vector<int64_t> right(parts.size(), 1);
    for (size_t k = parts.size(); k-- > 1;) right[k - 1] = right[k] * parts[k];
    v.shape.erase(v.shape.begin() + d);
    v.shape.insert(v.shape.begin() + d, parts.begin(), parts.end());
    for (auto& c : v.coef) {
      int64_t base_coef = c[d];
      c.erase(c.begin() + d);
      std::vector<int64_t> cols;
      for (int64_t r : right) cols.push_back(base_coef * r);
      c.insert(c.begin() + d, cols.begin(), cols.end());
    }
  } else if (name == "flatten_dims") {
    // Merge dims start..end when they are contiguous in memory: in element strides of the
    // storage, each dim's stride is the next one's times its size. The merged dim is one stride
    // over a flat alias of the storage ([P, F] on chip, [N] in HBM), as .ap() views are.
    Bound b(call, api, {"start_dim", "end_dim"}, 2, false);
    int64_t a0 = need_dim(b[0], false), a1 = need_dim(b[1], false);
    if (a1 < a0) current_error(diag::Code::invalid_view, api + ": end_dim must not be before start_dim");
    if (on_chip && a0 == 0) current_error(diag::Code::invalid_view, api + ": start_dim must be > 0 for an on-chip tensor");
    const ir::TensorDecl decl = t.kernel().tensors[v.tensor];
    std::vector<int64_t> rm = row_major(decl.shape);
    std::vector<int64_t> st(static_cast<size_t>(rank), 0), pc(static_cast<size_t>(rank), 0);
    for (size_t dim = 0; dim < decl.shape.size(); ++dim)
      for (int64_t k = 0; k < rank; ++k) st[k] += v.coef[dim][k] * rm[dim];
    for (int64_t k = 0; k < rank; ++k) pc[k] = v.coef[0][k];
    for (int64_t k = a0; k < a1; ++k)
      if (st[k] != st[k + 1] * v.shape[k + 1] || (on_chip && (pc[k] != 0 || pc[k + 1] != 0)))
        current_error(diag::Code::invalid_view, api + ": dims " + std::to_string(a0) + ".." + std::to_string(a1) +
                                          " are not contiguous in memory",
                      "flatten before permute / strided slicing, or copy the view into a new tile first");
    int64_t n = 1;
    for (int64_t k = a0; k <= a1; ++k) n *= v.shape[k];
    std::vector<int64_t> shape2, st2, pc2;
    for (int64_t k = 0; k < rank; ++k) {
      if (k > a0 && k <= a1) continue;
      shape2.push_back(k == a0 ? n : v.shape[k]);
      st2.push_back(k == a0 ? st[a1] : st[k]);
      pc2.push_back(k == a0 ? 0 : pc[k]);
    }
    int64_t free = rm.empty() ? 1 : rm[0];
    std::vector<int64_t> flat_shape = on_chip ? std::vector<int64_t>{decl.shape[0], free}
                                              : std::vector<int64_t>{ir::element_count(decl.shape)};
    auto alias = t.new_tensor(flat_shape, decl.dtype, decl.buffer, decl.name, 0);
    ir::TensorDecl& nd = t.kernel().tensors[alias->view.tensor];
    nd.alias_of = t.storage_of(v.tensor);
    nd.role = ir::TensorRole::Internal;
    ir::Access a;
    a.tensor = alias->view.tensor;
    a.shape = shape2;
    a.loc = t.loc();
    ir::ScalarExpr flat_off = ir::ScalarExpr::of(0);
    for (size_t dim = on_chip ? 1 : 0; dim < decl.shape.size(); ++dim)
      flat_off = ir::add(flat_off, ir::scale(v.offset[dim], rm[dim]));
    if (on_chip) {
      a.offset = {v.offset[0], flat_off};
      a.coef = {pc2, st2};
      for (size_t k = 0; k < st2.size(); ++k) a.coef[1][k] -= pc2[k] * free;
    } else {
      a.offset = {flat_off};
      a.coef = {st2};
    }
    return t.view_of(a);
  } else {  // squeeze_dim
    Bound b(call, api, {"dim"}, 1, false);
    int64_t d = need_dim(b[0], false);
    not_partition(d);
    if (v.shape[d] != 1)
      current_error(diag::Code::invalid_view, api + ": dim " + std::to_string(d) + " has size " + std::to_string(v.shape[d]) +
                                        ", not 1");
    erase_column(d);
  }
  return t.view_of(v);
}

// NkiTensor methods this file implements, and those that fail loudly (tensor_attr below).
const char* const kViewMethods[] = {"slice",       "select",      "permute",     "broadcast",
                                     "expand_dim",  "squeeze_dim", "reshape_dim", "flatten_dims"};
const char* const kUnsupportedMethods[] = {"rearrange", "vector_select", "indirect",
                                           "get_pattern", "is_contiguous", "is_indirect", "reinterpret_cast"};

}  // namespace

std::string tensor_attr_status(const std::string& name) {
  // ap/strides/offset/buffer here; shape/dtype/ndim/size/name/itemsize/reshape/view are the
  // 2.24 TensorObj's (src/nki/ndarray.cpp).
  for (const char* n : {"ap", "strides", "offset", "buffer", "shape", "dtype", "ndim", "size", "name", "itemsize",
                        "reshape", "view"})
    if (name == n) return "implemented";
  for (const char* n : kViewMethods)
    if (name == n) return "implemented";
  for (const char* n : kUnsupportedMethods)
    if (name == n) return "unsupported";
  return "";
}

Ref CurrentTracer::tensor_attr(front::TensorObj& x, py::Interp& in, const std::string& name) {
  auto self = std::static_pointer_cast<TensorObj>(x.shared_from_this());
  // The view primitives are NKI 0.5+ (api_versions.def).
  if (const ApiVersion* row = find_api_version("nl.NkiTensor." + name)) {
    int minor = std::stoi(version().substr(2));
    if (!row->in(minor)) current_error(diag::Code::api_not_in_version, absent_message(*row, minor), absent_hint(*row, minor));
  }
  if (name == "strides" || name == "offset") {
    std::vector<int64_t> strides;
    int64_t offset = 0;
    strides_of(*this, x, &strides, &offset);
    return name == "strides" ? int_tuple(strides) : py::make_int(offset);
  }
  if (name == "buffer") {
    // Kernel inputs live in nl.hbm in the current dialect (the HEAD mxfp deep dive asserts
    // `stationary_hbm.buffer == nl.hbm`); outputs are created in nl.shared_hbm.
    const ir::TensorDecl& d = kernel().tensors[storage_of(x.view.tensor)];
    if (d.role == ir::TensorRole::Parameter) return std::make_shared<front::BufferObj>(ir::Buffer::PrivateHbm);
    return nullptr;
  }
  if (name == "ap") {
    return std::make_shared<py::BuiltinFn>("ap", [this, self](py::Interp& inner, py::CallArgs& call) -> Ref {
      return access_pattern(*this, inner, self, call);
    });
  }
  for (const char* n : kViewMethods)
    if (name == n)
      return std::make_shared<py::BuiltinFn>(name, [this, self, name](py::Interp& inner, py::CallArgs& call) -> Ref {
        return view_method(*this, inner, self, name, call);
      });
  for (const char* n : kUnsupportedMethods)
    if (name == n)
      return front::unsupported_api(std::string("NkiTensor.") + n, "a view method of NKI 0.5+ that this simulator "
                                                                  "does not implement yet");
  (void)in;
  return nullptr;
}

}  // namespace nki::current
