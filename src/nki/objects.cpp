#include "base/diag_codes.h"
#include "nki/objects.h"
#include "nki/tensor_attr_hook.h"

#include <algorithm>

#include "ir/scalar_expr.h"
#include "nki/lowering.h"
#include "nki/symbolic_index.h"
#include "nki/tracer.h"

namespace nki::front {

using py::cast;
using py::CmpOp;
using py::Operator;

namespace {

std::optional<ir::Alu> alu_for(Operator op) {
  switch (op) {
    case Operator::Add: return ir::Alu::Add;
    case Operator::Sub: return ir::Alu::Subtract;
    case Operator::Mult: return ir::Alu::Multiply;
    case Operator::Div: return ir::Alu::Divide;
    case Operator::Mod: return ir::Alu::Mod;
    case Operator::Pow: return ir::Alu::Power;
    case Operator::BitAnd: return ir::Alu::BitwiseAnd;
    case Operator::BitOr: return ir::Alu::BitwiseOr;
    case Operator::BitXor: return ir::Alu::BitwiseXor;
    case Operator::LShift: return ir::Alu::LeftShift;
    case Operator::RShift: return ir::Alu::RightShift;
    default: return std::nullopt;
  }
}

ir::Alu alu_for_cmp(CmpOp op) {
  switch (op) {
    case CmpOp::Eq: return ir::Alu::Equal;
    case CmpOp::NotEq: return ir::Alu::NotEqual;
    case CmpOp::Lt: return ir::Alu::Less;
    case CmpOp::LtE: return ir::Alu::LessEqual;
    case CmpOp::Gt: return ir::Alu::Greater;
    default: return ir::Alu::GreaterEqual;
  }
}

CmpOp swap(CmpOp op) {
  switch (op) {
    case CmpOp::Lt: return CmpOp::Gt;
    case CmpOp::LtE: return CmpOp::GtE;
    case CmpOp::Gt: return CmpOp::Lt;
    case CmpOp::GtE: return CmpOp::LtE;
    default: return op;
  }
}

ir::CmpKind cmp_kind(CmpOp op) {
  switch (op) {
    case CmpOp::Lt: return ir::CmpKind::Lt;
    case CmpOp::LtE: return ir::CmpKind::Le;
    case CmpOp::Gt: return ir::CmpKind::Gt;
    case CmpOp::GtE: return ir::CmpKind::Ge;
    case CmpOp::Eq: return ir::CmpKind::Eq;
    default: return ir::CmpKind::Ne;
  }
}

// Converts an int / scalar-or-grid IndexObj into an IndexObj (nullptr for anything else).
std::shared_ptr<IndexObj> to_index(Tracer* t, const Ref& r) {
  if (as_index(r)) return std::static_pointer_cast<IndexObj>(r);
  if (auto v = py::as_int(r)) {
    auto ix = std::make_shared<IndexObj>();
    ix->tracer = t;
    ix->rest = ir::ScalarExpr::of(*v);
    return ix;
  }
  return nullptr;
}


}  // namespace

// ------------------------------------------------------------------ TensorObj
const ir::TensorDecl& TensorObj::decl() const { return tracer->kernel().tensors[view.tensor]; }
DType TensorObj::dtype() const { return decl().dtype; }
ir::Buffer TensorObj::buffer() const { return decl().buffer; }

std::string TensorObj::repr() const {
  return "tensor(" + decl().name + shape_str(view.shape) + ", " + dtype_name(dtype()) + ", " +
         ir::buffer_name(buffer()) + ")";
}

Ref TensorObj::getattr(py::Interp& in, const std::string& name) {
  if (auto* dialect = dynamic_cast<TensorAttrProvider*>(&in))
    if (Ref r = dialect->tensor_attr(*this, in, name)) return r;
  Tracer& t = *tracer;
  auto self = std::static_pointer_cast<TensorObj>(shared_from_this());
  auto method = [&](py::BuiltinFn::Impl f) { return std::make_shared<py::BuiltinFn>(name, std::move(f)); };
  if (name == "shape") {
    std::vector<Ref> dims;
    for (int64_t d : view.shape) dims.push_back(py::make_int(d));
    return py::make_tuple(dims);
  }
  if (name == "dtype") return std::make_shared<DTypeObj>(dtype());
  if (name == "ndim") return py::make_int(static_cast<int64_t>(view.shape.size()));
  if (name == "itemsize") return py::make_int(static_cast<int64_t>(dtype_size(dtype())));
  if (name == "size") return py::make_int(ir::element_count(view.shape));
  if (name == "buffer") return std::make_shared<BufferObj>(buffer());
  if (name == "name") return py::make_str(decl().name);
  if (name == "reshape" || name == "view") {
    return method([self, name, &t](py::Interp& in, py::CallArgs& a) -> Ref {
      const ir::TensorDecl& d = self->decl();
      bool full = true;
      ir::Access fa = t.full_access(self->view.tensor);
      if (self->view.shape != fa.shape || self->view.indirect) full = false;
      for (size_t k = 0; full && k < fa.offset.size(); ++k)
        if (!ir::equal(self->view.offset[k], fa.offset[k]) || self->view.coef[k] != fa.coef[k]) full = false;
      if (!full)
        nki_error(diag::Code::unsupported_reshape, "." + name + "() is only supported on a whole tensor, not on a view of '" + d.name + "'");
      std::vector<int64_t> shape = d.shape;
      DType dt = d.dtype;
      if (name == "reshape") {
        Ref s = a.pos.size() == 1 ? a.pos[0] : py::make_tuple(a.pos);
        if (a.pos.empty()) s = a.take("shape");
        shape = need_shape(in, s, "reshape");
        if (ir::element_count(shape) != ir::element_count(d.shape))
          nki_error(diag::Code::invalid_reshape, "cannot reshape tensor '" + d.name + "' of shape " + shape_str(d.shape) +
                                               " into shape " + shape_str(shape) + " (element counts differ)");
      } else {
        if (a.pos.empty()) nki_error(diag::Code::invalid_view, ".view() needs a dtype");
        dt = need_dtype(a.pos[0], "view", "dtype");
        if (dtype_size(dt) != dtype_size(d.dtype))
          nki_error(diag::Code::invalid_view, ".view() between dtypes of different sizes is not supported (" +
                                            std::string(dtype_name(d.dtype)) + " -> " + dtype_name(dt) + ")");
      }
      if (!ir::is_hbm(d.buffer) && name == "reshape" && shape.front() != d.shape.front())
        nki_error(diag::Code::invalid_reshape, "reshaping an on-chip tile must keep its partition dimension");
      auto v = t.new_tensor(shape, dt, d.buffer, d.name, 0);
      ir::TensorDecl& nd = t.kernel().tensors[v->view.tensor];
      nd.alias_of = t.storage_of(self->view.tensor);
      nd.role = ir::TensorRole::Internal;
      return v;
    });
  }
  if (name == "astype") {
    return method([self, &t](py::Interp&, py::CallArgs& a) -> Ref {
      Ref dt = a.take("dtype", 0);
      return emit_copy(t, "astype", self, dt, nullptr);
    });
  }
  if (name == "broadcast_to") {
    return method([self, &t](py::Interp& in, py::CallArgs& a) -> Ref {
      Ref s = a.take("shape", 0);
      std::vector<int64_t> shape = need_shape(in, s, "broadcast_to");
      auto b = broadcast_shapes(self->shape(), shape);
      if (!b || *b != shape)
        nki_error(diag::Code::invalid_broadcast, "cannot broadcast a tile of shape " + shape_str(self->shape()) +
                                               " to " + shape_str(shape));
      if (shape == self->shape()) return self;
      require_on_chip(*self, "broadcast_to", "src");
      auto res = t.new_tensor(shape, self->dtype(), ir::Buffer::Sbuf, "");
      ir::Instr ins;
      ins.op = ir::Opcode::Copy;
      ins.name = "broadcast_to";
      ins.engine = ir::Engine::Vector;
      ins.dst = res->view;
      ins.srcs.push_back(ir::Operand::of(broadcast_access(self->view, shape)));
      res->producer = t.emit(std::move(ins));
      return res;
    });
  }
  if (name == "expand_dims") {
    return method([self, &t](py::Interp&, py::CallArgs& a) -> Ref {
      auto ax = static_int(a.take("axis", 0));
      if (!ax) nki_error(diag::Code::invalid_axis, "expand_dims needs an integer axis");
      int64_t rank = static_cast<int64_t>(self->shape().size());
      int64_t axis = *ax < 0 ? *ax + rank + 1 : *ax;
      if (axis <= 0 || axis > rank)
        nki_error(diag::Code::invalid_axis, "expand_dims supports new axes after the partition dimension only");
      ir::Access v = self->view;
      v.shape.insert(v.shape.begin() + axis, 1);
      for (auto& col : v.coef) col.insert(col.begin() + axis, 0);
      return t.view_of(v);
    });
  }
  if (name == "assert_shape") {
    return method([self](py::Interp& in, py::CallArgs& a) -> Ref {
      std::vector<int64_t> s = need_shape(in, a.take("shape", 0), "assert_shape");
      if (s != self->shape())
        nki_error(diag::Code::err_annotation_shape_mismatch, "shape of '" + self->decl().name + shape_str(self->shape()) +
                                                       "' does not match the expected shape of " + shape_str(s));
      return self;
    });
  }
  return py::Obj::getattr(in, name);
}

Ref TensorObj::inplace(py::Interp&, Operator op, const Ref& value) {
  auto alu = alu_for(op);
  if (!alu) nki_error(diag::Code::unsupported_operator, "unsupported in-place operator on a tensor");
  if (ir::is_hbm(buffer()))
    nki_error(diag::Code::err_unsupported_memory, "in-place arithmetic on an HBM tensor is not supported",
              "load it into SBUF, update the tile, then nl.store it");
  assign_into(*tracer, *this, value, alu, "augmented assignment");
  return shared_from_this();
}

bool TensorObj::setitem_inplace(py::Interp&, const Ref& key, Operator op, const Ref& value) {
  auto alu = alu_for(op);
  if (!alu) nki_error(diag::Code::unsupported_operator, "unsupported in-place operator on a tensor");
  TensorObj dst = *this;
  dst.view = index_view(*tracer, *this, key);
  assign_into(*tracer, dst, value, alu, "augmented assignment");
  return true;
}

Ref TensorObj::getitem(py::Interp&, const Ref& key) { return tracer->view_of(index_view(*tracer, *this, key)); }

void TensorObj::setitem(py::Interp&, const Ref& key, Ref value) {
  TensorObj dst = *this;
  dst.view = index_view(*tracer, *this, key);
  assign_into(*tracer, dst, value, std::nullopt, "assignment");
}

Ref DynIndexObj::binop(py::Interp& in, Operator op, const Ref& other, bool reflected) {
  if (op != Operator::Add && op != Operator::Sub) return nullptr;
  if (op == Operator::Sub && reflected) return nullptr;
  Ref sum = index->binop(in, op, other, false);
  if (!sum) return nullptr;
  auto r = std::make_shared<DynIndexObj>(*this);
  r->index = std::static_pointer_cast<IndexObj>(sum);
  return r;
}

Ref TensorObj::binop(py::Interp& in, Operator op, const Ref& other, bool reflected) {
  // A one-element integer tile plus an index expression is a runtime offset (dynamic copies).
  if ((op == Operator::Add || (op == Operator::Sub && !reflected)) && ir::element_count(view.shape) == 1 &&
      ir::is_on_chip(buffer()) && (as_index(other) || (dtype_is_int(dtype()) && py::as_int(other)))) {
    auto d = std::make_shared<DynIndexObj>();
    d->value = view;
    d->index = std::make_shared<IndexObj>();
    d->index->tracer = tracer;
    Ref idx = d->index->binop(in, Operator::Add, other, false);
    if (op == Operator::Sub) idx = d->index->binop(in, Operator::Sub, other, false);
    d->index = std::static_pointer_cast<IndexObj>(idx);
    return d;
  }
  if (op == Operator::MatMult)
    nki_error(diag::Code::unsupported_operator, "the @ operator is not supported on tiles",
              "use nl.matmul(x, y, transpose_x=...) or nisa.nc_matmul(stationary, moving)");
  if (op == Operator::FloorDiv)
    nki_error(diag::Code::unsupported_operator, "the // operator is not supported on tiles",
              "use nl.divide followed by nl.floor");
  auto alu = alu_for(op);
  if (!alu) return nullptr;
  if (!as_tensor(other) && !py::as_number(other) && !as_index(other)) return nullptr;
  Ref self = shared_from_this();
  static const char* names[] = {"+", "-", "*", "@", "/", "%", "**", "<<", ">>", "|", "^", "&", "//"};
  std::string api = std::string("operator ") + names[static_cast<int>(op)];
  return reflected ? emit_binary(*tracer, api, other, self, *alu, nullptr, nullptr, false)
                   : emit_binary(*tracer, api, self, other, *alu, nullptr, nullptr, false);
}

Ref TensorObj::unaryop(py::Interp& in, py::UnaryOpKind op) {
  switch (op) {
    case py::UnaryOpKind::USub:
      return emit_unary(*tracer, "operator -", shared_from_this(), ir::Act::Negative, nullptr, nullptr);
    case py::UnaryOpKind::Invert:
      return emit_unary(*tracer, "operator ~", shared_from_this(), ir::Act::Invert, nullptr, nullptr);
    case py::UnaryOpKind::UAdd: return shared_from_this();
    case py::UnaryOpKind::Not: truthy(in); return nullptr;
  }
  return nullptr;
}

Ref TensorObj::compare(py::Interp&, CmpOp op, const Ref& other, bool reflected) {
  if (op == CmpOp::Is || op == CmpOp::IsNot || op == CmpOp::In || op == CmpOp::NotIn) return nullptr;
  if (!as_tensor(other) && !py::as_number(other)) return nullptr;
  Ref self = shared_from_this();
  ir::Alu alu = alu_for_cmp(op);
  return reflected ? emit_binary(*tracer, "comparison", other, self, alu, nullptr, nullptr, false)
                   : emit_binary(*tracer, "comparison", self, other, alu, nullptr, nullptr, false);
}

bool TensorObj::truthy(py::Interp&) {
  if (ir::element_count(view.shape) == 1)
    nki_error(diag::Code::err_dynamic_control_flow_not_supported,
              "control flow that depends on tensor values is not supported",
              "compute both results and select with nl.where, or use a mask");
  nki_error(diag::Code::err_ambiguous_tensor_truth_value,
            "Cannot evaluate truth value of a multi-element tensor/array",
            "use ~, & and | for element-wise logic; test optional tensors with `is not None`");
}

std::vector<Ref> TensorObj::iterate(py::Interp&) {
  nki_error(diag::Code::tensor_not_iterable, "a tensor cannot be iterated in Python",
            "loop with nl.affine_range over tile indices");
}

int64_t TensorObj::len(py::Interp&) { return view.shape.empty() ? 0 : view.shape[0]; }

// ------------------------------------------------------------------ IndexObj
std::string IndexObj::repr() const {
  return is_scalar() ? "<index " + ir::print_scalar_expr(tracer->kernel(), rest) + ">"
                     : "<index grid " + shape_str(shape) + ">";
}

Ref IndexObj::binop(py::Interp&, Operator op, const Ref& other, bool reflected) {
  auto o = to_index(tracer, other);
  if (!o) {
    if (py::as_number(other) && (op == Operator::Mult || op == Operator::Add || op == Operator::Sub))
      nki_error(diag::Code::non_integer_index, "index expressions only support integer arithmetic",
                "use integer constants with loop indices and nl.arange values");
    return nullptr;
  }
  const IndexObj& a = reflected ? *o : *this;
  const IndexObj& b = reflected ? *this : *o;
  auto res = std::make_shared<IndexObj>();
  res->tracer = tracer;
  res->is_arange = a.is_arange || b.is_arange;
  if (op == Operator::Add || op == Operator::Sub) {
    auto s = broadcast_shapes(a.shape, b.shape);
    if (!s) nki_error(diag::Code::invalid_index, "index expressions of shapes " + shape_str(a.shape) + " and " +
                                               shape_str(b.shape) + " cannot be broadcast together");
    res->shape = *s;
    res->coef.assign(s->size(), 0);
    int64_t sign = op == Operator::Add ? 1 : -1;
    for (size_t j = 0; j < a.shape.size(); ++j)
      if (a.shape[j] == (*s)[j + s->size() - a.shape.size()]) res->coef[j + s->size() - a.shape.size()] += a.coef[j];
    for (size_t j = 0; j < b.shape.size(); ++j)
      if (b.shape[j] == (*s)[j + s->size() - b.shape.size()]) res->coef[j + s->size() - b.shape.size()] += sign * b.coef[j];
    res->rest = op == Operator::Add ? ir::add(a.rest, b.rest) : ir::sub(a.rest, b.rest);
    return res;
  }
  bool a_const = a.is_scalar() && a.rest.is_constant();
  bool b_const = b.is_scalar() && b.rest.is_constant();
  if (op == Operator::Mult) {
    if (!a_const && !b_const)
      nki_error(diag::Code::non_affine_index, "the product of two index expressions is not affine",
                "multiply loop indices and nl.arange values by integer constants only");
    const IndexObj& v = a_const ? b : a;
    int64_t c = a_const ? a.rest.constant : b.rest.constant;
    res->shape = v.shape;
    res->coef = v.coef;
    for (auto& x : res->coef) x *= c;
    res->rest = ir::scale(v.rest, c);
    res->is_arange = v.is_arange;
    return res;
  }
  if (op == Operator::FloorDiv || op == Operator::Mod) {
    if (!b_const)
      nki_error(diag::Code::non_affine_index, "index expressions can only be divided by integer constants");
    int64_t c = b.rest.constant;
    if (c <= 0) nki_error(diag::Code::non_affine_index, "index division needs a positive constant divisor");
    if (!a.is_scalar())
      nki_error(diag::Code::non_affine_index, std::string("the ") + (op == Operator::Mod ? "%" : "//") +
                                            " of an nl.arange/nl.mgrid expression is not affine",
                "split the index into two nl.arange axes instead");
    res->shape = {};
    if (a.rest.is_constant()) {
      res->rest = ir::ScalarExpr::of(op == Operator::Mod ? py::floor_mod(a.rest.constant, c)
                                                         : py::floor_div(a.rest.constant, c));
      return res;
    }
    ir::Atom at;
    at.kind = op == Operator::Mod ? ir::AtomKind::Mod : ir::AtomKind::FloorDiv;
    at.operand = a.rest;
    at.divisor = c;
    res->rest = ir::atom_expr(tracer->new_atom(at));
    return res;
  }
  nki_error(diag::Code::non_affine_index, "unsupported operator on an index expression");
}

Ref IndexObj::unaryop(py::Interp& in, py::UnaryOpKind op) {
  if (op == py::UnaryOpKind::USub) return binop(in, Operator::Mult, py::make_int(-1), false);
  if (op == py::UnaryOpKind::UAdd) return shared_from_this();
  if (op == py::UnaryOpKind::Not) { truthy(in); return nullptr; }
  nki_error(diag::Code::non_affine_index, "unsupported unary operator on an index expression");
}

Ref IndexObj::compare(py::Interp&, CmpOp op, const Ref& other, bool reflected) {
  if (op == CmpOp::Is || op == CmpOp::IsNot || op == CmpOp::In || op == CmpOp::NotIn) return nullptr;
  auto o = to_index(tracer, other);
  if (!o) {
    if (op == CmpOp::Eq) return py::make_bool(false);
    if (op == CmpOp::NotEq) return py::make_bool(true);
    return nullptr;
  }
  if (reflected) op = swap(op);
  // lhs - rhs CMP 0
  auto diff = std::static_pointer_cast<IndexObj>(binop(*tracer, Operator::Sub, o, false));
  auto p = std::make_shared<PredObj>();
  p->tracer = tracer;
  p->shape = diff->shape;
  p->uses_arange = diff->is_arange && std::any_of(diff->coef.begin(), diff->coef.end(), [](int64_t c) { return c != 0; });
  if (!p->uses_arange && diff->shape.empty() && diff->rest.is_constant())
    return py::make_bool(ir::cmp_holds(cmp_kind(op), diff->rest.constant));
  if (diff->is_arange) p->uses_arange = true;
  ir::Predicate pr;
  pr.coef = diff->coef;
  pr.rest = diff->rest;
  pr.cmp = cmp_kind(op);
  p->terms.push_back(pr);
  return p;
}

bool IndexObj::truthy(py::Interp&) {
  if (is_scalar() && rest.is_constant()) return rest.constant != 0;
  if (is_arange)
    nki_error(diag::Code::err_control_flow_condition_depending_on_arange,
              "control flow cannot depend on nl.arange / nl.mgrid values", "use mask= instead");
  nki_error(diag::Code::err_dynamic_control_flow_not_supported,
            "the truth value of `" + ir::print_scalar_expr(tracer->kernel(), rest) +
                "` is not known while the kernel is traced: " + describe_symbolic(*tracer, rest),
            "compare it explicitly (`if i > 0:` is traced as a branch on the index), or iterate with "
            "nl.static_range(...) when a Python int is needed");
}

void IndexObj::require_concrete(py::Interp&, const std::string& use) {
  if (is_scalar() && rest.is_constant()) return;
  if (!is_scalar() || is_arange)
    nki_error(diag::Code::symbolic_loop_index,
              use + " needs a Python int, but an nl.arange / nl.mgrid index grid is not one",
              "use index grids only in subscripts, masks and nisa.iota");
  symbolic_index_error(*tracer, rest, use);
}

Ref IndexObj::getitem(py::Interp& in, const Ref& key) {
  // Lifting a 1-D arange: a[:, None], a[None, :].
  std::vector<Ref> keys;
  if (auto* t = cast<py::TupleObj>(key)) keys = t->items;
  else keys.push_back(key);
  auto res = std::make_shared<IndexObj>();
  res->tracer = tracer;
  res->rest = rest;
  res->is_arange = is_arange;
  size_t src = 0;
  for (const Ref& k : keys) {
    if (py::is_none(k)) {
      res->shape.push_back(1);
      res->coef.push_back(0);
    } else if (auto* s = cast<py::SliceObj>(k); s && py::is_none(s->lower) && py::is_none(s->upper) && py::is_none(s->step)) {
      if (src >= shape.size()) nki_error(diag::Code::invalid_index, "too many indices for an index expression");
      res->shape.push_back(shape[src]);
      res->coef.push_back(coef[src]);
      ++src;
    } else {
      (void)in;
      nki_error(diag::Code::invalid_index, "an index expression can only be lifted with [:, None] / [None, :]");
    }
  }
  for (; src < shape.size(); ++src) {
    res->shape.push_back(shape[src]);
    res->coef.push_back(coef[src]);
  }
  return res;
}

void IndexObj::setitem(py::Interp&, const Ref&, Ref) {
  nki_error(diag::Code::err_cannot_assign_to_index, "'index' tensor does not support item assignment",
            "materialise the index values with nisa.iota(expr, dtype=...) and assign into that tile");
}

Ref IndexObj::getattr(py::Interp& in, const std::string& name) {
  if (name == "shape") {
    std::vector<Ref> d;
    for (int64_t s : shape) d.push_back(py::make_int(s));
    return py::make_tuple(d);
  }
  return py::Obj::getattr(in, name);
}

// ------------------------------------------------------------------ PredObj
Ref PredObj::binop(py::Interp&, Operator op, const Ref& other, bool) {
  auto* o = dynamic_cast<PredObj*>(other.get());
  if (auto b = py::as_int(other); b && op == Operator::BitAnd) {
    if (*b) return shared_from_this();
  }
  if (!o) return nullptr;
  if (op != Operator::BitAnd)
    nki_error(diag::Code::unsupported_mask_expression, "masks can only be combined with &",
              "split the instruction, or express the condition as one comparison");
  auto s = broadcast_shapes(shape, o->shape);
  if (!s) nki_error(diag::Code::unsupported_mask_expression, "mask terms of shapes " + shape_str(shape) + " and " +
                                                              shape_str(o->shape) + " cannot be combined");
  auto res = std::make_shared<PredObj>();
  res->tracer = tracer;
  res->shape = *s;
  res->uses_arange = uses_arange || o->uses_arange;
  for (const PredObj* src : {this, o}) {
    for (const ir::Predicate& p : src->terms) {
      ir::Predicate q = p;
      q.coef.assign(s->size(), 0);
      for (size_t j = 0; j < src->shape.size(); ++j)
        if (src->shape[j] == (*s)[j + s->size() - src->shape.size()]) q.coef[j + s->size() - src->shape.size()] = p.coef[j];
      res->terms.push_back(q);
    }
  }
  return res;
}

void PredObj::setitem(py::Interp&, const Ref&, Ref) {
  nki_error(diag::Code::err_cannot_assign_to_index, "'mask' tensor does not support item assignment",
            "materialise the values with nisa.iota / nl.where into a tile and assign into that tile");
}

bool PredObj::truthy(py::Interp&) {
  // `mask=(a < n and b < m)` appears in official doc tests; Python evaluates bool(a < n) there.
  // We accept it (the result is the last operand, as in Python) rather than reject a doc kernel.
  if (uses_arange) return true;
  nki_error(diag::Code::err_dynamic_control_flow_not_supported,
            "a condition on a symbolic loop index has no Python truth value while the kernel is traced" +
                condition_origin() +
                "; an `if` statement on it is traced as a branch, but `or`, bool(), chained comparisons and "
                "`not` of a joined condition need a Python bool",
            "write the condition as an `if` statement (nest ifs, or join conditions with `and` or &); "
            "iterate with nl.static_range(...) when the code needs the index as a Python int");
}

std::string PredObj::condition_origin() const {
  for (const ir::Predicate& p : terms) {
    std::string d = describe_symbolic(*tracer, p.rest);
    if (!d.empty()) return " (" + d + ")";
  }
  return "";
}

Ref PredObj::unaryop(py::Interp& in, py::UnaryOpKind op) {
  if (op != py::UnaryOpKind::Not || uses_arange || terms.size() != 1) return py::Obj::unaryop(in, op);
  // Per iteration, `not (x CMP 0)` holds exactly when the opposite comparison does.
  auto res = std::make_shared<PredObj>(*this);
  ir::CmpKind& c = res->terms[0].cmp;
  switch (c) {
    case ir::CmpKind::Lt: c = ir::CmpKind::Ge; break;
    case ir::CmpKind::Le: c = ir::CmpKind::Gt; break;
    case ir::CmpKind::Gt: c = ir::CmpKind::Le; break;
    case ir::CmpKind::Ge: c = ir::CmpKind::Lt; break;
    case ir::CmpKind::Eq: c = ir::CmpKind::Ne; break;
    case ir::CmpKind::Ne: c = ir::CmpKind::Eq; break;
  }
  return res;
}

void PredObj::require_concrete(py::Interp& in, const std::string&) {
  if (!uses_arange) truthy(in);
}

Ref PredObj::run_if_exp(py::Interp&, const py::IfExp& e) {
  if (uses_arange)
    nki_error(diag::Code::err_control_flow_condition_depending_on_arange,
              "control flow cannot depend on nl.arange / nl.mgrid values",
              "use mask= on the instructions, or nl.where for per-element selection");
  return tracer->trace_if_exp(e, terms);
}

Ref PredObj::symbolic_and(py::Interp& in, const std::function<Ref()>& rhs) {
  // `if i_q >= i_k and i_k > 0:` on loop indices is the conjunction of both conditions (the
  // official nki-samples flash attention backward kernel combines its tile-skipping conditions
  // this way). Index (arange/mgrid) masks keep Python's `and` (see truthy).
  if (uses_arange) return nullptr;
  Ref r = rhs();
  if (auto* o = dynamic_cast<PredObj*>(r.get()); o && !o->uses_arange)
    return binop(in, Operator::BitAnd, r, false);
  if (py::as_int(r) || py::is_none(r)) return in.truthy(r) ? shared_from_this() : r;
  nki_error(diag::Code::err_dynamic_control_flow_not_supported,
            "a condition on loop indices can only be combined with `and` with another such condition "
            "or a compile-time constant",
            "nest the `if` statements");
}

py::Flow PredObj::run_if(py::Interp&, const py::If& stmt) {
  if (uses_arange)
    nki_error(diag::Code::err_control_flow_condition_depending_on_arange,
              "control flow cannot depend on nl.arange / nl.mgrid values",
              "use mask= on the instructions instead of an if statement");
  return tracer->trace_if(stmt, terms);
}

// ------------------------------------------------------------------ Mgrid
Ref MgridObj::getattr(py::Interp& in, const std::string& name) {
  static const char* names[] = {"p", "x", "y", "z"};
  for (size_t i = 0; i < 4; ++i) {
    if (name == names[i]) {
      if (i >= components.size()) nki_error(diag::Code::invalid_index, "mgrid has no component '" + name + "'");
      return components[i];
    }
  }
  return py::Obj::getattr(in, name);
}

Ref MgridObj::getitem(py::Interp&, const Ref& key) {
  auto i = py::as_int(key);
  if (!i || *i < 0 || *i >= static_cast<int64_t>(components.size())) py::raise("IndexError", "mgrid index out of range");
  return components[*i];
}

// ------------------------------------------------------------------ dtype / buffer / op
std::string DTypeObj::repr() const { return std::string("dtype('") + dtype_name(dtype) + "')"; }

Ref DTypeObj::getattr(py::Interp& in, const std::string& name) {
  if (name == "itemsize") return py::make_int(static_cast<int64_t>(dtype_size(dtype)));
  if (name == "name") return py::make_str(dtype_name(dtype));
  if (name == "type") return shared_from_this();
  return py::Obj::getattr(in, name);
}

Ref DTypeObj::call(py::Interp&, py::CallArgs& a) {
  if (a.pos.empty()) return std::make_shared<TypedScalarObj>(0.0, dtype);
  auto v = py::as_number(a.pos[0]);
  if (!v) nki_error(diag::Code::unsupported_operand, std::string(dtype_name(dtype)) + "() needs a number");
  return std::make_shared<TypedScalarObj>(*v, dtype);
}

bool DTypeObj::equals(const py::Obj& o) const {
  auto* d = dynamic_cast<const DTypeObj*>(&o);
  return d && d->dtype == dtype;
}

Ref DTypeObj::compare(py::Interp&, CmpOp op, const Ref& other, bool) {
  if (op != CmpOp::Eq && op != CmpOp::NotEq) return nullptr;
  bool eq = false;
  if (auto d = opt_dtype(other)) eq = *d == dtype;
  return py::make_bool(op == CmpOp::Eq ? eq : !eq);
}

bool BufferObj::equals(const py::Obj& o) const {
  auto* b = dynamic_cast<const BufferObj*>(&o);
  return b && b->buffer == buffer;
}

bool OpFnObj::equals(const py::Obj& o) const {
  auto* f = dynamic_cast<const OpFnObj*>(&o);
  return f && ((alu && f->alu == alu) || (act && f->act == act) || f->name == name);
}

// ------------------------------------------------------------------ RangeDriver
int64_t RangeDriver::len(py::Interp&) { return py::range_length(start, stop, step); }

std::vector<Ref> RangeDriver::iterate(py::Interp& in) {
  int64_t n = len(in);
  // As for Python's range: materialising more values than the step budget could ever consume
  // only exhausts memory.
  if (n > in.limits().max_steps)
    nki_error(diag::Code::evaluation_budget,
              "a range of " + std::to_string(n) + " values is larger than the evaluation step budget (" +
                  std::to_string(in.limits().max_steps) + " steps)",
              "iterate over a device loop (nl.affine_range / nl.sequential_range) instead");
  std::vector<Ref> out;
  out.reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) out.push_back(py::make_int(start + i * step));
  return out;
}

