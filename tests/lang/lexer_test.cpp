#include "lang/lexer.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "base/diagnostic.h"

namespace nki::py {
namespace {

struct Lexed {
  std::vector<Tok> kinds;
  std::vector<std::string> texts;
  std::vector<Token> toks;
};

Lexed lex(const std::string& src) {
  auto file = std::make_shared<SourceFile>("t.py", src);
  Lexer lx(file, file->text());
  Lexed out;
  for (int guard = 0; guard < 100000; ++guard) {
    Token t = lx.next();
    out.kinds.push_back(t.kind);
    out.texts.emplace_back(t.text);
    out.toks.push_back(t);
    if (t.kind == Tok::EndMarker) break;
  }
  return out;
}

Diagnostic lex_error(const std::string& src) {
  try {
    lex(src);
  } catch (const DiagnosticError& e) {
    return e.diagnostic();
  }
  ADD_FAILURE() << "no error for: " << src;
  return {};
}

TEST(Lexer, IndentDedentAndNewlines) {
  Lexed l = lex("if x:\n    y\n\n    # c\n    z\nw\n");
  std::vector<Tok> want = {Tok::Name,   Tok::Name,    Tok::Colon, Tok::Newline, Tok::Indent,
                           Tok::Name,   Tok::Newline, Tok::Name,  Tok::Newline, Tok::Dedent,
                           Tok::Name,   Tok::Newline, Tok::EndMarker};
  EXPECT_EQ(l.kinds, want);
}

TEST(Lexer, ImplicitAndExplicitLineJoining) {
  Lexed l = lex("x = (1,\n  2) + \\\n 3\n");
  int newlines = 0;
  for (Tok k : l.kinds) newlines += k == Tok::Newline;
  EXPECT_EQ(newlines, 1);
}

TEST(Lexer, MissingFinalNewlineIsAdded) {
  Lexed l = lex("if x:\n  y");
  std::vector<Tok> tail(l.kinds.end() - 3, l.kinds.end());
  EXPECT_EQ(tail, (std::vector<Tok>{Tok::Newline, Tok::Dedent, Tok::EndMarker}));
}

TEST(Lexer, NumbersAndStringsAreSingleTokens) {
  Lexed l = lex("0x_1F 1_000.5e-3j .5 rb'\\x' f\"{a!r}\" '''a\nb'''\n");
  ASSERT_GE(l.texts.size(), 6u);
  EXPECT_EQ(l.texts[0], "0x_1F");
  EXPECT_EQ(l.texts[1], "1_000.5e-3j");
  EXPECT_EQ(l.texts[2], ".5");
  EXPECT_EQ(l.texts[3], "rb'\\x'");
  EXPECT_EQ(l.texts[4], "f\"{a!r}\"");
  EXPECT_EQ(l.texts[5], "'''a\nb'''");
  EXPECT_EQ(l.toks[5].begin.line, 1);
  EXPECT_EQ(l.toks[5].end.line, 2);
  EXPECT_EQ(l.toks[5].end.col, 5);
}

TEST(Lexer, OperatorsLongestMatch) {
  Lexed l = lex("a **= b // c -> d := e != f ... g >>= h\n");
  std::vector<Tok> ops;
  for (Tok k : l.kinds) {
    if (k != Tok::Name && k != Tok::Newline && k != Tok::EndMarker) ops.push_back(k);
  }
  EXPECT_EQ(ops, (std::vector<Tok>{Tok::DoubleStarEqual, Tok::DoubleSlash, Tok::Arrow, Tok::ColonEqual,
                                   Tok::NotEqual, Tok::Ellipsis, Tok::RightShiftEqual}));
}

TEST(Lexer, ColumnsAreOneBasedBytes) {
  Lexed l = lex("é = 1\n");
  EXPECT_EQ(l.toks[0].begin.col, 1);
  EXPECT_EQ(l.toks[0].end.col, 3);  // two UTF-8 bytes
  EXPECT_EQ(l.toks[1].begin.col, 4);
}

TEST(Lexer, TabsExpandToMultiplesOfEight) {
  // A tab-indented line and an 8-space line are the same level, but mixing them ambiguously
  // is an error (CPython's TabError).
  EXPECT_NO_THROW(lex("if x:\n\ty\n\tz\n"));
  Diagnostic d = lex_error("if x:\n\ty\n        z\n");
  EXPECT_EQ(d.message, "inconsistent use of tabs and spaces in indentation");
  EXPECT_EQ(d.line, 3);
}

TEST(Lexer, Errors) {
  Diagnostic d = lex_error("if x:\n    y\n  z\n");
  EXPECT_EQ(d.message, "unindent does not match any outer indentation level");
  EXPECT_EQ(d.line, 3);
  d = lex_error("x = (1,\n2\n");
  EXPECT_EQ(d.message, "'(' was never closed");
  EXPECT_EQ(d.line, 1);
  EXPECT_EQ(d.col, 5);
  d = lex_error("x = 'abc\n");
  EXPECT_EQ(d.message, "unterminated string literal (detected at line 1)");
  EXPECT_EQ(d.col, 5);
  d = lex_error("x = '''abc\n\n");
  EXPECT_EQ(d.message, "unterminated triple-quoted string literal (detected at line 2)");
  d = lex_error("x = (]\n");
  EXPECT_EQ(d.message, "closing parenthesis ']' does not match opening parenthesis '('");
  d = lex_error("x = 1)\n");
  EXPECT_EQ(d.message, "unmatched ')'");
  d = lex_error("x = 012\n");
  EXPECT_NE(d.message.find("leading zeros"), std::string::npos);
  d = lex_error("x = 1__0\n");
  EXPECT_EQ(d.message, "invalid decimal literal");
  d = lex_error("x = 0xg\n");
  EXPECT_EQ(d.message, "invalid hexadecimal literal");
  d = lex_error("x = 1 \\ y\n");
  EXPECT_EQ(d.message, "unexpected character after line continuation character");
  d = lex_error("x = $\n");
  EXPECT_EQ(d.message, "invalid syntax");
  d = lex_error("x = 1\xff\n");
  EXPECT_NE(d.message.find("utf-8"), std::string::npos);
  d = lex_error(std::string("x = 1\0\n", 7));
  EXPECT_EQ(d.message, "source code cannot contain null bytes");
  d = lex_error("x\xc2\xa0= 1\n");
  EXPECT_EQ(d.message, "invalid non-printable character U+00A0");
}

TEST(Lexer, TooManyIndentLevelsIsAnError) {
  std::string src;
  for (int i = 0; i < 101; ++i) src += std::string(i, ' ') + "if x:\n";
  src += std::string(101, ' ') + "pass\n";
  Diagnostic d = lex_error(src);
  EXPECT_EQ(d.message, "too many levels of indentation");
}

TEST(Lexer, TooManyNestedBracketsIsAnError) {
  Diagnostic d = lex_error("x = " + std::string(201, '(') + "\n");
  EXPECT_EQ(d.message, "too many nested parentheses");
}

}  // namespace
}  // namespace nki::py
