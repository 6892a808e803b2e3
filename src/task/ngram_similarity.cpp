#include "task/ngram_similarity.h"

#include <algorithm>
#include <cctype>

namespace nki {

namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool is_quote(char c) { return c == '"' || c == '\''; }

// r"", b'', f"", rb"" ...: a string prefix glued to its literal.
bool string_prefix(std::string_view word) {
  if (word.empty() || word.size() > 2) return false;
  for (char c : word)
    if (std::string("rRbBfFuU").find(c) == std::string::npos) return false;
  return true;
}

struct Token {
  std::string text;
  bool string = false;
};

// A logical line (physical lines joined inside brackets or after a backslash) and the column of
// its first token.
struct Line {
  size_t indent = 0;
  std::vector<Token> tokens;
};

std::vector<Line> logical_lines(std::string_view s) {
  std::vector<Line> out;
  Line cur;
  int depth = 0;
  size_t col = 0;          // column on the current physical line
  bool line_open = false;  // cur has tokens
  auto end_line = [&] {
    if (line_open) out.push_back(std::move(cur));
    cur = Line{};
    line_open = false;
    depth = 0;
  };
  size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (c == '\n') {
      ++i;
      col = 0;
      if (depth == 0) end_line();
      continue;
    }
    if (c == '\\' && i + 1 < s.size() && s[i + 1] == '\n') {  // explicit continuation
      i += 2;
      col = 0;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      ++col;
      continue;
    }
    if (c == '#') {
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    if (!line_open) {
      cur.indent = col;
      line_open = true;
    }
    size_t b = i;
    bool str = false;
    if (ident_start(c)) {
      while (i < s.size() && ident_char(s[i])) ++i;
      if (i < s.size() && is_quote(s[i]) && string_prefix(s.substr(b, i - b))) c = s[i];
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      while (i < s.size() && (ident_char(s[i]) || s[i] == '.')) ++i;
    } else if (!is_quote(c)) {
      if (c == '(' || c == '[' || c == '{') ++depth;
      if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
      ++i;
    }
    if (i < s.size() && is_quote(s[i]) && (i == b || is_quote(c))) {
      // A string literal (triple-quoted or not) is one token; an unterminated one runs to the end.
      char q = s[i];
      bool triple = s.substr(i, 3) == std::string(3, q);
      std::string_view close = triple ? s.substr(i, 3) : s.substr(i, 1);
      i += close.size();
      while (i < s.size() && s.substr(i, close.size()) != close) i += s[i] == '\\' ? 2 : 1;
      i = std::min(s.size(), i + close.size());
      str = true;
    }
    col += i - b;
    cur.tokens.push_back(Token{std::string(s.substr(b, i - b)), str});
  }
  end_line();
  return out;
}

// FNV-1a over the n tokens, with a separator so that ("ab","c") and ("a","bc") differ.
uint64_t hash_window(const std::vector<std::string>& t, size_t begin, size_t end) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = begin; i < end; ++i) {
    for (unsigned char c : t[i]) h = (h ^ c) * 1099511628211ull;
    h = (h ^ 0x1f) * 1099511628211ull;
  }
  return h;
}

// Index of the first token after the ':' that closes a `def`/`class` header (tokens.size() when
// the body is on the next lines).
size_t after_header(const std::vector<Token>& t) {
  int depth = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    const std::string& x = t[i].text;
    if (x == "(" || x == "[" || x == "{") ++depth;
    else if (x == ")" || x == "]" || x == "}") --depth;
    else if (x == ":" && depth == 0) return i + 1;
  }
  return t.size();
}

bool is_docstring(const Line& l) {
  return std::all_of(l.tokens.begin(), l.tokens.end(), [](const Token& t) { return t.string; });
}

bool is_super_init(const Line& l) {
  if (l.tokens.size() < 2 || l.tokens[0].text != "super" || l.tokens[1].text != "(") return false;
  return std::any_of(l.tokens.begin(), l.tokens.end(), [](const Token& t) { return t.text == "__init__"; });
}

}  // namespace

std::vector<std::string> code_tokens(std::string_view s) {
  std::vector<std::string> out;
  for (Line& l : logical_lines(s))
    for (Token& t : l.tokens) out.push_back(std::move(t.text));
  return out;
}

std::vector<std::string> computation_tokens(std::string_view src) {
  std::vector<std::string> out;
  enum class Block { kSkip, kClass, kFunction } block = Block::kSkip;
  size_t member_indent = 0;  // indent of the class body (0: not seen yet)
  auto emit = [&](const std::vector<Token>& t, size_t from) {
    for (size_t i = from; i < t.size(); ++i) out.push_back(t[i].text);
  };
  for (const Line& l : logical_lines(src)) {
    const std::string& first = l.tokens[0].text;
    if (l.indent == 0) {
      // Top level: only classes and functions carry computation; a one-line body after the
      // header's ':' counts as its body.
      if (first == "class") {
        block = Block::kClass;
        member_indent = 0;
      } else if (first == "def" && l.tokens.size() > 1 && l.tokens[1].text != "get_inputs" &&
                 l.tokens[1].text != "get_init_inputs") {
        block = Block::kFunction;
        emit(l.tokens, after_header(l.tokens));
      } else if (first != "@") {
        block = Block::kSkip;  // imports, constants, `if __name__ ...`, scaffolding functions
      }
      continue;
    }
    if (block == Block::kSkip || is_docstring(l) || is_super_init(l)) continue;
    if (block == Block::kClass) {
      if (member_indent == 0) member_indent = l.indent;
      if (l.indent == member_indent && first == "@") continue;
      if (l.indent == member_indent && first == "def") {
        emit(l.tokens, after_header(l.tokens));
        continue;
      }
    }
    emit(l.tokens, 0);
  }
  return out;
}

NgramSet token_ngrams(const std::vector<std::string>& tokens, int n) {
  NgramSet out;
  if (tokens.empty()) return out;
  size_t w = static_cast<size_t>(n < 1 ? 1 : n);
  if (tokens.size() <= w) return {hash_window(tokens, 0, tokens.size())};
  out.reserve(tokens.size() - w + 1);
  for (size_t i = 0; i + w <= tokens.size(); ++i) out.push_back(hash_window(tokens, i, i + w));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

NgramSet reference_ngrams(std::string_view reference_source) {
  return token_ngrams(computation_tokens(reference_source));
}

double jaccard(const NgramSet& a, const NgramSet& b) {
  if (a.empty() && b.empty()) return 0.0;
  size_t i = 0, j = 0, common = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i] == b[j]) {
      ++common;
      ++i;
      ++j;
    } else if (a[i] < b[j]) {
      ++i;
    } else {
      ++j;
    }
  }
  return static_cast<double>(common) / static_cast<double>(a.size() + b.size() - common);
}

double ngram_jaccard(std::string_view a, std::string_view b, int n) {
  return jaccard(token_ngrams(code_tokens(a), n), token_ngrams(code_tokens(b), n));
}

double reference_jaccard(std::string_view a, std::string_view b) {
  return jaccard(reference_ngrams(a), reference_ngrams(b));
}

}  // namespace nki
