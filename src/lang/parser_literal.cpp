// Literals: numbers, string/bytes escapes, implicit concatenation and f-strings.
//
// f-strings follow CPython 3.11's two-stage design (the tokenizer returns a whole f-string as
// one STRING token; the parser splits it into literal parts and replacement fields and parses
// each field's expression with a sub-parser over "(" + expr + ")"), so that node positions and
// the shape of the resulting JoinedStr/FormattedValue/Constant nodes match CPython exactly.
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "lang/parser_impl.h"

namespace nki::py {

namespace {

constexpr int kMaxIntDigits = 4300;  // CPython's default int_max_str_digits

StringPrefix parse_prefix(std::string_view text, size_t* prefix_len) {
  StringPrefix p;
  size_t i = 0;
  for (; i < text.size() && text[i] != '\'' && text[i] != '"'; ++i) {
    char c = static_cast<char>(text[i] | 0x20);
    if (c == 'r') p.raw = true;
    else if (c == 'b') p.bytes = true;
    else if (c == 'f') p.fstring = true;
    else if (c == 'u') p.u = true;
  }
  *prefix_len = i;
  return p;
}

void append_utf8(std::string& out, uint32_t cp) {
  // Surrogates (from \ud800 escapes) are encoded like Python's 'surrogatepass'.
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = static_cast<char>(c | 0x20);
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// Decodes backslash escapes of a non-raw literal body. Returns false and sets `err` on a bad
// escape. `bytes` selects bytes semantics (no \u, \U, \N; octal values taken modulo 256).
bool decode_escapes(std::string_view s, bool bytes, std::string& out, std::string& err) {
  out.reserve(out.size() + s.size());
  for (size_t i = 0; i < s.size();) {
    char c = s[i];
    if (c != '\\') {
      out += c;
      ++i;
      continue;
    }
    if (i + 1 >= s.size()) {
      // Only reachable for an f-string literal part ending in `\` before a `{` (f"\{x}"):
      // CPython keeps the backslash.
      out += '\\';
      break;
    }
    char e = s[i + 1];
    i += 2;
    switch (e) {
      case '\n': break;
      case '\\': out += '\\'; break;
      case '\'': out += '\''; break;
      case '"': out += '"'; break;
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'v': out += '\v'; break;
      case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
        uint32_t v = static_cast<uint32_t>(e - '0');
        for (int k = 0; k < 2 && i < s.size() && s[i] >= '0' && s[i] <= '7'; ++k, ++i) {
          v = v * 8 + static_cast<uint32_t>(s[i] - '0');
        }
        if (bytes) out += static_cast<char>(v & 0xFF);
        else append_utf8(out, v);
        break;
      }
      case 'x': case 'u': case 'U': {
        if (bytes && e != 'x') {  // not an escape in bytes
          out += '\\';
          out += e;
          break;
        }
        int n = e == 'x' ? 2 : e == 'u' ? 4 : 8;
        uint32_t v = 0;
        for (int k = 0; k < n; ++k) {
          int h = i + k < s.size() ? hex_value(s[i + k]) : -1;
          if (h < 0) {
            if (bytes) err = "(value error) invalid \\x escape";
            else err = std::string("(unicode error) 'unicodeescape' codec can't decode bytes: truncated \\") +
                       (e == 'x' ? "xXX" : e == 'u' ? "uXXXX" : "UXXXXXXXX") + " escape";
            return false;
          }
          v = v * 16 + static_cast<uint32_t>(h);
        }
        i += n;
        if (v > 0x10FFFF) {
          err = "(unicode error) 'unicodeescape' codec can't decode bytes: illegal Unicode character";
          return false;
        }
        if (bytes) out += static_cast<char>(v);
        else append_utf8(out, v);
        break;
      }
      case 'N':
        if (!bytes) {
          // Needs the Unicode name database, which this toolchain does not carry.
          err = "(unicode error) \\N{...} escapes are not supported by this parser; use \\u or \\U";
          return false;
        }
        [[fallthrough]];
      default:
        // Unknown escapes keep the backslash (CPython only warns).
        out += '\\';
        out += e;
        break;
    }
  }
  return true;
}

// Converts digits in `base` (no prefix, no underscores) to decimal text.
std::string to_decimal(std::string_view digits, int base) {
  // Little-endian limbs of 10^9.
  std::vector<uint32_t> limbs{0};
  for (char ch : digits) {
    uint64_t carry = static_cast<uint64_t>(hex_value(ch));
    for (uint32_t& l : limbs) {
      uint64_t v = static_cast<uint64_t>(l) * static_cast<uint64_t>(base) + carry;
      l = static_cast<uint32_t>(v % 1000000000u);
      carry = v / 1000000000u;
    }
    while (carry) {
      limbs.push_back(static_cast<uint32_t>(carry % 1000000000u));
      carry /= 1000000000u;
    }
  }
  std::string out = std::to_string(limbs.back());
  for (size_t i = limbs.size() - 1; i-- > 0;) {
    std::string part = std::to_string(limbs[i]);
    out += std::string(9 - part.size(), '0') + part;
  }
  return out;
}

}  // namespace

ExprPtr Parser::number_atom() {
  Token t = advance();
  auto c = make_node<Constant>(t.begin, t.end);
  std::string s;
  s.reserve(t.text.size());
  for (char ch : t.text) {
    if (ch != '_') s += ch;
  }
  char last = s.back();
  if (last == 'j' || last == 'J') {
    s.pop_back();
    c->value_kind = Constant::Kind::Complex;
    c->float_value = std::strtod(s.c_str(), nullptr);
    return c;
  }
  int base = 10;
  std::string_view digits = s;
  if (s.size() > 1 && s[0] == '0' && std::strchr("xXoObB", s[1]) != nullptr) {
    char b = static_cast<char>(s[1] | 0x20);
    base = b == 'x' ? 16 : b == 'o' ? 8 : 2;
    digits = std::string_view(s).substr(2);
  } else if (s.find_first_of(".eE") != std::string::npos) {
    c->value_kind = Constant::Kind::Float;
    c->float_value = std::strtod(s.c_str(), nullptr);
    return c;
  }
  c->value_kind = Constant::Kind::Int;
  size_t nz = digits.find_first_not_of('0');
  digits = nz == std::string_view::npos ? std::string_view("0") : digits.substr(nz);
  // Fits in int64?
  uint64_t v = 0;
  bool fits = true;
  for (char ch : digits) {
    uint64_t d = static_cast<uint64_t>(hex_value(ch));
    if (v > (static_cast<uint64_t>(INT64_MAX) - d) / static_cast<uint64_t>(base)) {
      fits = false;
      break;
    }
    v = v * static_cast<uint64_t>(base) + d;
  }
  if (fits) {
    c->int_value = static_cast<int64_t>(v);
    return c;
  }
  if (base == 10) {
    if (digits.size() > static_cast<size_t>(kMaxIntDigits)) {
      error(t.begin, "Exceeds the limit (" + std::to_string(kMaxIntDigits) +
                         " digits) for integer string conversion: value has " +
                         std::to_string(digits.size()) +
                         " digits; use sys.set_int_max_str_digits() to increase the limit");
    }
    c->big_int_text = std::string(digits);
  } else {
    // Bound the (quadratic) base conversion; such literals are never real kernel code.
    double decimal_digits = static_cast<double>(digits.size()) * std::log10(static_cast<double>(base));
    if (decimal_digits > kMaxIntDigits) {
      error(t.begin, "integer literal too large for this parser (more than " +
                         std::to_string(kMaxIntDigits) + " decimal digits)");
    }
    c->big_int_text = to_decimal(digits, base);
  }
  c->big_int = true;
  return c;
}

// ---------------------------------------------------------------- strings and f-strings

class StringParser {
 public:
  StringParser(Parser& p, std::vector<Token> toks)
      : p_(p), toks_(std::move(toks)), whole_{toks_.front().begin, toks_.back().end} {}

