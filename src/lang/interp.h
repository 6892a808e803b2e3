// The Python-subset evaluator: executes a parsed module and the functions it defines with
// Python semantics for compile-time values. NKI-specific behaviour (symbolic loops, tensor
// objects, API calls) plugs in through Obj subclasses: a `for` over a LoopDriver and an `if` on a
// BranchDriver are delegated to the object, so this layer never depends on src/nki.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/cpu_deadline.h"
#include "base/diagnostic.h"
#include "lang/ast.h"
#include "lang/value.h"

namespace nki::py {

enum class Flow { Normal, Break, Continue, Return };

// An iterable that runs a `for` loop itself (e.g. nl.affine_range: one traced iteration with a
// symbolic induction variable).
struct LoopDriver : Obj {
  virtual Flow run_loop(Interp& in, const For& stmt) = 0;
};

// A condition that runs an `if` statement itself (e.g. a predicate on a loop index).
struct BranchDriver : Obj {
  virtual Flow run_if(Interp& in, const If& stmt) = 0;
  // `body if self else orelse`: the value, or nullptr when such a condition cannot select a
  // value (the evaluator then raises err_dynamic_control_flow_not_supported).
  virtual Ref run_if_exp(Interp& in, const IfExp& e) { return nullptr; }
};

// Module-level statement that failed while loading: names it would have bound raise the
// original error only when used (tests and host code at module level never break a kernel).
struct LazyErrorObj : Obj {
  PyError error;
  bool verbatim = false;  // raise `error` as is (no "could not be evaluated" wrapper)
  std::string type_name() const override { return "unavailable"; }
};

struct Limits {
  int64_t max_steps = 20'000'000;     // statements + calls executed
  int max_depth = 200;                // Python call depth
  double max_seconds = 20.0;          // CPU-time budget for one evaluation (base/cpu_deadline.h)
};

class Interp {
 public:
  explicit Interp(SourceFilePtr file);
  virtual ~Interp();

  // Loads the module: runs top-level statements, tolerating failures lazily (see LazyErrorObj).
  void load_module(const Module& m);
  EnvPtr module_env() const { return globals_; }
  const SourceFilePtr& file() const { return file_; }
  Ref builtin(const std::string& name) const;
  void set_builtin(const std::string& name, Ref v);
  Limits& limits() { return limits_; }

  // Calls a Python function object with bound arguments.
  Ref call_function(const std::shared_ptr<FunctionObj>& fn, CallArgs& args);
  Ref call(const Ref& callee, CallArgs& args);

  // Executes statements; returns how control left the block.
  Flow exec_block(const StmtList& body);
  Ref eval(const Expr& e);
  void assign(const Expr& target, Ref value);
  Ref return_value() const { return return_value_; }

  // Operator dispatch with Python's reflected-operand fallback.
  Ref binary(Operator op, const Ref& a, const Ref& b);
  Ref compare(CmpOp op, const Ref& a, const Ref& b);
  bool truthy(const Ref& v);
  void sort_values(std::vector<Ref>& items, const Ref& key, bool reverse);

  // Converts a PyError into a located diagnostic.
  Diagnostic to_diagnostic(const PyError& e) const;

  // Import resolution: returns the module object for a dotted name, or nullptr to bind a
  // placeholder. Overridden by the NKI layer to provide neuronxcc.nki, numpy, math.
  virtual Ref import_module(const std::string& dotted);

  // Hook called for `for` loops over ordinary iterables; the NKI tracer turns `range(...)` into
  // a sequential symbolic loop here. Default: nullptr (iterate concretely).
  virtual Ref adapt_for_iterable(const For& stmt, const Ref& iterable) { return nullptr; }

