#include "snippet_generator.h"

namespace nki::py::testing {

namespace {
// Binding strength of each expression form, lowest first (Python 3.11 precedence table).
constexpr int kPrecLambda = 0, kPrecIf = 1, kPrecOr = 2, kPrecAnd = 3, kPrecNot = 4, kPrecCmp = 5,
              kPrecBitOr = 6, kPrecXor = 7, kPrecBitAnd = 8, kPrecShift = 9, kPrecArith = 10,
              kPrecTerm = 11, kPrecUnary = 12, kPrecPower = 13, kPrecAwait = 14, kPrecAtom = 15;

const char* const kNames[] = {"a", "b", "x", "y", "nl", "tile", "i_p", "_", "match", "case",
                              "ünï", "self", "np", "acc"};
}  // namespace

std::string SnippetGenerator::sp() { return chance(70) ? " " : (chance(50) ? "" : "  "); }

std::string SnippetGenerator::name() { return kNames[pick(sizeof kNames / sizeof kNames[0])]; }

std::string SnippetGenerator::wrap(const E& e, int min_prec) {
  if (e.prec < min_prec) return "(" + e.text + ")";
  return e.text;
}

std::string SnippetGenerator::number() {
  switch (pick(10)) {
    case 0: return "0x" + std::string(chance(50) ? "_" : "") + "1f";
    case 1: return "0o17";
    case 2: return "0b1_01";
    case 3: return "1_000";
    case 4: return std::to_string(pick(1000)) + "." + std::to_string(pick(100));
    case 5: return "1e" + std::to_string(pick(40) - 20);
    case 6: return std::to_string(pick(50)) + "j";
    case 7: return ".5";
    case 8: return "123456789012345678901234567890";
    default: return std::to_string(pick(300));
  }
}

std::string SnippetGenerator::string_literal() {
  static const char* const kStrs[] = {
      "'s'", "\"d\"", "'''t'''", "\"\"\"u\nv\"\"\"", "r'\\d'", "b'\\x00\\n'", "'\\t\\u00e9'",
      "u'k'", "'é'", "''", "'a\\\nb'", "\"q'\"", "Rb'x'"};
  std::string s = kStrs[pick(sizeof kStrs / sizeof kStrs[0])];
  bool bytes = s.find('b') != std::string::npos && (s[0] == 'b' || s[1] == 'b');
  if (chance(20) && !bytes) s += " 'cat'";  // implicit concatenation (a space: '' 'x' != '''x')
  return s;
}

std::string SnippetGenerator::fstring(int depth) {
  std::string q = chance(50) ? "\"" : "'";
  std::string s = (chance(80) ? "f" : "rf") + q;
  int parts = 1 + pick(3);
  for (int i = 0; i < parts; ++i) {
    if (chance(50)) s += chance(20) ? "{{lit}}" : "text ";
    s += "{";
    if (chance(15)) s += " ";
    s += expr(depth + 2, true).text;
    if (chance(15)) s += "=";
    if (chance(25)) s += std::string("!") + "rsa"[pick(3)];
    if (chance(25)) s += chance(50) ? ":>10" : ":{" + name() + "}.2f";
    s += "}";
  }
  s += q;
  if (chance(15)) s += sp() + "'tail'";
  return s;
}

std::string SnippetGenerator::call_args(int depth, bool in_fstring) {
  std::string s;
  int n = pick(4);
  bool kw = false, dstar = false;
  for (int i = 0; i < n; ++i) {
    if (i) s += "," + sp();
    int r = pick(10);
    if (r == 2 && dstar) r = 0;  // `*x` may not follow `**y`
    if (r == 3) dstar = true;
    if (r < 2) {
      s += name() + "=" + wrap(expr(depth + 1, in_fstring), kPrecLambda);
      kw = true;
    } else if (r == 2) {
      s += "*" + wrap(expr(depth + 1, in_fstring), kPrecBitOr);
    } else if (r == 3 && !in_fstring) {
      s += "**" + wrap(expr(depth + 1, in_fstring), kPrecBitOr);
      kw = true;
    } else if (!kw) {
      s += wrap(expr(depth + 1, in_fstring), kPrecLambda);
    } else {
      s += name() + "=" + name();
    }
  }
  if (n == 1 && chance(20) && !kw) s += ",";
  return s;
}

std::string SnippetGenerator::subscript(int depth, bool in_fstring) {
  auto part = [&]() -> std::string {
    switch (pick(6)) {
      case 0: return ":";
      case 1: return wrap(expr(depth + 1, in_fstring), kPrecIf) + ":";
      case 2: return ":" + wrap(expr(depth + 1, in_fstring), kPrecIf);
      case 3: return "::" + wrap(expr(depth + 1, in_fstring), kPrecIf);
      case 4: return wrap(expr(depth + 1, in_fstring), kPrecIf) + ":" + name() + ":" + name();
      default: return wrap(expr(depth + 1, in_fstring), kPrecIf);
    }
  };
  std::string s = part();
  int extra = chance(40) ? 1 + pick(2) : 0;
  for (int i = 0; i < extra; ++i) s += "," + sp() + (chance(20) ? "..." : part());
  if (chance(10)) s += ",";
  return s;
}

std::string SnippetGenerator::target() {
  switch (pick(6)) {
    case 0: return name() + "," + sp() + name();
    case 1: return "(" + name() + "," + sp() + name() + ")";
    case 2: return "[" + name() + ", *" + name() + "]";
    default: return name();
  }
}

std::string SnippetGenerator::comprehension(int depth) {
  std::string s = (chance(10) ? " async" : "") + std::string(" for ") + target() + " in " +
                  wrap(expr(depth + 1), kPrecOr);
  if (chance(30)) s += " if " + wrap(expr(depth + 1), kPrecOr);
  if (chance(15)) s += " for " + name() + " in " + name();
  return s;
}

SnippetGenerator::E SnippetGenerator::atom(int depth, bool in_fstring) {
  int r = pick(in_fstring ? 4 : 16);
  switch (r) {
    case 0: case 1: return {name(), kPrecAtom};
    case 2: return {number(), kPrecAtom, true};
    case 3: return {chance(50) ? "None" : (chance(50) ? "True" : "..."), kPrecAtom};
    case 4: return {string_literal(), kPrecAtom};
    case 5: return {depth < 3 ? fstring(depth) : "f''", kPrecAtom};
    case 6: {
      std::string s = "[";
      int n = depth < 4 ? pick(4) : 0;
      for (int i = 0; i < n; ++i) {
        if (i) s += "," + sp();
        s += chance(20) ? "*" + name() : wrap(expr(depth + 1), kPrecLambda);
      }
      if (n && chance(20)) s += ",";
      return {s + "]", kPrecAtom};
    }
    case 7: {
      std::string s = "(" + wrap(expr(depth + 1), kPrecLambda) + "," + sp();
      if (chance(50)) s += wrap(expr(depth + 1), kPrecLambda);
      return {s + ")", kPrecAtom};
    }
    case 8: {
      if (chance(50)) return {"{}", kPrecAtom};
      std::string s = "{" + wrap(expr(depth + 1), kPrecIf) + ":" + sp() + wrap(expr(depth + 1), kPrecLambda);
      if (chance(40)) s += ", **" + name();
      return {s + "}", kPrecAtom};
    }
    case 9: return {"{" + wrap(expr(depth + 1), kPrecLambda) + (chance(50) ? ", *" + name() : "") + "}", kPrecAtom};
    case 10: {
      static const char* const kOpen[] = {"[", "(", "{"};
      static const char* const kClose[] = {"]", ")", "}"};
      int k = pick(3);
      std::string elt = wrap(expr(depth + 1), kPrecLambda);
      if (k == 2 && chance(50)) elt += ": " + name();
      return {kOpen[k] + elt + comprehension(depth) + kClose[k], kPrecAtom};
    }
    case 11: return {"(" + name() + " := " + wrap(expr(depth + 1), kPrecLambda) + ")", kPrecAtom};
    case 12: return {"()", kPrecAtom};
    case 13: return {"(yield " + name() + ")", kPrecAtom};
    default: return {name(), kPrecAtom};
  }
}

SnippetGenerator::E SnippetGenerator::expr(int depth, bool in_fstring) {
  if (depth > 5) return atom(depth, in_fstring);
  int r = pick(in_fstring ? 12 : 17);
  static const char* const kCmp[] = {"<", "<=", ">", ">=", "==", "!=", "in", "not in", "is", "is not"};
  switch (r) {
    case 0: case 1: case 2: return atom(depth, in_fstring);
    case 3: {  // binary arithmetic / bitwise, left-associative
      static const struct { const char* op; int prec; } kOps[] = {
          {"|", kPrecBitOr}, {"^", kPrecXor}, {"&", kPrecBitAnd}, {"<<", kPrecShift},
          {">>", kPrecShift}, {"+", kPrecArith}, {"-", kPrecArith}, {"*", kPrecTerm},
          {"/", kPrecTerm}, {"//", kPrecTerm}, {"%", kPrecTerm}, {"@", kPrecTerm}};
      auto op = kOps[pick(12)];
      E l = expr(depth + 1, in_fstring), rr = expr(depth + 1, in_fstring);
      return {wrap(l, op.prec) + sp() + op.op + sp() + wrap(rr, op.prec + 1), op.prec};
    }
    case 4: {
      E l = expr(depth + 1, in_fstring), rr = expr(depth + 1, in_fstring);
      return {wrap(l, kPrecAwait) + sp() + "**" + sp() + wrap(rr, kPrecUnary), kPrecPower};
    }
    case 5: {
      static const char* const kUn[] = {"-", "+", "~"};
      return {std::string(kUn[pick(3)]) + wrap(expr(depth + 1, in_fstring), kPrecUnary), kPrecUnary};
    }
    case 6: {
      std::string s = wrap(expr(depth + 1, in_fstring), kPrecBitOr);
      int n = 1 + pick(2);
      for (int i = 0; i < n; ++i) s += std::string(" ") + kCmp[pick(10)] + " " + wrap(expr(depth + 1, in_fstring), kPrecBitOr);
      return {s, kPrecCmp};
    }
    case 7: return {"not " + wrap(expr(depth + 1, in_fstring), kPrecNot), kPrecNot};
    case 8: {
      bool is_and = chance(50);
      int p = is_and ? kPrecAnd : kPrecOr;
      return {wrap(expr(depth + 1, in_fstring), p + 1) + (is_and ? " and " : " or ") +
                  wrap(expr(depth + 1, in_fstring), p + 1),
              p};
    }
    case 9: {  // call / attribute / subscript chain
      E base = atom(depth + 1, in_fstring);
      std::string s = base.number ? "(" + base.text + ")" : base.text;
      int n = 1 + pick(3);
      for (int i = 0; i < n; ++i) {
        int k = pick(3);
        if (k == 0) s += "." + name();
        else if (k == 1) s += "(" + (depth < 4 ? call_args(depth, in_fstring) : "") + ")";
        else s += "[" + subscript(depth, in_fstring) + "]";
      }
      return {s, kPrecAtom};
    }
    case 10: {
      E t = expr(depth + 1, in_fstring);
      return {wrap(expr(depth + 1, in_fstring), kPrecOr) + " if " + wrap(t, kPrecOr) + " else " +
                  wrap(expr(depth + 1, in_fstring), kPrecIf),
              kPrecIf};
    }
    case 11: {
      E a = atom(depth + 1, in_fstring);
      return {"await " + (a.number ? "(" + a.text + ")" : a.text), kPrecAwait};
    }
    case 12: return {"lambda" + (chance(60) ? " " + params(false) : "") + ":" + sp() + wrap(expr(depth + 1), kPrecLambda), kPrecLambda};
    default: return atom(depth, in_fstring);
  }
}

std::string SnippetGenerator::params(bool annotations) {
  std::string s;
  int n = pick(4);
  bool defaults = false;
  int used = 0;
  auto param = [&](bool allow_default) {
    std::string p = std::string("p") + std::to_string(used++);
    if (annotations && chance(30)) p += ": " + name();
    if (allow_default && (defaults || chance(30))) {
      p += (annotations ? " = " : "=") + number();
      defaults = true;
    }
    return p;
  };
  for (int i = 0; i < n; ++i) {
    if (i) s += ", ";
    s += param(true);
  }
  if (n > 0 && chance(20)) s += ", /";
  if (chance(30)) {
    s += std::string(s.empty() ? "" : ", ") + (chance(50) ? "*" + std::string("args") : "*") + ", " + param(false);
    if (chance(50)) s += ", " + param(true);
  }
  if (chance(20)) s += std::string(s.empty() ? "" : ", ") + "**kw";
  return s;
}

std::string SnippetGenerator::pattern(int depth) {
  switch (depth > 2 ? pick(4) : pick(11)) {
    case 0: return name() == "_" ? "_" : "cap";
    case 1: return std::to_string(pick(9));
    case 2: return chance(50) ? "None" : "-1+2j";
    case 3: return "'s'";
    case 4: return "[" + pattern(depth + 1) + ", *rest]";
    case 5: return "(" + pattern(depth + 1) + ", " + pattern(depth + 1) + ")";
    case 6: return "{'k': " + pattern(depth + 1) + ", **kw}";
    case 7: return "Point(" + pattern(depth + 1) + ", y=" + pattern(depth + 1) + ")";
    case 8: {
      // Alternatives are closed patterns: an `as` pattern needs parentheses there.
      auto closed = [&]() {
        std::string p = pattern(depth + 1);
        return p.find(" as ") != std::string::npos ? "(" + p + ")" : p;
      };
      return closed() + " | " + closed();
    }
    case 9: return "(" + pattern(depth + 1) + ") as alias";
    default: return "mod.Const";
  }
}

void SnippetGenerator::block(int depth, int indent, std::string& out, bool in_def) {
  if (depth > 3 || chance(15)) {
    out += " pass\n";  // simple statement on the header line
    return;
  }
  out += "\n";
  int n = 1 + pick(3);
  for (int i = 0; i < n; ++i) stmt(depth + 1, indent + 1, out, in_def);
}

void SnippetGenerator::stmt(int depth, int indent, std::string& out, bool in_def) {
  std::string ind;
  for (int i = 0; i < indent; ++i) ind += ind_unit_;
  out += ind;
  int r = pick(depth > 3 ? 8 : 20);
  switch (r) {
    case 0: out += target() + sp() + "=" + sp() + expr(1).text + "\n"; return;
    case 1: {
      static const char* const kAug[] = {"+=", "-=", "*=", "@=", "/=", "//=", "%=", "**=", ">>=", "<<=", "&=", "|=", "^="};
      out += name() + "." + name() + " " + kAug[pick(13)] + " " + expr(1).text + "\n";
      return;
    }
    case 2: out += name() + ":" + sp() + name() + (chance(50) ? " = " + expr(1).text : "") + "\n"; return;
    case 3: out += expr(0).text + "\n"; return;
    case 4: out += name() + "[" + subscript(1, false) + "] = " + expr(1).text + "\n"; return;
    case 5: out += in_def ? "return " + expr(1).text + "\n" : "pass\n"; return;
    case 6: out += chance(50) ? "import a.b as c, d\n" : "from ..mod import (x as y, z,)\n"; return;
    case 7: out += "del " + name() + "[0], " + name() + "." + name() + "; assert " + expr(1).text + "\n"; return;
    case 8: {
      out += "if " + wrap(expr(1), kPrecLambda) + ":";
      block(depth, indent, out, in_def);
      if (chance(40)) {
        out += ind + "elif " + name() + ":";
        block(depth, indent, out, in_def);
      }
      if (chance(40)) {
        out += ind + "else:";
        block(depth, indent, out, in_def);
      }
      return;
    }
    case 9: {
      out += std::string(chance(10) ? "async " : "") + "for " + target() + " in " + expr(1).text + ":";
      block(depth, indent, out, in_def);
      return;
    }
    case 10: out += "while " + expr(1).text + ":"; block(depth, indent, out, in_def); return;
    case 11: {
      out += "with " + expr(1).text + " as " + name() + (chance(40) ? ", " + name() : "") + ":";
      block(depth, indent, out, in_def);
      return;
    }
    case 12: {
      out += "try:";
      block(depth, indent, out, in_def);
      out += ind + "except " + (chance(50) ? "(E1, E2) as err" : "E") + ":";
      block(depth, indent, out, in_def);
      if (chance(40)) {
        out += ind + "finally:";
        block(depth, indent, out, in_def);
      }
      return;
    }
    case 13: case 14: {
      if (chance(40)) out += "@" + name() + (chance(50) ? "(" + call_args(2, false) + ")" : "") + "\n" + ind;
      out += std::string(chance(15) ? "async " : "") + "def f" + std::to_string(pick(9)) + "(" + params(true) + ")" +
             (chance(30) ? " -> " + name() : "") + ":";
      block(depth, indent, out, true);
      return;
    }
    case 15: out += "class C" + std::to_string(pick(9)) + (chance(50) ? "(B, metaclass=M)" : "") + ":"; block(depth, indent, out, false); return;
    case 16: {
      out += "match " + name() + ":\n";
      int n = 1 + pick(3);
      for (int i = 0; i < n; ++i) {
        out += ind + ind_unit_ + "case " + pattern(0) + (chance(20) ? " if " + name() : "") + ":";
        block(depth + 1, indent + 1, out, in_def);
      }
      return;
    }
    case 17: out += "x = yield " + expr(1).text + "\n"; return;
    default: out += name() + "(" + call_args(1, false) + ")\n"; return;
  }
}

std::string SnippetGenerator::module() {
  ind_unit_ = chance(10) ? "\t" : (chance(20) ? "  " : "    ");
  std::string out;
  int n = 1 + pick(4);
  for (int i = 0; i < n; ++i) stmt(0, 0, out, false);
  return out;
}

}  // namespace nki::py::testing
