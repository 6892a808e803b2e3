#include "lang/lexer.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>

#include "base/diag_codes.h"
#include "base/diagnostic.h"
#include "base/source_registry.h"

namespace nki::py {

namespace {

// Lines of a module the kernel imported carry that file's registry id (base/source_registry.h)
// so that diagnostics name the module; the kernel's own file is not registered (id 0).
int encode_line(const SourceFile* file, int line) {
  int id = file ? registered_source_id(file) : 0;
  if (id == 0 || line >= kRegisteredLineStride) return line;
  return line + id * kRegisteredLineStride;
}

constexpr int kMaxIndentLevels = 100;   // CPython's MAXINDENT
constexpr size_t kMaxBrackets = 200;    // CPython's MAXLEVEL

bool is_ascii_ident_start(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
bool is_ascii_ident_char(unsigned char c) { return is_ascii_ident_start(c) || is_digit(c); }

// Decodes one UTF-8 sequence at text[pos] (already validated). Returns the code point and its
// length in `len`.
uint32_t decode_utf8(std::string_view text, size_t pos, int* len) {
  unsigned char c = text[pos];
  if (c < 0x80) { *len = 1; return c; }
  int n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
  uint32_t cp = c & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07);
  for (int i = 1; i < n && pos + i < text.size(); ++i) cp = (cp << 6) | (text[pos + i] & 0x3F);
  *len = n;
  return cp;
}

// Returns the offset of the first invalid UTF-8 byte, or npos. Overlong forms, surrogates and
// code points above U+10FFFF are invalid, as in CPython's decoder.
size_t find_invalid_utf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = s[i];
    if (c < 0x80) { ++i; continue; }
    int n;
    uint32_t min;
    if (c >= 0xC2 && c <= 0xDF) { n = 2; min = 0x80; }
    else if (c >= 0xE0 && c <= 0xEF) { n = 3; min = 0x800; }
    else if (c >= 0xF0 && c <= 0xF4) { n = 4; min = 0x10000; }
    else return i;
    if (i + n > s.size()) return i;
    uint32_t cp = c & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07);
    for (int k = 1; k < n; ++k) {
      unsigned char cc = s[i + k];
      if ((cc & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (cc & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
    i += n;
  }
  return std::string_view::npos;
}

// Non-ASCII characters that can never be part of an identifier. Python uses the Unicode
// XID_Start/XID_Continue properties; without the Unicode tables we reject the common
// punctuation, symbol and space blocks and accept everything else (see docs/parser.md).
bool is_invalid_identifier_cp(uint32_t cp) {
  if (cp >= 0xA0 && cp <= 0xBF) return !(cp == 0xAA || cp == 0xB5 || cp == 0xBA || cp == 0xB7);
  if (cp == 0xD7 || cp == 0xF7) return true;
  if (cp >= 0x2000 && cp <= 0x206F) return !(cp == 0x203F || cp == 0x2040 || cp == 0x2054);
  if (cp >= 0x20A0 && cp <= 0x20CF) return true;
  if (cp >= 0x2190 && cp <= 0x23FF) return true;
  if (cp >= 0x2500 && cp <= 0x27BF) return true;
  if (cp >= 0x3000 && cp <= 0x3003) return true;
  if (cp == 0xFEFF) return true;
  return false;
}

std::string normalize_newlines(std::string_view in) {
  std::string out;
  out.reserve(in.size() + 1);
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] == '\r') {
      out += '\n';
      if (i + 1 < in.size() && in[i + 1] == '\n') ++i;
    } else {
      out += in[i];
    }
  }
  return out;
}

bool is_string_prefix(std::string_view p) {
  if (p.size() > 2) return false;
  std::string lower;
  for (char c : p) lower += static_cast<char>(c | 0x20);
  static const char* const kPrefixes[] = {"r", "u", "f", "b", "fr", "rf", "br", "rb"};
  for (const char* k : kPrefixes) {
    if (lower == k) return true;
  }
  return false;
}

}  // namespace

void throw_syntax_error(const SourceFilePtr& file, SourceLoc loc, std::string message) {
  throw DiagnosticError(make_diagnostic(Severity::Error, diag::Code::syntax, std::move(message), file, loc));
}