  ExprPtr run();

 private:
  struct State {
    std::string last_str;
    ExprList values;
    bool fmode = false;
  };

  [[noreturn]] void fail(const Token& t, std::string msg) { throw_syntax_error(p_.file_, t.begin, std::move(msg)); }
  ExprPtr make_str(std::string& s, const Token& kind_tok, SourceSpan span);
  ExprPtr finish(State& st, const Token& kind_tok, SourceSpan span);
  void concat_fstring(State& st, const char*& s, const char* end, bool raw, int lvl, const Token& t);
  // Returns 1 when a literal ended at a doubled brace (caller continues scanning).
  int find_literal(const char*& s, const char* end, bool raw, int lvl, std::string& lit, const Token& t);
  void find_expr(const char*& s, const char* end, bool raw, int lvl, std::string& expr_text,
                 ExprPtr& expr, const Token& t);
  ExprPtr compile_expr(const char* start, const char* end, const Token& t);
  std::string decode(std::string_view body, bool bytes, const Token& t) {
    std::string out, err;
    if (!decode_escapes(body, bytes, out, err)) fail(t, err);
    return out;
  }

  Parser& p_;
  std::vector<Token> toks_;
  SourceSpan whole_;
};

ExprPtr StringParser::make_str(std::string& s, const Token& kind_tok, SourceSpan span) {
  auto c = std::make_unique<Constant>();
  c->span = span;
  c->value_kind = Constant::Kind::Str;
  c->str_value = std::move(s);
  s.clear();
  // CPython sets kind='u' only for a lowercase u prefix on the token that names the node.
  c->u_prefix = !kind_tok.text.empty() && kind_tok.text[0] == 'u';
  return c;
}

ExprPtr StringParser::finish(State& st, const Token& kind_tok, SourceSpan span) {
  if (!st.fmode) return make_str(st.last_str, kind_tok, span);
  if (!st.last_str.empty()) st.values.push_back(make_str(st.last_str, kind_tok, span));
  auto j = std::make_unique<JoinedStr>();
  j->span = span;
  j->values = std::move(st.values);
  return j;
}

ExprPtr StringParser::run() {
  State st;
  bool bytesmode = false;
  std::string bytes;
  for (size_t i = 0; i < toks_.size(); ++i) {
    const Token& t = toks_[i];
    size_t plen;
    StringPrefix pre = parse_prefix(t.text, &plen);
    size_t qlen = t.text.size() - plen >= 6 && t.text[plen] == t.text[plen + 1] &&
                          t.text[plen] == t.text[plen + 2]
                      ? 3
                      : 1;
    std::string_view body = t.text.substr(plen + qlen, t.text.size() - plen - 2 * qlen);
    if (i != 0 && bytesmode != pre.bytes) fail(t, "cannot mix bytes and nonbytes literals");
    bytesmode = pre.bytes;
    if (pre.bytes) {
      for (char ch : body) {
        if (static_cast<unsigned char>(ch) >= 0x80) fail(t, "bytes can only contain ASCII literal characters");
      }
      bytes += pre.raw ? std::string(body) : decode(body, true, t);
    } else if (pre.fstring) {
      const char* s = body.data();
      concat_fstring(st, s, body.data() + body.size(), pre.raw, 0, t);
    } else {
      st.last_str += pre.raw ? std::string(body) : decode(body, false, t);
    }
  }
  if (bytesmode) {
    auto c = std::make_unique<Constant>();
    c->span = whole_;
    c->value_kind = Constant::Kind::Bytes;
    c->str_value = std::move(bytes);
    return c;
  }
  return finish(st, toks_.front(), whole_);
}

void StringParser::concat_fstring(State& st, const char*& s, const char* end, bool raw, int lvl,
                                  const Token& t) {
  st.fmode = true;
  for (;;) {
    std::string lit, expr_text;
    ExprPtr expr;
    int result = find_literal(s, end, raw, lvl, lit, t);
    if (result == 0 && s < end && *s != '}') find_expr(s, end, raw, lvl, expr_text, expr, t);
    st.last_str += lit;
    st.last_str += expr_text;
    if (result == 1) continue;
    if (!expr) break;
    if (!st.last_str.empty()) st.values.push_back(make_str(st.last_str, toks_.front(), whole_));
    st.values.push_back(std::move(expr));
  }
  if (lvl == 0 && s < end) fail(t, "f-string: unexpected end of string");
  if (lvl != 0 && (s >= end || *s != '}')) fail(t, "f-string: expecting '}'");
}

int StringParser::find_literal(const char*& str, const char* end, bool raw, int lvl,
                               std::string& lit, const Token& t) {
  const char* start = str;
  const char* s = str;
  int result = 0;
  while (s < end) {
    char ch = *s++;
    if (!raw && ch == '\\' && s < end) {
      ch = *s++;
      if (ch == 'N') {
        // Skip the braces of "\N{name}" so they do not start a replacement field.
        if (s < end && *s++ == '{') {
          while (s < end && *s++ != '}') {
          }
        }
        continue;
      }
    }
    if (ch == '{' || ch == '}') {
      // Doubled braces only count at the top level: f'{0:{3}}' ends with two separate '}'.
      if (lvl == 0) {
        if (s < end && *s == ch) {
          str = s + 1;
          result = 1;
          goto done;
        }
        if (ch == '}') fail(t, "f-string: single '}' is not allowed");
      }
      --s;
      break;
    }
  }
  str = s;
done:
  // For a doubled brace the literal includes the first brace.
  const char* lit_end = result == 1 ? str - 1 : str;
  if (lit_end > start) {
    std::string_view chunk(start, static_cast<size_t>(lit_end - start));
    lit = raw ? std::string(chunk) : decode(chunk, false, t);
  }
  return result;
}

void StringParser::find_expr(const char*& s, const char* end, bool raw, int lvl,
                             std::string& expr_text, ExprPtr& expr, const Token& t) {
  if (lvl >= 2) fail(t, "f-string: expressions nested too deeply");
  ++s;  // '{'
  const char* expr_start = s;
  char quote = 0;
  int string_type = 0;
  char parens[200];
  int depth = 0;
  for (; s < end; ++s) {
    char ch = *s;
    if (ch == '\\') fail(t, "f-string expression part cannot include a backslash");
    if (quote) {
      if (ch == quote) {
        if (string_type == 3) {
          if (s + 2 < end && s[1] == ch && s[2] == ch) {
            s += 2;
            quote = 0;
            string_type = 0;
          }
        } else {
          quote = 0;
          string_type = 0;
        }
      }
      continue;
    }
    if (ch == '\'' || ch == '"') {
      if (s + 2 < end && s[1] == ch && s[2] == ch) {
        string_type = 3;
        s += 2;
      } else {
        string_type = 1;
      }
      quote = ch;
    } else if (ch == '[' || ch == '{' || ch == '(') {
      if (depth >= 200) fail(t, "f-string: too many nested parenthesis");
      parens[depth++] = ch;
    } else if (ch == '#') {
      fail(t, "f-string expression part cannot include '#'");
    } else if (depth == 0 && (ch == '!' || ch == ':' || ch == '}' || ch == '=' || ch == '>' || ch == '<')) {
      if (s + 1 < end) {
        char next = s[1];
        if ((ch == '!' && next == '=') || (ch == '=' && next == '=') || (ch == '<' && next == '=') ||
            (ch == '>' && next == '=')) {
          ++s;
          continue;
        }
      }
      if (ch == '>' || ch == '<') continue;
      break;
    } else if (ch == ']' || ch == '}' || ch == ')') {
      if (depth == 0) fail(t, std::string("f-string: unmatched '") + ch + "'");
      char open = parens[--depth];
      if (!((open == '(' && ch == ')') || (open == '[' && ch == ']') || (open == '{' && ch == '}'))) {
        fail(t, std::string("f-string: closing parenthesis '") + ch +
                    "' does not match opening parenthesis '" + open + "'");
      }
    }
  }
  const char* expr_end = s;
  if (quote) fail(t, "f-string: unterminated string");
  if (depth) fail(t, std::string("f-string: unmatched '") + parens[depth - 1] + "'");
  if (s >= end) fail(t, "f-string: expecting '}'");
  ExprPtr value = compile_expr(expr_start, expr_end, t);

  bool has_text = false;
  if (*s == '=') {
    ++s;
    while (s < end && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\f' || *s == '\v')) ++s;
    if (s >= end) fail(t, "f-string: expecting '}'");
    expr_text.assign(expr_start, static_cast<size_t>(s - expr_start));
    has_text = true;
  }
  int conversion = -1;
  if (*s == '!') {
    ++s;
    if (s >= end) fail(t, "f-string: expecting '}'");
    conversion = static_cast<unsigned char>(*s++);
    if (!(conversion == 's' || conversion == 'r' || conversion == 'a')) {
      fail(t, "f-string: invalid conversion character: expected 's', 'r', or 'a'");
    }
  }
  ExprPtr format_spec;
  if (s >= end) fail(t, "f-string: expecting '}'");
  if (*s == ':') {
    ++s;
    if (s >= end) fail(t, "f-string: expecting '}'");
    State spec;
    concat_fstring(spec, s, end, raw, lvl + 1, t);
    // The spec's JoinedStr (and its trailing literal) are located at the current token only.
    format_spec = finish(spec, t, SourceSpan{t.begin, t.end});
  }
  if (s >= end || *s != '}') fail(t, "f-string: expecting '}'");
  ++s;
  if (has_text && !format_spec && conversion == -1) conversion = 'r';
  auto fv = std::make_unique<FormattedValue>();
  fv->span = whole_;
  fv->value = std::move(value);
  fv->conversion = conversion;
  fv->format_spec = std::move(format_spec);
  expr = std::move(fv);
}

ExprPtr StringParser::compile_expr(const char* start, const char* end, const Token& t) {
  const char* s = start;
  while (s < end && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\f')) ++s;
  if (s == end) {
    if (*end == '!' || *end == ':' || *end == '=') {
      fail(t, std::string("f-string: expression required before '") + *end + "'");
    }
    fail(t, "f-string: empty expression not allowed");
  }
  // Where the field's '{' sits: CPython shifts the sub-parser's first line by the brace's
  // column (plus the token's column when the brace is on the token's first line), unless only
  // whitespace follows the brace on its line.
  const char* tok_text = t.text.data();
  const char* brace = start - 1;
  int lines = 0;
  const char* last_nl = nullptr;
  for (const char* p = tok_text; p < brace; ++p) {
    if (*p == '\n') {
      ++lines;
      last_nl = p;
    }
  }
  bool newline_after_brace = true;
  for (const char* p = start; p < end + 1 && *p != '}' && *p != '\n'; ++p) {
    if (*p != ' ' && *p != '\t' && *p != '\f') {
      newline_after_brace = false;
      break;
    }
  }
  int cols = 0;
  if (!newline_after_brace) {
    cols = last_nl ? static_cast<int>(brace - last_nl - 1) : static_cast<int>(brace - tok_text);
  }
  TextOrigin origin;
  origin.first_line = t.begin.line + lines;
  origin.first_line_col = lines == 0 ? (t.begin.col - 1) + cols : cols;
  std::string text;
  text.reserve(static_cast<size_t>(end - start) + 2);
  text += '(';
  text.append(start, static_cast<size_t>(end - start));
  text += ')';
  Parser sub(p_.file_, text, origin, p_.depth_ + 1, p_.tree_depth_ + 1);
  sub.set_in_fstring();
  return sub.parse_fstring_field();
}

// strings: STRING+
ExprPtr Parser::strings() {
  std::vector<Token> toks;
  Nest nest(*this, peek().begin);
  while (at(Tok::String)) toks.push_back(advance());
  StringParser sp(*this, std::move(toks));
  return sp.run();
}

ExprPtr Parser::parse_fstring_field() {
  ExprPtr e = star_expressions();
  if (!at(Tok::Newline) && !at(Tok::EndMarker)) invalid_syntax();
  return e;
}

}  // namespace nki::py
