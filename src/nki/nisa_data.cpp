// Data-movement and tile-generating nisa instructions (SDK 2.24): tensor_copy, iota, memset,
// affine_select, dma_copy, tensor_copy_dynamic_src, tensor_copy_dynamic_dst and dma_transpose.
#include "base/diag_codes.h"
#include "nki/api_common.h"
#include "nki/nisa_apis.h"
#include "nki/nisa_rules.h"
#include "nki/operand_rules.h"

namespace nki::front::nisa {

namespace {

// The same access read in the order of a transposed iteration space: result dim k walks source
// dim perm[k]. An indirect index access (defined over the same space) is permuted alike.
ir::Access permute_access(const ir::Access& v, const std::vector<size_t>& perm) {
  ir::Access out = v;
  out.shape.clear();
  for (size_t p : perm) out.shape.push_back(v.shape[p]);
  for (auto& col : out.coef) {
    std::vector<int64_t> c(perm.size());
    for (size_t k = 0; k < perm.size(); ++k) c[k] = col[perm[k]];
    col = c;
  }
  if (v.indirect) out.indirect->index = std::make_shared<ir::Access>(permute_access(*v.indirect->index, perm));
  return out;
}

// "DMA Indirect Transpose Constraints" of HEAD nki/api/nki/isa/__init__.py (dma_transpose), for a
// source subscripted with an index tile on its first dimension.
void check_indirect_transpose(Tracer& t, const TensorObj& src) {
  const std::vector<int64_t>& s = src.shape();
  const ir::Access& ix = *src.view.indirect->index;
  const ir::TensorDecl& index_tensor = t.kernel().tensors[ix.tensor];
  if (t.target() != Target::Trn2)
    nki_error(diag::Code::unsupported_on_target, "dma_transpose with indirect indices is available on trn2 and later only",
              "compile with --target trn2 (platform_target='trn2')");
  if (src.buffer() == ir::Buffer::Sbuf || src.buffer() == ir::Buffer::Psum)
    nki_error(diag::Code::err_unsupported_memory, "dma_transpose with indirect indices reads its source from HBM only");
  if (dtype_size(src.dtype()) != 2)
    nki_error(diag::Code::unsupported_dtype, "dma_transpose with indirect indices needs a 2-byte source dtype, got " +
                                       std::string(dtype_name(src.dtype())));
  if (s.back() > 128)
    nki_error(diag::Code::shape_mismatch, "dma_transpose with indirect indices: the source's last dimension must be <= 128, got " +
                                    std::to_string(s.back()));
  if (s.size() == 4 && s[1] != 1 && s[2] != 1)
    nki_error(diag::Code::shape_mismatch, "4-D dma_transpose with indirect indices needs src.shape[1] or src.shape[2] to be 1");
  if (s[0] % 16 != 0)
    nki_error(diag::Code::shape_mismatch, "dma_transpose with indirect indices needs src.shape[0] divisible by 16, got " +
                                    std::to_string(s[0]));
  if (index_tensor.dtype != DType::UInt32)
    nki_error(diag::Code::unsupported_dtype, "dma_transpose indices must be uint32, got " + std::string(dtype_name(index_tensor.dtype)));
  const int64_t rows = s[0];  // one index per gathered row; the index tile is [rows, 1]
  if (rows < 16 || rows > 128)
    nki_error(diag::Code::shape_mismatch, "dma_transpose indices.shape[0] must be in [16, 128] and divisible by 16, got " +
                                    std::to_string(rows));
}

}  // namespace

TensorCopy bind_tensor_copy(Tracer&, py::Interp&, const Args& a) {
  ir::Engine e = engine_of(a[3], ir::Engine::Vector);
  TensorObj* x = need_tensor(a[0], "tensor_copy", "src");
  if (e == ir::Engine::GpSimd && x->buffer() == ir::Buffer::Psum)
    nki_error(diag::Code::err_unsupported_memory, "GpSimd cannot access PSUM (tensor_copy with engine=gpsimd)");
  return {a[0], a[2], a[1], e};
}

Ref emit_tensor_copy(Tracer& t, const TensorCopy& a) {
  return emit_copy(t, "nisa.tensor_copy", a.src, a.dtype, a.mask, ir::Buffer::Sbuf, a.engine);
}

Iota bind_iota(Tracer&, py::Interp&, const Args& a) {
  DType dt = need_dtype(a[1], "iota", "dtype");
  ir::Predicate p;
  std::vector<int64_t> shape;
  if (auto v = py::as_int(a[0])) {
    shape = {1, 1};
    p.coef = {0, 0};
    p.rest = ir::ScalarExpr::of(*v);
  } else if (auto* ix = as_index(a[0])) {
    shape = ix->shape;
    p.coef = ix->coef;
    p.rest = ix->rest;
    if (shape.empty()) {
      shape = {1, 1};
      p.coef = {0, 0};
    } else if (shape.size() == 1) {
      nki_error(diag::Code::err_1d_arange_not_supported, "nisa.iota of a 1-D arange is not supported",
                "lift it to 2-D: nl.arange(n)[None, :] or nl.arange(n)[:, None]");
    }
  } else {
    nki_error(diag::Code::invalid_arguments, "nisa.iota needs an index expression (nl.arange / nl.mgrid / loop index)");
  }
  return {shape, p, dt, a[2]};
}

int64_t emit_iota_into(Tracer& t, const std::string& api, const ir::Access& dst, const ir::Predicate& value,
                       std::optional<ir::Mask> mask) {
  ir::Instr in;
  in.op = ir::Opcode::Iota;
  in.name = api;
  in.engine = ir::Engine::GpSimd;
  in.iota = value;
  in.dst = dst;
  in.mask = std::move(mask);
  return t.emit(std::move(in));
}

Ref emit_iota(Tracer& t, const Iota& a) {
  auto res = t.new_tensor(a.shape, a.dtype, ir::Buffer::Sbuf, "");
  std::optional<ir::Mask> mask = make_mask(t, a.mask, a.shape.size());
  res->producer = emit_iota_into(t, "nisa.iota", res->view, a.value, std::move(mask));
  return res;
}

Memset bind_memset(Tracer&, py::Interp& in, const Args& a) {
  std::vector<int64_t> shape = need_shape(in, a[0], "memset");
  auto v = py::as_number(a[1]);
  if (!v) nki_error(diag::Code::invalid_arguments, "nisa.memset value must be a compile-time number");
  return {shape, *v, need_dtype(a[2], "memset", "dtype"), engine_of(a[4], ir::Engine::Vector), a[3]};
}

Ref emit_memset(Tracer& t, const Memset& a) {
  auto res = t.new_tensor(a.shape, a.dtype, ir::Buffer::Sbuf, "");
  ir::Instr in;
  in.op = ir::Opcode::Memset;
  in.name = "nisa.memset";
  in.engine = a.engine;
  in.dst = res->view;
  in.srcs.push_back(ir::Operand::of_imm(a.value));
  in.mask = make_mask(t, a.mask, a.shape.size());
  res->producer = t.emit(std::move(in));
  return res;
}

AffineSelect bind_affine_select(Tracer& t, py::Interp&, const Args& a) {
  auto* p = dynamic_cast<PredObj*>(a[0].get());
  if (!p || p->terms.size() != 1)
    nki_error(diag::Code::invalid_arguments, "affine_select pred must be a single affine comparison of nl.arange/nl.mgrid indices",
              "e.g. pred=(i_f <= i_p); & / | combinations are not supported");
  TensorObj* x = need_tensor(a[1], "affine_select", "on_true_tile");
  require_on_chip(*x, "affine_select", "on_true_tile");
  // No GpSimd-cannot-read-PSUM rejection here, although the docstring runs affine_select on
  // GpSimd: the official nki-samples flash attention kernel (src/nki_samples/reference/
  // attention.py, flash_fwd, exercised on hardware by its CI) passes the matmul's PSUM tile
  // straight to affine_select, so the 2.24 compiler accepts it. Rejecting would be a false error.
  // docstring: "any float or 8-bit/16-bit integer data types for both the input data tile and output tile".
  for (DType d : {x->dtype(), opt_dtype(a[4]).value_or(x->dtype())})
    if (!dtype_is_float(d) && dtype_size(d) > 2)
      nki_error(diag::Code::unsupported_dtype, "affine_select supports float or 8/16-bit integer tiles, got " +
                                         std::string(dtype_name(d)),
                "convert the tile (e.g. nl.copy(x, dtype=nl.float32)) or pass dtype=nl.float32");
  auto fv = py::as_number(a[2]);
  if (!fv) nki_error(diag::Code::invalid_arguments, "affine_select on_false_value must be a number");
  auto pred = make_mask(t, a[0], x->shape().size());
  return {pred->terms[0], x, *fv, opt_dtype(a[4]).value_or(x->dtype()), a[3]};
}

Ref emit_affine_select(Tracer& t, const AffineSelect& a) {
  auto res = t.new_tensor(a.on_true->shape(), a.dtype, ir::Buffer::Sbuf, "");
  ir::Instr in;
  in.op = ir::Opcode::Select;
  in.name = "nisa.affine_select";
  in.engine = ir::Engine::GpSimd;
  in.select_pred = a.pred;
  in.dst = res->view;
  in.srcs.push_back(ir::Operand::of_imm(1.0));  // unused condition slot (select_pred decides)
  in.srcs.push_back(ir::Operand::of(a.on_true->view));
  in.srcs.push_back(ir::Operand::of_imm(a.on_false));
  in.mask = make_mask(t, a.mask, a.on_true->shape().size());
  res->producer = t.emit(std::move(in));
  return res;
}

DmaCopy bind_dma_copy(Tracer& t, py::Interp&, const Args& a) {
  TensorObj* dst = need_tensor(a[0], "dma_copy", "dst");
  TensorObj* src = need_tensor(a[1], "dma_copy", "src");
  for (auto [tile, arg] : {std::pair<TensorObj*, const char*>{dst, "dst"}, {src, "src"}}) {
    if (tile->buffer() == ir::Buffer::Psum)
      nki_error(diag::Code::err_unsupported_memory, std::string("dma_copy ") + arg + " must be in HBM or SBUF, got a tile in psum");
  }
  if (dst->shape() != src->shape() && ir::element_count(dst->shape()) != ir::element_count(src->shape()))
    nki_error(diag::Code::shape_mismatch, "dma_copy dst" + shape_str(dst->shape()) + " and src" + shape_str(src->shape()) +
                                    " have different sizes");
  // The 2.24 docstring (general/nki/api/nki/isa/__init__.py, dma_copy) sets no shape rule: views
  // of different shapes with the same element count are copied in row-major element order (the
  // executor reads an operand with dst's element count in flat order).
  check_writable(t, *dst);
  std::optional<ir::Alu> rmw;
  if (a.has(3)) {
    auto rop = op_alu(a[3]);
    if (!rop || *rop != ir::Alu::Add) nki_error(diag::Code::invalid_alu_op, "dma_copy dst_rmw_op supports np.add only");
    rmw = *rop;
  }
  bool oob_skip = a.has(4) && static_int(a[4]).value_or(0) == 1;
  // dma_copy docstring: "If dst_rmw_op is specified, only oob_mode=oob_mode.error is allowed";
  // "HWDGE is only supported for NeuronCore-v3+".
  if (rmw && oob_skip)
    nki_error(diag::Code::dma_copy_args, "dma_copy with dst_rmw_op allows only oob_mode=nisa.oob_mode.error",
              "drop oob_mode=nisa.oob_mode.skip, or drop dst_rmw_op");
  if (a.has(5) && static_int(a[5]).value_or(0) == 2 && t.target() == Target::Trn1)
    nki_error(diag::Code::dma_copy_args, "dma_copy dge_mode=nisa.dge_mode.hwdge needs NeuronCore-v3 (trn2)",
              "use the default dge_mode on trn1");
  return {dst, src, rmw, oob_skip, a[2]};
}

Ref emit_dma_copy(Tracer& t, const DmaCopy& a) {
  ir::Instr in;
  in.op = ir::Opcode::Copy;
  in.name = "nisa.dma_copy";
  in.engine = ir::Engine::Dma;
  in.dst = a.dst->view;
  in.srcs.push_back(ir::Operand::of(a.src->view));
  in.rmw = a.rmw;
  in.oob_skip = a.oob_skip;
  in.mask = make_mask(t, a.mask, a.dst->shape().size());
  t.emit(std::move(in));
  return py::none();
}

TensorCopyDynamicSrc bind_tensor_copy_dynamic_src(Tracer&, py::Interp&, const Args& a) {
  TensorObj* src = need_tensor(a[0], "tensor_copy_dynamic_src", "src");
  if (!ir::is_on_chip(src->buffer()))
    nki_error(diag::Code::err_unsupported_memory, "tensor_copy_dynamic_src copies between on-chip tiles");
  return {src, opt_dtype(a[2]).value_or(src->dtype()), engine_of(a[3], ir::Engine::Vector), a[1]};
}

Ref emit_tensor_copy_dynamic_src(Tracer& t, const TensorCopyDynamicSrc& a) {
  auto res = t.new_tensor(a.src->shape(), a.dtype, ir::Buffer::Sbuf, "");
  ir::Instr in;
  in.op = ir::Opcode::Copy;
  in.name = "nisa.tensor_copy_dynamic_src";
  in.engine = a.engine;
  in.dst = res->view;
  in.srcs.push_back(ir::Operand::of(a.src->view));
  in.mask = make_mask(t, a.mask, a.src->shape().size());
  res->producer = t.emit(std::move(in));
  return res;
}

TensorCopyDynamicDst bind_tensor_copy_dynamic_dst(Tracer& t, py::Interp&, const Args& a) {
  TensorObj* dst = need_tensor(a[0], "tensor_copy_dynamic_dst", "dst");
  TensorObj* src = need_tensor(a[1], "tensor_copy_dynamic_dst", "src");
  require_on_chip(*src, "tensor_copy_dynamic_dst", "src");
  if (!ir::is_on_chip(dst->buffer()))
    nki_error(diag::Code::err_unsupported_memory, "tensor_copy_dynamic_dst copies between on-chip tiles");
  if (ir::element_count(dst->shape()) != ir::element_count(src->shape()))
    nki_error(diag::Code::shape_mismatch, "tensor_copy_dynamic_dst src and dst must have the same number of elements");
  check_writable(t, *dst);
  return {dst, src, engine_of(a[4], ir::Engine::Vector), a[2]};
}

Ref emit_tensor_copy_dynamic_dst(Tracer& t, const TensorCopyDynamicDst& a) {
  ir::Instr in;
  in.op = ir::Opcode::Copy;
  in.name = "nisa.tensor_copy_dynamic_dst";
  in.engine = a.engine;
  in.dst = a.dst->view;
  in.srcs.push_back(ir::Operand::of(broadcast_access(a.src->view, a.dst->shape())));
  in.mask = make_mask(t, a.mask, a.dst->shape().size());
  t.emit(std::move(in));
  return py::none();
}

// dma_transpose: 2-D [1,0], 3-D [2,1,0], 4-D [3,1,2,0] into a new SBUF tile (2.24
// general/nki/api/nki/isa/__init__.py). `axes` and indirect (gather) sources come from the
// current docs (HEAD nki/api/nki/isa/__init__.py, "DMA Indirect Transpose Constraints"), which
// the HEAD legacy test test_nki_isa_dma_transpose.py calls through neuronxcc.nki.isa.
DmaTranspose bind_dma_transpose(Tracer& t, py::Interp&, const Args& a) {
  TensorObj* src = need_tensor(a[0], "dma_transpose", "src");
  if (src->buffer() == ir::Buffer::Psum) nki_error(diag::Code::err_unsupported_memory, "dma_transpose reads HBM or SBUF");
  size_t r = src->shape().size();
  std::vector<size_t> perm;
  if (r == 2) perm = {1, 0};
  else if (r == 3) perm = {2, 1, 0};
  else if (r == 4) perm = {3, 1, 2, 0};
  else nki_error(diag::Code::err_exceed_max_supported_dimension, "dma_transpose supports 2-D to 4-D sources");
  if (a.has(1)) {  // "Supported axes are (1, 0), (2, 1, 0), and (3, 1, 2, 0)": the rank's one permutation
    auto* tup = py::cast<py::TupleObj>(a[1]);
    bool ok = tup && tup->items.size() == r;
    for (size_t k = 0; ok && k < r; ++k) ok = py::as_int(tup->items[k]) == static_cast<int64_t>(perm[k]);
    if (!ok)
      nki_error(diag::Code::invalid_arguments, "dma_transpose axes must be (1, 0), (2, 1, 0) or (3, 1, 2, 0) for a " +
                                         std::to_string(r) + "-D source, got " + a[1]->repr());
  }
  if (src->view.indirect) check_indirect_transpose(t, *src);
  return {src, perm, opt_dtype(a[3]).value_or(src->dtype()), a[2]};
}

Ref emit_dma_transpose(Tracer& t, const DmaTranspose& a) {
  std::vector<int64_t> shape;
  for (size_t p : a.perm) shape.push_back(a.src->shape()[p]);
  auto res = t.new_tensor(shape, a.dtype, ir::Buffer::Sbuf, "");
  ir::Instr in;
  in.op = ir::Opcode::Copy;
  in.name = "nisa.dma_transpose";
  in.engine = ir::Engine::Dma;
  in.dst = res->view;
  in.srcs = {ir::Operand::of(permute_access(a.src->view, a.perm))};
  in.mask = make_mask(t, a.mask, shape.size());
  res->producer = t.emit(std::move(in));
  return res;
}

}  // namespace nki::front::nisa
