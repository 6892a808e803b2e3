// Token buffer, entry points and statements of the Python 3.11 parser.
#include "lang/parser.h"

#include <algorithm>
#include <cstring>

#include "lang/parser_impl.h"

namespace nki::py {

Module parse_module(SourceFilePtr file) {
  Parser p(file, file->text());
  Module m;
  m.file = file;
  m.body = p.parse_file();
  return m;
}

Module parse_module_text(std::string_view text, std::string path) {
  return parse_module(std::make_shared<SourceFile>(std::move(path), std::string(text)));
}

Nest::Nest(Parser& parser, SourceLoc at) : p(parser) {
  if (p.depth_ >= kMaxParseNesting || p.tree_depth_ >= kMaxTreeDepth) {
    p.error(at, "too many nested expressions or blocks (parser nesting limit " +
                    std::to_string(kMaxParseNesting) + ")");
  }
  ++p.depth_;
  ++p.tree_depth_;
}

Parser::Parser(SourceFilePtr file, std::string_view text, TextOrigin origin, int depth,
               int tree_depth)
    : file_(file), lexer_(file, text, origin), depth_(depth), tree_depth_(tree_depth) {}

// ---------------------------------------------------------------- tokens

const Token& Parser::peek(size_t k) {
  while (toks_.size() <= pos_ + k) {
    if (!toks_.empty() && toks_.back().kind == Tok::EndMarker) return toks_.back();
    if (lex_error_) throw *lex_error_;
    try {
      toks_.push_back(lexer_.next());
    } catch (const DiagnosticError& e) {
      lex_error_ = e;
      throw;
    }
  }
  return toks_[pos_ + k];
}

Token Parser::advance() {
  Token t = peek();
  if (t.kind != Tok::EndMarker) ++pos_;
  return t;
}

bool Parser::accept(Tok t) {
  if (!at(t)) return false;
  advance();
  return true;
}

bool Parser::accept_kw(std::string_view kw) {
  if (!at_kw(kw)) return false;
  advance();
  return true;
}

void Parser::error(SourceLoc at, std::string msg) {
  if (in_fstring_) msg = "f-string: " + msg;
  throw_syntax_error(file_, at, std::move(msg));
}

void Parser::invalid_syntax() {
  const Token& t = peek();
  // CPython: two expressions side by side inside brackets ("[a b]") get a comma hint located
  // at the first one (its invalid_expression rule); not after a soft keyword or a NAME that
  // prefixes a STRING.
  if (pos_ > 0 && toks_[pos_ - 1].level > 0 && t.kind != Tok::Star && starts_expression(t)) {
    const Token& prev = toks_[pos_ - 1];
    const SourceSpan& a = last_disjunction_.span;
    if (a.end.line == prev.end.line && a.end.col == prev.end.col && !last_disjunction_.legacy_print) {
      size_t first = pos_;  // index of a's first token (none found: no hint)
      for (size_t i = pos_; i-- > 0;) {
        if (toks_[i].begin.line == a.begin.line && toks_[i].begin.col == a.begin.col) {
          first = i;
          break;
        }
        if (toks_[i].begin.line < a.begin.line) break;
      }
      if (first < pos_) {
        const Token& f = toks_[first];
        bool soft_kw = f.kind == Tok::Name && (f.text == "match" || f.text == "case" || f.text == "_");
        bool name_string = f.kind == Tok::Name && !f.is_keyword && first + 1 < pos_ &&
                           toks_[first + 1].kind == Tok::String;
        if (!soft_kw && !name_string) error(a.begin, "invalid syntax. Perhaps you forgot a comma?");
      }
    }
  }
  if (t.kind == Tok::Indent) unexpected_indent();
  if (t.kind == Tok::Dedent) error(t.begin, "unexpected unindent");
  error(t.begin, "invalid syntax");
}

Token Parser::expect(Tok t) {
  if (!at(t)) {
    if (t == Tok::LPar) error(peek().begin, "expected '('");  // only after `def NAME`
    invalid_syntax();
  }
  return advance();
}

// CPython says "expected ':'" where its grammar forces the colon (def, try, else, finally) or
// when the line ends where the colon should be; otherwise "invalid syntax".
Token Parser::expect_colon(bool forced) {
  if (!at(Tok::Colon)) {
    if (forced || at(Tok::Newline)) error(peek().begin, "expected ':'");
    invalid_syntax();
  }
  return advance();
}

Token Parser::expect_kw(std::string_view kw) {
  if (!at_kw(kw)) invalid_syntax();
  return advance();
}

Token Parser::expect_name() {
  if (!at_plain_name()) invalid_syntax();
  return advance();
}

// ---------------------------------------------------------------- statements

StmtList Parser::parse_file() {
  StmtList body;
  try {
    while (!at(Tok::EndMarker)) {
      if (at(Tok::Newline)) {
        advance();
        continue;
      }
      statement(body);
    }
  } catch (const DiagnosticError& e) {
    const std::string& msg = e.diagnostic().message;
    if (!lex_error_ && msg != "unexpected indent" && msg != "unexpected unindent") {
      prefer_later_tokenizer_error();
    }
    throw;
  }
  return body;
}

void Parser::prefer_later_tokenizer_error() {
  // CPython tokenizes the rest of the file after a parser error; the first tokenizer error
  // found there wins if CPython's tokenizer raises it directly (bad literal, unterminated
  // string, unmatched bracket, invalid character). Indentation and line-continuation errors
  // and stray characters such as `$` (our "invalid syntax") only stop that scan, and an unclosed bracket wins only when it was opened before the line
  // the parser had reached.
  int reached_line = toks_.empty() ? 0 : toks_.back().begin.line;
  try {
    for (size_t k = 0; peek(k).kind != Tok::EndMarker; ++k) {
    }
  } catch (const DiagnosticError& e) {
    const std::string& msg = e.diagnostic().message;
    auto ends_with = [&](const char* suffix) {
      size_t n = std::strlen(suffix);
      return msg.size() >= n && msg.compare(msg.size() - n, n, suffix) == 0;
    };
    if (ends_with("was never closed")) {
      if (reached_line > e.diagnostic().line) throw;
      return;
    }
    if (msg == "unindent does not match any outer indentation level" ||
        msg == "inconsistent use of tabs and spaces in indentation" ||
        msg == "too many levels of indentation" ||
        msg == "unexpected character after line continuation character" ||
        msg == "unexpected EOF while parsing" || msg == "invalid syntax") {
      return;
    }
    throw;
  }
}

void Parser::unexpected_indent() {
  // CPython locates it one column before the first token after the indentation.
  SourceLoc at = peek().begin;
  try {
    at = peek(1).begin;
    at.col = std::max(1, at.col - 1);
  } catch (const DiagnosticError&) {
    // A tokenizer error in that token does not take precedence (CPython).
  }
  error(at, "unexpected indent");
}

void Parser::statement(StmtList& out) {
  const Token& t = peek();
  if (t.kind == Tok::Indent) unexpected_indent();
  if (t.kind == Tok::Dedent) invalid_syntax();
  if (StmtPtr s = compound_stmt()) {
    out.push_back(std::move(s));
    return;
  }
  simple_stmts(out);
}

// simple_stmts: simple_stmt (';' simple_stmt)* [';'] NEWLINE
void Parser::simple_stmts(StmtList& out) {
  for (;;) {
    out.push_back(simple_stmt());
    if (accept(Tok::Semi)) {
      if (at(Tok::Newline)) break;
      continue;
    }
    break;
  }
  if (!at(Tok::Newline)) invalid_syntax();
  advance();
}

StmtList Parser::block(const Token& owner) {
  // block: NEWLINE INDENT statements DEDENT | simple_stmts
  Nest nest(*this, peek().begin);
  StmtList body;
  if (accept(Tok::Newline)) {
    if (!at(Tok::Indent)) {
      std::string what(owner.text);
      if (what == "def") what = "function definition";
      else if (what == "class") what = "class definition";
      else if (what == "case") what = "'case' statement";
      else what = "'" + what + "' statement";
      error(peek().begin, "expected an indented block after " + what + " on line " +
                              std::to_string(owner.begin.line));
    }
    advance();
    while (!at(Tok::Dedent) && !at(Tok::EndMarker)) statement(body);
    accept(Tok::Dedent);
    return body;
  }
  simple_stmts(body);
  return body;
}

StmtPtr Parser::compound_stmt() {
  const Token& t = peek();
  if (t.kind == Tok::At) return decorated();
  if (t.kind != Tok::Name) return nullptr;
  std::string_view w = t.text;
  if (w == "def") return function_def({}, false, t.begin);
  if (w == "class") return class_def({});
  if (w == "if") return if_stmt(false);
  if (w == "while") return while_stmt();
  if (w == "for") return for_stmt(false, t.begin);
  if (w == "with") return with_stmt(false, t.begin);
  if (w == "try") return try_stmt();
  if (w == "async") {
    SourceLoc begin = t.begin;
    const Token& n = peek(1);
    if (n.kind == Tok::Name && n.text == "def") { advance(); return function_def({}, true, begin); }
    if (n.kind == Tok::Name && n.text == "for") { advance(); return for_stmt(true, begin); }
    if (n.kind == Tok::Name && n.text == "with") { advance(); return with_stmt(true, begin); }
    error(n.begin, "invalid syntax");
  }
  if (w == "match") return match_stmt();
  return nullptr;
}

StmtPtr Parser::decorated() {
  ExprList decorators;
  while (accept(Tok::At)) {
    decorators.push_back(named_expression());
    if (!at(Tok::Newline)) invalid_syntax();
    advance();
  }
  const Token& t = peek();
  if (t.kind == Tok::Name && t.text == "def") return function_def(std::move(decorators), false, t.begin);
  if (t.kind == Tok::Name && t.text == "class") return class_def(std::move(decorators));
  if (t.kind == Tok::Name && t.text == "async" && at_kw_ahead(1, "def")) {
    SourceLoc begin = t.begin;
    advance();
    return function_def(std::move(decorators), true, begin);
  }
  invalid_syntax();
}

StmtPtr Parser::function_def(ExprList decorators, bool is_async, SourceLoc begin) {
  Token def = expect_kw("def");
  auto f = std::make_unique<FunctionDef>(is_async);
  f->name = std::string(expect_name().text);
  expect(Tok::LPar);
  f->args = parameters(Tok::RPar, true);
  expect(Tok::RPar);
  if (accept(Tok::Arrow)) f->returns = expression();
  expect_colon(true);
  f->body = block(def);
  f->decorator_list = std::move(decorators);
  f->span = {begin, block_end()};
  return f;
}

StmtPtr Parser::class_def(ExprList decorators) {
  Token cls = expect_kw("class");
  auto c = std::make_unique<ClassDef>();
  c->name = std::string(expect_name().text);
  if (at(Tok::LPar)) {
    SourceLoc lpar = advance().begin;
    call_arguments(c->bases, c->keywords, lpar);
  }
  expect_colon(false);
  c->body = block(cls);
  c->decorator_list = std::move(decorators);
  c->span = {cls.begin, block_end()};
  return c;
}

StmtList Parser::else_block() {
  Token e = advance();  // 'else'
  expect_colon(true);
  return block(e);
}

// A compound statement ends at the last real token of its last block (NEWLINE/INDENT/DEDENT
// excluded), which can be a trailing ';' (as in CPython).
SourceLoc Parser::block_end() const {
  size_t i = pos_;
  while (i > 0) {
    Tok k = toks_[--i].kind;
    if (k != Tok::Newline && k != Tok::Indent && k != Tok::Dedent) break;
  }
  return toks_[i].end;
}

StmtPtr Parser::if_stmt(bool is_elif) {
  Token kw = advance();  // 'if' or 'elif'
  auto s = std::make_unique<If>();
  s->test = named_expression();
  expect_colon(false);
  s->body = block(kw);
  SourceLoc end = block_end();
  if (at_kw("elif")) {
    s->orelse.push_back(if_stmt(true));
    end = block_end();
  } else if (at_kw("else")) {
    s->orelse = else_block();
    end = block_end();
  }
  s->span = {kw.begin, end};
  (void)is_elif;
  return s;
}

StmtPtr Parser::while_stmt() {
  Token kw = advance();
  auto s = std::make_unique<While>();
  s->test = named_expression();
  expect_colon(false);
  s->body = block(kw);
  SourceLoc end = block_end();
  if (at_kw("else")) {
    s->orelse = else_block();
    end = block_end();
  }
  s->span = {kw.begin, end};
  return s;
}

StmtPtr Parser::for_stmt(bool is_async, SourceLoc begin) {
  Token kw = advance();  // 'for'
  auto s = std::make_unique<For>(is_async);
  s->target = star_targets();
  set_context(*s->target, ExprContext::Store, "for");
  expect_kw("in");
  s->iter = star_expressions();
  expect_colon(false);
  s->body = block(kw);
  SourceLoc end = block_end();
  if (at_kw("else")) {
    s->orelse = else_block();
    end = block_end();
  }
  s->span = {begin, end};
  return s;
}

StmtPtr Parser::with_stmt(bool is_async, SourceLoc begin) {
  Token kw = advance();  // 'with'
  auto s = std::make_unique<With>(is_async);
  auto with_item = [&]() {
    withitem item;
    item.context_expr = expression();
    if (accept_kw("as")) {
      item.optional_vars = star_target();
      set_context(*item.optional_vars, ExprContext::Store, "with");
    }
    return item;
  };
  bool done = false;
  if (at(Tok::LPar)) {
    // with '(' ','.with_item+ ','? ')' ':'  -- tried first, as in CPython's grammar.
    Mark m = mark();
    Speculation spec(*this);
    try {
      advance();
      std::vector<withitem> items;
      for (;;) {
        items.push_back(with_item());
        if (!accept(Tok::Comma)) break;
        if (at(Tok::RPar)) break;
      }
      if (accept(Tok::RPar) && at(Tok::Colon)) {
        s->items = std::move(items);
        done = true;
      }
    } catch (const DiagnosticError&) {
      if (lex_error_) throw;
    }
    if (!done) reset(m);
  }
  if (!done) {
    for (;;) {
      s->items.push_back(with_item());
      if (!accept(Tok::Comma)) break;
    }
  }
  expect_colon(false);
  s->body = block(kw);
  s->span = {begin, block_end()};
  return s;
}

StmtPtr Parser::try_stmt() {
  Token kw = advance();
  expect_colon(true);
  StmtList body = block(kw);
  std::vector<excepthandler> handlers;
  int star = -1;  // -1 unknown, 0 plain except, 1 except*
  while (at_kw("except")) {
    Token ex = advance();
    bool is_star = accept(Tok::Star);
    if (star != -1 && star != (is_star ? 1 : 0)) {
      error(ex.begin, "cannot have both 'except' and 'except*' on the same 'try'");
    }
    star = is_star ? 1 : 0;
    excepthandler h;
    if (!at(Tok::Colon)) {
      h.type = expression();
      if (at(Tok::Comma)) {
        error(h.type->span.begin, "multiple exception types must be parenthesized");
      }
      if (accept_kw("as")) h.name = std::string(expect_name().text);
    } else if (is_star) {
      error(peek().begin, "expected one or more exception types");
    }
    expect_colon(false);
    h.body = block(ex);
    h.span = {ex.begin, block_end()};
    handlers.push_back(std::move(h));
  }
  auto s = std::make_unique<Try>(star == 1);
  s->body = std::move(body);
  s->handlers = std::move(handlers);
  SourceLoc end = s->handlers.empty() ? block_end() : s->handlers.back().span.end;
  if (at_kw("else")) {
    if (s->handlers.empty()) invalid_syntax();
    s->orelse = else_block();
    end = block_end();
  }
  if (at_kw("finally")) {
    Token f = advance();
    expect_colon(true);
    s->finalbody = block(f);
    end = block_end();
  }
  if (s->handlers.empty() && s->finalbody.empty()) {
    error(peek().begin, "expected 'except' or 'finally' block");
  }
  s->span = {kw.begin, end};
  return s;
}

// ---------------------------------------------------------------- simple statements

StmtPtr Parser::simple_stmt() {
  const Token t = peek();
  if (t.kind == Tok::Name) {
    std::string_view w = t.text;
    if (w == "pass") { advance(); return make_node<Pass>(t.begin, t.end); }
    if (w == "break") { advance(); return make_node<Break>(t.begin, t.end); }
    if (w == "continue") { advance(); return make_node<Continue>(t.begin, t.end); }
    if (w == "return") {
      advance();
      auto s = std::make_unique<Return>();
      if (!at(Tok::Newline) && !at(Tok::Semi)) s->value = star_expressions();
      s->span = {t.begin, prev_end()};
      return s;
    }
    if (w == "import") return import_name();
    if (w == "from") return import_from();
    if (w == "raise") {
      advance();
      auto s = std::make_unique<Raise>();
      if (!at(Tok::Newline) && !at(Tok::Semi)) {
        s->exc = expression();
        if (accept_kw("from")) s->cause = expression();
      }
      s->span = {t.begin, prev_end()};
      return s;
    }
    if (w == "global" || w == "nonlocal") {
      advance();
      std::vector<std::string> names;
      do names.emplace_back(expect_name().text); while (accept(Tok::Comma));
      if (w == "global") {
        auto s = make_node<Global>(t.begin, prev_end());
        s->names = std::move(names);
        return s;
      }
      auto s = make_node<Nonlocal>(t.begin, prev_end());
      s->names = std::move(names);
      return s;
    }
    if (w == "del") {
      advance();
      auto s = std::make_unique<Delete>();
      for (;;) {
        ExprPtr target = bitwise_or();
        set_context(*target, ExprContext::Del, "del");
        s->targets.push_back(std::move(target));
        if (!accept(Tok::Comma)) break;
        if (at(Tok::Newline) || at(Tok::Semi)) break;
      }
      if (!at(Tok::Newline) && !at(Tok::Semi)) invalid_syntax();
      s->span = {t.begin, prev_end()};
      return s;
    }
    if (w == "assert") {
      advance();
      auto s = std::make_unique<Assert>();
      s->test = expression();
      if (accept(Tok::Comma)) s->msg = expression();
      s->span = {t.begin, prev_end()};
      return s;
    }
  }
  return assignment_or_expr();
}

static bool aug_operator(Tok t, Operator* op) {
  switch (t) {
    case Tok::PlusEqual: *op = Operator::Add; return true;
    case Tok::MinEqual: *op = Operator::Sub; return true;
    case Tok::StarEqual: *op = Operator::Mult; return true;
    case Tok::AtEqual: *op = Operator::MatMult; return true;
    case Tok::SlashEqual: *op = Operator::Div; return true;
    case Tok::PercentEqual: *op = Operator::Mod; return true;
    case Tok::AmperEqual: *op = Operator::BitAnd; return true;
    case Tok::VBarEqual: *op = Operator::BitOr; return true;
    case Tok::CircumflexEqual: *op = Operator::BitXor; return true;
    case Tok::LeftShiftEqual: *op = Operator::LShift; return true;
    case Tok::RightShiftEqual: *op = Operator::RShift; return true;
    case Tok::DoubleStarEqual: *op = Operator::Pow; return true;
    case Tok::DoubleSlashEqual: *op = Operator::FloorDiv; return true;
    default: return false;
  }
}

StmtPtr Parser::assignment_or_expr() {
  SourceLoc begin = peek().begin;
  bool starts_with_paren = at(Tok::LPar);
  ExprPtr first = yield_or_star_expressions();
  if (at(Tok::Colon)) {
    // Annotated assignment: target ':' expression ['=' annotated_rhs]
    advance();
    // The annotation is parsed first: CPython only blames the target when one follows.
    ExprPtr annotation = expression();
    ExprKind k = first->kind;
    if (k != ExprKind::Name && k != ExprKind::Attribute && k != ExprKind::Subscript) {
      if (k == ExprKind::Tuple) error(first->span.begin, "only single target (not tuple) can be annotated");
      if (k == ExprKind::List) error(first->span.begin, "only single target (not list) can be annotated");
      error(first->span.begin, "illegal target for annotation");
    }
    set_context(*first, ExprContext::Store, "annotated assignment");
    auto s = std::make_unique<AnnAssign>();
    s->simple = k == ExprKind::Name && !starts_with_paren;
    s->target = std::move(first);
    s->annotation = std::move(annotation);
    if (accept(Tok::Equal)) s->value = yield_or_star_expressions();
    s->span = {begin, prev_end()};
    return s;
  }
  if (at(Tok::Equal)) {
    auto s = std::make_unique<Assign>();
    ExprPtr value = std::move(first);
    while (accept(Tok::Equal)) {
      set_context(*value, ExprContext::Store, "assignment");
      s->targets.push_back(std::move(value));
      value = yield_or_star_expressions();
    }
    s->value = std::move(value);
    s->span = {begin, prev_end()};
    return s;
  }
  Operator op;
  if (aug_operator(peek().kind, &op)) {
    ExprKind k = first->kind;
    if (k != ExprKind::Name && k != ExprKind::Attribute && k != ExprKind::Subscript) {
      error(first->span.begin, "'" + std::string(k == ExprKind::Tuple ? "tuple" : "expression") +
                                   "' is an illegal expression for augmented assignment");
    }
    set_context(*first, ExprContext::Store, "augmented assignment");
    advance();
    auto s = std::make_unique<AugAssign>();
    s->target = std::move(first);
    s->op = op;
    s->value = yield_or_star_expressions();
    s->span = {begin, prev_end()};
    return s;
  }
  auto s = std::make_unique<ExprStmt>();
  s->span = {begin, prev_end()};
  s->value = std::move(first);
  return s;
}

// dotted_name: NAME ('.' NAME)*
static std::string dotted_name_text(std::vector<Token>& parts) {
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) s += '.';
    s += parts[i].text;
  }
  return s;
}

