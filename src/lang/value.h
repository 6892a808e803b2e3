// Runtime values of the Python-subset evaluator. Every value is an Obj behind a shared_ptr (Ref).
// Builtin Python types live here; NKI objects (tensors, index expressions, API functions) are
// Obj subclasses defined in src/nki and plug into the same protocol (the virtual hooks below),
// so the evaluator never needs to know about NKI.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/source.h"
#include "lang/ast.h"

namespace nki::py {

class Interp;
struct Obj;
using Ref = std::shared_ptr<Obj>;

// Drops the reference `r` without recursing into destructors: when it was the last reference,
// the value is destroyed, and the values it alone held are destroyed one after another by a
// loop in the outermost release_ref on this thread instead of from inside its destructor. A
// value nested 100,000 deep (`x = [x]` in a loop, a chain of closures through their defaults
// or environments) otherwise overflowed the stack when it was freed. Every value that holds
// other values drops them through these in its destructor.
void release_ref(Ref& r) noexcept;
void release_refs(std::vector<Ref>& refs) noexcept;
void release_refs(std::vector<std::pair<std::string, Ref>>& refs) noexcept;
void release_refs(std::vector<std::pair<Ref, Ref>>& refs) noexcept;

// A Python exception raised inside the evaluated program (NameError, TypeError, ...).
// `code` overrides the diagnostic code (NKI err_* codes raised by API objects).
struct PyError {
  std::string type;      // "TypeError", ...
  std::string message;
  SourceLoc loc;         // filled by the evaluator when the raiser did not know it
  std::string code;      // diagnostic code; defaults to `type`
  std::string hint;
  Ref value;             // the exception object for `except ... as e`
  // Raised by the use of a value whose own error was already reported (a name bound by a
  // statement that failed earlier in a compile that goes on after errors): no new diagnostic.
  bool reported = false;
};

[[noreturn]] void raise(std::string type, std::string message);
[[noreturn]] void raise_code(std::string code, std::string message, std::string hint = {});

// Positional and keyword arguments of a call.
struct CallArgs {
  std::vector<Ref> pos;
  std::vector<std::pair<std::string, Ref>> kw;
  SourceLoc loc;

  // Removes and returns the keyword `name`, or the positional at `index` (if >= 0 and present).
  Ref take(const std::string& name, int index = -1);
  Ref take_or(const std::string& name, int index, Ref fallback);
};

enum class Truth { False, True, Handled };

struct Obj : std::enable_shared_from_this<Obj> {
  virtual ~Obj() = default;
  virtual std::string type_name() const = 0;
  virtual std::string repr() const;
  virtual std::string str() const { return repr(); }