Lexer::Lexer(SourceFilePtr file, std::string_view text, TextOrigin origin)
    : file_(std::move(file)), text_(normalize_newlines(text)), origin_(origin) {
  line_starts_.push_back(0);
  // A UTF-8 byte order mark is not part of the source (CPython strips it before tokenizing).
  if (origin_.first_line == 1 && origin_.first_line_col == 0 && text_.size() >= 3 &&
      std::memcmp(text_.data(), "\xEF\xBB\xBF", 3) == 0) {
    pos_ = 3;
    line_starts_[0] = 3;
  }
  size_t bad = find_invalid_utf8(text_);
  if (bad != std::string_view::npos) {
    // Locate it by scanning newlines up to the bad byte (the error path only).
    for (size_t i = pos_; i < bad; ++i) {
      if (text_[i] == '\n') line_starts_.push_back(i + 1);
    }
    char buf[80];
    std::snprintf(buf, sizeof buf, "(unicode error) 'utf-8' codec can't decode byte 0x%02x",
                  static_cast<unsigned char>(text_[bad]));
    error_at(bad, buf);
  }
  size_t nul = text_.find('\0');
  if (nul != std::string::npos) {
    for (size_t i = pos_; i < nul; ++i) {
      if (text_[i] == '\n') line_starts_.push_back(i + 1);
    }
    error_at(nul, "source code cannot contain null bytes");
  }
}

int Lexer::line_of(size_t offset) const {
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  return static_cast<int>(it - line_starts_.begin());  // 1-based local line
}

SourceLoc Lexer::loc_at(size_t offset) const {
  int local = line_of(offset);
  int col = static_cast<int>(offset - line_starts_[local - 1]);
  if (local == 1) col += origin_.first_line_col;
  return {encode_line(file_.get(), origin_.first_line + local - 1), col + 1};
}

Token Lexer::make(Tok kind, size_t begin, size_t end) const {
  Token t;
  t.kind = kind;
  t.text = std::string_view(text_).substr(begin, end - begin);
  t.level = static_cast<int>(brackets_.size());
  int bline = line_of(begin);
  int eline = end > begin ? line_of(end - 1) : bline;
  int shift = eline == 1 ? origin_.first_line_col : 0;  // CPython decides by the END line
  t.begin = {encode_line(file_.get(), origin_.first_line + bline - 1),
             static_cast<int>(begin - line_starts_[bline - 1]) + shift + 1};
  t.end = {encode_line(file_.get(), origin_.first_line + eline - 1),
           static_cast<int>(end - line_starts_[eline - 1]) + shift + 1};
  return t;
}

void Lexer::error_at(size_t offset, std::string message) const {
  throw_syntax_error(file_, loc_at(offset), std::move(message));
}

bool Lexer::start_line() {
  // Measure indentation as CPython does: tabs advance to the next multiple of 8, form feed
  // resets the count; the alternate count treats a tab as one column.
  int col = 0, alt = 0;
  size_t p = pos_;
  for (; p < text_.size(); ++p) {
    char c = text_[p];
    if (c == ' ') { ++col; ++alt; }
    else if (c == '\t') { col = (col / 8 + 1) * 8; ++alt; }
    else if (c == '\f') { col = alt = 0; }
    else break;
  }
  pos_ = p;
  if (p >= text_.size() || text_[p] == '\n' || text_[p] == '#') {
    // Blank or comment-only line: no tokens, no indentation change.
    if (p < text_.size() && text_[p] == '#') {
      while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
    }
    if (pos_ < text_.size()) {
      ++pos_;
      line_starts_.push_back(pos_);
    }
    return false;
  }
  if (col == indents_.back()) {
    if (alt != alt_indents_.back()) error_at(p, "inconsistent use of tabs and spaces in indentation");
  } else if (col > indents_.back()) {
    if (static_cast<int>(indents_.size()) > kMaxIndentLevels) error_at(p, "too many levels of indentation");
    if (alt <= alt_indents_.back()) error_at(p, "inconsistent use of tabs and spaces in indentation");
    indents_.push_back(col);
    alt_indents_.push_back(alt);
    pending_indent_ = true;
  } else {
    while (indents_.size() > 1 && col < indents_.back()) {
      indents_.pop_back();
      alt_indents_.pop_back();
      ++pending_dedents_;
    }
    if (col != indents_.back()) error_at(p, "unindent does not match any outer indentation level");
    if (alt != alt_indents_.back()) error_at(p, "inconsistent use of tabs and spaces in indentation");
  }
  return true;
}

