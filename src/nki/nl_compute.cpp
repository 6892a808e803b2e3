// nl.all, nl.matmul and nl.transpose (SDK 2.24; shared/docs/nki-spec.md §2.6, §2.9.6).
#include "base/diag_codes.h"
#include "nki/api_common.h"
#include "nki/nl_apis.h"

namespace nki::front::nl {

namespace {

struct All {
  Ref x, axis, dtype, mask;
};

All bind_all(Tracer&, py::Interp&, const Args& a) {
  need_tensor(a[0], "all", "x");
  return {a[0], a[1], a.has(2) ? a[2] : Ref(std::make_shared<DTypeObj>(DType::Bool)), a[3]};
}

// all(x) = min over axis of (x != 0).
Ref emit_all(Tracer& t, const All& a) {
  Ref nz = emit_binary(t, "all", a.x, py::make_int(0), ir::Alu::NotEqual, nullptr, a.mask, true);
  return emit_reduce(t, "all", nz, ir::Alu::Minimum, a.axis, a.dtype, a.mask, false);
}

struct Matmul {
  TensorObj* x;
  TensorObj* y;
  bool transpose_x;
  Ref mask;
};

Matmul bind_matmul(Tracer& t, py::Interp&, const Args& a) {
  TensorObj* x = need_tensor(a[0], "matmul", "x");
  TensorObj* y = need_tensor(a[1], "matmul", "y");
  bool tx = a.has(2) && t.truthy(a[2]);
  if (tx) return {x, y, true, a[3]};
  // x is [M, K]: the compiler inserts a transpose of x (spec §2.9.6). The nl.matmul docstring
  // asks for x "a tile on SBUF" and says matmul(x, y) lowers to nc_matmul(transpose(x), y), so a
  // contraction mismatch is nc_matmul's partition mismatch.
  require_on_chip(*x, "matmul", "x");
  if (x->buffer() != ir::Buffer::Sbuf)
    nki_error(diag::Code::err_unsupported_memory,
              "Expected operand 'x' of 'matmul' to be in address space 'sbuf', but got a tile in '" +
                  std::string(ir::buffer_name(x->buffer())) + "' instead.",
              "the tensor engine reads SBUF only: copy PSUM results to SBUF with nl.copy first");
  if (x->shape().size() == 2 && y->shape().size() == 2 && x->shape()[1] != y->shape()[0])
    nki_error(diag::Code::err_num_partition_mismatch,
              "number of partitions (dimension 0 size of a tile) mismatch in parameters (transpose(x)[" +
                  std::to_string(x->shape()[1]) + ", " + std::to_string(x->shape()[0]) + "], y" +
                  shape_str(y->shape()) + ") of 'matmul'",
              "x's last dimension must equal y's partition dimension (or pass transpose_x=True with x as [K, M])");
  return {x, y, false, a[3]};
}

Ref emit_matmul_api(Tracer& t, const Matmul& a) {
  if (a.transpose_x) return emit_matmul(t, "nl.matmul", *a.x, *a.y, a.mask);
  Ref xt = emit_transpose(t, "nl.matmul(transpose)", *a.x, nullptr, ir::Buffer::Sbuf, ir::Engine::Tensor);
  return emit_matmul(t, "nl.matmul", *as_tensor(xt), *a.y, a.mask);
}

struct Transpose {
  TensorObj* x;
  Ref dtype;
};

Transpose bind_transpose(Tracer&, py::Interp&, const Args& a) { return {need_tensor(a[0], "transpose", "x"), a[1]}; }

Ref emit_transpose_api(Tracer& t, const Transpose& a) {
  return emit_transpose(t, "nl.transpose", *a.x, a.dtype, ir::Buffer::Sbuf, ir::Engine::Tensor);
}

}  // namespace

const std::vector<ApiRow>& compute_apis() {
  static const std::vector<ApiRow> rows = {
      {"all", {{"x", "axis", "dtype", "mask"}, 2, 2}, bind_then_emit(bind_all, emit_all)},
      {"matmul", {{"x", "y", "transpose_x", "mask"}, 2, 2}, bind_then_emit(bind_matmul, emit_matmul_api)},
      {"transpose", {{"x", "dtype", "mask"}, 1, 1}, bind_then_emit(bind_transpose, emit_transpose_api)},
  };
  return rows;
}

}  // namespace nki::front::nl