  // Protocol hooks. Defaults raise the Python TypeError/AttributeError.
  virtual Ref getattr(Interp& in, const std::string& name);
  virtual void setattr(Interp& in, const std::string& name, Ref value);
  virtual Ref call(Interp& in, CallArgs& args);
  virtual Ref getitem(Interp& in, const Ref& key);
  virtual void setitem(Interp& in, const Ref& key, Ref value);
  // Binary operator; `reflected` means self is the right operand. nullptr = NotImplemented.
  virtual Ref binop(Interp& in, Operator op, const Ref& other, bool reflected);
  virtual Ref unaryop(Interp& in, UnaryOpKind op);
  // Rich comparison (Eq..GtE). nullptr = NotImplemented.
  virtual Ref compare(Interp& in, CmpOp op, const Ref& other, bool reflected);
  virtual bool truthy(Interp& in);
  // `self and rhs` for symbolic values whose truth is not known while tracing (NKI conditions
  // on loop indices): when this returns non-null, `and` evaluates `rhs` and yields the result
  // instead of testing truthy(self).
  virtual Ref symbolic_and(Interp& in, const std::function<Ref()>& rhs) { return nullptr; }
  // Called where Python needs this value as a concrete int or bool (`use` names the operation:
  // "min()", "int()", "a list index", ...). Values that are symbolic while tracing (NKI loop
  // indices) raise an error that explains why; everything else returns.
  virtual void require_concrete(Interp& in, const std::string& use) {}
  // `x op= value` / `x[key] op= value` for objects that update in place (NKI tiles); nullptr /
  // false means "not handled": Python's `x = x op value` fallback applies.
  virtual Ref inplace(Interp& in, Operator op, const Ref& value) { return nullptr; }
  virtual bool setitem_inplace(Interp& in, const Ref& key, Operator op, const Ref& value) { return false; }
  // Iteration (for loops, unpacking, list()): the items, or raise TypeError.
  virtual std::vector<Ref> iterate(Interp& in);
  virtual int64_t len(Interp& in);
  virtual bool contains(Interp& in, const Ref& item);
  // Hash/equality for dict keys and `==` of builtin values.
  virtual bool hashable() const { return false; }
  virtual size_t hash() const { return 0; }
  virtual bool equals(const Obj& other) const { return this == &other; }
};

// ------------------------------------------------------------------ builtin types
struct NoneObj : Obj {
  std::string type_name() const override { return "NoneType"; }
  std::string repr() const override { return "None"; }
  bool truthy(Interp&) override { return false; }
  bool hashable() const override { return true; }
  bool equals(const Obj& o) const override { return dynamic_cast<const NoneObj*>(&o) != nullptr; }
};

struct EllipsisObj : Obj {
  std::string type_name() const override { return "ellipsis"; }
  std::string repr() const override { return "Ellipsis"; }
};

struct BoolObj;
struct IntObj : Obj {
  explicit IntObj(int64_t v) : value(v) {}
  int64_t value;
  std::string type_name() const override { return "int"; }
  std::string repr() const override { return std::to_string(value); }
  Ref binop(Interp& in, Operator op, const Ref& other, bool reflected) override;
  Ref unaryop(Interp& in, UnaryOpKind op) override;
  Ref compare(Interp& in, CmpOp op, const Ref& other, bool reflected) override;
  bool truthy(Interp&) override { return value != 0; }
  bool hashable() const override { return true; }
  size_t hash() const override { return std::hash<int64_t>()(value); }
  bool equals(const Obj& o) const override;
  Ref getattr(Interp& in, const std::string& name) override;
};

struct BoolObj : IntObj {
  explicit BoolObj(bool b) : IntObj(b ? 1 : 0) {}
  std::string type_name() const override { return "bool"; }
  std::string repr() const override { return value ? "True" : "False"; }
};

struct FloatObj : Obj {
  explicit FloatObj(double v) : value(v) {}
  double value;
  std::string type_name() const override { return "float"; }
  std::string repr() const override;
  Ref binop(Interp& in, Operator op, const Ref& other, bool reflected) override;
  Ref unaryop(Interp& in, UnaryOpKind op) override;
  Ref compare(Interp& in, CmpOp op, const Ref& other, bool reflected) override;
  bool truthy(Interp&) override { return value != 0.0; }
  bool hashable() const override { return true; }
  size_t hash() const override;
  bool equals(const Obj& o) const override;
  Ref getattr(Interp& in, const std::string& name) override;
};

struct StrObj : Obj {
  explicit StrObj(std::string v) : value(std::move(v)) {}
  std::string value;
  std::string type_name() const override { return "str"; }
  std::string repr() const override;
  std::string str() const override { return value; }
  Ref binop(Interp& in, Operator op, const Ref& other, bool reflected) override;
  Ref compare(Interp& in, CmpOp op, const Ref& other, bool reflected) override;
  Ref getitem(Interp& in, const Ref& key) override;
  Ref getattr(Interp& in, const std::string& name) override;
  bool truthy(Interp&) override { return !value.empty(); }
  std::vector<Ref> iterate(Interp& in) override;
  int64_t len(Interp&) override { return static_cast<int64_t>(value.size()); }
  bool contains(Interp& in, const Ref& item) override;
  bool hashable() const override { return true; }
  size_t hash() const override { return std::hash<std::string>()(value); }
  bool equals(const Obj& o) const override;
};

// Shared by tuple and list.
struct SeqObj : Obj {
  ~SeqObj() override { release_refs(items); }
  std::vector<Ref> items;
  Ref getitem(Interp& in, const Ref& key) override;
  bool truthy(Interp&) override { return !items.empty(); }
  std::vector<Ref> iterate(Interp&) override { return items; }
  int64_t len(Interp&) override { return static_cast<int64_t>(items.size()); }
  bool contains(Interp& in, const Ref& item) override;
  Ref compare(Interp& in, CmpOp op, const Ref& other, bool reflected) override;
  virtual Ref make(std::vector<Ref> v) const = 0;
};

struct TupleObj : SeqObj {
  TupleObj() = default;
  explicit TupleObj(std::vector<Ref> v) { items = std::move(v); }
  std::string type_name() const override { return "tuple"; }
  std::string repr() const override;
  Ref binop(Interp& in, Operator op, const Ref& other, bool reflected) override;
  Ref make(std::vector<Ref> v) const override { return std::make_shared<TupleObj>(std::move(v)); }
  Ref getattr(Interp& in, const std::string& name) override;
  bool hashable() const override;
  size_t hash() const override;
  bool equals(const Obj& o) const override;
};

struct ListObj : SeqObj {
  ListObj() = default;
  explicit ListObj(std::vector<Ref> v) { items = std::move(v); }
  std::string type_name() const override { return "list"; }
  std::string repr() const override;
  Ref binop(Interp& in, Operator op, const Ref& other, bool reflected) override;
  void setitem(Interp& in, const Ref& key, Ref value) override;
  Ref getattr(Interp& in, const std::string& name) override;
  Ref make(std::vector<Ref> v) const override { return std::make_shared<ListObj>(std::move(v)); }
};

struct DictObj : Obj {
  ~DictObj() override { release_refs(entries); }
  std::vector<std::pair<Ref, Ref>> entries;  // insertion ordered; small dicts, linear lookup
  std::string type_name() const override { return "dict"; }
  std::string repr() const override;
  Ref getitem(Interp& in, const Ref& key) override;
  void setitem(Interp& in, const Ref& key, Ref value) override;
  Ref getattr(Interp& in, const std::string& name) override;
  bool truthy(Interp&) override { return !entries.empty(); }
  std::vector<Ref> iterate(Interp&) override;
  int64_t len(Interp&) override { return static_cast<int64_t>(entries.size()); }
  bool contains(Interp& in, const Ref& item) override;
  Ref find(const Ref& key) const;
  void set(const Ref& key, Ref value);
};

struct SetObj : Obj {
  ~SetObj() override { release_refs(items); }
  std::vector<Ref> items;
  std::string type_name() const override { return "set"; }
  std::string repr() const override;
  bool truthy(Interp&) override { return !items.empty(); }
  std::vector<Ref> iterate(Interp&) override { return items; }
  int64_t len(Interp&) override { return static_cast<int64_t>(items.size()); }
  bool contains(Interp& in, const Ref& item) override;
  void add(const Ref& v);
  Ref getattr(Interp& in, const std::string& name) override;
};

struct SliceObj : Obj {
  ~SliceObj() override {
    release_ref(lower);
    release_ref(upper);
    release_ref(step);
  }
  Ref lower, upper, step;  // each may be None
  std::string type_name() const override { return "slice"; }
  std::string repr() const override;
  Ref getattr(Interp& in, const std::string& name) override;
};

// Number of values of range(start, stop, step), computed without overflow (saturates at
// INT64_MAX: range(-2**62, 2**62) must not wrap around to a negative length).
inline int64_t range_length(int64_t start, int64_t stop, int64_t step) {
  __int128 a = start, b = stop, s = step, n = 0;
  if (s > 0 && b > a) n = (b - a + s - 1) / s;
  if (s < 0 && a > b) n = (a - b - s - 1) / (-s);
  return n > INT64_MAX ? INT64_MAX : static_cast<int64_t>(n);
}

struct RangeObj : Obj {
  int64_t start = 0, stop = 0, step = 1;
  std::string type_name() const override { return "range"; }
  std::string repr() const override;
  std::vector<Ref> iterate(Interp& in) override;
  int64_t len(Interp&) override;
  Ref getitem(Interp& in, const Ref& key) override;
  bool contains(Interp& in, const Ref& item) override;
};

// Builtin function implemented in C++.
struct BuiltinFn : Obj {
  using Impl = std::function<Ref(Interp&, CallArgs&)>;
  BuiltinFn(std::string n, Impl f) : name(std::move(n)), impl(std::move(f)) {}
  std::string name;
  Impl impl;
  std::string type_name() const override { return "builtin_function_or_method"; }
  std::string repr() const override { return "<built-in function " + name + ">"; }
  Ref call(Interp& in, CallArgs& args) override { return impl(in, args); }
};

// A module-like namespace (nl, nisa, math, user modules).
struct ModuleObj : Obj {
  explicit ModuleObj(std::string n) : name(std::move(n)) {}
  ~ModuleObj() override { release_refs(attrs); }
  std::string name;
  std::vector<std::pair<std::string, Ref>> attrs;
  std::string type_name() const override { return "module"; }
  std::string repr() const override { return "<module '" + name + "'>"; }
  Ref getattr(Interp& in, const std::string& attr) override;
  void setattr(Interp& in, const std::string& attr, Ref value) override;
  Ref find(const std::string& attr) const;
  void set(const std::string& attr, Ref value);
};

// A module we do not provide (e.g. `import torch` in a test file). Binding it is fine; any use
// inside a kernel raises a clear error.
struct PlaceholderObj : Obj {
  explicit PlaceholderObj(std::string n) : name(std::move(n)) {}
  std::string name;
  std::string type_name() const override { return "placeholder"; }
  std::string repr() const override { return "<unavailable '" + name + "'>"; }
  Ref getattr(Interp& in, const std::string& attr) override;
  Ref call(Interp& in, CallArgs& args) override;
  [[noreturn]] void fail() const;
};

// Environment (one per function activation / module / comprehension).
struct Env {
  explicit Env(std::shared_ptr<Env> p = nullptr) : parent(std::move(p)) {}
  ~Env() { release_refs(vars); }
  std::shared_ptr<Env> parent;   // enclosing function scope (closures); null at module level
  std::vector<std::pair<std::string, Ref>> vars;
  std::vector<std::string> globals, nonlocals;
  bool is_module = false;
  bool is_class_body = false;  // a class statement's namespace (annotations are evaluated there)

