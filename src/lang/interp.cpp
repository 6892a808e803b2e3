#include "lang/interp.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>

#include "base/diag_codes.h"
#include "base/source_registry.h"
#include "lang/package_import.h"
#include "lang/parser.h"
#include "lang/stdlib_modules.h"

namespace nki::py {

namespace {

// Names bound by a statement, used to make failed module-level statements lazy.
void bound_names(const Expr* target, std::vector<std::string>& out) {
  if (!target) return;
  if (auto* n = as<Name>(target)) out.push_back(n->id);
  else if (auto* t = as<Tuple>(target)) for (auto& e : t->elts) bound_names(e.get(), out);
  else if (auto* l = as<List>(target)) for (auto& e : l->elts) bound_names(e.get(), out);
  else if (auto* s = as<Starred>(target)) bound_names(s->value.get(), out);
}

void stmt_bound_names(const Stmt& s, std::vector<std::string>& out) {
  switch (s.kind) {
    case StmtKind::Assign:
      for (auto& t : static_cast<const Assign&>(s).targets) bound_names(t.get(), out);
      break;
    case StmtKind::AnnAssign:  // `x: T` alone binds nothing
      if (static_cast<const AnnAssign&>(s).value) bound_names(static_cast<const AnnAssign&>(s).target.get(), out);
      break;
    case StmtKind::AugAssign: bound_names(static_cast<const AugAssign&>(s).target.get(), out); break;
    case StmtKind::FunctionDef:
    case StmtKind::AsyncFunctionDef: out.push_back(static_cast<const FunctionDef&>(s).name); break;
    case StmtKind::ClassDef: out.push_back(static_cast<const ClassDef&>(s).name); break;
    case StmtKind::Import:
      for (auto& a : static_cast<const Import&>(s).names) {
        std::string n = a.asname.empty() ? a.name.substr(0, a.name.find('.')) : a.asname;
        out.push_back(n);
      }
      break;
    case StmtKind::ImportFrom:
      for (auto& a : static_cast<const ImportFrom&>(s).names)
        out.push_back(a.asname.empty() ? a.name : a.asname);
      break;
    case StmtKind::For:
    case StmtKind::AsyncFor: bound_names(static_cast<const For&>(s).target.get(), out); break;
    default: break;
  }
}

struct ReturnSignal {};

}  // namespace

Interp::Interp(SourceFilePtr file) : file_(std::move(file)) {
  globals_ = std::make_shared<Env>();
  globals_->is_module = true;
  env_ = globals_;
  builtins_ = std::make_shared<ModuleObj>("builtins");
  deadline_ = CpuDeadline(limits_.max_seconds);
  install_python_builtins(*this);
  globals_->set_local("__name__", make_str("__nki_kernel_module__"));
  // Imports of the kernel's own package (lang/package_import.h), when the drop-in enabled them.
  if (package_imports_enabled() && file_) {
    std::string package;
    if (auto st = make_package_state(file_->path(), package)) {
      globals_->set_local(kPackageStateName, st);
      globals_->set_local("__package__", make_str(package));
    }
  }
}

// A function holds the environment it was defined in (FunctionObj::closure, ::globals), which
// usually binds the function itself: a reference cycle. Every module-level function closes such
// a cycle through the module environment, and a helper defined inside the kernel one through
// the kernel's frame, so each evaluation's module (its functions, the NKI modules it imported,
// its constants) outlived the Interp: a leak per compile in processes that compile many kernels
// (the Python module, the fuzzer). No object can run Python code once its Interp is gone, so
// unbinding the names of every environment a function captured, and of the module, breaks all
// cycles that pass through an environment. (A container that holds itself, `a.append(a)`, is a
// cycle without one and still leaks.)
Interp::~Interp() {
  for (const std::weak_ptr<Env>& w : closure_envs_)
    if (EnvPtr env = w.lock()) env->vars.clear();
  // Modules imported from the kernel's package hold the same kind of cycles.
  if (globals_)
    if (Ref* st = globals_->lookup_local(kPackageStateName))
      if (auto* ps = cast<PackageState>(*st))
        for (PackageState::Loaded& m : ps->loaded)
          if (m.env) m.env->vars.clear();
  if (globals_) globals_->vars.clear();
}

void Interp::note_closure_env(const EnvPtr& env) {
  // Functions made in a loop share one environment: record it once.
  if (!closure_envs_.empty() && !closure_envs_.back().owner_before(env) && !env.owner_before(closure_envs_.back()))
    return;
  if (closure_envs_.size() >= closure_envs_compact_at_) {
    std::erase_if(closure_envs_, [](const std::weak_ptr<Env>& w) { return w.expired(); });
    closure_envs_compact_at_ = std::max<size_t>(64, 2 * closure_envs_.size());
  }
  closure_envs_.push_back(env);
}

Ref Interp::builtin(const std::string& name) const { return builtins_->find(name); }
void Interp::set_builtin(const std::string& name, Ref v) { builtins_->set(name, std::move(v)); }

void Interp::tick() {
  if (++steps_ > limits_.max_steps)
    raise_code(diag::Code::evaluation_budget, "kernel evaluation exceeded its step budget (" +
                                        std::to_string(limits_.max_steps) + " steps)",
               "avoid very long compile-time Python loops; use nl.affine_range for device loops");
  // The budget is checked at every step, not every few thousand: one step can take a second (a
  // string operation on hundreds of MiB, sorting 10**7 items), and 4096 such steps between
  // checks overran a 20 s budget by an hour. CpuDeadline makes a check a few nanoseconds.
  // A budget of 0 (or less) means no time at all, as it always has here (callers lower the
  // budget, they never lift it); CpuDeadline itself reads <= 0 as unlimited.
  const double want = limits_.max_seconds > 0 ? limits_.max_seconds : 1e-9;
  if (deadline_.budget_seconds() != want) deadline_.set_budget(want);
  if (deadline_.expired()) {
    char secs[32];
    std::snprintf(secs, sizeof secs, "%g", limits_.max_seconds);
    raise_code(diag::Code::evaluation_budget,
               std::string("kernel evaluation exceeded its time budget (") + secs + " s of CPU time)",
               "avoid very long compile-time Python work; use nl.affine_range for device loops");
  }
}

Diagnostic Interp::to_diagnostic(const PyError& e) const {
  std::string code = e.code.empty() ? e.type : e.code;
  std::string msg = e.message;
  if (e.code.empty() && !e.type.empty()) msg = e.type + ": " + e.message;
  return make_diagnostic(Severity::Error, code, msg, file_, e.loc, e.hint);
}

// ------------------------------------------------------------------ module loading
void Interp::load_module(const Module& m) {
  env_ = globals_;
  for (const StmtPtr& s : m.body) {
    try {
      Flow f = exec(*s);
      (void)f;
    } catch (PyError& err) {
      // A spent budget is not a module-level failure to defer: nothing more can be evaluated.
      if (err.code == diag::name(diag::Code::evaluation_budget)) throw;
      if (!err.loc.valid()) err.loc = s->span.begin;
      std::vector<std::string> names;
      stmt_bound_names(*s, names);
      for (const std::string& n : names) {
        auto lazy = std::make_shared<LazyErrorObj>();
        lazy->error = err;
        globals_->set_local(n, lazy);
      }
    }
  }
}

Ref Interp::import_module(const std::string& dotted) {
  if (dotted == "math") return make_math_module();
  if (dotted == "functools") return make_functools_module();
  if (dotted == "operator") return make_operator_module();
  if (dotted == "dataclasses") return make_dataclasses_module();
  // A module of the kernel's own package (lang/package_import.h), run in this evaluator under
  // the same budgets; null (a placeholder) when there is no such file.
  Ref* state_ref = globals_->lookup_local(kPackageStateName);
  auto st = state_ref ? std::dynamic_pointer_cast<PackageState>(*state_ref) : nullptr;
  if (!st) return nullptr;
  for (const PackageState::Loaded& m : st->loaded)
    if (m.name == dotted) {
      if (!m.obj) raise("ImportError", "cannot import '" + dotted + "': circular import");
      return m.obj;
    }
  // Parent packages run first, as in Python (a parent folder without __init__.py is fine).
  size_t dot = dotted.rfind('.');
  Ref parent = dot == std::string::npos ? nullptr : import_module(dotted.substr(0, dot));
  bool is_package = false;
  std::string path = find_package_module(*st, dotted, is_package);
  if (path.empty()) return nullptr;
  if (st->loaded.size() >= kMaxPackageModules)
    raise("ImportError", "too many modules imported from the kernel's package");
  SourceFilePtr file;
  try {
    file = load_source_file(path);
  } catch (const IoError& e) {
    raise("ImportError", "cannot import '" + dotted + "': " + e.what());
  }
  // Its diagnostics name it (base/source_registry.h). The same module text seen by an earlier
  // compile keeps its first registered object, which the lexer must see to encode locations.
  if (int id = register_source_file(file))
    if (SourceFilePtr same = registered_source_file(id)) file = same;
  auto ast = std::make_shared<Module>(parse_module(file));  // a syntax error is fatal, as in Python
  auto env = std::make_shared<Env>();
  env->is_module = true;
  env->set_local("__name__", make_str(dotted));
  env->set_local("__package__", make_str(is_package ? dotted : (dot == std::string::npos ? "" : dotted.substr(0, dot))));
  env->set_local(kPackageStateName, st);
  st->loaded.push_back({dotted, ast, env, nullptr});
  size_t slot = st->loaded.size() - 1;
  EnvPtr saved_globals = globals_, saved_env = env_;
  globals_ = env;
  try {
    load_module(*ast);
  } catch (...) {
    globals_ = saved_globals;
    env_ = saved_env;
    throw;
  }
  globals_ = saved_globals;
  env_ = saved_env;
  auto obj = std::make_shared<ModuleObj>(dotted);
  for (const auto& [k, v] : env->vars)
    if (k != kPackageStateName) obj->set(k, v);
  st->loaded[slot].obj = obj;
  if (auto* pm = cast<ModuleObj>(parent)) pm->set(dotted.substr(dot + 1), obj);
  return obj;
}

// ------------------------------------------------------------------ names
Ref Interp::lookup_name(const std::string& name, SourceLoc loc) {
  Ref found;
  bool global_decl =
      std::find(env_->globals.begin(), env_->globals.end(), name) != env_->globals.end();
  if (!global_decl) {
    for (Env* e = env_.get(); e; e = e->parent.get()) {
      if (Ref* r = e->lookup_local(name)) {
        found = *r;
        break;
      }
    }
  }
  if (!found) {
    if (Ref* r = globals_->lookup_local(name)) found = *r;
  }
  if (!found) found = builtins_->find(name);
  if (!found) {
    PyError e;
    e.type = "NameError";
    e.message = "name '" + name + "' is not defined";
    e.loc = loc;
    throw e;
  }
  if (auto* lazy = cast<LazyErrorObj>(found)) {
    PyError e = lazy->error;
    if (lazy->verbatim) {
      e.loc = loc;
      throw e;
    }
    e.message = "'" + name + "' could not be evaluated when the file was loaded: " +
                (e.code.empty() ? e.type + ": " : "") + e.message;
    if (e.code.empty()) e.code = e.type;
    throw e;
  }
  return found;
}

Ref Interp::current_binding(const std::string& name) {
  bool global_decl =
      std::find(env_->globals.begin(), env_->globals.end(), name) != env_->globals.end();
  if (!global_decl)
    for (Env* e = env_.get(); e; e = e->parent.get())
      if (Ref* r = e->lookup_local(name)) return *r;
  if (Ref* r = globals_->lookup_local(name)) return *r;
  return nullptr;
}

void Interp::bind_name(const std::string& name, Ref value) {
  value = transform_bind(name, std::move(value));
  on_bind(name, value);
  if (std::find(env_->globals.begin(), env_->globals.end(), name) != env_->globals.end()) {
    globals_->set_local(name, std::move(value));
    return;
  }
  if (std::find(env_->nonlocals.begin(), env_->nonlocals.end(), name) != env_->nonlocals.end()) {
    for (Env* e = env_->parent.get(); e; e = e->parent.get()) {
      if (Ref* r = e->lookup_local(name)) {
        *r = std::move(value);
        return;
      }
    }
    raise("SyntaxError", "no binding for nonlocal '" + name + "' found");
  }
  env_->set_local(name, std::move(value));
}

// ------------------------------------------------------------------ statements
Flow Interp::exec_block(const StmtList& body) {
  for (const StmtPtr& s : body) {
    Flow f;
    try {
      f = exec(*s);
    } catch (PyError& e) {
      if (!recover_statement(*s, e)) throw;
      continue;
    }
    if (f != Flow::Normal) return f;
  }
  return Flow::Normal;
}

Flow Interp::exec(const Stmt& s) {
  tick();
  SourceLoc saved = cur_loc_;
  cur_loc_ = s.span.begin;
  try {
    Flow result = Flow::Normal;
    switch (s.kind) {
      case StmtKind::Expr: eval(*static_cast<const ExprStmt&>(s).value); break;
      case StmtKind::Assign: {
        auto& a = static_cast<const Assign&>(s);
        Ref v = eval(*a.value);
        for (const ExprPtr& t : a.targets) assign(*t, v);
        break;
      }
      case StmtKind::AnnAssign: exec_ann_assign(static_cast<const AnnAssign&>(s)); break;
      case StmtKind::AugAssign: exec_aug_assign(static_cast<const AugAssign&>(s)); break;
      case StmtKind::For:
      case StmtKind::AsyncFor: result = exec_for(static_cast<const For&>(s)); break;
      case StmtKind::While: result = exec_while(static_cast<const While&>(s)); break;
      case StmtKind::If: result = exec_if(static_cast<const If&>(s)); break;
      case StmtKind::FunctionDef:
      case StmtKind::AsyncFunctionDef: exec_function_def(static_cast<const FunctionDef&>(s)); break;
      case StmtKind::ClassDef: exec_class_def(static_cast<const ClassDef&>(s)); break;
      case StmtKind::Return: {
        auto& r = static_cast<const Return&>(s);
        return_value_ = r.value ? eval(*r.value) : none();
        last_return_loc_ = r.value ? r.value->span.begin : r.span.begin;
        result = Flow::Return;
        break;
      }
      case StmtKind::Pass: break;
      case StmtKind::Break: result = Flow::Break; break;
      case StmtKind::Continue: result = Flow::Continue; break;
      case StmtKind::Import: exec_import(static_cast<const Import&>(s)); break;
      case StmtKind::ImportFrom: exec_import_from(static_cast<const ImportFrom&>(s)); break;
      case StmtKind::Global:
        for (auto& n : static_cast<const Global&>(s).names) env_->globals.push_back(n);
        break;
      case StmtKind::Nonlocal:
        for (auto& n : static_cast<const Nonlocal&>(s).names) env_->nonlocals.push_back(n);
        break;
      case StmtKind::Assert: {
        auto& a = static_cast<const Assert&>(s);
        if (!truthy(eval(*a.test))) {
          PyError e;
          e.type = "AssertionError";
          e.message = a.msg ? eval(*a.msg)->str() : "assertion failed";
          e.loc = a.span.begin;
          throw e;
        }
        break;
      }
      case StmtKind::Delete: exec_delete(static_cast<const Delete&>(s)); break;
      case StmtKind::Raise: {
        auto& r = static_cast<const Raise&>(s);
        PyError e;
        if (!r.exc) {
          if (handling_.empty()) raise("RuntimeError", "No active exception to reraise");
          throw handling_.back();
        }
        Ref exc = eval(*r.exc);
        if (auto* cls = cast<ExcClassObj>(exc)) {
          CallArgs none_args;
          exc = cls->call(*this, none_args);
        }
        auto* eo = cast<ExcObj>(exc);
        if (!eo) raise("TypeError", "exceptions must derive from BaseException");
        e.type = eo->cls->name;
        e.message = eo->message;
        e.value = exc;
        e.loc = r.span.begin;
        throw e;
      }
      case StmtKind::Try:
      case StmtKind::TryStar: result = exec_try(static_cast<const Try&>(s)); break;
      case StmtKind::With:
      case StmtKind::AsyncWith: result = exec_with(static_cast<const With&>(s)); break;
      case StmtKind::Match:
        raise_code(diag::Code::unsupported_syntax, "match statements are not supported inside kernels");
    }
    cur_loc_ = saved;
    return result;
  } catch (PyError& e) {
    if (!e.loc.valid()) e.loc = s.span.begin;
    cur_loc_ = saved;
    throw;
  }
}

Flow Interp::exec_for(const For& s) {
  Ref iterable = eval(*s.iter);
  if (Ref adapted = adapt_for_iterable(s, iterable)) iterable = adapted;
  if (auto* drv = dynamic_cast<LoopDriver*>(iterable.get())) return drv->run_loop(*this, s);
  std::vector<Ref> items = iterable->iterate(*this);
  for (const Ref& item : items) {
    assign(*s.target, item);
    Flow f = exec_block(s.body);
    if (f == Flow::Break) return Flow::Normal;
    if (f == Flow::Return) return f;
  }
  return exec_block(s.orelse);
}

Flow Interp::exec_while(const While& s) {
  while (true) {
    Ref t = eval(*s.test);
    if (auto* drv = dynamic_cast<BranchDriver*>(t.get())) {
      (void)drv;
      raise_code(diag::Code::err_dynamic_control_flow_not_supported,
                 "a while loop condition must be a compile-time value",
                 "use nl.sequential_range / nl.affine_range for device loops");
    }
    if (!truthy_at(t, *s.test)) break;
    Flow f = exec_block(s.body);
    if (f == Flow::Break) return Flow::Normal;
    if (f == Flow::Return) return f;
  }
  return exec_block(s.orelse);
}

// Truth value of a condition; errors point at the condition expression.
bool Interp::truthy_at(const Ref& v, const Expr& test) {
  try {
    return truthy(v);
  } catch (PyError& e) {
    if (!e.loc.valid()) e.loc = test.span.begin;
    throw;
  }
}

Flow Interp::exec_if(const If& s) {
  Ref t = eval(*s.test);
  if (auto* drv = dynamic_cast<BranchDriver*>(t.get())) {
    try {
      return drv->run_if(*this, s);
    } catch (PyError& e) {
      // errors about the condition itself point at it; errors from the branches keep theirs
      if (!e.loc.valid()) e.loc = s.test->span.begin;
      throw;
    }
  }
  return truthy_at(t, *s.test) ? exec_block(s.body) : exec_block(s.orelse);
}

Flow Interp::exec_try(const Try& s) {
  Flow result = Flow::Normal;
  bool finally_done = false;
  try {
    try {
      struct TryDepth {
        int& d;
        explicit TryDepth(int& x) : d(x) { ++d; }
        ~TryDepth() { --d; }
      } in_body{try_depth_};
      result = exec_block(s.body);
      if (result == Flow::Normal) result = exec_block(s.orelse);
    } catch (PyError& err) {
      // NKI compile errors are not Python exceptions a kernel can catch.
      if (!err.code.empty() && err.type == "NkiError") throw;
      bool handled = false;
      for (const excepthandler& h : s.handlers) {
        bool match = !h.type;
        if (h.type) {
          Ref t = eval(*h.type);
          std::vector<Ref> types;
          if (auto* tup = cast<TupleObj>(t)) types = tup->items; else types.push_back(t);
          for (const Ref& ty : types) {
            if (auto* ec = cast<ExcClassObj>(ty)) {
              if (ec->name == "Exception" || ec->name == "BaseException" || err.type == ec->name) match = true;
              else if (Ref known = builtin(err.type)) {
                if (auto* kc = cast<ExcClassObj>(known); kc && kc->is_subclass_of(ec->name)) match = true;
              }
            }
          }
        }
        if (!match) continue;
        if (!h.name.empty()) {
          Ref v = err.value;
          if (!v) {
            auto cls = cast<ExcClassObj>(builtin(err.type));
            auto eo = std::make_shared<ExcObj>();
            eo->cls = cls ? std::static_pointer_cast<ExcClassObj>(builtin(err.type))
                          : std::make_shared<ExcClassObj>(err.type);
            eo->message = err.message;
            v = eo;
          }
          bind_name(h.name, v);
        }
        handling_.push_back(err);
        try {
          result = exec_block(h.body);
        } catch (...) {
          handling_.pop_back();
          throw;
        }
        handling_.pop_back();
        handled = true;
        break;
      }
      if (!handled) throw;
    }
  } catch (PyError&) {
    finally_done = true;
    Flow f = exec_block(s.finalbody);
    if (f != Flow::Normal) return f;
    throw;
  }
  if (!finally_done) {
    Flow f = exec_block(s.finalbody);
    if (f != Flow::Normal) return f;
  }
  return result;
}

Flow Interp::exec_with(const With& s) {
  // Context managers inside kernels (e.g. ncc.no_reorder()) have no numeric effect: evaluate the
  // expression, bind the target to it, run the body.
  for (const withitem& item : s.items) {
    Ref ctx = eval(*item.context_expr);
    if (item.optional_vars) assign(*item.optional_vars, ctx);
  }
  return exec_block(s.body);
}

void Interp::exec_import(const Import& s) {
  for (const alias& a : s.names) {
    Ref mod = import_module(a.name);
    if (!mod) mod = std::make_shared<PlaceholderObj>(a.name);
    if (!a.asname.empty()) {
      bind_name(a.asname, mod);
    } else {
      // `import a.b.c` binds `a`; resolve the top package.
      std::string top = a.name.substr(0, a.name.find('.'));
      Ref topmod = import_module(top);
      if (!topmod) topmod = std::make_shared<PlaceholderObj>(top);
      bind_name(top, topmod);
    }
  }
}

void Interp::exec_import_from(const ImportFrom& s) {
  // Relative imports resolve within the kernel's package (lang/package_import.h); without
  // package imports they bind placeholders, as unknown modules do.
  bool in_package = globals_->lookup_local(kPackageStateName) != nullptr;
  std::string module = s.module;
  if (s.level > 0 && in_package) {
    std::string package;
    if (Ref* p = globals_->lookup_local("__package__"))
      if (auto* str = cast<StrObj>(*p)) package = str->value;
    module = absolute_import_name(package, s.module, s.level);
  }
  Ref mod = s.level == 0 || in_package ? import_module(module) : nullptr;
  if (s.level > 0 && in_package && !mod)
    raise("ImportError", "No module named '" + module + "'");
  for (const alias& a : s.names) {
    std::string bind = a.asname.empty() ? a.name : a.asname;
    if (a.name == "*") {
      // `from .helpers import *` binds the public names of the kernel's own module.
      if (auto* m = cast<ModuleObj>(mod); m && s.level > 0)
        for (const auto& [k, v] : m->attrs)
          if (!k.empty() && k[0] != '_') bind_name(k, v);
      continue;
    }
    Ref v;
    if (mod && !cast<PlaceholderObj>(mod)) {
      if (auto* m = cast<ModuleObj>(mod)) v = m->find(a.name);
      if (!v) v = import_module(module + "." + a.name);
    }
    if (!v && s.level > 0 && in_package)
      raise("ImportError", "cannot import name '" + a.name + "' from '" + module + "'");
    if (!v) v = std::make_shared<PlaceholderObj>(s.module + "." + a.name);
    bind_name(bind, v);
  }
}

void Interp::exec_function_def(const FunctionDef& s) {
  Ref fn = make_function(&s, nullptr);
  auto* f = cast<FunctionObj>(fn);
  // Decorators apply bottom-up; keep the evaluated objects so the NKI layer can see @nki.jit.
  std::vector<Ref> decs;
  for (const ExprPtr& d : s.decorator_list) decs.push_back(eval(*d));
  f->decorators = decs;
  Ref result = fn;
  for (auto it = decs.rbegin(); it != decs.rend(); ++it) {
    Ref decorated;
    try {
      CallArgs a;
      a.pos.push_back(result);
      a.loc = s.span.begin;
      decorated = (*it)->call(*this, a);
    } catch (PyError& e) {
      // An unknown decorator (placeholder) must not break loading; keep the plain function.
      if (e.code == diag::name(diag::Code::unavailable_module)) decorated = result;
      else throw;
    }
    result = decorated;
  }
  bind_name(s.name, result);
}

// PEP 526 as CPython runs it: the value is evaluated, then assigned; the annotation is
// evaluated at module and class level only, never for a function's local variables (unless
// checks_local_annotations); `target: T` with no value binds nothing, but an attribute or
// subscript target still evaluates its object (and index).
void Interp::exec_ann_assign(const AnnAssign& a) {
  const bool in_function = !env_->is_module && !env_->is_class_body;
  if (!a.value) {
    if (auto* at = as<Attribute>(a.target.get())) {
      eval(*at->value);
    } else if (auto* sub = as<Subscript>(a.target.get())) {
      eval(*sub->value);
      if (!as<Slice>(sub->slice.get())) eval(*sub->slice);
    }
    if (!in_function) check_annotation(a, nullptr);
    return;
  }
  Ref v = eval(*a.value);
  if (!in_function || checks_local_annotations()) check_annotation(a, v);
  assign(*a.target, v);
}

void Interp::check_annotation(const AnnAssign& a, const Ref& v) {
  // An annotation that fails to evaluate is ignored: nothing reads it at runtime, and a
  // checker that cannot prove the kernel wrong does not reject it.
  Ref ann;
  try {
    ann = eval(*a.annotation);
  } catch (PyError&) {
    return;
  }
  if (!ann || !v) return;
  // Objects that check what is assigned under them (nt.tensor[...] checks shapes) implement
  // __annotation_check__.
  Ref checker;
  try {
    checker = ann->getattr(*this, "__annotation_check__");
  } catch (PyError&) {
    return;
  }
  if (!checker) return;
  CallArgs ca;
  ca.pos.push_back(v);
  ca.loc = a.value->span.begin;
  try {
    checker->call(*this, ca);
  } catch (PyError& e) {
    e.loc = a.value->span.begin;
    throw;
  }
}

void Interp::exec_class_def(const ClassDef& s) {
  auto cls = std::make_shared<ClassObj>();
  cls->name = s.name;
  for (const ExprPtr& b : s.bases) {
    Ref base = eval(*b);
    cls->bases.push_back(base);
  }
  auto class_env = std::make_shared<Env>(env_);
  class_env->is_class_body = true;
  EnvPtr saved = env_;
  env_ = class_env;
  try {
    exec_block(s.body);
  } catch (...) {
    env_ = saved;
    throw;
  }
  env_ = saved;
  for (auto& [k, v] : class_env->vars) cls->attrs.emplace_back(k, v);
  for (const StmtPtr& st : s.body)
    if (st->kind == StmtKind::AnnAssign)
      if (auto* n = as<Name>(static_cast<const AnnAssign&>(*st).target.get())) cls->annotations.push_back(n->id);
  // Class decorators apply bottom-up like function decorators; an unknown (placeholder)
  // decorator keeps the plain class. @dataclasses.dataclass generates the __init__.
  Ref result = cls;
  for (auto it = s.decorator_list.rbegin(); it != s.decorator_list.rend(); ++it) {
    try {
      Ref dec = eval(**it);
      CallArgs a;
      a.pos.push_back(result);
      a.loc = s.span.begin;
      result = dec->call(*this, a);
    } catch (PyError& e) {
      if (e.code != diag::name(diag::Code::unavailable_module)) throw;
    }
  }
  bind_name(s.name, result);
}

// `cur op= rhs` for a value already fetched from its target: Python tries the in-place form first
// (__iadd__ and friends: tensor objects update themselves, a list extends itself) and falls back
// to the binary operator. The caller stores the result back into the target, as Python does.
Ref Interp::augmented_value(Operator op, const Ref& cur, const Ref& rhs) {
  if (Ref r = cur->inplace(*this, op, rhs)) return r;
  Ref v = binary(op, cur, rhs);
  if (auto* lst = cast<ListObj>(cur); lst && op == Operator::Add) {
    lst->items = cast<ListObj>(v)->items;  // list += iterable extends in place
    return cur;
  }
  return v;
}

void Interp::exec_aug_assign(const AugAssign& s) {
  if (auto* n = as<Name>(s.target.get())) {
    Ref cur = lookup_name(n->id, n->span.begin);
    Ref rhs = eval(*s.value);
    Ref v = augmented_value(s.op, cur, rhs);
    if (v != cur || !cast<ListObj>(cur)) bind_name(n->id, v);
    return;
  }
  if (auto* sub = as<Subscript>(s.target.get())) {
    Ref obj = eval(*sub->value);
    Ref key = eval_subscript_key(*sub->slice);
    Ref rhs = eval(*s.value);
    SourceLoc saved = cur_loc_;
    cur_loc_ = sub->span.begin;
    bool done;
    try {
      // A tensor target (`t[i] += v`) updates the addressed region itself.
      done = obj->setitem_inplace(*this, key, s.op, rhs);
    } catch (...) {
      cur_loc_ = saved;
      throw;
    }
    cur_loc_ = saved;
    if (done) return;
    // A container element (`accs[i] += nc_matmul(...)` on a list of PSUM tiles): the element's own
    // in-place operator runs, exactly as for a plain name, then the item is stored back.
    Ref cur = obj->getitem(*this, key);
    obj->setitem(*this, key, augmented_value(s.op, cur, rhs));
    return;
  }
  if (auto* at = as<Attribute>(s.target.get())) {
    Ref obj = eval(*at->value);
    Ref cur = obj->getattr(*this, at->attr);
    obj->setattr(*this, at->attr, augmented_value(s.op, cur, eval(*s.value)));
    return;
  }
  raise("SyntaxError", "illegal expression for augmented assignment");
}

void Interp::exec_delete(const Delete& s) {
  for (const ExprPtr& t : s.targets) {
    if (auto* n = as<Name>(t.get())) {
      if (!env_->erase_local(n->id)) raise("NameError", "name '" + n->id + "' is not defined");
    } else if (auto* sub = as<Subscript>(t.get())) {
      Ref obj = eval(*sub->value);
      Ref key = eval_subscript_key(*sub->slice);
      if (auto* d = cast<DictObj>(obj)) {
        auto it = std::find_if(d->entries.begin(), d->entries.end(),
                               [&](auto& e) { return e.first->equals(*key); });
        if (it == d->entries.end()) raise("KeyError", key->repr());
        d->entries.erase(it);
      } else if (auto* l = cast<ListObj>(obj)) {
        auto i = as_int(key);
        if (!i) raise("TypeError", "list indices must be integers");
        int64_t n = static_cast<int64_t>(l->items.size());
        int64_t idx = *i < 0 ? *i + n : *i;
        if (idx < 0 || idx >= n) raise("IndexError", "list assignment index out of range");
        l->items.erase(l->items.begin() + idx);
      } else {
        raise("TypeError", "'" + obj->type_name() + "' object doesn't support item deletion");
      }
    }
  }
}

// ------------------------------------------------------------------ assignment
std::vector<Ref> Interp::unpack(const Ref& value, size_t n, bool has_star, size_t star_index) {
  std::vector<Ref> items = value->iterate(*this);
  if (!has_star) {
    if (items.size() != n) {
      if (items.size() > n)
        raise("ValueError", "too many values to unpack (expected " + std::to_string(n) + ")");
      raise("ValueError", "not enough values to unpack (expected " + std::to_string(n) + ", got " +
                              std::to_string(items.size()) + ")");
    }
    return items;
  }
  if (items.size() < n - 1) raise("ValueError", "not enough values to unpack");
  std::vector<Ref> out;
  size_t after = n - 1 - star_index;
  for (size_t i = 0; i < star_index; ++i) out.push_back(items[i]);
  std::vector<Ref> mid(items.begin() + star_index, items.end() - after);
  out.push_back(make_list(mid));
  for (size_t i = items.size() - after; i < items.size(); ++i) out.push_back(items[i]);
  return out;
}

void Interp::assign(const Expr& target, Ref value) {
  switch (target.kind) {
    case ExprKind::Name: bind_name(static_cast<const Name&>(target).id, std::move(value)); return;
    case ExprKind::Tuple:
    case ExprKind::List: {
      const ExprList& elts = target.kind == ExprKind::Tuple ? static_cast<const Tuple&>(target).elts
                                                           : static_cast<const List&>(target).elts;
      bool has_star = false;
      size_t star = 0;
      for (size_t i = 0; i < elts.size(); ++i)
        if (elts[i]->kind == ExprKind::Starred) {
          has_star = true;
          star = i;
        }
      std::vector<Ref> vals = unpack(value, elts.size(), has_star, star);
      for (size_t i = 0; i < elts.size(); ++i) {
        const Expr& t = *elts[i];
        if (auto* st = as<Starred>(&t)) assign(*st->value, vals[i]);
        else assign(t, vals[i]);
      }
      return;
    }
    case ExprKind::Subscript: {
      auto& s = static_cast<const Subscript&>(target);
      Ref obj = eval(*s.value);
      Ref key = eval_subscript_key(*s.slice);
      SourceLoc saved = cur_loc_;
      cur_loc_ = target.span.begin;
      try {
        obj->setitem(*this, key, std::move(value));
      } catch (PyError& e) {
        cur_loc_ = saved;
        if (!e.loc.valid()) e.loc = target.span.begin;
        throw;
      }
      cur_loc_ = saved;
      return;
    }
    case ExprKind::Attribute: {
      auto& a = static_cast<const Attribute&>(target);
      eval(*a.value)->setattr(*this, a.attr, std::move(value));
      return;
    }
    case ExprKind::Starred: assign(*static_cast<const Starred&>(target).value, value); return;
    default: raise("SyntaxError", "cannot assign to expression");
  }
}

// ------------------------------------------------------------------ functions
Ref Interp::make_function(const FunctionDef* def, const Lambda* lam) {
  auto fn = std::make_shared<FunctionObj>();
  fn->def = def;
  fn->lambda = lam;
  fn->name = def ? def->name : "<lambda>";
  const arguments& a = def ? def->args : lam->args;
  for (const ExprPtr& d : a.defaults) fn->defaults.push_back(eval(*d));
  for (const ExprPtr& d : a.kw_defaults) fn->kw_defaults.push_back(d ? eval(*d) : nullptr);
  fn->closure = env_;
  fn->globals = globals_;
  if (!env_->is_module) note_closure_env(env_);
  return fn;
}

Ref Interp::call(const Ref& callee, CallArgs& args) { return callee->call(*this, args); }

Ref Interp::call_function(const std::shared_ptr<FunctionObj>& fn, CallArgs& args) {
  if (++depth_ > limits_.max_depth) {
    --depth_;
    raise("RecursionError", "maximum recursion depth exceeded");
  }
  struct DepthGuard {
    int& d;
    ~DepthGuard() { --d; }
  } guard{depth_};
  tick();
  const arguments& p = fn->params();
  auto env = std::make_shared<Env>(fn->closure && !fn->closure->is_module ? fn->closure : nullptr);
  std::vector<const arg*> positional;
  for (const arg& x : p.posonlyargs) positional.push_back(&x);
  for (const arg& x : p.args) positional.push_back(&x);
  size_t npos = positional.size();
  std::vector<Ref> bound(npos);
  std::vector<Ref> extra;
  for (size_t i = 0; i < args.pos.size(); ++i) {
    if (i < npos) bound[i] = args.pos[i];
    else if (p.vararg) extra.push_back(args.pos[i]);
    else
      raise("TypeError", fn->name + "() takes " + std::to_string(npos) +
                             " positional arguments but " + std::to_string(args.pos.size()) +
                             " were given");
  }
  std::vector<Ref> kwonly(p.kwonlyargs.size());
  auto kwdict = std::make_shared<DictObj>();
  for (auto& [k, v] : args.kw) {
    bool done = false;
    for (size_t i = p.posonlyargs.size(); i < npos; ++i) {
      if (positional[i]->arg_name == k) {
        if (bound[i]) raise("TypeError", fn->name + "() got multiple values for argument '" + k + "'");
        bound[i] = v;
        done = true;
      }
    }
    for (size_t i = 0; i < p.kwonlyargs.size() && !done; ++i) {
      if (p.kwonlyargs[i].arg_name == k) {
        kwonly[i] = v;
        done = true;
      }
    }
    if (!done) {
      if (!p.kwarg) raise("TypeError", fn->name + "() got an unexpected keyword argument '" + k + "'");
      kwdict->set(make_str(k), v);
    }
  }
  size_t first_default = npos - fn->defaults.size();
  for (size_t i = 0; i < npos; ++i) {
    if (!bound[i]) {
      if (i >= first_default) bound[i] = fn->defaults[i - first_default];
      else
        raise("TypeError", fn->name + "() missing required positional argument: '" +
                               positional[i]->arg_name + "'");
    }
    env->set_local(positional[i]->arg_name, bound[i]);
  }
  for (size_t i = 0; i < kwonly.size(); ++i) {
    if (!kwonly[i]) {
      if (i < fn->kw_defaults.size() && fn->kw_defaults[i]) kwonly[i] = fn->kw_defaults[i];
      else
        raise("TypeError", fn->name + "() missing required keyword-only argument: '" +
                               p.kwonlyargs[i].arg_name + "'");
    }
    env->set_local(p.kwonlyargs[i].arg_name, kwonly[i]);
  }
  if (p.vararg) env->set_local(p.vararg->arg_name, make_tuple(extra));
  if (p.kwarg) env->set_local(p.kwarg->arg_name, kwdict);

  EnvPtr saved = env_;
  // A function defined in a module the kernel imported sees that module's globals.
  EnvPtr saved_globals = globals_;
  if (fn->globals) globals_ = fn->globals;
  env_ = env;
  Ref result = none();
  try {
    if (fn->lambda) {
      result = eval(*fn->lambda->body);
    } else {
      Flow f = exec_block(fn->def->body);
      if (f == Flow::Return) result = return_value_;
      else if (f == Flow::Break || f == Flow::Continue)
        raise("SyntaxError", "'break' or 'continue' outside loop");
    }
  } catch (...) {
    env_ = saved;
    globals_ = saved_globals;
    throw;
  }
  env_ = saved;
  globals_ = saved_globals;
  return_value_ = nullptr;
  return result;
}

// ------------------------------------------------------------------ expressions
// A value that stands for an error (LazyErrorObj) raises it where it is used: names do so when
// looked up, values read out of containers or attributes here.
namespace {
const Ref& fail_if_lazy(const Ref& v) {
  if (auto* lazy = cast<LazyErrorObj>(v)) throw lazy->error;
  return v;
}
}  // namespace

Ref Interp::eval(const Expr& e) {
  try {
    return eval_inner(e);
  } catch (PyError& err) {
    if (!err.loc.valid()) err.loc = e.span.begin;
    throw;
  }
}

bool Interp::truthy(const Ref& v) {
  if (auto* lazy = cast<LazyErrorObj>(v)) throw lazy->error;
  return v->truthy(*this);
}

Ref Interp::binary(Operator op, const Ref& a, const Ref& b) {
  fail_if_lazy(a);
  fail_if_lazy(b);
  if (Ref r = a->binop(*this, op, b, false)) return r;
  if (Ref r = b->binop(*this, op, a, true)) return r;
  static const char* names[] = {"+", "-", "*", "@", "/", "%", "**", "<<", ">>", "|", "^", "&", "//"};
  raise("TypeError", std::string("unsupported operand type(s) for ") + names[static_cast<int>(op)] +
                         ": '" + a->type_name() + "' and '" + b->type_name() + "'");
}

Ref Interp::compare(CmpOp op, const Ref& a, const Ref& b) {
  switch (op) {
    case CmpOp::Is: return make_bool(a.get() == b.get() || (is_none(a) && is_none(b)) ||
                                     (cast<BoolObj>(a) && cast<BoolObj>(b) && a->equals(*b)));
    case CmpOp::IsNot: return make_bool(!(a.get() == b.get() || (is_none(a) && is_none(b)) ||
                                          (cast<BoolObj>(a) && cast<BoolObj>(b) && a->equals(*b))));
    case CmpOp::In: return make_bool(b->contains(*this, a));
    case CmpOp::NotIn: return make_bool(!b->contains(*this, a));
    default: break;
  }
  if (Ref r = a->compare(*this, op, b, false)) return r;
  if (Ref r = b->compare(*this, op, a, true)) return r;
  if (op == CmpOp::Eq) return make_bool(a.get() == b.get() || a->equals(*b));
  if (op == CmpOp::NotEq) return make_bool(!(a.get() == b.get() || a->equals(*b)));
  raise("TypeError", "'<' not supported between instances of '" + a->type_name() + "' and '" +
                         b->type_name() + "'");
}

void Interp::sort_values(std::vector<Ref>& items, const Ref& key, bool reverse) {
  std::vector<std::pair<Ref, Ref>> keyed;
  for (const Ref& it : items) {
    Ref k = it;
    if (key && !is_none(key)) {
      CallArgs a;
      a.pos.push_back(it);
      k = call(key, a);
    }
    keyed.emplace_back(k, it);
  }
  std::stable_sort(keyed.begin(), keyed.end(), [&](const auto& x, const auto& y) {
    return truthy(compare(CmpOp::Lt, x.first, y.first));
  });
  if (reverse) std::reverse(keyed.begin(), keyed.end());
  items.clear();
  for (auto& kv : keyed) items.push_back(kv.second);
}

Ref Interp::eval_subscript_key(const Expr& e) {
  if (auto* s = as<Slice>(&e)) {
    auto so = std::make_shared<SliceObj>();
    so->lower = s->lower ? eval(*s->lower) : none();
    so->upper = s->upper ? eval(*s->upper) : none();
    so->step = s->step ? eval(*s->step) : none();
    return so;
  }
  if (auto* t = as<Tuple>(&e)) {
    std::vector<Ref> items;
    for (const ExprPtr& x : t->elts) items.push_back(eval_subscript_key(*x));
    return make_tuple(items);
  }
  return eval(e);
}

Ref Interp::eval_inner(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Constant: {
      auto& c = static_cast<const Constant&>(e);
      switch (c.value_kind) {
        case Constant::Kind::None: return none();
        case Constant::Kind::Bool: return make_bool(c.bool_value);
        case Constant::Kind::Int:
          if (c.big_int) raise("OverflowError", "integer literal " + c.big_int_text + " exceeds 64 bits");
          return make_int(c.int_value);
        case Constant::Kind::Float: return make_float(c.float_value);
        case Constant::Kind::Str: return make_str(c.str_value);
        case Constant::Kind::Bytes: return make_str(c.str_value);
        case Constant::Kind::Ellipsis: {
          static Ref ell = std::make_shared<EllipsisObj>();
          return ell;
        }
        case Constant::Kind::Complex: raise_code(diag::Code::unsupported_syntax, "complex numbers are not supported");
      }
      return none();
    }
    case ExprKind::Name: return lookup_name(static_cast<const Name&>(e).id, e.span.begin);
    case ExprKind::Attribute: {
      auto& a = static_cast<const Attribute&>(e);
      Ref obj = eval(*a.value);
      if (auto* lazy = cast<LazyErrorObj>(obj)) throw lazy->error;
      return fail_if_lazy(obj->getattr(*this, a.attr));
    }
    case ExprKind::Call: return eval_call(static_cast<const Call&>(e));
    case ExprKind::BinOp: {
      auto& b = static_cast<const BinOp&>(e);
      Ref l = eval(*b.left);
      Ref r = eval(*b.right);
      return binary(b.op, l, r);
    }
    case ExprKind::UnaryOp: {
      auto& u = static_cast<const UnaryOp&>(e);
      Ref v = eval(*u.operand);
      if (u.op == UnaryOpKind::Not) {
        if (Ref r = v->unaryop(*this, u.op)) return r;
        return make_bool(!truthy(v));
      }
      return v->unaryop(*this, u.op);
    }
    case ExprKind::BoolOp: {
      auto& b = static_cast<const BoolOp&>(e);
      Ref v = eval(*b.values[0]);
      for (size_t i = 1; i < b.values.size(); ++i) {
        const Expr& next = *b.values[i];
        if (b.op == BoolOpKind::And) {
          if (Ref s = v->symbolic_and(*this, [&] { return eval(next); })) {
            v = s;
            continue;
          }
        }
        bool t = truthy(v);
        if (b.op == BoolOpKind::And ? !t : t) return v;
        v = eval(next);
      }
      return v;
    }
    case ExprKind::Compare: {
      auto& c = static_cast<const Compare&>(e);
      Ref left = eval(*c.left);
      Ref result;
      for (size_t i = 0; i < c.ops.size(); ++i) {
        Ref right = eval(*c.comparators[i]);
        Ref r = compare(c.ops[i], left, right);
        if (i + 1 == c.ops.size()) return r;
        if (!truthy(r)) return r;
        left = right;
      }
      return result;
    }
    case ExprKind::IfExp: {
      auto& x = static_cast<const IfExp&>(e);
      Ref t = eval(*x.test);
      if (auto* drv = dynamic_cast<BranchDriver*>(t.get())) {
        if (Ref v = drv->run_if_exp(*this, x)) return v;
        raise_code(diag::Code::err_dynamic_control_flow_not_supported,
                   "a conditional expression needs a compile-time condition",
                   "use nl.where or a mask for per-element selection");
      }
      return truthy(t) ? eval(*x.body) : eval(*x.orelse);
    }
    case ExprKind::Tuple: {
      std::vector<Ref> items;
      for (const ExprPtr& x : static_cast<const Tuple&>(e).elts) {
        if (auto* st = as<Starred>(x.get())) {
          for (const Ref& r : eval(*st->value)->iterate(*this)) items.push_back(r);
        } else {
          items.push_back(eval(*x));
        }
      }
      return make_tuple(items);
    }
    case ExprKind::List: {
      std::vector<Ref> items;
      for (const ExprPtr& x : static_cast<const List&>(e).elts) {
        if (auto* st = as<Starred>(x.get())) {
          for (const Ref& r : eval(*st->value)->iterate(*this)) items.push_back(r);
        } else {
          items.push_back(eval(*x));
        }
      }
      return make_list(items);
    }
    case ExprKind::Set: {
      auto s = std::make_shared<SetObj>();
      for (const ExprPtr& x : static_cast<const Set&>(e).elts) s->add(eval(*x));
      return s;
    }
    case ExprKind::Dict: {
      auto& d = static_cast<const Dict&>(e);
      auto out = std::make_shared<DictObj>();
      for (size_t i = 0; i < d.keys.size(); ++i) {
        if (!d.keys[i]) {
          Ref m = eval(*d.values[i]);
          auto* md = cast<DictObj>(m);
          if (!md) raise("TypeError", "'" + m->type_name() + "' object is not a mapping");
          for (auto& kv : md->entries) out->set(kv.first, kv.second);
        } else {
          Ref k = eval(*d.keys[i]);
          if (!k->hashable()) k->require_concrete(*this, "a dict key");
          out->set(k, eval(*d.values[i]));
        }
      }
      return out;
    }
    case ExprKind::Subscript: {
      auto& s = static_cast<const Subscript&>(e);
      Ref obj = eval(*s.value);
      if (auto* lazy = cast<LazyErrorObj>(obj)) throw lazy->error;
      Ref key = eval_subscript_key(*s.slice);
      // Objects that record where a view was taken (tensor subscripts) read current_loc().
      SourceLoc saved = cur_loc_;
      cur_loc_ = e.span.begin;
      Ref r;
      try {
        r = obj->getitem(*this, key);
      } catch (...) {
        cur_loc_ = saved;
        throw;
      }
      cur_loc_ = saved;
      return fail_if_lazy(r);
    }
    case ExprKind::Slice: return eval_subscript_key(e);
    case ExprKind::Lambda: return make_function(nullptr, &static_cast<const Lambda&>(e));
    case ExprKind::ListComp:
    case ExprKind::SetComp:
    case ExprKind::DictComp:
    case ExprKind::GeneratorExp: return eval_comprehension(e);
    case ExprKind::JoinedStr: return eval_joined_str(static_cast<const JoinedStr&>(e));
    case ExprKind::FormattedValue: {
      auto& f = static_cast<const FormattedValue&>(e);
      Ref v = eval(*f.value);
      std::string spec;
      if (f.format_spec) spec = eval(*f.format_spec)->str();
      if (f.conversion == 'r') v = make_str(v->repr());
      else if (f.conversion == 's') v = make_str(v->str());
      return format_value(v, spec);
    }
    case ExprKind::NamedExpr: {
      auto& n = static_cast<const NamedExpr&>(e);
      Ref v = eval(*n.value);
      assign(*n.target, v);
      return v;
    }
    case ExprKind::Starred:
      raise("SyntaxError", "can't use starred expression here");
    case ExprKind::Await:
    case ExprKind::Yield:
    case ExprKind::YieldFrom:
      raise_code(diag::Code::unsupported_syntax, "generators and coroutines are not supported inside kernels");
  }
  raise("SystemError", "unknown expression");
}

