// Python 3.11 tokenizer (hand-written; follows the token rules of the Python language reference,
// section "Lexical analysis").
//
// Produces tokens on demand so that, as in CPython, a syntax error early in a file is reported
// before a tokenizer error further down. Handles INDENT/DEDENT (tabs to multiples of 8, with the
// CPython tab/space consistency check), implicit line joining inside brackets, backslash
// continuations, comments, numbers and string literals (kept as raw text; the parser decodes
// them, including f-strings).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/source.h"
#include "lang/token.h"

namespace nki::py {

// Throws nki::DiagnosticError with code "syntax" located at `loc` in `file`.
[[noreturn]] void throw_syntax_error(const SourceFilePtr& file, SourceLoc loc, std::string message);

// Where a piece of text sits in its file. The main file uses the default. The expression of an
// f-string replacement field is lexed on its own; CPython shifts the columns of tokens on the
// field's first line by the field's column and the lines by the field's line (tokens on later
// lines keep their own column), and this mapping reproduces that.
struct TextOrigin {
  int first_line = 1;       // absolute line of the text's first line
  int first_line_col = 0;   // added to (0-based) byte columns of tokens ending on the first line
};

class Lexer {
 public:
  // `text` is lexed (a copy is kept with \r\n and \r turned into \n); `file` is used for
  // diagnostics. Invalid UTF-8 and NUL bytes are reported as syntax errors.
  Lexer(SourceFilePtr file, std::string_view text, TextOrigin origin = {});
  Lexer(const Lexer&) = delete;
  Lexer& operator=(const Lexer&) = delete;

  // The next token; ENDMARKER forever once the input is exhausted. Throws DiagnosticError.
  Token next();

  const SourceFilePtr& file() const { return file_; }
  // Absolute location of a byte offset (used for errors inside tokens, e.g. in string escapes).
  SourceLoc loc_at(size_t offset) const;

 private:
  struct OpenBracket {
    char ch;
    size_t offset;
  };

  Token make(Tok kind, size_t begin, size_t end) const;
  [[noreturn]] void error_at(size_t offset, std::string message) const;
  // Handles the start of a logical line: measures indentation, skips blank lines, and queues
  // INDENT/DEDENT tokens. Returns false when the line is blank or a comment (already skipped).
  bool start_line();
  Token lex_name_or_string();
  Token lex_number();
  Token lex_string(size_t begin, size_t quote_pos);
  Token lex_operator();
  void check_number_end(size_t pos, const char* kind);
  void skip_utf8_identifier_char(size_t& pos) const;
  int line_of(size_t offset) const;

  SourceFilePtr file_;
  std::string text_;
  TextOrigin origin_;
  size_t pos_ = 0;
  std::vector<size_t> line_starts_;  // offsets where each (local) line starts, filled as we go

  bool at_line_start_ = true;
  bool line_has_tokens_ = false;  // a token was produced on the current logical line
  int pending_dedents_ = 0;
  bool pending_indent_ = false;
  std::vector<int> indents_{0};     // indentation columns (tabs to multiples of 8)
  std::vector<int> alt_indents_{0};  // same with tabs counted as 1 column (consistency check)
  std::vector<OpenBracket> brackets_;
};

}  // namespace nki::py
