// nl tensor creation (SDK 2.24; shared/docs/nki-spec.md §2.3): ndarray, zeros, ones, full,
// empty_like, zeros_like, shared_identity_matrix and shared_constant.
#include "base/diag_codes.h"
#include "base/dtype_convert.h"
#include "nki/api_common.h"
#include "nki/ndarray.h"
#include "nki/nl_apis.h"

namespace nki::front::nl {

namespace {

CreateTensor bind_ndarray(Tracer& t, py::Interp& in, const Args& a) {
  return bind_create(t, "ndarray", in, a[0], a[1], a[2], a[3], std::nullopt);
}
CreateTensor bind_zeros(Tracer& t, py::Interp& in, const Args& a) {
  return bind_create(t, "zeros", in, a[0], a[1], a[2], a[3], 0.0);
}
CreateTensor bind_ones(Tracer& t, py::Interp& in, const Args& a) {
  return bind_create(t, "ones", in, a[0], a[1], a[2], a[3], 1.0);
}
CreateTensor bind_full(Tracer& t, py::Interp& in, const Args& a) {
  auto v = py::as_number(a[1]);
  if (!v) nki_error(diag::Code::invalid_arguments, "nl.full fill_value must be a number");
  return bind_create(t, "full", in, a[0], a[2], a[3], a[4], *v);
}

// empty_like / zeros_like: the shape of `a`, and its dtype and buffer unless given.
CreateTensor bind_like(Tracer& t, py::Interp& in, const Args& a, std::optional<double> fill) {
  const std::string& api = a.api();
  TensorObj* src = need_tensor(a[0], api, "a");
  Ref dt = a.has(1) ? a[1] : Ref(std::make_shared<DTypeObj>(src->dtype()));
  Ref buf = a.has(2) ? a[2] : Ref(std::make_shared<BufferObj>(src->buffer()));
  std::vector<Ref> dims;
  for (int64_t d : src->shape()) dims.push_back(py::make_int(d));
  return bind_create(t, api, in, py::make_tuple(dims), dt, buf, a[3], fill);
}
CreateTensor bind_empty_like(Tracer& t, py::Interp& in, const Args& a) { return bind_like(t, in, a, std::nullopt); }
CreateTensor bind_zeros_like(Tracer& t, py::Interp& in, const Args& a) { return bind_like(t, in, a, 0.0); }

// A constant tensor in shared HBM (shared_identity_matrix, shared_constant).
struct SharedConstant {
  std::vector<int64_t> shape;
  DType dtype;
  const char* name;
  std::vector<float> values;  // row-major
};

SharedConstant bind_shared_identity_matrix(Tracer&, py::Interp&, const Args& a) {
  auto n = static_int(a[0]);
  if (!n || *n <= 0 || *n > 4096) nki_error(diag::Code::invalid_arguments, "shared_identity_matrix needs 0 < n <= 4096");
  DType dt = a.has(1) ? need_dtype(a[1], "shared_identity_matrix", "dtype") : DType::UInt8;
  std::vector<float> vals(static_cast<size_t>(*n * *n), 0.0f);
  for (int64_t i = 0; i < *n; ++i) vals[i * *n + i] = 1.0f;
  return {{*n, *n}, dt, "identity", std::move(vals)};
}

SharedConstant bind_shared_constant(Tracer&, py::Interp&, const Args& a) {
  auto* arr = dynamic_cast<NdArrayObj*>(a[0].get());
  if (!arr) nki_error(diag::Code::invalid_arguments, "nl.shared_constant needs a numpy array built at compile time (np.eye, np.arange, ...)");
  DType dt = a.has(1) ? need_dtype(a[1], "shared_constant", "dtype") : arr->dtype;
  std::vector<int64_t> shape = arr->shape;
  if (shape.empty()) shape = {1};
  return {shape, dt, "constant", std::vector<float>(arr->data.begin(), arr->data.end())};
}

Ref emit_shared_constant(Tracer& t, const SharedConstant& a) {
  auto res = t.new_tensor(a.shape, a.dtype, ir::Buffer::SharedHbm, a.name);
  ir::TensorDecl& d = t.kernel().tensors[res->view.tensor];
  d.role = ir::TensorRole::Constant;
  d.const_data.resize(a.values.size() * dtype_size(a.dtype));
  convert_f32_to(a.dtype, a.values.data(), d.const_data.data(), a.values.size());
  return res;
}

}  // namespace

const std::vector<ApiRow>& creation_apis() {
  static const std::vector<ApiRow> rows = {
      {"ndarray", {{"shape", "dtype", "buffer", "name"}, 2, 2}, bind_then_emit(bind_ndarray, emit_create)},
      {"zeros", {{"shape", "dtype", "buffer", "name"}, 2, 2}, bind_then_emit(bind_zeros, emit_create)},
      {"ones", {{"shape", "dtype", "buffer", "name"}, 2, 2}, bind_then_emit(bind_ones, emit_create)},
      {"full", {{"shape", "fill_value", "dtype", "buffer", "name"}, 3, 3}, bind_then_emit(bind_full, emit_create)},
      {"empty_like", {{"a", "dtype", "buffer", "name"}, 2, 1}, bind_then_emit(bind_empty_like, emit_create)},
      {"zeros_like", {{"a", "dtype", "buffer", "name"}, 2, 1}, bind_then_emit(bind_zeros_like, emit_create)},
      {"shared_identity_matrix", {{"n", "dtype"}, 2, 1},
       bind_then_emit(bind_shared_identity_matrix, emit_shared_constant), in_kernel_only("nl.shared_identity_matrix")},
      {"shared_constant", {{"constant", "dtype"}, 2, 1}, bind_then_emit(bind_shared_constant, emit_shared_constant),
       in_kernel_only("nl.shared_constant")},
  };
  return rows;
}

}  // namespace nki::front::nl
