#include "synth/dim_expr.h"

#include <cctype>
#include <stdexcept>

namespace nki::synth {

namespace {

// Recursive descent: sum := term (('+'|'-') term)*; term := atom (('*'|'/'|'%') atom)*;
// atom := number | symbol | '(' sum ')'.
struct Parser {
  const std::string& s;
  const std::map<std::string, int64_t>& sym;
  size_t i = 0;

  [[noreturn]] void error(const std::string& why) const {
    throw std::invalid_argument("dimension expression '" + s + "': " + why);
  }
  void skip() {
    while (i < s.size() && s[i] == ' ') ++i;
  }
  int64_t atom() {
    skip();
    if (i >= s.size()) error("unexpected end");
    if (s[i] == '(') {
      ++i;
      int64_t v = sum();
      skip();
      if (i >= s.size() || s[i] != ')') error("missing ')'");
      ++i;
      return v;
    }
    if (std::isdigit(static_cast<unsigned char>(s[i]))) {
      int64_t v = 0;
      while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) v = v * 10 + (s[i++] - '0');
      return v;
    }
    if (std::isalpha(static_cast<unsigned char>(s[i])) || s[i] == '_') {
      size_t b = i;
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
      std::string name = s.substr(b, i - b);
      auto it = sym.find(name);
      if (it == sym.end()) error("unknown symbol '" + name + "'");
      return it->second;
    }
    error(std::string("unexpected '") + s[i] + "'");
  }
  int64_t term() {
    int64_t v = atom();
    for (;;) {
      skip();
      if (i >= s.size() || (s[i] != '*' && s[i] != '/' && s[i] != '%')) return v;
      char op = s[i++];
      int64_t r = atom();
      if (op == '*') v *= r;
      else {
        if (r == 0) error("division by zero");
        // floor division and modulo, as Python and torch shape arithmetic
        int64_t q = v / r, m = v % r;
        if (m != 0 && ((m < 0) != (r < 0))) { --q; m += r; }
        v = op == '/' ? q : m;
      }
    }
  }
  int64_t sum() {
    int64_t v = term();
    for (;;) {
      skip();
      if (i >= s.size() || (s[i] != '+' && s[i] != '-')) return v;
      char op = s[i++];
      int64_t r = term();
      v = op == '+' ? v + r : v - r;
    }
  }
};

}  // namespace

int64_t eval_dim_expr(const std::string& expr, const std::map<std::string, int64_t>& symbols) {
  Parser p{expr, symbols};
  int64_t v = p.sum();
  p.skip();
  if (p.i != expr.size()) p.error("trailing characters");
  return v;
}

}  // namespace nki::synth
