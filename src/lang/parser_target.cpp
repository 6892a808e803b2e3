// Assignment, for, with and del targets: set Store/Del contexts or explain why an expression is
// not a valid target (messages follow CPython's "cannot assign to ..." wording).
#include "lang/parser_impl.h"

namespace nki::py {

namespace {

const char* expr_name(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Attribute: return "attribute";
    case ExprKind::Subscript: return "subscript";
    case ExprKind::Starred: return "starred";
    case ExprKind::Name: return "name";
    case ExprKind::List: return "list";
    case ExprKind::Tuple: return "tuple";
    case ExprKind::Lambda: return "lambda";
    case ExprKind::Call: return "function call";
    case ExprKind::BoolOp: case ExprKind::BinOp: case ExprKind::UnaryOp: return "expression";
    case ExprKind::GeneratorExp: return "generator expression";
    case ExprKind::Yield: case ExprKind::YieldFrom: return "yield expression";
    case ExprKind::Await: return "await expression";
    case ExprKind::ListComp: return "list comprehension";
    case ExprKind::SetComp: return "set comprehension";
    case ExprKind::DictComp: return "dict comprehension";
    case ExprKind::Dict: return "dict literal";
    case ExprKind::Set: return "set display";
    case ExprKind::JoinedStr: case ExprKind::FormattedValue: return "f-string expression";
    case ExprKind::Constant: {
      auto& c = static_cast<const Constant&>(e);
      if (c.value_kind == Constant::Kind::None) return "None";
      if (c.value_kind == Constant::Kind::Bool) return c.bool_value ? "True" : "False";
      if (c.value_kind == Constant::Kind::Ellipsis) return "ellipsis";
      return "literal";
    }
    case ExprKind::Compare: return "comparison";
    case ExprKind::IfExp: return "conditional expression";
    case ExprKind::NamedExpr: return "named expression";
    case ExprKind::Slice: return "slice";
  }
  return "expression";
}

}  // namespace

void Parser::set_context(Expr& e, ExprContext ctx, const char* stmt_kind) {
  (void)stmt_kind;
  switch (e.kind) {
    case ExprKind::Name: static_cast<Name&>(e).ctx = ctx; return;
    case ExprKind::Attribute: static_cast<Attribute&>(e).ctx = ctx; return;
    case ExprKind::Subscript: static_cast<Subscript&>(e).ctx = ctx; return;
    case ExprKind::Starred: {
      if (ctx == ExprContext::Del) error(e.span.begin, "cannot delete starred");
      auto& s = static_cast<Starred&>(e);
      s.ctx = ctx;
      set_context(*s.value, ctx, stmt_kind);
      return;
    }
    case ExprKind::Tuple: {
      auto& t = static_cast<Tuple&>(e);
      t.ctx = ctx;
      for (auto& el : t.elts) set_context(*el, ctx, stmt_kind);
      return;
    }
    case ExprKind::List: {
      auto& l = static_cast<List&>(e);
      l.ctx = ctx;
      for (auto& el : l.elts) set_context(*el, ctx, stmt_kind);
      return;
    }
    default:
      break;
  }
  std::string what = expr_name(e);
  if (ctx == ExprContext::Del) error(e.span.begin, "cannot delete " + what);
  error(e.span.begin, "cannot assign to " + what);
}

}  // namespace nki::py