Token Lexer::next() {
  for (;;) {
    if (pending_dedents_ > 0) {
      --pending_dedents_;
      return make(Tok::Dedent, pos_, pos_);
    }
    if (pending_indent_) {
      pending_indent_ = false;
      return make(Tok::Indent, pos_, pos_);
    }
    if (at_line_start_ && brackets_.empty()) {
      if (pos_ >= text_.size()) {
        at_line_start_ = false;
        continue;
      }
      if (!start_line()) continue;
      at_line_start_ = false;
      continue;  // emit any queued INDENT/DEDENT first
    }
    // Skip whitespace and comments within the line.
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c == ' ' || c == '\t' || c == '\f') {
        ++pos_;
      } else if (c == '#') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else if (c == '\\') {
        if (pos_ + 1 >= text_.size()) {
          error_at(pos_, "unexpected EOF while parsing");
        }
        if (text_[pos_ + 1] != '\n') {
          error_at(pos_ + 1, "unexpected character after line continuation character");
        }
        pos_ += 2;
        line_starts_.push_back(pos_);
        if (pos_ >= text_.size()) error_at(pos_ - 2, "unexpected EOF while parsing");
      } else {
        break;
      }
    }
    if (pos_ >= text_.size()) {
      if (!brackets_.empty()) {
        const OpenBracket& b = brackets_.back();
        error_at(b.offset, std::string("'") + b.ch + "' was never closed");
      }
      // CPython places the end-of-file tokens on the last line, before its final newline.
      size_t eof = pos_;
      if (eof > line_starts_.front() && text_[eof - 1] == '\n') --eof;
      if (line_has_tokens_) {
        line_has_tokens_ = false;
        return make(Tok::Newline, eof, eof);
      }
      if (indents_.size() > 1) {
        indents_.pop_back();
        alt_indents_.pop_back();
        return make(Tok::Dedent, eof, eof);
      }
      return make(Tok::EndMarker, eof, eof);
    }
    char c = text_[pos_];
    if (c == '\n') {
      size_t nl = pos_++;
      line_starts_.push_back(pos_);
      if (!brackets_.empty()) continue;  // implicit line joining
      at_line_start_ = true;
      if (line_has_tokens_) {
        line_has_tokens_ = false;
        return make(Tok::Newline, nl, nl + 1);
      }
      continue;
    }
    line_has_tokens_ = true;
    unsigned char uc = static_cast<unsigned char>(c);
    if (is_ascii_ident_start(uc) || uc >= 0x80) return lex_name_or_string();
    if (is_digit(uc) || (c == '.' && pos_ + 1 < text_.size() && is_digit(text_[pos_ + 1]))) {
      return lex_number();
    }
    if (c == '\'' || c == '"') return lex_string(pos_, pos_);
    return lex_operator();
  }
}

void Lexer::skip_utf8_identifier_char(size_t& pos) const {
  int len = 1;
  uint32_t cp = decode_utf8(text_, pos, &len);
  if (is_invalid_identifier_cp(cp)) {
    char buf[96];
    if (cp == 0xA0 || cp == 0xFEFF || (cp >= 0x2000 && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202F)) {
      std::snprintf(buf, sizeof buf, "invalid non-printable character U+%04X", cp);
    } else {
      std::snprintf(buf, sizeof buf, "invalid character '%s' (U+%04X)",
                    std::string(text_.substr(pos, len)).c_str(), cp);
    }
    error_at(pos, buf);
  }
  pos += len;
}

Token Lexer::lex_name_or_string() {
  size_t begin = pos_;
  size_t p = pos_;
  while (p < text_.size()) {
    unsigned char c = text_[p];
    if (is_ascii_ident_char(c)) ++p;
    else if (c >= 0x80) skip_utf8_identifier_char(p);
    else break;
  }
  if (p < text_.size() && (text_[p] == '\'' || text_[p] == '"') &&
      is_string_prefix(std::string_view(text_).substr(begin, p - begin))) {
    return lex_string(begin, p);
  }
  pos_ = p;
  Token t = make(Tok::Name, begin, p);
  t.is_keyword = is_hard_keyword(t.text);
  return t;
}

