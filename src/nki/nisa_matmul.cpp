// nisa.nc_matmul and nisa.nc_transpose (SDK 2.24): the Tensor Engine instructions.
#include "base/diag_codes.h"
#include "nki/api_common.h"
#include "nki/nisa_apis.h"
#include "nki/nisa_rules.h"

namespace nki::front::nisa {

namespace {

// [P, F1, F2, ...] -> a new [P, F1*F2*...] tile holding the same elements in row-major order.
// The hardware folds the free axes into the access pattern; the simulator stages a copy.
std::shared_ptr<TensorObj> collapse_free_axes(Tracer& t, const TensorObj& x) {
  const auto& shape = x.shape();
  size_t r = shape.size();
  int64_t f = 1;
  for (size_t j = 1; j < r; ++j) f *= shape[j];
  auto res = t.new_tensor({shape[0], f}, x.dtype(), x.buffer(), "");
  ir::Access dst = res->view;
  dst.shape = shape;
  dst.coef.assign(2, std::vector<int64_t>(r, 0));
  dst.coef[0][0] = 1;
  int64_t stride = 1;
  for (size_t j = r; j-- > 1;) {
    dst.coef[1][j] = stride;
    stride *= shape[j];
  }
  ir::Instr in;
  in.op = ir::Opcode::Copy;
  in.name = "nisa.nc_transpose";
  in.engine = ir::Engine::Vector;
  in.dst = dst;
  in.srcs.push_back(ir::Operand::of(x.view));
  t.emit(std::move(in));
  return res;
}

}  // namespace

NcMatmul bind_nc_matmul(Tracer& t, py::Interp& in, const Args& a) {
  TensorObj* st = need_tensor(a[0], "nc_matmul", "stationary");
  TensorObj* mv = need_tensor(a[1], "nc_matmul", "moving");
  if (a.has(8)) {
    const std::string* pm = py::as_string(a[8]);
    if (!pm || *pm != "double_row_gen3")
      nki_error(diag::Code::unsupported_api, "nisa.nc_matmul(perf_mode=" + (a[8] ? a[8]->repr() : std::string()) +
                                       ") is not supported by this simulator yet");
    if (t.target() != Target::Trn2)
      nki_error(diag::Code::unsupported_on_target, "nc_matmul perf_mode='double_row_gen3' needs NeuronCore-v3 (trn2)");
    // stationary [K, 2, M], moving [K, 2, N]: result [M, N] = sum over k and the row pair.
    if (st->shape().size() != 3 || mv->shape().size() != 3 || st->shape()[1] != 2 || mv->shape()[1] != 2)
      nki_error(diag::Code::shape_mismatch, "double-row nc_matmul needs stationary [K, 2, M] and moving [K, 2, N] tiles");
    return {st, mv, true, a[7]};
  }
  bool has_pos = a.has(5) && py::cast<py::SeqObj>(a[5]) && a[5]->len(in) > 0;
  bool has_size = a.has(6) && py::cast<py::SeqObj>(a[6]) && a[6]->len(in) > 0;
  if (has_pos != has_size)
    nki_error(diag::Code::nc_matmul_tile_args, "nc_matmul tile_position and tile_size must be given together",
              "pass both tile_position=(row, col) and tile_size=(rows, cols), or neither");
  if (has_size) {
    // nc_matmul docstring: values of both tuples are multiples of 32 (ints or affine expressions:
    // only compile-time constants are checked), tile_size >= the accessed stationary tile, and on
    // NeuronCore-v2 the row and column sizes cannot both be 32 (read as "not both").
    std::vector<int64_t> size;
    for (const Ref& r : a[6]->iterate(in)) {
      auto v = static_int(r);
      if (!v || *v % 32 != 0 || *v <= 0 || *v > 128)
        nki_error(diag::Code::nc_matmul_tile_args, "nc_matmul tile_size entries must be multiples of 32 up to 128");
      size.push_back(*v);
    }
    for (const Ref& r : a[5]->iterate(in)) {
      auto v = static_int(r);
      if (v && (*v % 32 != 0 || *v < 0 || *v >= 128))
        nki_error(diag::Code::nc_matmul_tile_args, "nc_matmul tile_position entries must be multiples of 32 below 128, got " +
                                             std::to_string(*v));
    }
    if (size.size() == 2 && st->shape().size() == 2 && (size[0] < st->shape()[0] || size[1] < st->shape()[1]))
      nki_error(diag::Code::nc_matmul_tile_args, "nc_matmul tile_size (" + std::to_string(size[0]) + ", " +
                                           std::to_string(size[1]) + ") is smaller than the stationary tile " +
                                           shape_str(st->shape()),
                "tile_size must cover the stationary tile: rows >= its partitions, columns >= its free size");
    if (size.size() == 2 && size[0] == 32 && size[1] == 32 && t.target() == Target::Trn1)
      nki_error(diag::Code::nc_matmul_tile_args, "nc_matmul tile_size cannot be (32, 32) on NeuronCore-v2 (trn1)",
                "use a 64-wide PE tile on trn1");
  }
  return {st, mv, false, a[7]};
}

Ref emit_nc_matmul(Tracer& t, const NcMatmul& a) {
  if (!a.double_row) return emit_matmul(t, "nisa.nc_matmul", *a.stationary, *a.moving, a.mask);
  // Row l of a [K, 2, X] tile as a [K, X] view.
  auto row = [](const TensorObj& x, int64_t l) {
    TensorObj v = x;
    ir::Access& acc = v.view;
    for (size_t d = 0; d < acc.offset.size(); ++d)
      acc.offset[d].constant += acc.coef[d][1] * l;
    acc.shape = {x.shape()[0], x.shape()[2]};
    for (auto& col : acc.coef) col = {col[0], col[2]};
    return v;
  };
  TensorObj s0 = row(*a.stationary, 0), m0 = row(*a.moving, 0), s1 = row(*a.stationary, 1), m1 = row(*a.moving, 1);
  Ref res = emit_matmul(t, "nisa.nc_matmul", s0, m0, a.mask);
  Ref second = emit_matmul(t, "nisa.nc_matmul", s1, m1, a.mask);
  assign_into(t, *as_tensor(res), second, ir::Alu::Add, "nisa.nc_matmul");
  as_tensor(res)->producer = -1;
  return res;
}

NcTranspose bind_nc_transpose(Tracer&, py::Interp&, const Args& a) {
  TensorObj* x = need_tensor(a[0], "nc_transpose", "data");
  require_on_chip(*x, "nc_transpose", "data");
  return {x, a[2], engine_of(a[3], ir::Engine::Unknown)};
}

// The engine rules are checked here, after the free axes are collapsed: they apply to the
// collapsed tile, and the collapsing copy has always been emitted before them.
Ref emit_nc_transpose(Tracer& t, const NcTranspose& a) {
  TensorObj* x = a.data;
  // "If the data tile has more than one free axes, this API implicitly collapses all free axes
  // into one axis" (nc_transpose docstring).
  std::shared_ptr<TensorObj> flat;
  if (x->shape().size() > 2) {
    flat = collapse_free_axes(t, *x);
    x = flat.get();
  }
  ir::Engine e = a.engine;
  bool chosen = e == ir::Engine::Unknown;
  if (chosen) {
    bool small = x->shape().size() == 2 && x->shape()[0] <= 32 && x->shape()[1] <= 32;
    e = small ? ir::Engine::Vector : ir::Engine::Tensor;
  }
  if (e == ir::Engine::Vector && x->shape().size() == 2 && (x->shape()[0] > 32 || x->shape()[1] > 32))
    nki_error(diag::Code::nc_transpose_vector_limit,
              "nc_transpose on the vector engine supports tiles up to [32, 32], got " + shape_str(x->shape()),
              "use engine=nisa.tensor_engine for tiles up to [128, 128]");
  if (e == ir::Engine::Tensor && x->buffer() != ir::Buffer::Sbuf)
    nki_error(diag::Code::err_unsupported_memory, "nc_transpose on the tensor engine reads SBUF only, got a tile in psum");
  Ref res = emit_transpose(t, "nisa.nc_transpose", *x, a.dtype,
                           e == ir::Engine::Tensor ? ir::Buffer::Psum : ir::Buffer::Sbuf, e);
  if (chosen) t.compiler_placed.insert(t.storage_of(as_tensor(res)->view.tensor));
  return res;
}

}  // namespace nki::front::nisa
