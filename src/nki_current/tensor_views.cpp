// NkiTensor attributes of the current dialect (shared/docs/nki-spec.md §3.3; nki/api/nki/
// language/__init__.py, NkiTensor at aws-neuron-sdk HEAD): element address = offset +
// sum_k strides[k] * i_k into the tensor's storage, and `.ap(pattern, offset)` as a raw access
// pattern over that storage. Views lower to ir::Access over a flat alias of the storage.
#include <algorithm>

#include "base/diag_codes.h"
#include "nki/api_common.h"
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

Ref int_tuple(const std::vector<int64_t>& v) {
  std::vector<Ref> items;
  for (int64_t x : v) items.push_back(py::make_int(x));
  return py::make_tuple(items);
}

// t.ap(pattern, offset=None, scalar_offset=None, vector_offset=None, indirect_dim=0, dtype=None).
Ref access_pattern(CurrentTracer& t, py::Interp& in, std::shared_ptr<TensorObj> self, py::CallArgs& call) {
  const std::string api = "NkiTensor.ap";
  Bound b(call, api, {"pattern", "offset", "scalar_offset", "vector_offset", "indirect_dim", "dtype"}, 1, false);
  for (size_t i : {2, 3, 5})
    if (b.has(i))
      current_error(diag::Code::unsupported_api, api + "(" + b.name(i) + "=...) is in NKI 0.6 but not implemented by this "
                                             "simulator yet");
  if (b.has(4) && front::static_int(b[4]).value_or(1) != 0)
    current_error(diag::Code::unsupported_api, api + "(indirect_dim=...) is not implemented by this simulator yet");
  int storage = t.storage_of(self->view.tensor);
  const ir::TensorDecl base = t.kernel().tensors[storage];
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

}  // namespace

Ref CurrentTracer::tensor_attr(front::TensorObj& x, py::Interp& in, const std::string& name) {
  auto self = std::static_pointer_cast<TensorObj>(x.shared_from_this());
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
  for (const char* n : {"slice", "select", "permute", "broadcast", "expand_dim", "squeeze_dim"})
    if (name == n)
      return std::make_shared<py::BuiltinFn>(name, [this, self, name](py::Interp& inner, py::CallArgs& call) -> Ref {
        return view_method(*this, inner, self, name, call);
      });
  for (const char* n : {"reshape_dim",
                        "flatten_dims", "rearrange", "vector_select", "indirect", "get_pattern", "is_contiguous",
                        "is_indirect", "reinterpret_cast"})
    if (name == n)
      return front::unsupported_api(std::string("NkiTensor.") + n, "a view method of NKI 0.5+ that this simulator "
                                                                  "does not implement yet");
  (void)in;
  return nullptr;
}

}  // namespace nki::current