// CPython 3.11 allows a keyword right after a number (`1if x else y`) but reports other letters
// as an invalid literal.
void Lexer::check_number_end(size_t pos, const char* kind) {
  if (pos >= text_.size()) return;
  unsigned char c = text_[pos];
  if (!(is_ascii_ident_char(c) || c >= 0x80)) return;
  std::string_view rest = std::string_view(text_).substr(pos);
  static const char* const kOk[] = {"and", "else", "for", "if", "in", "is", "not", "or"};
  for (const char* k : kOk) {
    if (rest.substr(0, std::strlen(k)) == k) return;
  }
  error_at(pos, std::string("invalid ") + kind + " literal");
}

Token Lexer::lex_number() {
  size_t begin = pos_;
  size_t p = pos_;
  auto digits = [&](auto pred, const char* kind) {
    // One or more digits separated by single underscores. Returns false if none.
    if (p >= text_.size() || !pred(text_[p])) return false;
    while (p < text_.size()) {
      if (pred(text_[p])) { ++p; continue; }
      if (text_[p] == '_') {
        if (p + 1 < text_.size() && pred(text_[p + 1])) { p += 2; continue; }
        error_at(p + 1, std::string("invalid ") + kind + " literal");
      }
      break;
    }
    return true;
  };
  auto dec = [](char c) { return c >= '0' && c <= '9'; };
  if (text_[p] == '0' && p + 1 < text_.size() &&
      std::strchr("xXoObB", text_[p + 1]) != nullptr && text_[p + 1] != '\0') {
    char b = static_cast<char>(text_[p + 1] | 0x20);
    p += 2;
    const char* kind = b == 'x' ? "hexadecimal" : b == 'o' ? "octal" : "binary";
    if (p < text_.size() && text_[p] == '_') ++p;  // `0x_ff` is allowed
    bool ok;
    if (b == 'x') ok = digits([](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }, kind);
    else if (b == 'o') ok = digits([](char c) { return c >= '0' && c <= '7'; }, kind);
    else ok = digits([](char c) { return c == '0' || c == '1'; }, kind);
    if (!ok || (p < text_.size() && is_digit(text_[p]))) {
      if (p < text_.size() && is_digit(text_[p])) {
        error_at(p, std::string("invalid digit '") + text_[p] + "' in " + kind + " literal");
      }
      error_at(p, std::string("invalid ") + kind + " literal");
    }
    check_number_end(p, kind);
    pos_ = p;
    return make(Tok::Number, begin, p);
  }
  bool is_float = false;
  if (text_[p] != '.') digits(dec, "decimal");
  if (p < text_.size() && text_[p] == '.') {
    is_float = true;
    ++p;
    if (p < text_.size() && text_[p] == '_') error_at(p, "invalid decimal literal");
    digits(dec, "decimal");
  }
  if (p < text_.size() && (text_[p] == 'e' || text_[p] == 'E')) {
    size_t e = p++;
    if (p < text_.size() && (text_[p] == '+' || text_[p] == '-')) ++p;
    if (!digits(dec, "decimal")) {
      // `1else` / `1e` : the letter is not an exponent.
      p = e;
      check_number_end(p, "decimal");
      pos_ = p;
      return make(Tok::Number, begin, p);
    }
    is_float = true;
  }
  if (p < text_.size() && (text_[p] == 'j' || text_[p] == 'J')) {
    ++p;
    is_float = true;
  }
  if (!is_float) {
    // Leading zeros are only allowed for zero itself ("00", "0_0").
    std::string_view t = std::string_view(text_).substr(begin, p - begin);
    if (t.size() > 1 && t[0] == '0' && t.find_first_not_of("0_") != std::string_view::npos) {
      error_at(begin, "leading zeros in decimal integer literals are not permitted; use an 0o "
                      "prefix for octal integers");
    }
  }
  check_number_end(p, is_float && (text_[p - 1] == 'j' || text_[p - 1] == 'J') ? "imaginary" : "decimal");
  pos_ = p;
  return make(Tok::Number, begin, p);
}