  Ref* lookup_local(const std::string& name);
  void set_local(const std::string& name, Ref value);
  bool erase_local(const std::string& name);
};
using EnvPtr = std::shared_ptr<Env>;

struct FunctionObj : Obj {
  ~FunctionObj() override {
    release_refs(defaults);
    release_refs(kw_defaults);
    release_refs(decorators);
    release_refs(attrs);
  }
  std::string name;
  const FunctionDef* def = nullptr;  // null for lambdas
  const Lambda* lambda = nullptr;
  std::vector<Ref> defaults;         // for the last positional params
  std::vector<Ref> kw_defaults;      // parallel to kwonlyargs (null = required)
  EnvPtr closure;                    // defining environment
  EnvPtr globals;                    // module environment
  std::vector<Ref> decorators;       // evaluated decorator objects (outermost first)
  std::vector<std::pair<std::string, Ref>> attrs;
  std::string type_name() const override { return "function"; }
  std::string repr() const override { return "<function " + name + ">"; }
  Ref call(Interp& in, CallArgs& args) override;
  Ref getattr(Interp& in, const std::string& attr) override;
  void setattr(Interp& in, const std::string& attr, Ref value) override;
  const arguments& params() const;
};

struct ClassObj : Obj {
  ~ClassObj() override {
    release_refs(bases);
    release_refs(attrs);
    release_refs(dataclass_fields);
  }
  std::string name;
  std::vector<Ref> bases;
  std::vector<std::pair<std::string, Ref>> attrs;
  std::vector<std::string> annotations;  // names annotated in the class body, in order
  bool is_dataclass = false;             // decorated with dataclasses.dataclass
  std::vector<std::pair<std::string, Ref>> dataclass_fields;  // name -> default (null: none)
  std::string type_name() const override { return "type"; }
  std::string repr() const override { return "<class '" + name + "'>"; }
  Ref lookup(const std::string& attr) const;
  Ref getattr(Interp& in, const std::string& attr) override;
  void setattr(Interp& in, const std::string& attr, Ref value) override;
  Ref call(Interp& in, CallArgs& args) override;
};

struct InstanceObj : Obj {
  ~InstanceObj() override { release_refs(attrs); }
  std::shared_ptr<ClassObj> cls;
  std::vector<std::pair<std::string, Ref>> attrs;
  std::string type_name() const override { return cls->name; }
  Ref getattr(Interp& in, const std::string& attr) override;
  void setattr(Interp& in, const std::string& attr, Ref value) override;
};

struct BoundMethod : Obj {
  ~BoundMethod() override {
    release_ref(self);
    release_ref(func);
  }
  Ref self;
  Ref func;
  std::string type_name() const override { return "method"; }
  Ref call(Interp& in, CallArgs& args) override;
};

// Exception classes and instances (for raise / try / except).
struct ExcClassObj : Obj {
  explicit ExcClassObj(std::string n, std::shared_ptr<ExcClassObj> b = nullptr)
      : name(std::move(n)), base(std::move(b)) {}
  std::string name;
  std::shared_ptr<ExcClassObj> base;
  std::string type_name() const override { return "type"; }
  std::string repr() const override { return "<class '" + name + "'>"; }
  Ref call(Interp& in, CallArgs& args) override;
  bool is_subclass_of(const std::string& other) const;
};
struct ExcObj : Obj {
  std::shared_ptr<ExcClassObj> cls;
  std::string message;
  std::string type_name() const override { return cls->name; }
  std::string repr() const override { return cls->name + "('" + message + "')"; }
  std::string str() const override { return message; }
  Ref getattr(Interp& in, const std::string& name) override;
};

// ------------------------------------------------------------------ helpers
Ref none();
Ref make_bool(bool b);
Ref make_int(int64_t v);
Ref make_float(double v);
Ref make_str(std::string s);
Ref make_tuple(std::vector<Ref> v);
Ref make_list(std::vector<Ref> v);

bool is_none(const Ref& r);
// Exact int (bool included); nullopt otherwise.
std::optional<int64_t> as_int(const Ref& r);
// int or float as double.
std::optional<double> as_number(const Ref& r);
const std::string* as_string(const Ref& r);
template <class T>
T* cast(const Ref& r) {
  return dynamic_cast<T*>(r.get());
}

// int64 arithmetic with overflow detection (Python ints are unbounded; ours error clearly).
int64_t checked_add(int64_t a, int64_t b);
int64_t checked_sub(int64_t a, int64_t b);
int64_t checked_mul(int64_t a, int64_t b);
int64_t floor_div(int64_t a, int64_t b);  // raises ZeroDivisionError
int64_t floor_mod(int64_t a, int64_t b);

}  // namespace nki::py
