// Internal: the recursive-descent parser shared by parser_*.cpp. Not part of the public API.
//
// Rule functions are named after the Python 3.11 PEG grammar rules they implement
// (https://docs.python.org/3.11/reference/grammar.html). Tokens are pulled from the lexer on
// demand and kept in a buffer so a rule can look ahead or backtrack (only a few rules do:
// `match` soft keyword, parenthesized `with` items, keyword arguments).
#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "lang/ast.h"
#include "lang/lexer.h"
#include "lang/parser.h"

namespace nki::py {

class Parser {
 public:
  // `depth` is the nesting already used by enclosing parsers (f-string expressions).
  Parser(SourceFilePtr file, std::string_view text, TextOrigin origin = {}, int depth = 0,
         int tree_depth = 0);

  // file: statements* ENDMARKER
  StmtList parse_file();
  // The expression of an f-string replacement field, given as "(expr)".
  ExprPtr parse_fstring_field();

 private:
  friend struct Nest;
  friend class StringParser;
  // ------------------------------------------------------------ tokens
  const Token& peek(size_t k = 0);
  const Token& cur() { return peek(0); }
  Token advance();
  bool at(Tok t) { return peek().kind == t; }
  bool at_kw(std::string_view kw) { const Token& t = peek(); return t.kind == Tok::Name && t.text == kw; }
  bool at_kw_ahead(size_t k, std::string_view kw) {
    const Token& t = peek(k); return t.kind == Tok::Name && t.text == kw;
  }
  bool accept(Tok t);
  bool accept_kw(std::string_view kw);
  Token expect(Tok t);
  Token expect_colon(bool forced);
  Token expect_kw(std::string_view kw);
  Token expect_name();
  bool at_plain_name() { return at(Tok::Name) && !peek().is_keyword; }
  SourceLoc prev_end() const { return toks_[pos_ - 1].end; }
  SourceLoc block_end() const;
  [[noreturn]] void error(SourceLoc at, std::string msg);
  [[noreturn]] void invalid_syntax();  // "invalid syntax" at the current token
  [[noreturn]] void unexpected_indent();
  // Called when parsing failed: throws a tokenizer error from the rest of the file instead,
  // when CPython would report that one.
  void prefer_later_tokenizer_error();

  struct Mark {
    size_t pos;
    int depth, tree_depth;
  };
  Mark mark() const { return {pos_, depth_, tree_depth_}; }
  void reset(const Mark& m) { pos_ = m.pos; depth_ = m.depth; tree_depth_ = m.tree_depth; }
  // Marks a region whose syntax errors are caught and backtracked over.
  struct Speculation {
    Parser& p;
    explicit Speculation(Parser& parser) : p(parser) { ++p.speculating_; }
    ~Speculation() { --p.speculating_; }
  };

  // ------------------------------------------------------------ statements (parser.cpp)
  void statement(StmtList& out);
  void simple_stmts(StmtList& out);
  StmtPtr simple_stmt();
  StmtPtr compound_stmt();
  StmtList block(const Token& owner);
  StmtPtr assignment_or_expr();
  StmtPtr import_name();
  StmtPtr import_from();
  StmtPtr function_def(ExprList decorators, bool is_async, SourceLoc begin);
  StmtPtr class_def(ExprList decorators);
  StmtPtr if_stmt(bool is_elif);
  StmtPtr while_stmt();
  StmtPtr for_stmt(bool is_async, SourceLoc begin);
  StmtPtr with_stmt(bool is_async, SourceLoc begin);
  StmtPtr try_stmt();
  StmtPtr decorated();
  StmtPtr match_stmt();  // null when `match` is not the soft keyword here
  StmtList else_block();

  // ------------------------------------------------------------ expressions (parser_expr.cpp)
  ExprPtr star_expressions();
  ExprPtr star_expression();
  ExprPtr star_named_expression();
  ExprPtr named_expression();
  ExprPtr expression();
  ExprPtr disjunction();
  ExprPtr conjunction();
  ExprPtr inversion();
  ExprPtr comparison();
  ExprPtr bitwise(int level);
  ExprPtr bitwise_or() { return bitwise(0); }
  ExprPtr factor();
  ExprPtr power();
  ExprPtr primary();
  ExprPtr atom();
  ExprPtr paren_atom();
  ExprPtr list_atom();
  ExprPtr brace_atom();
  ExprPtr slices();
  ExprPtr slice();
  ExprPtr lambdef();
  ExprPtr yield_expr();
  ExprPtr yield_or_star_expressions();
  std::vector<comprehension> for_if_clauses();
  ExprPtr star_targets();  // target lists of `for` and comprehensions
  ExprPtr star_target();   // one target (`with ... as t`)
  // Call arguments after '(' up to and including ')'. Fills args/keywords.
  void call_arguments(ExprList& args, std::vector<keyword>& keywords, SourceLoc lpar);
  // Parameter lists of def (annotations allowed) and lambda.
  arguments parameters(Tok closing, bool allow_annotations);

  // ------------------------------------------------------------ literals (parser_literal.cpp)
  ExprPtr number_atom();
  ExprPtr strings();

  // ------------------------------------------------------------ patterns (parser_pattern.cpp)
  PatternPtr patterns();
  PatternPtr pattern();
  PatternPtr or_pattern();
  PatternPtr closed_pattern();
  PatternPtr mapping_pattern();
  PatternPtr class_pattern(ExprPtr cls);
  PatternPtr star_pattern();
  ExprPtr literal_expr();   // a literal usable as a pattern value or mapping key
  ExprPtr name_or_attr();
  std::string capture_target();

  // ------------------------------------------------------------ targets (parser_target.cpp)
  // Sets the context of an assignment/for/with/del target, or reports why it is not one.
  void set_context(Expr& e, ExprContext ctx, const char* stmt_kind);

  SourceFilePtr file_;
  Lexer lexer_;
  std::deque<Token> toks_;  // deque: references from peek() stay valid as it grows
  size_t pos_ = 0;
  std::optional<DiagnosticError> lex_error_;  // sticky: re-thrown on every later pull
  int depth_ = 0;
  int tree_depth_ = 0;
  int speculating_ = 0;
  struct {
    SourceSpan span;
    bool legacy_print = false;  // the Name `print` or `exec` (CPython gives no comma hint)
  } last_disjunction_;
  bool in_fstring_ = false;

 public:
  void set_in_fstring() { in_fstring_ = true; }
};

// RAII nesting counter: each nested rule invocation that costs stack frames takes one.
struct Nest {
  Parser& p;
  explicit Nest(Parser& parser, SourceLoc at);
  ~Nest() { --p.depth_; --p.tree_depth_; }
  Nest(const Nest&) = delete;
  Nest& operator=(const Nest&) = delete;
};

// True when `t` can begin an expression (a star included).
bool starts_expression(const Token& t);

template <class T>
std::unique_ptr<T> make_node(SourceLoc begin, SourceLoc end) {
  auto n = std::make_unique<T>();
  n->span = {begin, end};
  return n;
}

// The prefix letters of a string literal token (parser_literal.cpp).
struct StringPrefix {
  bool raw = false, bytes = false, fstring = false, u = false;
};

}  // namespace nki::py
