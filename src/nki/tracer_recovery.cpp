// Going on after an error, to report every independent error of a compile (as clang does).
//
// Granularity: the statements of the kernel function's own body (and of the loops and ifs in
// it). When one raises, its error is recorded, the names it would have bound are bound to values
// that raise an already-reported error when used (so its consequences are not reported again),
// and tracing goes on with the next statement. Errors inside helper functions propagate to the
// kernel statement that called them: continuing inside a helper would invent its return value.
// No recovery inside `try` (the program may handle the error), nor from budget exhaustion.
#include <algorithm>

#include "base/diag_codes.h"
#include "nki/tracer.h"

namespace nki::front {

namespace {

void names_in_target(const py::Expr& e, std::vector<std::string>& out) {
  if (auto* n = py::as<py::Name>(&e)) out.push_back(n->id);
  else if (auto* t = py::as<py::Tuple>(&e))
    for (const py::ExprPtr& x : t->elts) names_in_target(*x, out);
  else if (auto* l = py::as<py::List>(&e))
    for (const py::ExprPtr& x : l->elts) names_in_target(*x, out);
  else if (auto* s = py::as<py::Starred>(&e))
    names_in_target(*s->value, out);
}

// Names a statement (and the blocks nested in it) binds. Bounded by the parser's nesting limit.
void bound_names(const py::Stmt& s, std::vector<std::string>& out);

void bound_names(const py::StmtList& body, std::vector<std::string>& out) {
  for (const py::StmtPtr& s : body) bound_names(*s, out);
}

void bound_names(const py::Stmt& s, std::vector<std::string>& out) {
  if (auto* a = py::as<py::Assign>(&s)) {
    for (const py::ExprPtr& t : a->targets) names_in_target(*t, out);
  } else if (auto* a = py::as<py::AugAssign>(&s)) {
    names_in_target(*a->target, out);
  } else if (auto* a = py::as<py::AnnAssign>(&s)) {
    names_in_target(*a->target, out);
  } else if (s.kind == py::StmtKind::For || s.kind == py::StmtKind::AsyncFor) {
    auto& f = static_cast<const py::For&>(s);
    names_in_target(*f.target, out);
    bound_names(f.body, out);
    bound_names(f.orelse, out);
  } else if (auto* w = py::as<py::While>(&s)) {
    bound_names(w->body, out);
    bound_names(w->orelse, out);
  } else if (auto* i = py::as<py::If>(&s)) {
    bound_names(i->body, out);
    bound_names(i->orelse, out);
  } else if (s.kind == py::StmtKind::With || s.kind == py::StmtKind::AsyncWith) {
    auto& w = static_cast<const py::With&>(s);
    for (const py::withitem& it : w.items)
      if (it.optional_vars) names_in_target(*it.optional_vars, out);
    bound_names(w.body, out);
  } else if (s.kind == py::StmtKind::Try || s.kind == py::StmtKind::TryStar) {
    auto& t = static_cast<const py::Try&>(s);
    bound_names(t.body, out);
    for (const py::excepthandler& h : t.handlers) bound_names(h.body, out);
    bound_names(t.orelse, out);
    bound_names(t.finalbody, out);
  } else if (s.kind == py::StmtKind::FunctionDef || s.kind == py::StmtKind::AsyncFunctionDef) {
    out.push_back(static_cast<const py::FunctionDef&>(s).name);
  } else if (auto* c = py::as<py::ClassDef>(&s)) {
    out.push_back(c->name);
  } else if (auto* im = py::as<py::Import>(&s)) {
    for (const py::alias& a : im->names) {
      std::string n = a.asname.empty() ? a.name.substr(0, a.name.find('.')) : a.asname;
      out.push_back(n);
    }
  } else if (auto* im = py::as<py::ImportFrom>(&s)) {
    for (const py::alias& a : im->names) out.push_back(a.asname.empty() ? a.name : a.asname);
  }
}

}  // namespace

bool Tracer::record_error(Diagnostic d) {
  // An unrolled loop repeats its errors, and a second error at the very expression of a first
  // one follows from it (tiles[i] of an escaped one-element list: then an IndexError).
  for (const Diagnostic& e : errors_)
    if (e.line == d.line && e.col == d.col) return true;
  if (errors_.size() >= kMaxErrors) return false;
  errors_.push_back(std::move(d));
  return true;
}

bool Tracer::recover_statement(const py::Stmt& s, py::PyError& e) {
  if (!tracing_ || call_depth() != 1 || in_try()) return false;
  if (e.code == diag::name(diag::Code::evaluation_budget) || e.code == diag::name(diag::Code::evaluation_memory)) return false;
  if (!e.reported) {
    if (!e.loc.valid()) e.loc = s.span.begin;
    if (!record_error(to_diagnostic(e))) return false;
  }
  std::vector<std::string> names;
  bound_names(s, names);
  for (const std::string& n : names) {
    auto poisoned = std::make_shared<py::LazyErrorObj>();
    poisoned->error.type = "NkiError";
    poisoned->error.code = diag::Code::cascade;
    poisoned->error.message = "'" + n + "' was to be bound by a statement that failed";
    poisoned->error.reported = true;
    poisoned->verbatim = true;
    env_->set_local(n, poisoned);
  }
  return true;
}

}  // namespace nki::front
