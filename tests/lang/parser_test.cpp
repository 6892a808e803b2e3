#include "lang/parser.h"

#include <gtest/gtest.h>

#include <chrono>
#include <regex>
#include <string>

#include "base/diagnostic.h"
#include "lang/ast_dump.h"

namespace nki::py {
namespace {

Diagnostic parse_error(const std::string& src) {
  try {
    parse_module_text(src, "t.py");
  } catch (const DiagnosticError& e) {
    return e.diagnostic();
  }
  ADD_FAILURE() << "no syntax error for:\n" << src;
  return {};
}

TEST(Parser, KernelShape) {
  Module m = parse_module_text(
      "@nki.jit\n"
      "def add(a, b):\n"
      "    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)\n"
      "    for i in nl.affine_range(4):\n"
      "        t = nl.load(a[i * 128:(i + 1) * 128, :])\n"
      "        nl.store(out[i], value=t + b)\n"
      "    return out\n");
  ASSERT_EQ(m.body.size(), 1u);
  auto* f = as<FunctionDef>(m.body[0].get());
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->name, "add");
  EXPECT_EQ(f->span.begin.line, 2);  // the `def` line, not the decorator (as in CPython)
  EXPECT_EQ(f->span.begin.col, 1);
  EXPECT_EQ(f->span.end.line, 7);
  EXPECT_EQ(f->span.end.col, 15);
  ASSERT_EQ(f->decorator_list.size(), 1u);
  ASSERT_EQ(f->args.args.size(), 2u);
  EXPECT_EQ(f->args.args[1].arg_name, "b");
  ASSERT_EQ(f->body.size(), 3u);
  auto* loop = as<For>(f->body[1].get());
  ASSERT_NE(loop, nullptr);
  auto* target = as<Name>(loop->target.get());
  ASSERT_NE(target, nullptr);
  EXPECT_EQ(target->ctx, ExprContext::Store);
  auto* assign = as<Assign>(loop->body[0].get());
  ASSERT_NE(assign, nullptr);
  auto* call = as<Call>(assign->value.get());
  ASSERT_NE(call, nullptr);
  auto* sub = as<Subscript>(call->args[0].get());
  ASSERT_NE(sub, nullptr);
  auto* tup = as<Tuple>(sub->slice.get());
  ASSERT_NE(tup, nullptr);
  ASSERT_EQ(tup->elts.size(), 2u);
  EXPECT_NE(as<Slice>(tup->elts[0].get()), nullptr);
  auto* store = as<ExprStmt>(loop->body[1].get());
  ASSERT_NE(store, nullptr);
  auto* store_call = as<Call>(store->value.get());
  ASSERT_EQ(store_call->keywords.size(), 1u);
  EXPECT_EQ(store_call->keywords[0].arg_name, "value");
}

TEST(Parser, ConstantsAndStrings) {
  Module m = parse_module_text("x = (1, 2.5, 3j, 'a' 'b', b'c', None, True, ..., 99999999999999999999)\n");
  auto* t = as<Tuple>(as<Assign>(m.body[0].get())->value.get());
  ASSERT_EQ(t->elts.size(), 9u);
  auto c = [&](int i) { return as<Constant>(t->elts[i].get()); };
  EXPECT_EQ(c(0)->int_value, 1);
  EXPECT_DOUBLE_EQ(c(1)->float_value, 2.5);
  EXPECT_EQ(c(2)->value_kind, Constant::Kind::Complex);
  EXPECT_EQ(c(3)->str_value, "ab");
  EXPECT_EQ(c(4)->value_kind, Constant::Kind::Bytes);
  EXPECT_EQ(c(5)->value_kind, Constant::Kind::None);
  EXPECT_TRUE(c(6)->bool_value);
  EXPECT_EQ(c(7)->value_kind, Constant::Kind::Ellipsis);
  EXPECT_TRUE(c(8)->big_int);
  EXPECT_EQ(c(8)->big_int_text, "99999999999999999999");
}

TEST(Parser, FStringStructure) {
  Module m = parse_module_text("f'a{x!r:>{w}}b{y=}'\n");
  auto* j = as<JoinedStr>(as<ExprStmt>(m.body[0].get())->value.get());
  ASSERT_NE(j, nullptr);
  ASSERT_EQ(j->values.size(), 4u);  // Constant a, FormattedValue x, Constant "by=", FormattedValue y
  auto* fv = as<FormattedValue>(j->values[1].get());
  ASSERT_NE(fv, nullptr);
  EXPECT_EQ(fv->conversion, 'r');
  ASSERT_NE(fv->format_spec, nullptr);
  auto* x = as<Name>(fv->value.get());
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->span.begin.col, 5);  // real column inside the string
  auto* fy = as<FormattedValue>(j->values[3].get());
  EXPECT_EQ(fy->conversion, 'r');  // `=` implies !r without a format spec
}

TEST(Parser, MatchIsASoftKeyword) {
  Module m = parse_module_text("match = 1\nmatch x:\n    case [1, *r]: pass\n    case _: pass\n");
  ASSERT_EQ(m.body.size(), 2u);
  EXPECT_NE(as<Assign>(m.body[0].get()), nullptr);
  EXPECT_EQ(m.body[1]->kind, StmtKind::Match);
}