py::Flow RangeDriver::run_loop(py::Interp& in, const py::For& stmt) {
  if (kind == ir::LoopKind::Static) {
    // Unrolled one iteration at a time (never materialised): every iteration costs evaluation
    // steps, so nl.static_range(10**9) ends at the step budget instead of exhausting memory.
    const int64_t n = len(in);
    // Each unrolled iteration costs at least one step: a trip count beyond the whole step
    // budget can never finish, so say so at the loop instead of after 20 M steps.
    if (n > in.limits().max_steps)
      nki_error(diag::Code::evaluation_budget,
                "nl.static_range(" + std::to_string(n) + ") unrolls more iterations than the evaluation step budget (" +
                    std::to_string(in.limits().max_steps) + " steps)",
                "use nl.affine_range / nl.sequential_range for device loops; unroll only small trip counts");
    for (int64_t i = 0; i < n; ++i) {
      in.tick();
      Ref v = py::make_int(start + i * step);
      in.assign(*stmt.target, v);
      py::Flow f = in.exec_block(stmt.body);
      if (f == py::Flow::Break) return py::Flow::Normal;
      if (f == py::Flow::Return) return f;
    }
    return in.exec_block(stmt.orelse);
  }
  return tracer->trace_loop(stmt, kind, start, stop, step, python_range);
}

// ------------------------------------------------------------------ KernelObj
Ref KernelObj::getitem(py::Interp& in, const Ref& key) {
  auto k = std::make_shared<KernelObj>(*this);
  if (auto* t = cast<py::TupleObj>(key)) k->grid = t->items;
  else k->grid = {key};
  (void)in;
  return k;
}

Ref KernelObj::call(py::Interp& in, py::CallArgs& args) {
  if (!tracer || !tracer->tracing())
    py::raise("RuntimeError", "kernels run only through the simulator entry points");
  if (!grid.empty())
    nki_error(diag::Code::err_nested_kernel_with_spmd_grid,
              "calling a kernel with an SPMD launch grid from inside another kernel is not supported",
              "call the sub-kernel without a grid, or launch it from the host");
  return fn->call(in, args);
}

Ref KernelObj::getattr(py::Interp& in, const std::string& name) {
  if (name == "__name__") return py::make_str(fn->name);
  if (name == "func" || name == "__wrapped__") return fn;
  return py::Obj::getattr(in, name);
}

}  // namespace nki::front
