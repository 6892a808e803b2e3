// Generic walks over the lang AST for the migration rules.
#include "migrate/rewrite_context.h"

namespace nki::migrate {

using namespace py;

void for_each_child(const Expr* e, const std::function<void(const Expr*)>& f) {
  if (!e) return;
  auto one = [&](const ExprPtr& x) {
    if (x) f(x.get());
  };
  auto all = [&](const ExprList& xs) {
    for (const ExprPtr& x : xs) one(x);
  };
  auto gens = [&](const std::vector<comprehension>& g) {
    for (const comprehension& c : g) {
      one(c.target);
      one(c.iter);
      all(c.ifs);
    }
  };
  switch (e->kind) {
    case ExprKind::BoolOp: all(as<BoolOp>(e)->values); break;
    case ExprKind::NamedExpr: one(as<NamedExpr>(e)->target); one(as<NamedExpr>(e)->value); break;
    case ExprKind::BinOp: one(as<BinOp>(e)->left); one(as<BinOp>(e)->right); break;
    case ExprKind::UnaryOp: one(as<UnaryOp>(e)->operand); break;
    case ExprKind::Lambda: one(as<Lambda>(e)->body); break;
    case ExprKind::IfExp: one(as<IfExp>(e)->test); one(as<IfExp>(e)->body); one(as<IfExp>(e)->orelse); break;
    case ExprKind::Dict: all(as<Dict>(e)->keys); all(as<Dict>(e)->values); break;
    case ExprKind::Set: all(as<Set>(e)->elts); break;
    case ExprKind::ListComp: one(as<ListComp>(e)->elt); gens(as<ListComp>(e)->generators); break;
    case ExprKind::SetComp: one(as<SetComp>(e)->elt); gens(as<SetComp>(e)->generators); break;
    case ExprKind::DictComp:
      one(as<DictComp>(e)->key); one(as<DictComp>(e)->value); gens(as<DictComp>(e)->generators); break;
    case ExprKind::GeneratorExp: one(as<GeneratorExp>(e)->elt); gens(as<GeneratorExp>(e)->generators); break;
    case ExprKind::Await: one(as<Await>(e)->value); break;
    case ExprKind::Yield: one(as<Yield>(e)->value); break;
    case ExprKind::YieldFrom: one(as<YieldFrom>(e)->value); break;
    case ExprKind::Compare: one(as<Compare>(e)->left); all(as<Compare>(e)->comparators); break;
    case ExprKind::Call:
      one(as<Call>(e)->func);
      all(as<Call>(e)->args);
      for (const keyword& k : as<Call>(e)->keywords) one(k.value);
      break;
    case ExprKind::FormattedValue: one(as<FormattedValue>(e)->value); one(as<FormattedValue>(e)->format_spec); break;
    case ExprKind::JoinedStr: all(as<JoinedStr>(e)->values); break;
    case ExprKind::Attribute: one(as<Attribute>(e)->value); break;
    case ExprKind::Subscript: one(as<Subscript>(e)->value); one(as<Subscript>(e)->slice); break;
    case ExprKind::Starred: one(as<Starred>(e)->value); break;
    case ExprKind::List: all(as<List>(e)->elts); break;
    case ExprKind::Tuple: all(as<Tuple>(e)->elts); break;
    case ExprKind::Slice: one(as<Slice>(e)->lower); one(as<Slice>(e)->upper); one(as<Slice>(e)->step); break;
    default: break;
  }
}

void for_each_expr(const Expr* e, const std::function<void(const Expr*)>& f) {
  if (!e) return;
  f(e);
  for_each_child(e, [&](const Expr* x) { for_each_expr(x, f); });
}

void for_each_stmt_expr(const Stmt* s, const std::function<void(const Expr*)>& f) {
  auto one = [&](const ExprPtr& x) {
    if (x) f(x.get());
  };
  switch (s->kind) {
    case StmtKind::Return: one(as<Return>(s)->value); break;
    case StmtKind::Delete: for (const ExprPtr& x : as<Delete>(s)->targets) one(x); break;
    case StmtKind::Assign:
      for (const ExprPtr& x : as<Assign>(s)->targets) one(x);
      one(as<Assign>(s)->value);
      break;
    case StmtKind::AugAssign: one(as<AugAssign>(s)->target); one(as<AugAssign>(s)->value); break;
    case StmtKind::AnnAssign: one(as<AnnAssign>(s)->target); one(as<AnnAssign>(s)->value); break;
    case StmtKind::For: one(as<For>(s)->target); one(as<For>(s)->iter); break;
    case StmtKind::While: one(as<While>(s)->test); break;
    case StmtKind::If: one(as<If>(s)->test); break;
    case StmtKind::With:
      for (const withitem& w : as<With>(s)->items) {
        one(w.context_expr);
        one(w.optional_vars);
      }
      break;
    case StmtKind::Assert: one(as<Assert>(s)->test); one(as<Assert>(s)->msg); break;
    case StmtKind::Expr: one(as<ExprStmt>(s)->value); break;
    default: break;
  }
}

std::string dotted_name(const Expr* e) {
  if (auto* n = as<Name>(e)) return n->id;
  if (auto* a = as<Attribute>(e)) {
    std::string base = dotted_name(a->value.get());
    return base.empty() ? "" : base + "." + a->attr;
  }
  return "";
}

}  // namespace nki::migrate
