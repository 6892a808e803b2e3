// NkiTensor attributes of the current dialect (shared/docs/nki-spec.md §3.3; nki/api/nki/
// language/__init__.py, NkiTensor at aws-neuron-sdk HEAD): element address = offset +
// sum_k strides[k] * i_k into the tensor's storage, and `.ap(pattern, offset)` as a raw access
// pattern over that storage. Views lower to ir::Access over a flat alias of the storage.
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
      current_error("unsupported_api", api + "(" + b.name(i) + "=...) is in NKI 0.6 but not implemented by this "
                                             "simulator yet");
  if (b.has(4) && front::static_int(b[4]).value_or(1) != 0)
    current_error("unsupported_api", api + "(indirect_dim=...) is not implemented by this simulator yet");
  int storage = t.storage_of(self->view.tensor);
  const ir::TensorDecl base = t.kernel().tensors[storage];
  std::vector<int64_t> steps, counts;
  for (const Ref& pair : b[0]->iterate(in)) {
    std::vector<int64_t> sc;
    for (const Ref& x : pair->iterate(in)) {
      auto v = front::static_int(x);
      if (!v) current_error("invalid_arguments", api + " pattern entries are [stride, count] pairs of integers");
      sc.push_back(*v);
    }
    if (sc.size() != 2 || sc[1] < 1)
      current_error("invalid_arguments", api + " pattern entries are [stride, count] pairs with count >= 1");
    steps.push_back(sc[0]);
    counts.push_back(sc[1]);
  }
  if (steps.empty()) current_error("invalid_arguments", api + " needs a non-empty pattern");
  int64_t offset = 0;
  if (b.has(1)) {
    auto v = front::static_int(b[1]);
    if (!v) current_error("invalid_arguments", api + " offset must be a compile-time integer");
    offset = *v;
  }
  bool on_chip = !ir::is_hbm(base.buffer);
  int64_t free = 1;
  for (size_t d = 1; d < base.shape.size(); ++d) free *= base.shape[d];
  // The storage seen flat: [P, F] on chip (partitions cannot be strided), [N] in HBM.
  std::vector<int64_t> flat_shape = on_chip ? std::vector<int64_t>{base.shape[0], free}
                                            : std::vector<int64_t>{ir::element_count(base.shape)};
  if (on_chip && steps[0] != free)
    current_error("ap_partition_stride",
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
  for (const char* n : {"slice", "select", "permute", "broadcast", "expand_dim", "squeeze_dim", "reshape_dim",
                        "flatten_dims", "rearrange", "vector_select", "indirect", "get_pattern", "is_contiguous",
                        "is_indirect", "reinterpret_cast"})
    if (name == n)
      return front::unsupported_api(std::string("NkiTensor.") + n, "a view method of NKI 0.5+ that this simulator "
                                                                  "does not implement yet");
  (void)in;
  return nullptr;
}

}  // namespace nki::current