TEST(Parser, ErrorMessagesAndLocations) {
  Diagnostic d = parse_error("def f()\n    pass\n");
  EXPECT_EQ(d.message, "expected ':'");
  EXPECT_EQ(d.line, 1);
  d = parse_error("x = 1\n    y = 2\n");
  EXPECT_EQ(d.message, "unexpected indent");
  EXPECT_EQ(d.line, 2);
  d = parse_error("if x:\npass\n");
  EXPECT_EQ(d.message, "expected an indented block after 'if' statement on line 1");
  EXPECT_EQ(d.line, 2);
  d = parse_error("x = = 1\n");
  EXPECT_EQ(d.message, "invalid syntax");
  EXPECT_EQ(d.line, 1);
  EXPECT_EQ(d.col, 5);
  d = parse_error("f(x) = 1\n");
  EXPECT_EQ(d.message, "cannot assign to function call");
  d = parse_error("f(a=1, b)\n");
  EXPECT_EQ(d.message, "positional argument follows keyword argument");
  d = parse_error("def f(a=1, b): pass\n");
  EXPECT_EQ(d.message, "non-default argument follows default argument");
  d = parse_error("x = f'{a b}'\n");
  EXPECT_EQ(d.message, "f-string: invalid syntax. Perhaps you forgot a comma?");
  d = parse_error("x = [1, 2\n     3]\n");
  EXPECT_EQ(d.message, "invalid syntax. Perhaps you forgot a comma?");
  EXPECT_EQ(d.line, 1);
  EXPECT_EQ(d.col, 9);
  d = parse_error("x = 1\ny = f(a b\nz = 'unterminated\n");
  EXPECT_EQ(d.message, "unterminated string literal (detected at line 3)");  // as CPython
  d = parse_error("x = f'}'\n");
  EXPECT_EQ(d.message, "f-string: single '}' is not allowed");
  d = parse_error("x = 'a' b'b'\n");
  EXPECT_EQ(d.message, "cannot mix bytes and nonbytes literals");
  d = parse_error("foo(\n  1,\n");
  EXPECT_EQ(d.message, "'(' was never closed");
  EXPECT_EQ(d.line, 1);
  EXPECT_EQ(d.col, 4);
}

TEST(Parser, DiagnosticRendersInClangStyle) {
  Diagnostic d = parse_error("x = (1 +\n");
  std::string text = render_text(d);
  EXPECT_TRUE(std::regex_search(text, std::regex(R"(^t\.py:1:5: error\[syntax\]: '\(' was never closed\n)")))
      << text;
}

TEST(Parser, DeepNestingIsASyntaxErrorNotACrash) {
  // Brackets: the tokenizer's limit (200, as CPython).
  EXPECT_EQ(parse_error("x = " + std::string(500, '[') + std::string(500, ']') + "\n").message,
            "too many nested parentheses");
  // Unary operators, `not`, lambdas, conditional expressions, `**` chains: the parser's
  // nesting limit.
  for (std::string unit : {"-", "not ", "lambda: ", "a if b else ", "a ** ", "await a ** -"}) {
    std::string src = "x = ";
    for (int i = 0; i < 100000; ++i) src += unit;
    src += "y\n";
    Diagnostic d = parse_error(src);
    EXPECT_NE(d.message.find("nesting limit"), std::string::npos) << unit << ": " << d.message;
  }
  // Long left-associative chains nest the AST; they are bounded too.
  std::string chain = "x = a";
  for (int i = 0; i < 100000; ++i) chain += "+a";
  EXPECT_NE(parse_error(chain + "\n").message.find("nesting limit"), std::string::npos);
  std::string attrs = "x = a";
  for (int i = 0; i < 100000; ++i) attrs += ".b";
  EXPECT_NE(parse_error(attrs + "\n").message.find("nesting limit"), std::string::npos);
}

TEST(Parser, ReasonableNestingStillParses) {
  EXPECT_NO_THROW(parse_module_text("x = " + std::string(150, '(') + "1" + std::string(150, ')') + "\n"));
  std::string src = "x = a";
  for (int i = 0; i < 2500; ++i) src += " + a";
  Module m = parse_module_text(src + "\n");
  EXPECT_GT(dump_ast(m).size(), 2500u);  // recursive consumers cope with the allowed depth
}

TEST(Parser, LongInputIsLinear) {
  // 50k lines of ordinary statements parse quickly (no quadratic behaviour).
  std::string src;
  for (int i = 0; i < 5000; ++i) {
    src += "def f" + std::to_string(i) + "(a, b=1):\n    x = a[1:2, ::3] + f'{b!r}'\n";
    for (int k = 0; k < 8; ++k) src += "    y = [i for i in range(10) if i % 2]\n";
  }
  auto t0 = std::chrono::steady_clock::now();
  Module m = parse_module_text(src);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(m.body.size(), 5000u);
  EXPECT_LT(secs, 20.0);
  std::string big = "x = [" ;
  for (int i = 0; i < 200000; ++i) big += "1, ";
  big += "]\n";
  EXPECT_NO_THROW(parse_module_text(big));
}

TEST(AstDump, Format) {
  Module m = parse_module_text("x = -1\n");
  EXPECT_EQ(dump_ast(m),
            "Module\n"
            "  body: [1]\n"
            "    Assign @1:0-1:6\n"
            "      targets: [1]\n"
            "        Name @1:0-1:1\n"
            "          id: 'x'\n"
            "          ctx: Store\n"
            "      value:\n"
            "        UnaryOp @1:4-1:6\n"
            "          op: USub\n"
            "          operand:\n"
            "            Constant @1:5-1:6\n"
            "              value: int 1\n"
            "              kind: None\n");
}

}  // namespace
}  // namespace nki::py
