// Python 3.11 abstract syntax tree. Node and field names mirror CPython's `ast` module
// (https://docs.python.org/3.11/library/ast.html) so that a canonical dump can be compared with
// CPython's own parser (tests/lang differential test) and so readers can rely on the Python docs.
//
// Ownership: every child is a unique_ptr owned by its parent; optional children are null.
// Positions: `span.begin` is the node's first character (line 1-based, col 1-based), `span.end`
// is one past its last character (same convention as CPython's end_col_offset, but 1-based).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/source.h"

namespace nki::py {

struct Node {
  SourceSpan span;
};

// ---------------------------------------------------------------- expressions
enum class ExprKind : uint8_t {
  BoolOp, NamedExpr, BinOp, UnaryOp, Lambda, IfExp, Dict, Set, ListComp, SetComp, DictComp,
  GeneratorExp, Await, Yield, YieldFrom, Compare, Call, FormattedValue, JoinedStr, Constant,
  Attribute, Subscript, Starred, Name, List, Tuple, Slice,
};

enum class ExprContext : uint8_t { Load, Store, Del };
enum class BoolOpKind : uint8_t { And, Or };
enum class Operator : uint8_t {
  Add, Sub, Mult, MatMult, Div, Mod, Pow, LShift, RShift, BitOr, BitXor, BitAnd, FloorDiv,
};
enum class UnaryOpKind : uint8_t { Invert, Not, UAdd, USub };
enum class CmpOp : uint8_t { Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn };

struct Expr : Node {
  explicit Expr(ExprKind k) : kind(k) {}
  virtual ~Expr() = default;
  const ExprKind kind;
};
using ExprPtr = std::unique_ptr<Expr>;
using ExprList = std::vector<ExprPtr>;

struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;
using StmtList = std::vector<StmtPtr>;

// Downcast helpers: as<T>(e) returns null when e is not a T.
template <class T>
const T* as(const Expr* e) {
  return e && e->kind == T::kKind ? static_cast<const T*>(e) : nullptr;
}
template <class T>
T* as(Expr* e) {
  return e && e->kind == T::kKind ? static_cast<T*>(e) : nullptr;
}

#define NKI_PY_EXPR(Name)                          \
  static constexpr ExprKind kKind = ExprKind::Name; \
  Name() : Expr(kKind) {}

struct arg : Node {
  std::string arg_name;  // CPython field `arg`
  ExprPtr annotation;    // may be null
};

struct arguments {
  std::vector<arg> posonlyargs;
  std::vector<arg> args;
  std::unique_ptr<arg> vararg;    // *args, may be null
  std::vector<arg> kwonlyargs;
  ExprList kw_defaults;           // same length as kwonlyargs; null entry = no default
  std::unique_ptr<arg> kwarg;     // **kwargs, may be null
  ExprList defaults;              // defaults of the LAST len(defaults) of posonlyargs+args
};

struct keyword : Node {
  std::string arg_name;  // empty for **mapping
  bool is_double_star = false;
  ExprPtr value;
};

struct comprehension {
  ExprPtr target;
  ExprPtr iter;
  ExprList ifs;
  bool is_async = false;
};

struct BoolOp : Expr { NKI_PY_EXPR(BoolOp) BoolOpKind op{}; ExprList values; };
struct NamedExpr : Expr { NKI_PY_EXPR(NamedExpr) ExprPtr target; ExprPtr value; };
struct BinOp : Expr { NKI_PY_EXPR(BinOp) ExprPtr left; Operator op{}; ExprPtr right; };
struct UnaryOp : Expr { NKI_PY_EXPR(UnaryOp) UnaryOpKind op{}; ExprPtr operand; };
struct Lambda : Expr { NKI_PY_EXPR(Lambda) arguments args; ExprPtr body; };
struct IfExp : Expr { NKI_PY_EXPR(IfExp) ExprPtr test; ExprPtr body; ExprPtr orelse; };
// keys[i] is null for a `**mapping` entry.
struct Dict : Expr { NKI_PY_EXPR(Dict) ExprList keys; ExprList values; };
struct Set : Expr { NKI_PY_EXPR(Set) ExprList elts; };
struct ListComp : Expr { NKI_PY_EXPR(ListComp) ExprPtr elt; std::vector<comprehension> generators; };
struct SetComp : Expr { NKI_PY_EXPR(SetComp) ExprPtr elt; std::vector<comprehension> generators; };
struct DictComp : Expr {
  NKI_PY_EXPR(DictComp) ExprPtr key; ExprPtr value; std::vector<comprehension> generators;
};
struct GeneratorExp : Expr {
  NKI_PY_EXPR(GeneratorExp) ExprPtr elt; std::vector<comprehension> generators;
};
struct Await : Expr { NKI_PY_EXPR(Await) ExprPtr value; };
struct Yield : Expr { NKI_PY_EXPR(Yield) ExprPtr value; /* may be null */ };
struct YieldFrom : Expr { NKI_PY_EXPR(YieldFrom) ExprPtr value; };
struct Compare : Expr {
  NKI_PY_EXPR(Compare) ExprPtr left; std::vector<CmpOp> ops; ExprList comparators;
};
struct Call : Expr { NKI_PY_EXPR(Call) ExprPtr func; ExprList args; std::vector<keyword> keywords; };
// conversion: -1 none, 's', 'r', 'a'. format_spec is a JoinedStr or null.
struct FormattedValue : Expr {
  NKI_PY_EXPR(FormattedValue) ExprPtr value; int conversion = -1; ExprPtr format_spec;
};
struct JoinedStr : Expr { NKI_PY_EXPR(JoinedStr) ExprList values; };

struct Constant : Expr {
  NKI_PY_EXPR(Constant)
  enum class Kind : uint8_t { None, Bool, Int, Float, Complex, Str, Bytes, Ellipsis };
  Kind value_kind = Kind::None;
  bool bool_value = false;
  int64_t int_value = 0;
  // Integers that do not fit in int64 keep their exact decimal digits here and set big_int.
  bool big_int = false;
  std::string big_int_text;
  double float_value = 0.0;   // Float, or the imaginary part of a Complex literal
  std::string str_value;      // Str: UTF-8 text; Bytes: raw bytes
  bool u_prefix = false;      // CPython's Constant.kind == 'u'
};

struct Attribute : Expr { NKI_PY_EXPR(Attribute) ExprPtr value; std::string attr; ExprContext ctx{}; };
struct Subscript : Expr { NKI_PY_EXPR(Subscript) ExprPtr value; ExprPtr slice; ExprContext ctx{}; };
struct Starred : Expr { NKI_PY_EXPR(Starred) ExprPtr value; ExprContext ctx{}; };
struct Name : Expr { NKI_PY_EXPR(Name) std::string id; ExprContext ctx{}; };
struct List : Expr { NKI_PY_EXPR(List) ExprList elts; ExprContext ctx{}; };
struct Tuple : Expr { NKI_PY_EXPR(Tuple) ExprList elts; ExprContext ctx{}; };
struct Slice : Expr { NKI_PY_EXPR(Slice) ExprPtr lower; ExprPtr upper; ExprPtr step; };

#undef NKI_PY_EXPR

// ---------------------------------------------------------------- patterns (match statement)
enum class PatternKind : uint8_t {
  MatchValue, MatchSingleton, MatchSequence, MatchMapping, MatchClass, MatchStar, MatchAs, MatchOr,
};

struct Pattern : Node {
  explicit Pattern(PatternKind k) : kind(k) {}
  virtual ~Pattern() = default;
  const PatternKind kind;
};
using PatternPtr = std::unique_ptr<Pattern>;
using PatternList = std::vector<PatternPtr>;

#define NKI_PY_PATTERN(Name)                             \
  static constexpr PatternKind kKind = PatternKind::Name; \
  Name() : Pattern(kKind) {}

struct MatchValue : Pattern { NKI_PY_PATTERN(MatchValue) ExprPtr value; };
struct MatchSingleton : Pattern { NKI_PY_PATTERN(MatchSingleton) ExprPtr value; /* Constant */ };
struct MatchSequence : Pattern { NKI_PY_PATTERN(MatchSequence) PatternList patterns; };
struct MatchMapping : Pattern {
  NKI_PY_PATTERN(MatchMapping) ExprList keys; PatternList patterns; std::string rest; bool has_rest = false;
};
struct MatchClass : Pattern {
  NKI_PY_PATTERN(MatchClass)
  ExprPtr cls; PatternList patterns; std::vector<std::string> kwd_attrs; PatternList kwd_patterns;
};
struct MatchStar : Pattern { NKI_PY_PATTERN(MatchStar) std::string name; bool has_name = false; };
struct MatchAs : Pattern {
  NKI_PY_PATTERN(MatchAs) PatternPtr pattern; std::string name; bool has_name = false;
};
struct MatchOr : Pattern { NKI_PY_PATTERN(MatchOr) PatternList patterns; };

#undef NKI_PY_PATTERN

// ---------------------------------------------------------------- statements
enum class StmtKind : uint8_t {
  FunctionDef, AsyncFunctionDef, ClassDef, Return, Delete, Assign, AugAssign, AnnAssign, For,
  AsyncFor, While, If, With, AsyncWith, Match, Raise, Try, TryStar, Assert, Import, ImportFrom,
  Global, Nonlocal, Expr, Pass, Break, Continue,
};

struct Stmt : Node {
  explicit Stmt(StmtKind k) : kind(k) {}
  virtual ~Stmt() = default;
  const StmtKind kind;
};

template <class T>
const T* as(const Stmt* s) {
  return s && s->kind == T::kKind ? static_cast<const T*>(s) : nullptr;
}
template <class T>
const T* as(const Pattern* p) {
  return p && p->kind == T::kKind ? static_cast<const T*>(p) : nullptr;
}

#define NKI_PY_STMT(Name)                           \
  static constexpr StmtKind kKind = StmtKind::Name; \
  Name() : Stmt(kKind) {}

struct alias : Node {
  std::string name;    // dotted name, e.g. "neuronxcc.nki.language"
  std::string asname;  // empty when absent
};

struct withitem {
  ExprPtr context_expr;
  ExprPtr optional_vars;  // may be null
};

struct excepthandler : Node {
  ExprPtr type;      // may be null (bare except)
  std::string name;  // empty when absent
  StmtList body;
};

struct match_case {
  PatternPtr pattern;
  ExprPtr guard;  // may be null
  StmtList body;
};

// FunctionDef and AsyncFunctionDef share one struct; `is_async` tells them apart (kind differs).
struct FunctionDef : Stmt {
  static constexpr StmtKind kKind = StmtKind::FunctionDef;
  FunctionDef() : Stmt(kKind) {}
  explicit FunctionDef(bool async) : Stmt(async ? StmtKind::AsyncFunctionDef : kKind) {}
  std::string name;
  arguments args;
  StmtList body;
  ExprList decorator_list;
  ExprPtr returns;  // may be null
};
struct ClassDef : Stmt {
  NKI_PY_STMT(ClassDef)
  std::string name; ExprList bases; std::vector<keyword> keywords; StmtList body;
  ExprList decorator_list;
};
struct Return : Stmt { NKI_PY_STMT(Return) ExprPtr value; /* may be null */ };
struct Delete : Stmt { NKI_PY_STMT(Delete) ExprList targets; };
struct Assign : Stmt { NKI_PY_STMT(Assign) ExprList targets; ExprPtr value; };
struct AugAssign : Stmt { NKI_PY_STMT(AugAssign) ExprPtr target; Operator op{}; ExprPtr value; };
struct AnnAssign : Stmt {
  NKI_PY_STMT(AnnAssign) ExprPtr target; ExprPtr annotation; ExprPtr value; bool simple = false;
};
// For and AsyncFor share one struct (kind differs).
struct For : Stmt {
  static constexpr StmtKind kKind = StmtKind::For;
  For() : Stmt(kKind) {}
  explicit For(bool async) : Stmt(async ? StmtKind::AsyncFor : kKind) {}
  ExprPtr target; ExprPtr iter; StmtList body; StmtList orelse;
};
struct While : Stmt { NKI_PY_STMT(While) ExprPtr test; StmtList body; StmtList orelse; };
struct If : Stmt { NKI_PY_STMT(If) ExprPtr test; StmtList body; StmtList orelse; };
// With and AsyncWith share one struct (kind differs).
struct With : Stmt {
  static constexpr StmtKind kKind = StmtKind::With;
  With() : Stmt(kKind) {}
  explicit With(bool async) : Stmt(async ? StmtKind::AsyncWith : kKind) {}
  std::vector<withitem> items; StmtList body;
};
struct Match : Stmt { NKI_PY_STMT(Match) ExprPtr subject; std::vector<match_case> cases; };
struct Raise : Stmt { NKI_PY_STMT(Raise) ExprPtr exc; ExprPtr cause; };
// Try and TryStar (except*) share one struct (kind differs).
struct Try : Stmt {
  static constexpr StmtKind kKind = StmtKind::Try;
  Try() : Stmt(kKind) {}
  explicit Try(bool star) : Stmt(star ? StmtKind::TryStar : kKind) {}
  StmtList body; std::vector<excepthandler> handlers; StmtList orelse; StmtList finalbody;
};
struct Assert : Stmt { NKI_PY_STMT(Assert) ExprPtr test; ExprPtr msg; };
struct Import : Stmt { NKI_PY_STMT(Import) std::vector<alias> names; };
struct ImportFrom : Stmt {
  NKI_PY_STMT(ImportFrom) std::string module; /* empty for `from . import x` */
  std::vector<alias> names; int level = 0;
};
struct Global : Stmt { NKI_PY_STMT(Global) std::vector<std::string> names; };
struct Nonlocal : Stmt { NKI_PY_STMT(Nonlocal) std::vector<std::string> names; };
struct ExprStmt : Stmt {
  static constexpr StmtKind kKind = StmtKind::Expr;
  ExprStmt() : Stmt(kKind) {}
  ExprPtr value;
};
struct Pass : Stmt { NKI_PY_STMT(Pass) };
struct Break : Stmt { NKI_PY_STMT(Break) };
struct Continue : Stmt { NKI_PY_STMT(Continue) };

#undef NKI_PY_STMT

// A parsed file. Keeps the SourceFile alive for diagnostics.
struct Module {
  SourceFilePtr file;
  StmtList body;
};

}  // namespace nki::py