Token Lexer::lex_string(size_t begin, size_t quote_pos) {
  char q = text_[quote_pos];
  size_t p = quote_pos;
  bool triple = p + 2 < text_.size() && text_[p + 1] == q && text_[p + 2] == q;
  p += triple ? 3 : 1;
  for (;;) {
    if (p >= text_.size()) {
      if (triple) {
        // Detected on the last line (a final newline does not start another one).
        size_t last = p > begin && text_[p - 1] == '\n' ? p - 1 : p;
        error_at(begin, "unterminated triple-quoted string literal (detected at line " +
                            std::to_string(origin_.first_line + line_of(last) - 1) + ")");
      }
      error_at(begin, "unterminated string literal (detected at line " +
                          std::to_string(origin_.first_line + line_of(p) - 1) + ")");
    }
    char c = text_[p];
    if (c == '\\') {
      if (p + 1 < text_.size()) {
        if (text_[p + 1] == '\n') line_starts_.push_back(p + 2);
        p += 2;
      } else {
        p += 1;
      }
      continue;
    }
    if (c == '\n') {
      if (!triple) {
        error_at(begin, "unterminated string literal (detected at line " +
                            std::to_string(origin_.first_line + line_of(p) - 1) + ")");
      }
      ++p;
      line_starts_.push_back(p);
      continue;
    }
    if (c == q) {
      if (!triple) { ++p; break; }
      if (p + 2 < text_.size() && text_[p + 1] == q && text_[p + 2] == q) { p += 3; break; }
    }
    ++p;
  }
  pos_ = p;
  return make(Tok::String, begin, p);
}

Token Lexer::lex_operator() {
  size_t begin = pos_;
  std::string_view rest = std::string_view(text_).substr(pos_);
  struct Op { const char* s; Tok t; };
  // Longest first within each leading character.
  static const Op kOps[] = {
      {"**=", Tok::DoubleStarEqual}, {"//=", Tok::DoubleSlashEqual}, {">>=", Tok::RightShiftEqual},
      {"<<=", Tok::LeftShiftEqual},  {"...", Tok::Ellipsis},          {"->", Tok::Arrow},
      {":=", Tok::ColonEqual},       {"**", Tok::DoubleStar},         {"//", Tok::DoubleSlash},
      {"<<", Tok::LeftShift},        {">>", Tok::RightShift},         {"==", Tok::EqEqual},
      {"!=", Tok::NotEqual},         {"<=", Tok::LessEqual},          {">=", Tok::GreaterEqual},
      {"+=", Tok::PlusEqual},        {"-=", Tok::MinEqual},           {"*=", Tok::StarEqual},
      {"/=", Tok::SlashEqual},       {"%=", Tok::PercentEqual},       {"&=", Tok::AmperEqual},
      {"|=", Tok::VBarEqual},        {"^=", Tok::CircumflexEqual},    {"@=", Tok::AtEqual},
      {"(", Tok::LPar},              {")", Tok::RPar},                {"[", Tok::LSqb},
      {"]", Tok::RSqb},              {"{", Tok::LBrace},              {"}", Tok::RBrace},
      {":", Tok::Colon},             {",", Tok::Comma},               {";", Tok::Semi},
      {".", Tok::Dot},               {"@", Tok::At},                  {"+", Tok::Plus},
      {"-", Tok::Minus},             {"*", Tok::Star},                {"/", Tok::Slash},
      {"|", Tok::VBar},              {"&", Tok::Amper},               {"<", Tok::Less},
      {">", Tok::Greater},           {"=", Tok::Equal},               {"%", Tok::Percent},
      {"~", Tok::Tilde},             {"^", Tok::Circumflex},          {"!", Tok::Exclamation},
  };
  for (const Op& op : kOps) {
    size_t n = std::strlen(op.s);
    if (rest.substr(0, n) != op.s) continue;
    char c = op.s[0];
    if (n == 1 && (c == '(' || c == '[' || c == '{')) {
      if (brackets_.size() >= kMaxBrackets) error_at(begin, "too many nested parentheses");
      brackets_.push_back({c, begin});
    } else if (n == 1 && (c == ')' || c == ']' || c == '}')) {
      if (brackets_.empty()) error_at(begin, std::string("unmatched '") + c + "'");
      OpenBracket open = brackets_.back();
      char want = open.ch == '(' ? ')' : open.ch == '[' ? ']' : '}';
      if (c != want) {
        std::string msg = std::string("closing parenthesis '") + c +
                          "' does not match opening parenthesis '" + open.ch + "'";
        int open_line = loc_at(open.offset).line;
        if (open_line != loc_at(begin).line) msg += " on line " + std::to_string(open_line);
        error_at(begin, msg);
      }
      brackets_.pop_back();
    }
    pos_ += n;
    return make(op.t, begin, pos_);
  }
  error_at(begin, "invalid syntax");
}

}  // namespace nki::py