  // Called whenever a Python name is bound (the tracer names tensors after their variables).
  virtual void on_bind(const std::string& name, const Ref& value) {}
  // Called before a name is bound; returns the value to bind instead. The NKI tracer resolves
  // nl.loop_reduce here: its destination is the tile the assigned variable already refers to.
  virtual Ref transform_bind(const std::string& name, Ref value) { return value; }
  // What `name` refers to now in the running frame (locals, enclosing scopes, globals), or
  // nullptr when unbound. Builtins are not considered.
  Ref current_binding(const std::string& name);

  // Called when statement `s` of a block raised `e`: returning true records nothing here and
  // goes on with the next statement (compilers that report every independent error). Default:
  // the error propagates.
  virtual bool recover_statement(const Stmt& s, PyError& e) { return false; }
  // Whether `x: T = value` inside a function evaluates T and applies its check (the
  // __annotation_check__ attribute). CPython never evaluates the annotations of a function's
  // local variables (PEP 526); a language that checks them (NKI 2.24,
  // err_annotation_shape_mismatch) says so here.
  virtual bool checks_local_annotations() const { return false; }
  // Inside the body of a `try` statement (an error there may be handled by the program).
  bool in_try() const { return try_depth_ > 0; }

  // The statement currently executing (for diagnostics of objects that need a location).
  SourceLoc current_loc() const { return cur_loc_; }
  int call_depth() const { return depth_; }
  // Location of the value of the most recently executed `return` statement.
  SourceLoc last_return_loc() const { return last_return_loc_; }
  void tick();  // step/time budget check

 protected:
  Ref lookup_name(const std::string& name, SourceLoc loc);
  EnvPtr env_;  // current function/module environment

 private:
  Flow exec(const Stmt& s);
  Flow exec_for(const For& s);
  Flow exec_while(const While& s);
  Flow exec_if(const If& s);
  Flow exec_try(const Try& s);
  Flow exec_with(const With& s);
  void exec_import(const Import& s);
  void exec_import_from(const ImportFrom& s);
  void exec_function_def(const FunctionDef& s);
  void exec_class_def(const ClassDef& s);
  void exec_aug_assign(const AugAssign& s);
  void exec_ann_assign(const AnnAssign& s);
  // Evaluates the annotation of `s` and, when it has an __annotation_check__, calls it on `v`.
  void check_annotation(const AnnAssign& s, const Ref& v);
  Ref augmented_value(Operator op, const Ref& cur, const Ref& rhs);
  void exec_delete(const Delete& s);
  Ref eval_inner(const Expr& e);
  Ref eval_call(const Call& c);
  Ref eval_subscript_key(const Expr& e);
  Ref eval_comprehension(const Expr& e);
  Ref eval_joined_str(const JoinedStr& j);
  Ref format_value(const Ref& v, const std::string& spec);
  Ref make_function(const FunctionDef* def, const Lambda* lam);
  void bind_name(const std::string& name, Ref value);
  std::vector<Ref> unpack(const Ref& value, size_t n, bool has_star, size_t star_index);
  void install_builtins();

  SourceFilePtr file_;
  EnvPtr globals_;
  std::shared_ptr<ModuleObj> builtins_;
  Ref return_value_;
  Limits limits_;
  // Function-local environments captured by closures (see ~Interp), compacted when the vector
  // doubles so that environments that died do not accumulate.
  std::vector<std::weak_ptr<Env>> closure_envs_;
  size_t closure_envs_compact_at_ = 64;
  void note_closure_env(const EnvPtr& env);
  int64_t steps_ = 0;
  int depth_ = 0;
  CpuDeadline deadline_;  // counts from construction; budget follows limits_.max_seconds
  SourceLoc cur_loc_;
  SourceLoc last_return_loc_;
  bool truthy_at(const Ref& v, const Expr& test);
  std::vector<PyError> handling_;  // exceptions being handled (bare `raise`)
  int try_depth_ = 0;              // `try` bodies being executed
};

// Installs the builtin functions (len, range, min, ...) and the math module into `in`.
void install_python_builtins(Interp& in);
std::shared_ptr<ModuleObj> make_math_module();

}  // namespace nki::py
