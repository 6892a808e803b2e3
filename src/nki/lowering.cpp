#include "nki/lowering.h"

#include <algorithm>
#include <sstream>

#include "base/diag_codes.h"
#include "base/dtype_promote.h"
#include "nki/operand_rules.h"

namespace nki::front {

using py::cast;

TensorObj* as_tensor(const Ref& r) { return dynamic_cast<TensorObj*>(r.get()); }
IndexObj* as_index(const Ref& r) { return dynamic_cast<IndexObj*>(r.get()); }

std::optional<int64_t> static_int(const Ref& r) {
  if (auto v = py::as_int(r)) return v;
  if (auto* ix = as_index(r); ix && ix->is_scalar() && ix->rest.is_constant()) return ix->rest.constant;
  return std::nullopt;
}

std::optional<DType> opt_dtype(const Ref& r) {
  if (!r || py::is_none(r)) return std::nullopt;
  if (auto* d = dynamic_cast<DTypeObj*>(r.get())) return d->dtype;
  if (auto* s = py::as_string(r)) return parse_dtype(*s);
  if (auto* b = dynamic_cast<py::BuiltinFn*>(r.get())) {
    if (b->name == "bool") return DType::Bool;
    if (b->name == "float") return DType::Float32;
    if (b->name == "int") return DType::Int32;
  }
  return std::nullopt;
}

DType need_dtype(const Ref& r, const std::string& api, const std::string& arg) {
  if (auto d = opt_dtype(r)) return *d;
  nki_error(diag::Code::unsupported_dtype, "'" + arg + "' of '" + api + "' must be an NKI dtype, got " +
                                         (r ? r->repr() : std::string("nothing")),
            "use nl.float32, nl.bfloat16, nl.float16, nl.int32, ...");
}

std::string shape_str(const std::vector<int64_t>& s) {
  std::ostringstream o;
  o << "[";
  for (size_t i = 0; i < s.size(); ++i) o << (i ? ", " : "") << s[i];
  o << "]";
  return o.str();
}

std::vector<int64_t> need_shape(py::Interp& in, const Ref& r, const std::string& api,
                                int* partition_dim) {
  std::vector<Ref> items;
  if (static_int(r)) items.push_back(r);
  else if (dynamic_cast<py::SeqObj*>(r.get())) items = r->iterate(in);
  else nki_error(diag::Code::invalid_shape, "shape of '" + api + "' must be a tuple of integers, got " + r->repr());
  std::vector<int64_t> shape;
  int pdim = -1;
  for (size_t i = 0; i < items.size(); ++i) {
    if (auto* pd = dynamic_cast<ParDimObj*>(items[i].get())) {
      if (pdim >= 0) nki_error(diag::Code::invalid_shape, "a shape can have only one nl.par_dim");
      pdim = static_cast<int>(i);
      shape.push_back(pd->size);
      continue;
    }
    auto v = static_int(items[i]);
    if (!v) nki_error(diag::Code::invalid_shape, "shape entries of '" + api + "' must be compile-time integers, got " + items[i]->repr());
    if (*v <= 0) nki_error(diag::Code::invalid_shape, "shape entries of '" + api + "' must be positive, got " + std::to_string(*v));
    shape.push_back(*v);
  }
  if (partition_dim) *partition_dim = pdim < 0 ? 0 : pdim;
  return shape;
}

TensorObj* need_tensor(const Ref& r, const std::string& api, const std::string& arg) {
  if (auto* t = as_tensor(r)) return t;
  if (auto* ix = as_index(r); ix && !ix->is_scalar())
    nki_error(diag::Code::unsupported_index_operand,
              "operand '" + arg + "' of '" + api + "' is an index expression, not a tile",
              "materialise index values with nisa.iota(expr, dtype=...)");
  nki_error(diag::Code::expected_tile, "operand '" + arg + "' of '" + api + "' must be a tile, got " +
                                     (r ? r->type_name() : std::string("None")));
}

void require_on_chip(const TensorObj& t, const std::string& api, const std::string& arg) {
  if (ir::is_on_chip(t.buffer())) {
    const ir::TensorDecl& d = t.decl();
    if (d.partition_dim > 0 && t.view.shape.size() > d.shape.size() - d.partition_dim)
      nki_error(diag::Code::err_failed_to_infer_tile_from_local_tensor,
                "operand '" + arg + "' of '" + api + "' is a tensor with block dimensions, not a tile: index its "
                "block dimension(s) first",
                "pass " + d.name + "[i] (a [P, ...] tile) instead of the whole blocked tensor");
    return;
  }
  nki_error(diag::Code::err_unsupported_memory,
            "Expected operand '" + arg + "' of '" + api +
                "' to be in address space 'psum|sbuf', but got a tile in 'hbm' instead.",
            "load HBM data into SBUF first: x_tile = nl.load(" + arg + "[...])");
}

void require_hbm(const TensorObj& t, const std::string& api, const std::string& arg) {
  if (ir::is_hbm(t.buffer())) return;
  nki_error(diag::Code::err_unsupported_memory,
            "Expected operand '" + arg + "' of '" + api +
                "' to be in address space 'hbm', but got a tile in '" + ir::buffer_name(t.buffer()) +
                "' instead.",
            api == "store" ? "nl.store writes an SBUF tile into an HBM tensor: nl.store(out_hbm[...], value=tile)"
                           : "nl.load reads from HBM tensors (kernel arguments or nl.shared_hbm tensors)");
}

std::optional<std::vector<int64_t>> broadcast_shapes(const std::vector<int64_t>& a,
                                                     const std::vector<int64_t>& b) {
  size_t n = std::max(a.size(), b.size());
  std::vector<int64_t> out(n);
  for (size_t i = 0; i < n; ++i) {
    int64_t x = i < n - a.size() ? 1 : a[i - (n - a.size())];
    int64_t y = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (x != y && x != 1 && y != 1) return std::nullopt;
    out[i] = std::max(x, y);
  }
  return out;
}

bool same_except_unit_dims(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  std::vector<int64_t> x, y;
  for (int64_t d : a)
    if (d != 1) x.push_back(d);
  for (int64_t d : b)
    if (d != 1) y.push_back(d);
  return x == y;
}

ir::Access reshape_unit_dims(const ir::Access& a, const std::vector<int64_t>& shape) {
  ir::Access out = a;
  out.shape = shape;
  for (auto& col : out.coef) col.assign(shape.size(), 0);
  size_t j = 0;
  for (size_t k = 0; k < shape.size(); ++k) {
    if (shape[k] == 1) continue;
    while (j < a.shape.size() && a.shape[j] == 1) ++j;
    for (size_t d = 0; d < a.coef.size(); ++d) out.coef[d][k] = a.coef[d][j];
    ++j;
  }
  return out;
}

ir::Access broadcast_access(const ir::Access& a, const std::vector<int64_t>& shape) {
  ir::Access out = a;
  size_t r = a.shape.size(), n = shape.size();
  out.shape = shape;
  for (size_t d = 0; d < a.coef.size(); ++d) {
    std::vector<int64_t> col(n, 0);
    for (size_t j = 0; j < r; ++j) {
      size_t k = j + (n - r);
      if (a.shape[j] == shape[k]) col[k] = a.coef[d][j];
      // size-1 dims broadcast: coefficient 0 (always index 0 of that dim)
    }
    out.coef[d] = col;
  }
  if (a.indirect) {
    out.indirect->index = std::make_shared<ir::Access>(broadcast_access(*a.indirect->index, shape));
  }
  return out;
}

std::optional<ir::Mask> make_mask(Tracer& t, const Ref& mask, size_t rank) {
  if (!mask || py::is_none(mask)) return std::nullopt;
  auto* p = dynamic_cast<PredObj*>(mask.get());
  if (!p) {
    if (auto b = py::as_int(mask)) {
      if (*b) return std::nullopt;
      ir::Mask m;  // always false: 1 < 0
      ir::Predicate never;
      never.coef.assign(rank, 0);
      never.rest = ir::ScalarExpr::of(1);
      never.cmp = ir::CmpKind::Lt;
      m.terms.push_back(never);
      return m;
    }
    nki_error(diag::Code::unsupported_mask_expression,
              "mask must be a comparison of affine index expressions (nl.arange, loop indices, "
              "nl.program_id), got " + mask->type_name(),
              "e.g. mask=(i_p < n) with i_p = nl.arange(128)[:, None]");
  }
  (void)t;
  ir::Mask m;
  size_t mr = p->shape.size();
  if (mr > rank)
    nki_error(diag::Code::unsupported_mask_expression, "mask has rank " + std::to_string(mr) +
                                                        " but the instruction's tile has rank " + std::to_string(rank));
  for (const ir::Predicate& term : p->terms) {
    ir::Predicate q = term;
    q.coef.assign(rank, 0);
    for (size_t j = 0; j < mr; ++j) q.coef[j + (rank - mr)] = term.coef[j];
    m.terms.push_back(q);
  }
  return m;
}

bool is_scalar_value(const Ref& v) {
  return py::as_number(v).has_value() && !as_tensor(v);
}

DType value_dtype(const Ref& v, DType other) {
  if (auto* t = as_tensor(v)) return t->dtype();
  if (auto* ts = dynamic_cast<TypedScalarObj*>(v.get())) return ts->dtype;
  if (dynamic_cast<py::BoolObj*>(v.get())) return promote_with_scalar(other, WeakScalar::Bool);
  if (py::as_int(v)) return promote_with_scalar(other, WeakScalar::Int);
  return promote_with_scalar(other, WeakScalar::Float);
}

void reject_dynamic_view(const TensorObj& t, const std::string& api) {
  if (t.view.indirect && ir::is_on_chip(t.buffer()))
    nki_error(diag::Code::err_copy_dynamic_indirect_indices_not_natively_supported,
              "'" + api + "' cannot read or write an on-chip tile at a runtime offset",
              "use nisa.tensor_copy_dynamic_src / nisa.tensor_copy_dynamic_dst for runtime offsets");
}

ir::Operand operand_for(const Ref& v, const std::vector<int64_t>& shape, const std::string& api,
                        const std::string& arg) {
  if (auto* t = as_tensor(v)) {
    require_on_chip(*t, api, arg);
    reject_dynamic_view(*t, api);
    return ir::Operand::of(broadcast_access(t->view, shape));
  }
  if (auto n = py::as_number(v)) return ir::Operand::of_imm(*n);
  if (auto* ix = as_index(v)) {
    if (ix->is_scalar())
      nki_error(diag::Code::unsupported_operand, "loop indices cannot be used as values in '" + api + "' yet",
                "materialise the index with nisa.iota(i, dtype=nl.int32)");
    nki_error(diag::Code::unsupported_operand, "index expressions cannot be used as values in '" + api + "'",
              "materialise the index with nisa.iota(expr, dtype=...)");
  }
  nki_error(diag::Code::unsupported_operand, "operand '" + arg + "' of '" + api + "' must be a tile or a scalar, got " +
                                           (v ? v->type_name() : std::string("None")));
}

void check_writable(Tracer& t, const TensorObj& dst) {
  const ir::TensorDecl& d = t.kernel().tensors[t.storage_of(dst.view.tensor)];
  if (d.role == ir::TensorRole::Parameter && !d.mutable_param) {
    nki_error(diag::Code::err_cannot_update_immutable_parameter,
              "Cannot update immutable parameter '" + d.name + "'",
              "create the output with nl.ndarray(shape, dtype, buffer=nl.shared_hbm) and return it, "
              "or annotate the parameter with nt.mutable_tensor and return it");
  }
  if (d.role == ir::TensorRole::Constant)
    nki_error(diag::Code::cannot_update_constant, "constant tensor '" + d.name + "' cannot be written");
}

static bool is_comparison(ir::Alu op) {
  return op == ir::Alu::Equal || op == ir::Alu::NotEqual || op == ir::Alu::Greater ||
         op == ir::Alu::GreaterEqual || op == ir::Alu::Less || op == ir::Alu::LessEqual ||
         op == ir::Alu::LogicalAnd || op == ir::Alu::LogicalOr || op == ir::Alu::LogicalXor;
}

Ref emit_binary(Tracer& t, const std::string& api, const Ref& a, const Ref& b, ir::Alu op,
                const Ref& dtype, const Ref& mask, bool allow_partition_broadcast, ir::Engine engine) {
  TensorObj* ta = as_tensor(a);
  TensorObj* tb = as_tensor(b);
  if (!ta && !tb) {
    if (as_index(a) || as_index(b))
      operand_for(as_index(a) ? a : b, {}, api, as_index(a) ? "x" : "y");
    nki_error(diag::Code::expected_tile, "'" + api + "' needs at least one tile operand");
  }
  if (ta) require_on_chip(*ta, api, "x");
  if (tb) require_on_chip(*tb, api, "y");
  // power runs on GpSimd, which cannot access PSUM (tensor_tensor docstring).
  if (engine == ir::Engine::GpSimd) {
    if (ta) require_gpsimd_readable(*ta, api, "x");
    if (tb) require_gpsimd_readable(*tb, api, "y");
  }
  if (ta) require_int_for_bitvec(op, *ta, api, "x");
  if (tb) require_int_for_bitvec(op, *tb, api, "y");
  // Dimension 0 of every tile is its partition dimension, so a lower-rank tile lines up with
  // the other operand on the partition dim and broadcasts along the missing free dims: the
  // [P] tile `m[:, 0]` combines with a [P, 1] or [P, F] tile per partition. The official
  // nki-samples flash attention relies on it (nl.maximum(m[:, 0], row_max) with row_max
  // [P, 1]; o[:, :] * alpha with alpha [P]). Same-rank operands follow NumPy broadcasting
  // (general/nki/api/nki/language: "x.shape and y.shape must be broadcastable").
  Ref pa = a, pb = b;
  if (ta && tb && ta->shape().size() != tb->shape().size() && !ta->shape().empty() && !tb->shape().empty()) {
    bool a_low = ta->shape().size() < tb->shape().size();
    TensorObj* low = a_low ? ta : tb;
    size_t rank = (a_low ? tb : ta)->shape().size();
    auto padded = std::make_shared<TensorObj>(*low);
    padded->producer = -1;
    for (auto& col : padded->view.coef) col.resize(rank, 0);
    padded->view.shape.resize(rank, 1);
    (a_low ? pa : pb) = padded;
    (a_low ? ta : tb) = padded.get();
  }
  std::vector<int64_t> shape;
  if (ta && tb) {
    auto s = broadcast_shapes(ta->shape(), tb->shape());
    if (!s || ta->shape().size() != tb->shape().size()) {
      if (ta->shape()[0] != tb->shape()[0] && ta->shape()[0] != 1 && tb->shape()[0] != 1)
        nki_error(diag::Code::err_num_partition_mismatch,
                  "number of partitions (dimension 0 size of a tile) mismatch in parameters (x" +
                      shape_str(ta->shape()) + ", y" + shape_str(tb->shape()) + ") of '" + api + "'",
                  "tile both operands over the same partitions, or broadcast explicitly with .broadcast_to");
      if (!s)
        nki_error(diag::Code::shape_mismatch, "operands of '" + api + "' cannot be broadcast together: x" +
                                            shape_str(ta->shape()) + " and y" + shape_str(tb->shape()));
    }
    if (!allow_partition_broadcast && ta->shape()[0] != tb->shape()[0])
      nki_error(diag::Code::operator_partition_broadcast,
                "operator '" + api + "' cannot broadcast along the partition dimension (x" +
                    shape_str(ta->shape()) + ", y" + shape_str(tb->shape()) + ")",
                "use the nl function (e.g. nl.add(x, y)), which broadcasts partitions, or .broadcast_to");
    shape = *s;
  } else {
    shape = (ta ? ta : tb)->shape();
  }
  DType out;
  if (auto d = opt_dtype(dtype)) {
    out = *d;
  } else if (is_comparison(op)) {
    out = DType::Bool;
  } else if (ta && tb) {
    out = promote(ta->dtype(), tb->dtype());
  } else {
    TensorObj* tt = ta ? ta : tb;
    out = value_dtype(ta ? b : a, tt->dtype());
  }
  auto res = t.new_tensor(shape, out, ir::Buffer::Sbuf, "");
  ir::Instr in;
  in.op = ir::Opcode::Alu;
  in.name = api;
  in.engine = engine;
  in.alu0 = op;
  in.dst = res->view;
  in.srcs.push_back(operand_for(pa, shape, api, "x"));
  in.srcs.push_back(operand_for(pb, shape, api, "y"));
  in.mask = make_mask(t, mask, shape.size());
  res->producer = t.emit(std::move(in));
  res->from_compare = is_comparison(op);
  return res;
}

static bool scalar_engine_act(ir::Act f) {
  switch (f) {
    case ir::Act::Negative:
    case ir::Act::Floor:
    case ir::Act::Ceil:
    case ir::Act::Trunc:
    case ir::Act::LogicalNot:
    case ir::Act::Invert: return false;
    default: return true;
  }
}

Ref emit_unary(Tracer& t, const std::string& api, const Ref& x, ir::Act f, const Ref& dtype,
               const Ref& mask) {
  TensorObj* tx = need_tensor(x, api, "x");
  require_on_chip(*tx, api, "x");
  DType out = opt_dtype(dtype).value_or(f == ir::Act::LogicalNot ? DType::Bool : tx->dtype());
  auto res = t.new_tensor(tx->shape(), out, ir::Buffer::Sbuf, "");
  ir::Instr in;
  in.op = ir::Opcode::Activation;
  in.name = api;
  // nisa.reciprocal is a Vector Engine instruction (86051b85 general/nki/api/nki/isa/__init__.py).
  in.engine = scalar_engine_act(f) && api != "nisa.reciprocal" ? ir::Engine::Scalar : ir::Engine::Vector;
  in.act = f;
  in.dst = res->view;
  in.srcs.push_back(ir::Operand::of(tx->view));
  in.srcs.push_back(ir::Operand::of_imm(1.0));
  in.mask = make_mask(t, mask, tx->shape().size());
  res->producer = t.emit(std::move(in));
  return res;
}

Ref emit_reduce(Tracer& t, const std::string& api, const Ref& x, ir::Alu op, const Ref& axis,
                const Ref& dtype, const Ref& mask, bool keepdims, bool negate) {
  TensorObj* tx = need_tensor(x, api, "x");
  require_on_chip(*tx, api, "x");
  const auto& shape = tx->shape();
  int rank = static_cast<int>(shape.size());
  std::vector<int> axes;
  std::vector<Ref> items;
  if (!axis || py::is_none(axis)) nki_error(diag::Code::missing_axis, "'" + api + "' requires axis=");
  if (static_int(axis)) items.push_back(axis);
  else items = axis->iterate(t);
  for (const Ref& r : items) {
    auto v = static_int(r);
    if (!v) nki_error(diag::Code::invalid_axis, "axis of '" + api + "' must be integers");
    int a = static_cast<int>(*v < 0 ? *v + rank : *v);
    if (a < 0 || a >= rank)
      nki_error(diag::Code::invalid_axis, "axis " + std::to_string(*v) + " is out of range for a tile of rank " +
                                        std::to_string(rank));
    if (a == 0)
      nki_error(diag::Code::reduce_partition_axis,
                "'" + api + "' cannot reduce along the partition dimension (axis 0)",
                "reduce free axes only (axis=1...); for cross-partition sums use nisa.tensor_partition_reduce or a matmul with a ones vector");
    if (std::find(axes.begin(), axes.end(), a) == axes.end()) axes.push_back(a);
  }
  std::sort(axes.begin(), axes.end());
  std::vector<int64_t> out_shape;
  for (int d = 0; d < rank; ++d) {
    bool red = std::find(axes.begin(), axes.end(), d) != axes.end();
    if (!red) out_shape.push_back(shape[d]);
    else if (keepdims) out_shape.push_back(1);
  }
  // A reduction of every free axis still yields a [P, 1] tile (doc kernels rely on it).
  if (out_shape.size() < 2) out_shape.push_back(1);
  DType out = opt_dtype(dtype).value_or(tx->dtype());
  auto res = t.new_tensor(out_shape, out, ir::Buffer::Sbuf, "");
  ir::Instr in;
  in.op = ir::Opcode::Reduce;
  in.name = api;
  in.engine = ir::Engine::Vector;
  in.alu0 = op;
  in.axes = axes;
  in.negate = negate;
  in.dst = res->view;
  in.srcs.push_back(ir::Operand::of(tx->view));
  in.mask = make_mask(t, mask, shape.size());
  res->producer = t.emit(std::move(in));
  return res;
}

Ref emit_copy(Tracer& t, const std::string& api, const Ref& x, const Ref& dtype, const Ref& mask,
              ir::Buffer buffer, ir::Engine engine) {
  TensorObj* tx = need_tensor(x, api, "src");
  require_on_chip(*tx, api, "src");
  DType out = opt_dtype(dtype).value_or(tx->dtype());
  auto res = t.new_tensor(tx->shape(), out, buffer, "");
  ir::Instr in;
  in.op = ir::Opcode::Copy;
  in.name = api;
  in.engine = engine;
  in.dst = res->view;
  in.srcs.push_back(ir::Operand::of(tx->view));
  in.mask = make_mask(t, mask, tx->shape().size());
  res->producer = t.emit(std::move(in));
  return res;
}

void assign_into(Tracer& t, TensorObj& dst, const Ref& value, std::optional<ir::Alu> accumulate,
                 const std::string& api, const Ref& mask) {
  if (auto* lr = py::cast<LoopReduceObj>(value); lr && !accumulate) {
    // `t[idx] = nl.loop_reduce(x, op, ...)`: t[idx] = op(t[idx], x), as for a bound name
    // (Tracer::transform_bind).
    assign_into(t, dst, lr->x, lr->op, "nl.loop_reduce", lr->mask ? lr->mask : mask);
    return;
  }
  check_writable(t, dst);
  reject_dynamic_view(dst, api);
  if (auto* v = as_tensor(value)) reject_dynamic_view(*v, api);
  const auto& dshape = dst.shape();
  std::shared_ptr<TensorObj> squeezed;
  if (auto* v = as_tensor(value); v && v->shape() != dshape && same_except_unit_dims(v->shape(), dshape)) {
    // t[:, 0] is [P] while the destination is [P, 1]: the same elements, so match them up.
    squeezed = std::make_shared<TensorObj>(*v);
    squeezed->view = reshape_unit_dims(v->view, dshape);
    squeezed->producer = -1;
  }
  if (auto* v = squeezed ? squeezed.get() : as_tensor(value)) {
    auto bs = broadcast_shapes(dshape, v->shape());
    if (!bs || *bs != dshape) {
      nki_error(diag::Code::err_store_dst_shape_smaller_than_other_shape,
                "destination shape " + shape_str(dshape) + " is smaller than the value shape " +
                    shape_str(v->shape()) + " in '" + api + "'",
                "index the destination with the same shape as the value");
    }
    // A fresh result assigned into an on-chip tile is computed there directly (as the compiler
    // does); stores into HBM stay DMA transfers.
    ir::Instr* prod = ir::is_hbm(dst.buffer()) ? nullptr : t.retargetable(v->producer);
    if (prod && dst.buffer() == ir::Buffer::Psum &&
        (prod->engine == ir::Engine::GpSimd || prod->engine == ir::Engine::Dma)) {
      // Assigning a fresh result makes its instruction write the destination directly. GpSimd
      // cannot access PSUM (tensor_copy / iota / tensor_tensor docstrings) and DMA moves data
      // between HBM and SBUF only (nl.load returns an SBUF tile, dma_copy: "HBM or SBUF").
      nki_error(diag::Code::err_unsupported_memory,
                "Expected the output of '" + prod->name + "' (" + ir::engine_name(prod->engine) +
                    ") to be in address space 'sbuf', but the destination '" + dst.decl().name + "' is in 'psum'.",
                prod->engine == ir::Engine::Dma ? "load into an SBUF tile; copy it into PSUM with nl.copy if needed"
                                                : "assign into an SBUF tile, or use the Vector Engine for PSUM outputs");
    }
    if (prod) {
      bool same_shape = v->shape() == dshape;
      if (!accumulate && same_shape && prod->op != ir::Opcode::Custom) {
        prod->dst = dst.view;
        t.note_write(*prod, false);
        v->producer = -1;
        return;
      }
      if (accumulate && *accumulate == ir::Alu::Add && same_shape && prod->op == ir::Opcode::Matmul &&
          dst.buffer() == ir::Buffer::Psum) {
        prod->dst = dst.view;
        prod->accumulate = true;
        // `psum += matmul` forms a matmul accumulation group: its first matmul overwrites the
        // PSUM bank and the later ones accumulate (general/nki/arch/trainium_inferentia2_arch.rst,
        // "PSUM accumulation"). Directly-allocated kernels cannot create the accumulator with
        // nl.zeros (err_tensor_creation_on_scratchpad_with_init_value_not_supported), so they
        // use an uninitialised nl.ndarray (nki-samples allocated_fused_linear). Zero-filling such
        // a tensor where it is created gives exactly the group's result.
        ir::TensorDecl& acc = t.kernel().tensors[t.storage_of(dst.view.tensor)];
        if (acc.init == ir::TensorInit::Uninitialized && acc.buffer == ir::Buffer::Psum)
          acc.init = ir::TensorInit::Zeros;
        t.note_write(*prod, true);
        v->producer = -1;
        return;
      }
      // Not retargeted (custom instruction, broadcast, accumulation): the fresh result is still
      // consumed right here, so direct allocation does not count it as an automatically
      // allocated tile unless it is used again (check/direct_alloc.cpp).
      t.folded_results.insert(t.storage_of(v->view.tensor));
    }
    ir::Instr in;
    in.name = api;
    in.dst = dst.view;
    in.mask = make_mask(t, mask, dshape.size());
    bool dst_hbm = ir::is_hbm(dst.buffer());
    bool src_hbm = ir::is_hbm(v->buffer());
    if (accumulate) {
      if (dst_hbm) nki_error(diag::Code::err_unsupported_memory, "cannot accumulate into an HBM tensor with '" + api + "'",
                             "accumulate in SBUF/PSUM, then nl.store the result");
      require_on_chip(*v, api, "value");
      in.op = ir::Opcode::Alu;
      in.engine = ir::Engine::Vector;
      in.alu0 = *accumulate;
      in.srcs.push_back(ir::Operand::of(dst.view));
      in.srcs.push_back(ir::Operand::of(broadcast_access(v->view, dshape)));
    } else {
      in.op = ir::Opcode::Copy;
      in.engine = (dst_hbm || src_hbm) ? ir::Engine::Dma : ir::Engine::Vector;
      in.srcs.push_back(ir::Operand::of(broadcast_access(v->view, dshape)));
    }
    t.emit(std::move(in), accumulate.has_value());
    return;
  }
  if (auto n = py::as_number(value)) {
    ir::Instr in;
    in.name = api;
    in.dst = dst.view;
    in.mask = make_mask(t, mask, dshape.size());
    if (accumulate) {
      in.op = ir::Opcode::Alu;
      in.engine = ir::Engine::Vector;
      in.alu0 = *accumulate;
      in.srcs.push_back(ir::Operand::of(dst.view));
      in.srcs.push_back(ir::Operand::of_imm(*n));
    } else {
      in.op = ir::Opcode::Memset;
      in.engine = ir::is_hbm(dst.buffer()) ? ir::Engine::Dma : ir::Engine::Vector;
      in.srcs.push_back(ir::Operand::of_imm(*n));
    }
    t.emit(std::move(in), accumulate.has_value());
    return;
  }
  if (auto* ix = as_index(value)) {
    (void)ix;
    nki_error(diag::Code::unsupported_operand, "an index expression cannot be stored directly",
              "materialise it with nisa.iota(expr, dtype=...) first");
  }
  nki_error(diag::Code::unsupported_operand, "cannot assign a value of type '" +
                                           (value ? value->type_name() : std::string("None")) + "' into a tensor");
}

}  // namespace nki::front
