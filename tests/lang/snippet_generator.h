// Seeded generator of random but syntactically valid Python 3.11 modules, for the differential
// test against CPython. Expressions are printed with precedence-aware parenthesization (so
// operator precedence and associativity are exercised), with random spacing (so columns are
// exercised), and cover statements, comprehensions, lambdas, f-strings, slices and patterns.
#pragma once

#include <cstdint>
#include <random>
#include <string>

namespace nki::py::testing {

class SnippetGenerator {
 public:
  explicit SnippetGenerator(uint32_t seed) : rng_(seed) {}
  // A module of a few statements (possibly nested blocks), ending with a newline.
  std::string module();

 private:
  struct E {
    std::string text;
    int prec;            // binding strength, see kPrec* in the .cpp
    bool number = false;  // a bare number literal (`1 .x` needs parentheses)
  };

  int pick(int n) { return static_cast<int>(rng_() % static_cast<uint32_t>(n)); }
  bool chance(int percent) { return pick(100) < percent; }
  std::string sp();  // "" or " " at random
  std::string name();
  E expr(int depth, bool in_fstring = false);
  E atom(int depth, bool in_fstring);
  std::string wrap(const E& e, int min_prec);
  std::string number();
  std::string string_literal();
  std::string fstring(int depth);
  std::string call_args(int depth, bool in_fstring);
  std::string subscript(int depth, bool in_fstring);
  std::string comprehension(int depth);
  std::string target();
  std::string params(bool annotations);
  std::string pattern(int depth);
  void stmt(int depth, int indent, std::string& out, bool in_def);
  void block(int depth, int indent, std::string& out, bool in_def);

  std::mt19937 rng_;
  std::string ind_unit_ = "    ";
};

}  // namespace nki::py::testing