Ref Interp::eval_call(const Call& c) {
  Ref callee = eval(*c.func);
  if (auto* lazy = cast<LazyErrorObj>(callee)) throw lazy->error;
  CallArgs args;
  args.loc = c.span.begin;
  for (const ExprPtr& a : c.args) {
    if (auto* st = as<Starred>(a.get())) {
      for (const Ref& r : eval(*st->value)->iterate(*this)) args.pos.push_back(r);
    } else {
      args.pos.push_back(eval(*a));
    }
  }
  for (const keyword& k : c.keywords) {
    Ref v = eval(*k.value);
    if (k.is_double_star || k.arg_name.empty()) {
      auto* d = cast<DictObj>(v);
      if (!d) raise("TypeError", "argument after ** must be a mapping");
      for (auto& kv : d->entries) {
        auto* ks = as_string(kv.first);
        if (!ks) raise("TypeError", "keywords must be strings");
        args.kw.emplace_back(*ks, kv.second);
      }
    } else {
      args.kw.emplace_back(k.arg_name, v);
    }
  }
  // A poisoned value taken out of a container (`*tiles`, `**d`) fails here, at the call.
  for (const Ref& a : args.pos) fail_if_lazy(a);
  for (const auto& kv : args.kw) fail_if_lazy(kv.second);
  SourceLoc saved = cur_loc_;
  cur_loc_ = c.span.begin;
  Ref r;
  try {
    r = callee->call(*this, args);
  } catch (PyError& e) {
    if (!e.loc.valid()) e.loc = c.span.begin;
    cur_loc_ = saved;
    throw;
  }
  cur_loc_ = saved;
  return r;
}

