// Tokens of Python 3.11 source, as produced by nki::py::Lexer.
//
// Mirrors CPython's tokenizer: NAME, NUMBER, STRING (one token per literal, f-strings
// included; the parser splits f-strings), OP (one kind per operator), NEWLINE, INDENT, DEDENT,
// ENDMARKER. Comments, blank lines and line continuations produce no tokens.
#pragma once

#include <cstdint>
#include <string_view>

#include "base/source.h"

namespace nki::py {

enum class Tok : uint8_t {
  EndMarker,
  Name,
  Number,
  String,
  Newline,
  Indent,
  Dedent,
  // Operators and delimiters.
  LPar, RPar, LSqb, RSqb, LBrace, RBrace,
  Colon, Comma, Semi, Dot, Ellipsis, Arrow, At, AtEqual, ColonEqual,
  Plus, Minus, Star, Slash, VBar, Amper, Less, Greater, Equal, Percent, Tilde, Circumflex,
  DoubleStar, DoubleSlash, LeftShift, RightShift,
  EqEqual, NotEqual, LessEqual, GreaterEqual,
  PlusEqual, MinEqual, StarEqual, SlashEqual, PercentEqual, AmperEqual, VBarEqual,
  CircumflexEqual, LeftShiftEqual, RightShiftEqual, DoubleStarEqual, DoubleSlashEqual,
  Exclamation,  // only meaningful inside f-strings; a syntax error elsewhere
};

// Human-readable spelling, e.g. "'('" or "NEWLINE".
const char* tok_name(Tok t);

struct Token {
  Tok kind = Tok::EndMarker;
  // The exact source text of the token (points into the lexer's buffer, which outlives it).
  // Empty for NEWLINE at end of file, INDENT, DEDENT and ENDMARKER.
  std::string_view text;
  SourceLoc begin;  // first byte (1-based line and byte column)
  SourceLoc end;    // one past the last byte
  bool is_keyword = false;  // NAME that is a hard keyword (def, if, None, ...)
  int level = 0;            // bracket nesting depth after this token (as CPython's tok->level)
};

// True for the 35 hard keywords of Python 3.11 (soft keywords match/case/_ are plain names).
bool is_hard_keyword(std::string_view name);

}  // namespace nki::py
