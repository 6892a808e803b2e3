// nl APIs that lower to several instructions: mean, var, softmax, rms_norm, where
// (shared/docs/nki-spec.md §2.9.5–§2.9.6). Intermediates are float32 tiles.
#include <algorithm>

#include "base/diag_codes.h"
#include "base/dtype_promote.h"
#include "nki/api_common.h"
#include "nki/nl_apis.h"

namespace nki::front::nl {

using py::Interp;

namespace {

int64_t reduced_count(Interp& in, const TensorObj& x, const Ref& axis) {
  std::vector<Ref> items;
  if (static_int(axis)) items.push_back(axis);
  else items = axis->iterate(in);
  int64_t n = 1;
  int rank = static_cast<int>(x.shape().size());
  for (const Ref& r : items) {
    auto v = static_int(r);
    if (!v) nki_error(diag::Code::invalid_axis, "axis must be integers");
    int a = static_cast<int>(*v < 0 ? *v + rank : *v);
    if (a > 0 && a < rank) n *= x.shape()[a];
  }
  return n;
}

// nl.softmax axis (2.24 docstring): "must be free dimensions, not partition dimension (0); can only
// be the last contiguous dim(s) of the tile". Axis 0 is left to the reduction
// (reduce_partition_axis); here the free axes must run without a gap up to the last dimension.
void check_softmax_axes(Interp& in, const TensorObj& x, const Ref& axis) {
  std::vector<Ref> items;
  if (static_int(axis)) items.push_back(axis);
  else items = axis->iterate(in);
  int rank = static_cast<int>(x.shape().size());
  std::vector<int> axes;
  for (const Ref& r : items) {
    auto v = static_int(r);
    if (!v) return;  // reported by the reduction
    int a = static_cast<int>(*v < 0 ? *v + rank : *v);
    if (a <= 0 || a >= rank) return;  // axis 0 / out of range: reported by the reduction
    axes.push_back(a);
  }
  std::sort(axes.begin(), axes.end());
  axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
  bool trailing = !axes.empty() && axes.back() == rank - 1 && axes.back() - axes.front() + 1 == static_cast<int>(axes.size());
  if (!trailing)
    nki_error(diag::Code::softmax_axis,
              "'softmax' over axes of a tile of shape " + shape_str(x.shape()) +
                  " must be the last contiguous free dimension(s), e.g. " +
                  (rank == 2 ? std::string("axis=1") : "axis=(1, ..., " + std::to_string(rank - 1) + ")"),
              "reshape/transpose so the softmax axes are the trailing dimensions, or pass all trailing free axes");
}

Ref f32() { return std::make_shared<DTypeObj>(DType::Float32); }

// mean over axis in float32, keeping reduced dims as size 1 when keepdims.
Ref mean_f32(Tracer& t, const std::string& api, const Ref& x, const Ref& axis, const Ref& mask, bool keepdims) {
  TensorObj* tx = need_tensor(x, api, "x");
  int64_t n = reduced_count(t, *tx, axis);
  Ref s = emit_reduce(t, api, x, ir::Alu::Add, axis, f32(), mask, keepdims);
  return emit_binary(t, api, s, py::make_float(static_cast<double>(n)), ir::Alu::Divide, f32(), nullptr, true);
}

// mean / var: the mean (or variance) over axis in float32, converted to dtype (default: x's
// float dtype, else float32).
struct Moment {
  const char* api;
  TensorObj* x;
  Ref data, axis, dtype, mask;
  bool keepdims;
};

Moment bind_mean(Tracer& t, Interp&, const Args& a) {
  TensorObj* x = need_tensor(a[0], "mean", "x");
  bool keep = a.has(4) && t.truthy(a[4]);
  return {"mean", x, a[0], a[1], a[2], a[3], keep};
}

Moment bind_var(Tracer&, Interp&, const Args& a) {
  return {"var", need_tensor(a[0], "var", "x"), a[0], a[1], a[2], a[3], false};
}

Ref to_output_dtype(Tracer& t, const Moment& a, const Ref& r) {
  DType out = opt_dtype(a.dtype).value_or(dtype_is_float(a.x->dtype()) ? a.x->dtype() : DType::Float32);
  if (out == DType::Float32) return r;
  return emit_copy(t, a.api, r, std::make_shared<DTypeObj>(out), nullptr);
}

Ref emit_mean(Tracer& t, const Moment& a) {
  return to_output_dtype(t, a, mean_f32(t, "mean", a.data, a.axis, a.mask, a.keepdims));
}

Ref emit_var(Tracer& t, const Moment& a) {
  Ref mu = mean_f32(t, "var", a.data, a.axis, a.mask, true);
  Ref d = emit_binary(t, "var", a.data, mu, ir::Alu::Subtract, f32(), a.mask, true);
  Ref sq = emit_binary(t, "var", d, d, ir::Alu::Multiply, f32(), a.mask, true);
  Ref v = mean_f32(t, "var", sq, a.axis, a.mask, false);
  return to_output_dtype(t, a, v);
}

struct Softmax {
  TensorObj* x;
  Ref data, axis, dtype, mask;
};

Softmax bind_softmax(Tracer& t, Interp&, const Args& a) {
  TensorObj* x = need_tensor(a[0], "softmax", "x");
  check_softmax_axes(t, *x, a[1]);
  return {x, a[0], a[1], a[2], a[4]};
}

// exp(x - max) / sum(exp(x - max)) over axis, in float32.
Ref emit_softmax(Tracer& t, const Softmax& a) {
  Ref mx = emit_reduce(t, "softmax", a.data, ir::Alu::Maximum, a.axis, f32(), a.mask, true);
  Ref sh = emit_binary(t, "softmax", a.data, mx, ir::Alu::Subtract, f32(), a.mask, true);
  Ref e = emit_unary(t, "softmax", sh, ir::Act::Exp, f32(), a.mask);
  Ref s = emit_reduce(t, "softmax", e, ir::Alu::Add, a.axis, f32(), a.mask, true);
  Ref dt = a.dtype && !py::is_none(a.dtype) ? a.dtype : Ref(std::make_shared<DTypeObj>(a.x->dtype()));
  return emit_binary(t, "softmax", e, s, ir::Alu::Divide, dt, a.mask, true);
}

struct RmsNorm {
  TensorObj* x;
  Ref data, w, axis;
  double n, epsilon;
  Ref dtype, mask;
};

RmsNorm bind_rms_norm(Tracer&, Interp&, const Args& a) {
  TensorObj* x = need_tensor(a[0], "rms_norm", "x");
  auto n = py::as_number(a[3]);
  if (!n || *n <= 0) nki_error(diag::Code::invalid_arguments, "rms_norm n must be a positive number");
  double eps = a.has(4) ? py::as_number(a[4]).value_or(1e-6) : 1e-6;
  return {x, a[0], a[1], a[2], *n, eps, a[5], a[7]};
}

// x * rsqrt(sum(x * x) / n + epsilon) * w, in float32.
Ref emit_rms_norm(Tracer& t, const RmsNorm& a) {
  Ref sq = emit_binary(t, "rms_norm", a.data, a.data, ir::Alu::Multiply, f32(), a.mask, true);
  Ref ss = emit_reduce(t, "rms_norm", sq, ir::Alu::Add, a.axis, f32(), a.mask, true);
  Ref ms = emit_binary(t, "rms_norm", ss, py::make_float(a.n), ir::Alu::Divide, f32(), nullptr, true);
  Ref mse = emit_binary(t, "rms_norm", ms, py::make_float(a.epsilon), ir::Alu::Add, f32(), nullptr, true);
  Ref r = emit_unary(t, "rms_norm", mse, ir::Act::Rsqrt, f32(), nullptr);
  Ref xn = emit_binary(t, "rms_norm", a.data, r, ir::Alu::Multiply, f32(), a.mask, true);
  Ref dt = a.dtype && !py::is_none(a.dtype) ? a.dtype : Ref(std::make_shared<DTypeObj>(a.x->dtype()));
  return emit_binary(t, "rms_norm", xn, a.w, ir::Alu::Multiply, dt, a.mask, true);
}

struct Where {
  Ref condition, x, y;
  std::vector<int64_t> shape;  // the broadcast shape
  DType dtype;
  Ref mask;
};

Where bind_where(Tracer&, Interp&, const Args& a) {
  TensorObj* c = need_tensor(a[0], "where", "condition");
  require_on_chip(*c, "where", "condition");
  std::vector<int64_t> shape = c->shape();
  for (const Ref& v : {a[1], a[2]}) {
    if (auto* tv = as_tensor(v)) {
      // Same partition rule as the element-wise nl ops (emit_binary): partition counts differ
      // and neither is 1.
      if (shape[0] != tv->shape()[0] && shape[0] != 1 && tv->shape()[0] != 1)
        nki_error(diag::Code::err_num_partition_mismatch,
                  "number of partitions (dimension 0 size of a tile) mismatch in parameters (condition" +
                      shape_str(c->shape()) + ", " + (v == a[1] ? "x" : "y") + shape_str(tv->shape()) + ") of 'where'",
                  "tile condition, x and y over the same partitions, or broadcast explicitly with .broadcast_to");
      auto b = broadcast_shapes(shape, tv->shape());
      if (!b) nki_error(diag::Code::shape_mismatch, "operands of 'where' cannot be broadcast together");
      shape = *b;
    }
  }
  DType out;
  if (auto d = opt_dtype(a[3])) out = *d;
  else if (as_tensor(a[1]) && as_tensor(a[2])) out = promote(as_tensor(a[1])->dtype(), as_tensor(a[2])->dtype());
  else if (as_tensor(a[1])) out = value_dtype(a[2], as_tensor(a[1])->dtype());
  else if (as_tensor(a[2])) out = value_dtype(a[1], as_tensor(a[2])->dtype());
  else out = DType::Float32;
  return {a[0], a[1], a[2], shape, out, a[4]};
}

// The operands are converted (and checked) after the result tile is created, as they always were.
Ref emit_where(Tracer& t, const Where& a) {
  auto res = t.new_tensor(a.shape, a.dtype, ir::Buffer::Sbuf, "");
  ir::Instr in;
  in.op = ir::Opcode::Select;
  in.name = "nl.where";
  in.engine = ir::Engine::Vector;
  in.dst = res->view;
  in.srcs.push_back(operand_for(a.condition, a.shape, "where", "condition"));
  in.srcs.push_back(operand_for(a.x, a.shape, "where", "x"));
  in.srcs.push_back(operand_for(a.y, a.shape, "where", "y"));
  in.mask = make_mask(t, a.mask, a.shape.size());
  res->producer = t.emit(std::move(in));
  return res;
}

}  // namespace

const std::vector<ApiRow>& compound_apis() {
  static const std::vector<ApiRow> rows = {
      {"mean", {{"x", "axis", "dtype", "mask", "keepdims"}, 2, 2}, bind_then_emit(bind_mean, emit_mean)},
      {"var", {{"x", "axis", "dtype", "mask"}, 2, 2}, bind_then_emit(bind_var, emit_var)},
      {"softmax", {{"x", "axis", "dtype", "compute_dtype", "mask"}, 2, 2}, bind_then_emit(bind_softmax, emit_softmax)},
      {"rms_norm", {{"x", "w", "axis", "n", "epsilon", "dtype", "compute_dtype", "mask"}, 5, 4},
       bind_then_emit(bind_rms_norm, emit_rms_norm)},
      {"where", {{"condition", "x", "y", "dtype", "mask"}, 3, 3}, bind_then_emit(bind_where, emit_where)},
  };
  return rows;
}

}  // namespace nki::front::nl