Ref Interp::eval_comprehension(const Expr& e) {
  const std::vector<comprehension>* gens = nullptr;
  if (auto* l = as<ListComp>(&e)) gens = &l->generators;
  else if (auto* s = as<SetComp>(&e)) gens = &s->generators;
  else if (auto* d = as<DictComp>(&e)) gens = &d->generators;
  else if (auto* g = as<GeneratorExp>(&e)) gens = &g->generators;
  auto list = std::make_shared<ListObj>();
  auto set = std::make_shared<SetObj>();
  auto dict = std::make_shared<DictObj>();
  // The first iterable is evaluated in the enclosing scope; the rest in the comprehension scope.
  Ref first_iter = eval(*(*gens)[0].iter);
  auto scope = std::make_shared<Env>(env_);
  EnvPtr saved = env_;
  env_ = scope;
  std::function<void(size_t, Ref)> loop = [&](size_t gi, Ref iterable) {
    const comprehension& g = (*gens)[gi];
    for (const Ref& item : iterable->iterate(*this)) {
      tick();
      assign(*g.target, item);
      bool ok = true;
      for (const ExprPtr& cond : g.ifs) {
        if (!truthy(eval(*cond))) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      if (gi + 1 < gens->size()) {
        loop(gi + 1, eval(*(*gens)[gi + 1].iter));
        continue;
      }
      if (auto* l = as<ListComp>(&e)) list->items.push_back(eval(*l->elt));
      else if (auto* g2 = as<GeneratorExp>(&e)) list->items.push_back(eval(*g2->elt));
      else if (auto* s = as<SetComp>(&e)) set->add(eval(*s->elt));
      else if (auto* d = as<DictComp>(&e)) {
        Ref k = eval(*d->key);
        dict->set(k, eval(*d->value));
      }
    }
  };
  try {
    loop(0, first_iter);
  } catch (...) {
    env_ = saved;
    throw;
  }
  env_ = saved;
  if (as<SetComp>(&e)) return set;
  if (as<DictComp>(&e)) return dict;
  return list;  // generator expressions are materialised as lists
}

Ref Interp::format_value(const Ref& v, const std::string& spec) {
  if (spec.empty()) return make_str(v->str());
  // Support the common numeric specs: [fill][align][width][.precision][type]
  std::string s = spec;
  char type = 0;
  if (!s.empty() && std::isalpha(static_cast<unsigned char>(s.back()))) {
    type = s.back();
    s.pop_back();
  }
  int precision = -1;
  size_t dot = s.find('.');
  if (dot != std::string::npos) {
    precision = std::atoi(s.c_str() + dot + 1);
    s = s.substr(0, dot);
  }
  char align = 0, fill = ' ';
  if (s.size() >= 2 && (s[1] == '<' || s[1] == '>' || s[1] == '^')) {
    fill = s[0];
    align = s[1];
    s = s.substr(2);
  } else if (!s.empty() && (s[0] == '<' || s[0] == '>' || s[0] == '^')) {
    align = s[0];
    s = s.substr(1);
  }
  bool zero = !s.empty() && s[0] == '0';
  int width = s.empty() ? 0 : std::atoi(s.c_str());
  std::string body;
  auto num = as_number(v);
  char buf[128];
  if (type == 'f' || type == 'e' || type == 'g' || type == '%') {
    if (!num) raise("ValueError", "Unknown format code '" + std::string(1, type) + "' for object of type '" + v->type_name() + "'");
    double x = type == '%' ? *num * 100 : *num;
    char t = type == '%' ? 'f' : type;
    std::string f = "%." + std::to_string(precision < 0 ? 6 : precision) + t;
    std::snprintf(buf, sizeof buf, f.c_str(), x);
    body = buf;
    if (type == '%') body += "%";
  } else if (type == 'd') {
    auto i = as_int(v);
    if (!i) raise("ValueError", "Unknown format code 'd' for object of type '" + v->type_name() + "'");
    body = std::to_string(*i);
  } else if (type == 'x' || type == 'b' || type == 'o') {
    auto i = as_int(v);
    if (!i) raise("ValueError", "format code requires an int");
    if (type == 'x') std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(*i));
    else if (type == 'o') std::snprintf(buf, sizeof buf, "%llo", static_cast<unsigned long long>(*i));
    else {
      std::string bits;
      uint64_t u = static_cast<uint64_t>(*i);
      do { bits.insert(bits.begin(), static_cast<char>('0' + (u & 1))); u >>= 1; } while (u);
      std::snprintf(buf, sizeof buf, "%s", bits.c_str());
    }
    body = buf;
  } else {
    body = v->str();
    if (precision >= 0 && as_string(v)) body = body.substr(0, precision);
  }
  if (static_cast<int>(body.size()) < width) {
    size_t pad = width - body.size();
    if (!align) align = (num && !as_string(v)) ? '>' : '<';
    if (zero && num) body = std::string(pad, '0') + body;
    else if (align == '<') body += std::string(pad, fill);
    else if (align == '>') body = std::string(pad, fill) + body;
    else body = std::string(pad / 2, fill) + body + std::string(pad - pad / 2, fill);
  }
  return make_str(body);
}

Ref Interp::eval_joined_str(const JoinedStr& j) {
  std::string out;
  for (const ExprPtr& v : j.values) out += eval(*v)->str();
  return make_str(out);
}

}  // namespace nki::py
