// `a if cond else b` where `cond` compares loop indices (`prev = acc if i > 0 else 0.0`).
//
// What SDK 2.24 does here is not documented. Its error manual shows `if` STATEMENTS on the
// index of a range() loop as valid code (general/nki/api/nki.errors.rst at 86051b85, the fix of
// err_local_variable_used_out_of_scope: `for i in range(4): if i < 2: ...`), and defines
// err_dynamic_control_flow_not_supported for conditions on TENSOR VALUES only (`cnd =
// nl.load(a); if cnd:`). Conditional expressions on loop indices are mentioned nowhere, so this
// cannot be proven invalid (house rule: warn, do not reject). They are simulated as what the
// Python code means in each iteration: an IR branch on the condition writes the chosen operand
// into a new tile, and the expression's value is that tile. The warning says so, including the
// one place where this can differ from an alias: the chosen operand is copied at this line.
#include "base/diag_codes.h"
#include "base/dtype_promote.h"
#include "nki/lowering.h"
#include "nki/tracer.h"

namespace nki::front {

namespace {

bool is_number(const Ref& v) { return py::as_number(v).has_value(); }

}  // namespace

Ref Tracer::trace_if_exp(const py::IfExp& e, const std::vector<ir::Predicate>& cond) {
  ir::If node;
  node.loc = e.span.begin;
  for (const ir::Predicate& p : cond) {
    ir::Predicate q = p;
    q.coef.clear();
    node.cond.terms.push_back(q);
  }
  // Each operand is evaluated inside its branch: what it computes (and the bounds of what it
  // reads, e.g. out[i - 1] under `if i > 0`) belongs to the iterations that choose it.
  auto eval_in = [&](const py::Expr& x, std::vector<ir::Stmt>& block) {
    blocks_.push_back(&block);
    Ref v;
    try {
      v = eval(x);
    } catch (...) {
      blocks_.pop_back();
      throw;
    }
    blocks_.pop_back();
    return v;
  };
  Ref a = eval_in(*e.body, node.then_body);
  Ref b = eval_in(*e.orelse, node.else_body);
  TensorObj* ta = as_tensor(a);
  TensorObj* tb = as_tensor(b);
  const std::string what = "a conditional expression on a loop index";
  if (!ta && !tb) {
    if (is_number(a) && is_number(b) && *py::as_number(a) == *py::as_number(b) && node.then_body.empty() &&
        node.else_body.empty())
      return a;  // both choices are the same number
    nki_error(diag::Code::unsupported_conditional_expression,
              what + " chooses between two Python values (" + a->type_name() + ", " + b->type_name() +
                  "); the choice differs per iteration, so it cannot be a Python value while the kernel is traced",
              "assign into a tile declared before the condition: t = nl.ndarray(...); if i > 0: t[...] = ... "
              "else: t[...] = ...; or iterate with nl.static_range(...) to get Python ints");
  }
  for (TensorObj* t : {ta, tb}) {
    if (t && !ir::is_on_chip(t->buffer()))
      nki_error(diag::Code::unsupported_conditional_expression,
                what + " chooses an HBM tensor; only on-chip tiles and numbers are supported",
                "select the HBM source with an if statement around the nl.load calls");
  }
  for (const Ref& v : {a, b}) {
    if (!as_tensor(v) && !is_number(v))
      nki_error(diag::Code::unsupported_conditional_expression,
                what + " chooses a " + v->type_name() + "; only on-chip tiles and numbers are supported");
  }
  std::vector<int64_t> shape = ta ? ta->shape() : tb->shape();
  DType dtype = ta ? ta->dtype() : tb->dtype();
  if (ta && tb) {
    auto s = broadcast_shapes(ta->shape(), tb->shape());
    if (!s)
      nki_error(diag::Code::unsupported_conditional_expression,
                what + " chooses between tiles of shapes " + shape_str(ta->shape()) + " and " + shape_str(tb->shape()));
    shape = *s;
    dtype = promote(ta->dtype(), tb->dtype());
  }
  // The result tile lives in the enclosing block, so both branches can write it.
  auto res = new_tensor(shape, dtype, ir::Buffer::Sbuf, "");
  auto write_in = [&](const Ref& v, std::vector<ir::Stmt>& block) {
    blocks_.push_back(&block);
    try {
      assign_into(*this, *res, v, std::nullopt, "conditional expression");
    } catch (...) {
      blocks_.pop_back();
      throw;
    }
    blocks_.pop_back();
  };
  write_in(a, node.then_body);
  write_in(b, node.else_body);
  blocks_.back()->push_back(ir::Stmt{std::move(node)});
  last_serial_ = -1;
  warnings_.push_back(make_diagnostic(
      Severity::Warning, diag::Code::loop_index_conditional_expression,
      what + ": the SDK 2.24 documentation shows `if` statements on loop indices but does not say what "
             "neuronxcc does with a conditional expression, which it may reject; simulated per iteration as a "
             "branch that copies the chosen operand into a new tile at this line",
      file(), e.span.begin,
      "to be sure it compiles, write an if statement that assigns into a tile declared before it: "
      "t = nl.ndarray(...); if i > 0: t[...] = a; else: t[...] = b"));
  return res;
}

}  // namespace nki::front
