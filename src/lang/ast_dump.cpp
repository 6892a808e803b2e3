#include "lang/ast_dump.h"

#include <cstdio>
#include <cstring>

namespace nki::py {

namespace {

// Field order and names follow CPython 3.11's ast module (`Node._fields`), which is what
// tools/pyast/dump.py walks.
class Dumper {
 public:
  std::string out;

  void module(const Module& m) {
    line(0, "Module");
    stmts(2, "body", m.body);
  }

 private:
  void line(int ind, const std::string& s) {
    out.append(static_cast<size_t>(ind), ' ');
    out += s;
    out += '\n';
  }
  static std::string pos(const SourceSpan& s) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " @%d:%d-%d:%d", s.begin.line, s.begin.col - 1, s.end.line,
                  s.end.col - 1);
    return buf;
  }
  static std::string esc(const std::string& b) {
    std::string o = "'";
    for (unsigned char c : b) {
      if (c >= 0x20 && c < 0x7F && c != '\\' && c != '\'') {
        o += static_cast<char>(c);
      } else {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\x%02x", c);
        o += buf;
      }
    }
    return o + "'";
  }
  static std::string opt_str(const std::string& s, bool present) { return present ? esc(s) : "None"; }
  static std::string bits(double d) {
    uint64_t u;
    std::memcpy(&u, &d, sizeof u);
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(u));
    return buf;
  }
  void field(int ind, const char* name, const std::string& v) { line(ind, std::string(name) + ": " + v); }
  void none(int ind, const char* name) { field(ind, name, "None"); }

  // ---------------------------------------------------------------- expressions
  void expr_field(int ind, const char* name, const ExprPtr& e) {
    if (!e) return none(ind, name);
    line(ind, std::string(name) + ":");
    expr(ind + 2, *e);
  }
  void expr_list(int ind, const char* name, const ExprList& l) {
    line(ind, std::string(name) + ": [" + std::to_string(l.size()) + "]");
    for (const auto& e : l) {
      if (e) expr(ind + 2, *e);
      else line(ind + 2, "None");
    }
  }
  static const char* ctx_name(ExprContext c) {
    switch (c) {
      case ExprContext::Load: return "Load";
      case ExprContext::Store: return "Store";
      case ExprContext::Del: return "Del";
    }
    return "Load";
  }
  static const char* op_name(Operator o) {
    static const char* const kNames[] = {"Add",    "Sub",    "Mult",   "MatMult", "Div",
                                         "Mod",    "Pow",    "LShift", "RShift",  "BitOr",
                                         "BitXor", "BitAnd", "FloorDiv"};
    return kNames[static_cast<int>(o)];
  }
  static const char* cmp_name(CmpOp o) {
    static const char* const kNames[] = {"Eq", "NotEq", "Lt", "LtE", "Gt",
                                         "GtE", "Is",   "IsNot", "In", "NotIn"};
    return kNames[static_cast<int>(o)];
  }
  static const char* unary_name(UnaryOpKind o) {
    static const char* const kNames[] = {"Invert", "Not", "UAdd", "USub"};
    return kNames[static_cast<int>(o)];
  }
  std::string const_value(const Constant& c) {
    switch (c.value_kind) {
      case Constant::Kind::None: return "None";
      case Constant::Kind::Bool: return c.bool_value ? "True" : "False";
      case Constant::Kind::Ellipsis: return "Ellipsis";
      case Constant::Kind::Int:
        return "int " + (c.big_int ? c.big_int_text : std::to_string(c.int_value));
      case Constant::Kind::Float: return "float " + bits(c.float_value);
      case Constant::Kind::Complex: return "complex " + bits(c.float_value);
      case Constant::Kind::Str: return "str " + esc(c.str_value);
      case Constant::Kind::Bytes: return "bytes " + esc(c.str_value);
    }
    return "None";
  }
  void generators(int ind, const std::vector<comprehension>& gens) {
    line(ind, "generators: [" + std::to_string(gens.size()) + "]");
    for (const auto& g : gens) {
      line(ind + 2, "comprehension");
      expr_field(ind + 4, "target", g.target);
      expr_field(ind + 4, "iter", g.iter);
      expr_list(ind + 4, "ifs", g.ifs);
      field(ind + 4, "is_async", g.is_async ? "1" : "0");
    }
  }
  void arg_node(int ind, const arg& a) {
    line(ind, "arg" + pos(a.span));
    field(ind + 2, "arg", esc(a.arg_name));
    expr_field(ind + 2, "annotation", a.annotation);
  }
  void arg_list(int ind, const char* name, const std::vector<arg>& l) {
    line(ind, std::string(name) + ": [" + std::to_string(l.size()) + "]");
    for (const auto& a : l) arg_node(ind + 2, a);
  }
  void opt_arg(int ind, const char* name, const std::unique_ptr<arg>& a) {
    if (!a) return none(ind, name);
    line(ind, std::string(name) + ":");
    arg_node(ind + 2, *a);
  }
  void arguments_field(int ind, const arguments& a) {
    line(ind, "args:");
    line(ind + 2, "arguments");
    int i = ind + 4;
    arg_list(i, "posonlyargs", a.posonlyargs);
    arg_list(i, "args", a.args);
    opt_arg(i, "vararg", a.vararg);
    arg_list(i, "kwonlyargs", a.kwonlyargs);
    expr_list(i, "kw_defaults", a.kw_defaults);
    opt_arg(i, "kwarg", a.kwarg);
    expr_list(i, "defaults", a.defaults);
  }
  void keywords(int ind, const std::vector<keyword>& ks) {
    line(ind, "keywords: [" + std::to_string(ks.size()) + "]");
    for (const auto& k : ks) {
      line(ind + 2, "keyword" + pos(k.span));
      field(ind + 4, "arg", opt_str(k.arg_name, !k.is_double_star));
      expr_field(ind + 4, "value", k.value);
    }
  }

  void expr(int ind, const Expr& e) {
    line(ind, std::string(kind_name(e.kind)) + pos(e.span));
    int i = ind + 2;
    switch (e.kind) {
      case ExprKind::BoolOp: {
        auto& x = static_cast<const BoolOp&>(e);
        field(i, "op", x.op == BoolOpKind::And ? "And" : "Or");
        expr_list(i, "values", x.values);
        break;
      }
      case ExprKind::NamedExpr: {
        auto& x = static_cast<const NamedExpr&>(e);
        expr_field(i, "target", x.target);
        expr_field(i, "value", x.value);
        break;
      }
      case ExprKind::BinOp: {
        auto& x = static_cast<const BinOp&>(e);
        expr_field(i, "left", x.left);
        field(i, "op", op_name(x.op));
        expr_field(i, "right", x.right);
        break;
      }
      case ExprKind::UnaryOp: {
        auto& x = static_cast<const UnaryOp&>(e);
        field(i, "op", unary_name(x.op));
        expr_field(i, "operand", x.operand);
        break;
      }
      case ExprKind::Lambda: {
        auto& x = static_cast<const Lambda&>(e);
        arguments_field(i, x.args);
        expr_field(i, "body", x.body);
        break;
      }
      case ExprKind::IfExp: {
        auto& x = static_cast<const IfExp&>(e);
        expr_field(i, "test", x.test);
        expr_field(i, "body", x.body);
        expr_field(i, "orelse", x.orelse);
        break;
      }
      case ExprKind::Dict: {
        auto& x = static_cast<const Dict&>(e);
        expr_list(i, "keys", x.keys);
        expr_list(i, "values", x.values);
        break;
      }
      case ExprKind::Set: expr_list(i, "elts", static_cast<const Set&>(e).elts); break;
      case ExprKind::ListComp: {
        auto& x = static_cast<const ListComp&>(e);
        expr_field(i, "elt", x.elt);
        generators(i, x.generators);
        break;
      }
      case ExprKind::SetComp: {
        auto& x = static_cast<const SetComp&>(e);
        expr_field(i, "elt", x.elt);
        generators(i, x.generators);
        break;
      }
      case ExprKind::DictComp: {
        auto& x = static_cast<const DictComp&>(e);
        expr_field(i, "key", x.key);
        expr_field(i, "value", x.value);
        generators(i, x.generators);
        break;
      }
      case ExprKind::GeneratorExp: {
        auto& x = static_cast<const GeneratorExp&>(e);
        expr_field(i, "elt", x.elt);
        generators(i, x.generators);
        break;
      }
      case ExprKind::Await: expr_field(i, "value", static_cast<const Await&>(e).value); break;
      case ExprKind::Yield: expr_field(i, "value", static_cast<const Yield&>(e).value); break;
      case ExprKind::YieldFrom: expr_field(i, "value", static_cast<const YieldFrom&>(e).value); break;
      case ExprKind::Compare: {
        auto& x = static_cast<const Compare&>(e);
        expr_field(i, "left", x.left);
        line(i, "ops: [" + std::to_string(x.ops.size()) + "]");
        for (CmpOp o : x.ops) line(i + 2, cmp_name(o));
        expr_list(i, "comparators", x.comparators);
        break;
      }
      case ExprKind::Call: {
        auto& x = static_cast<const Call&>(e);
        expr_field(i, "func", x.func);
        expr_list(i, "args", x.args);
        keywords(i, x.keywords);
        break;
      }
      case ExprKind::FormattedValue: {
        auto& x = static_cast<const FormattedValue&>(e);
        expr_field(i, "value", x.value);
        field(i, "conversion", std::to_string(x.conversion));
        expr_field(i, "format_spec", x.format_spec);
        break;
      }
      case ExprKind::JoinedStr: expr_list(i, "values", static_cast<const JoinedStr&>(e).values); break;
      case ExprKind::Constant: {
        auto& x = static_cast<const Constant&>(e);
        field(i, "value", const_value(x));
        field(i, "kind", x.u_prefix ? "'u'" : "None");
        break;
      }
      case ExprKind::Attribute: {
        auto& x = static_cast<const Attribute&>(e);
        expr_field(i, "value", x.value);
        field(i, "attr", esc(x.attr));
        field(i, "ctx", ctx_name(x.ctx));
        break;
      }
      case ExprKind::Subscript: {
        auto& x = static_cast<const Subscript&>(e);
        expr_field(i, "value", x.value);
        expr_field(i, "slice", x.slice);
        field(i, "ctx", ctx_name(x.ctx));
        break;
      }
      case ExprKind::Starred: {
        auto& x = static_cast<const Starred&>(e);
        expr_field(i, "value", x.value);
        field(i, "ctx", ctx_name(x.ctx));
        break;
      }
      case ExprKind::Name: {
        auto& x = static_cast<const Name&>(e);
        field(i, "id", esc(x.id));
        field(i, "ctx", ctx_name(x.ctx));
        break;
      }
      case ExprKind::List: {
        auto& x = static_cast<const List&>(e);
        expr_list(i, "elts", x.elts);
        field(i, "ctx", ctx_name(x.ctx));
        break;
      }
      case ExprKind::Tuple: {
        auto& x = static_cast<const Tuple&>(e);
        expr_list(i, "elts", x.elts);
        field(i, "ctx", ctx_name(x.ctx));
        break;
      }
      case ExprKind::Slice: {
        auto& x = static_cast<const Slice&>(e);
        expr_field(i, "lower", x.lower);
        expr_field(i, "upper", x.upper);
        expr_field(i, "step", x.step);
        break;
      }
    }
  }

  static const char* kind_name(ExprKind k) {
    static const char* const kNames[] = {
        "BoolOp",   "NamedExpr", "BinOp",        "UnaryOp", "Lambda",         "IfExp",
        "Dict",     "Set",       "ListComp",     "SetComp", "DictComp",       "GeneratorExp",
        "Await",    "Yield",     "YieldFrom",    "Compare", "Call",           "FormattedValue",
        "JoinedStr", "Constant", "Attribute",    "Subscript", "Starred",      "Name",
        "List",     "Tuple",     "Slice"};
    return kNames[static_cast<int>(k)];
  }

  // ---------------------------------------------------------------- patterns
  void pattern_field(int ind, const char* name, const PatternPtr& p) {
    if (!p) return none(ind, name);
    line(ind, std::string(name) + ":");
    pattern(ind + 2, *p);
  }
  void pattern_list(int ind, const char* name, const PatternList& l) {
    line(ind, std::string(name) + ": [" + std::to_string(l.size()) + "]");
    for (const auto& p : l) pattern(ind + 2, *p);
  }
  void pattern(int ind, const Pattern& p) {
    static const char* const kNames[] = {"MatchValue", "MatchSingleton", "MatchSequence",
                                         "MatchMapping", "MatchClass", "MatchStar",
                                         "MatchAs", "MatchOr"};
    line(ind, std::string(kNames[static_cast<int>(p.kind)]) + pos(p.span));
    int i = ind + 2;
    switch (p.kind) {
      case PatternKind::MatchValue: expr_field(i, "value", static_cast<const MatchValue&>(p).value); break;
      case PatternKind::MatchSingleton: {
        auto& x = static_cast<const MatchSingleton&>(p);
        field(i, "value", const_value(static_cast<const Constant&>(*x.value)));
        break;
      }
      case PatternKind::MatchSequence: pattern_list(i, "patterns", static_cast<const MatchSequence&>(p).patterns); break;
      case PatternKind::MatchMapping: {
        auto& x = static_cast<const MatchMapping&>(p);
        expr_list(i, "keys", x.keys);
        pattern_list(i, "patterns", x.patterns);
        field(i, "rest", opt_str(x.rest, x.has_rest));
        break;
      }
      case PatternKind::MatchClass: {
        auto& x = static_cast<const MatchClass&>(p);
        expr_field(i, "cls", x.cls);
        pattern_list(i, "patterns", x.patterns);
        line(i, "kwd_attrs: [" + std::to_string(x.kwd_attrs.size()) + "]");
        for (const auto& a : x.kwd_attrs) line(i + 2, esc(a));
        pattern_list(i, "kwd_patterns", x.kwd_patterns);
        break;
      }
      case PatternKind::MatchStar: {
        auto& x = static_cast<const MatchStar&>(p);
        field(i, "name", opt_str(x.name, x.has_name));
        break;
      }
      case PatternKind::MatchAs: {
        auto& x = static_cast<const MatchAs&>(p);
        pattern_field(i, "pattern", x.pattern);
        field(i, "name", opt_str(x.name, x.has_name));
        break;
      }
      case PatternKind::MatchOr: pattern_list(i, "patterns", static_cast<const MatchOr&>(p).patterns); break;
    }
  }

  // ---------------------------------------------------------------- statements
  void stmts(int ind, const char* name, const StmtList& l) {
    line(ind, std::string(name) + ": [" + std::to_string(l.size()) + "]");
    for (const auto& s : l) stmt(ind + 2, *s);
  }
  void aliases(int ind, const std::vector<alias>& l) {
    line(ind, "names: [" + std::to_string(l.size()) + "]");
    for (const auto& a : l) {
      line(ind + 2, "alias" + pos(a.span));
      field(ind + 4, "name", esc(a.name));
      field(ind + 4, "asname", opt_str(a.asname, !a.asname.empty()));
    }
  }
  void names(int ind, const std::vector<std::string>& l) {
    line(ind, "names: [" + std::to_string(l.size()) + "]");
    for (const auto& n : l) line(ind + 2, esc(n));
  }

  void stmt(int ind, const Stmt& s) {
    static const char* const kNames[] = {
        "FunctionDef", "AsyncFunctionDef", "ClassDef", "Return", "Delete", "Assign", "AugAssign",
        "AnnAssign", "For", "AsyncFor", "While", "If", "With", "AsyncWith", "Match", "Raise",
        "Try", "TryStar", "Assert", "Import", "ImportFrom", "Global", "Nonlocal", "Expr",
        "Pass", "Break", "Continue"};
    line(ind, std::string(kNames[static_cast<int>(s.kind)]) + pos(s.span));
    int i = ind + 2;
    switch (s.kind) {
      case StmtKind::FunctionDef: case StmtKind::AsyncFunctionDef: {
        auto& x = static_cast<const FunctionDef&>(s);
        field(i, "name", esc(x.name));
        arguments_field(i, x.args);
        stmts(i, "body", x.body);
        expr_list(i, "decorator_list", x.decorator_list);
        expr_field(i, "returns", x.returns);
        break;
      }
      case StmtKind::ClassDef: {
        auto& x = static_cast<const ClassDef&>(s);
        field(i, "name", esc(x.name));
        expr_list(i, "bases", x.bases);
        keywords(i, x.keywords);
        stmts(i, "body", x.body);
        expr_list(i, "decorator_list", x.decorator_list);
        break;
      }
      case StmtKind::Return: expr_field(i, "value", static_cast<const Return&>(s).value); break;
      case StmtKind::Delete: expr_list(i, "targets", static_cast<const Delete&>(s).targets); break;
      case StmtKind::Assign: {
        auto& x = static_cast<const Assign&>(s);
        expr_list(i, "targets", x.targets);
        expr_field(i, "value", x.value);
        break;
      }
      case StmtKind::AugAssign: {
        auto& x = static_cast<const AugAssign&>(s);
        expr_field(i, "target", x.target);
        field(i, "op", op_name(x.op));
        expr_field(i, "value", x.value);
        break;
      }
      case StmtKind::AnnAssign: {
        auto& x = static_cast<const AnnAssign&>(s);
        expr_field(i, "target", x.target);
        expr_field(i, "annotation", x.annotation);
        expr_field(i, "value", x.value);
        field(i, "simple", x.simple ? "1" : "0");
        break;
      }
      case StmtKind::For: case StmtKind::AsyncFor: {
        auto& x = static_cast<const For&>(s);
        expr_field(i, "target", x.target);
        expr_field(i, "iter", x.iter);
        stmts(i, "body", x.body);
        stmts(i, "orelse", x.orelse);
        break;
      }
      case StmtKind::While: {
        auto& x = static_cast<const While&>(s);
        expr_field(i, "test", x.test);
        stmts(i, "body", x.body);
        stmts(i, "orelse", x.orelse);
        break;
      }
      case StmtKind::If: {
        auto& x = static_cast<const If&>(s);
        expr_field(i, "test", x.test);
        stmts(i, "body", x.body);
        stmts(i, "orelse", x.orelse);
        break;
      }
      case StmtKind::With: case StmtKind::AsyncWith: {
        auto& x = static_cast<const With&>(s);
        line(i, "items: [" + std::to_string(x.items.size()) + "]");
        for (const auto& it : x.items) {
          line(i + 2, "withitem");
          expr_field(i + 4, "context_expr", it.context_expr);
          expr_field(i + 4, "optional_vars", it.optional_vars);
        }
        stmts(i, "body", x.body);
        break;
      }
      case StmtKind::Match: {
        auto& x = static_cast<const Match&>(s);
        expr_field(i, "subject", x.subject);
        line(i, "cases: [" + std::to_string(x.cases.size()) + "]");
        for (const auto& c : x.cases) {
          line(i + 2, "match_case");
          pattern_field(i + 4, "pattern", c.pattern);
          expr_field(i + 4, "guard", c.guard);
          stmts(i + 4, "body", c.body);
        }
        break;
      }
      case StmtKind::Raise: {
        auto& x = static_cast<const Raise&>(s);
        expr_field(i, "exc", x.exc);
        expr_field(i, "cause", x.cause);
        break;
      }
      case StmtKind::Try: case StmtKind::TryStar: {
        auto& x = static_cast<const Try&>(s);
        stmts(i, "body", x.body);
        line(i, "handlers: [" + std::to_string(x.handlers.size()) + "]");
        for (const auto& h : x.handlers) {
          line(i + 2, "ExceptHandler" + pos(h.span));
          expr_field(i + 4, "type", h.type);
          field(i + 4, "name", opt_str(h.name, !h.name.empty()));
          stmts(i + 4, "body", h.body);
        }
        stmts(i, "orelse", x.orelse);
        stmts(i, "finalbody", x.finalbody);
        break;
      }
      case StmtKind::Assert: {
        auto& x = static_cast<const Assert&>(s);
        expr_field(i, "test", x.test);
        expr_field(i, "msg", x.msg);
        break;
      }
      case StmtKind::Import: aliases(i, static_cast<const Import&>(s).names); break;
      case StmtKind::ImportFrom: {
        auto& x = static_cast<const ImportFrom&>(s);
        field(i, "module", opt_str(x.module, !x.module.empty()));
        aliases(i, x.names);
        field(i, "level", std::to_string(x.level));
        break;
      }
      case StmtKind::Global: names(i, static_cast<const Global&>(s).names); break;
      case StmtKind::Nonlocal: names(i, static_cast<const Nonlocal&>(s).names); break;
      case StmtKind::Expr: expr_field(i, "value", static_cast<const ExprStmt&>(s).value); break;
      case StmtKind::Pass: case StmtKind::Break: case StmtKind::Continue: break;
    }
  }
};

}  // namespace

std::string dump_ast(const Module& m) {
  Dumper d;
  d.module(m);
  return d.out;
}

}  // namespace nki::py