StmtPtr Parser::import_name() {
  Token kw = advance();
  auto s = std::make_unique<Import>();
  do {
    std::vector<Token> parts{expect_name()};
    while (accept(Tok::Dot)) parts.push_back(expect_name());
    alias a;
    a.name = dotted_name_text(parts);
    if (accept_kw("as")) a.asname = std::string(expect_name().text);
    a.span = {parts.front().begin, prev_end()};
    s->names.push_back(std::move(a));
  } while (accept(Tok::Comma));
  s->span = {kw.begin, prev_end()};
  return s;
}

StmtPtr Parser::import_from() {
  Token kw = advance();
  auto s = std::make_unique<ImportFrom>();
  for (;;) {
    if (accept(Tok::Dot)) s->level += 1;
    else if (accept(Tok::Ellipsis)) s->level += 3;
    else break;
  }
  if (!at_kw("import")) {
    std::vector<Token> parts{expect_name()};
    while (accept(Tok::Dot)) parts.push_back(expect_name());
    s->module = dotted_name_text(parts);
  }
  expect_kw("import");
  if (at(Tok::Star)) {
    Token star = advance();
    alias a;
    a.name = "*";
    a.span = {star.begin, star.end};
    s->names.push_back(std::move(a));
  } else {
    bool paren = accept(Tok::LPar);
    for (;;) {
      Token n = expect_name();
      alias a;
      a.name = std::string(n.text);
      if (accept_kw("as")) a.asname = std::string(expect_name().text);
      a.span = {n.begin, prev_end()};
      s->names.push_back(std::move(a));
      if (!accept(Tok::Comma)) break;
      if (paren && at(Tok::RPar)) break;
      if (!paren && (at(Tok::Newline) || at(Tok::Semi))) {
        error(toks_[pos_ - 1].begin, "trailing comma not allowed without surrounding parentheses");
      }
    }
    if (paren) expect(Tok::RPar);
  }
  s->span = {kw.begin, prev_end()};
  return s;
}

}  // namespace nki::py
