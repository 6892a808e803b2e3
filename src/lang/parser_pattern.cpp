// The match statement (PEP 634) and its patterns.
#include "lang/parser_impl.h"

namespace nki::py {

// match_stmt: "match" subject_expr ':' NEWLINE INDENT case_block+ DEDENT
// `match` is a soft keyword: it only starts a match statement when a subject and ':' follow, so
// the subject is parsed speculatively and the statement is re-read as an expression otherwise.
StmtPtr Parser::match_stmt() {
  Mark m = mark();
  Token kw = advance();
  ExprPtr subject;
  try {
    Speculation spec(*this);
    SourceLoc begin = peek().begin;
    ExprPtr first = star_named_expression();
    if (at(Tok::Comma)) {
      auto t = std::make_unique<Tuple>();
      t->ctx = ExprContext::Load;
      t->elts.push_back(std::move(first));
      while (accept(Tok::Comma)) {
        if (at(Tok::Colon)) break;
        t->elts.push_back(star_named_expression());
      }
      t->span = {begin, prev_end()};
      subject = std::move(t);
    } else {
      subject = std::move(first);
    }
  } catch (const DiagnosticError&) {
    if (lex_error_) throw;
    reset(m);
    return nullptr;
  }
  if (!at(Tok::Colon) || subject->kind == ExprKind::Starred) {
    reset(m);
    return nullptr;
  }
  advance();
  auto s = std::make_unique<Match>();
  s->subject = std::move(subject);
  if (!at(Tok::Newline)) invalid_syntax();
  advance();
  if (!at(Tok::Indent)) {
    error(peek().begin, "expected an indented block after 'match' statement on line " +
                            std::to_string(kw.begin.line));
  }
  advance();
  Nest nest(*this, kw.begin);
  while (!at(Tok::Dedent) && !at(Tok::EndMarker)) {
    if (!at_kw("case")) invalid_syntax();
    Token c = advance();
    match_case mc;
    mc.pattern = patterns();
    if (accept_kw("if")) mc.guard = named_expression();
    expect_colon(false);
    mc.body = block(c);
    s->cases.push_back(std::move(mc));
  }
  accept(Tok::Dedent);
  s->span = {kw.begin, block_end()};
  return s;
}

// patterns: open_sequence_pattern | pattern
PatternPtr Parser::patterns() {
  SourceLoc begin = peek().begin;
  PatternPtr first = at(Tok::Star) ? star_pattern() : pattern();
  if (!at(Tok::Comma)) {
    if (first->kind == PatternKind::MatchStar) {
      auto seq = std::make_unique<MatchSequence>();
      seq->patterns.push_back(std::move(first));
      seq->span = {begin, prev_end()};
      return seq;
    }
    return first;
  }
  auto seq = std::make_unique<MatchSequence>();
  seq->patterns.push_back(std::move(first));
  while (accept(Tok::Comma)) {
    if (at(Tok::Colon) || at_kw("if")) break;
    seq->patterns.push_back(at(Tok::Star) ? star_pattern() : pattern());
  }
  seq->span = {begin, prev_end()};
  return seq;
}

// pattern: or_pattern 'as' NAME | or_pattern
PatternPtr Parser::pattern() {
  SourceLoc begin = peek().begin;
  PatternPtr p = or_pattern();
  if (!accept_kw("as")) return p;
  auto as = std::make_unique<MatchAs>();
  if (at_kw("_")) error(peek().begin, "cannot use '_' as a target");
  as->name = std::string(expect_name().text);
  as->has_name = true;
  as->pattern = std::move(p);
  as->span = {begin, prev_end()};
  return as;
}

PatternPtr Parser::or_pattern() {
  SourceLoc begin = peek().begin;
  PatternPtr first = closed_pattern();
  if (!at(Tok::VBar)) return first;
  auto o = std::make_unique<MatchOr>();
  o->patterns.push_back(std::move(first));
  while (accept(Tok::VBar)) o->patterns.push_back(closed_pattern());
  o->span = {begin, prev_end()};
  return o;
}

std::string Parser::capture_target() {
  if (at_kw("_")) error(peek().begin, "cannot use '_' as a target");
  return std::string(expect_name().text);
}

// star_pattern: '*' (capture_target | '_')
PatternPtr Parser::star_pattern() {
  Token star = advance();
  auto s = std::make_unique<MatchStar>();
  if (at_kw("_")) {
    advance();
  } else {
    s->name = std::string(expect_name().text);
    s->has_name = true;
  }
  s->span = {star.begin, prev_end()};
  return s;
}

// name_or_attr: NAME ('.' NAME)*
ExprPtr Parser::name_or_attr() {
  Token n = expect_name();
  auto name = make_node<Name>(n.begin, n.end);
  name->id = std::string(n.text);
  ExprPtr e = std::move(name);
  while (accept(Tok::Dot)) {
    auto a = std::make_unique<Attribute>();
    a->value = std::move(e);
    a->attr = std::string(expect_name().text);
    a->span = {n.begin, prev_end()};
    e = std::move(a);
  }
  return e;
}

// Literal patterns and mapping keys: signed numbers, complex literals (`-1+2j`), strings,
// None/True/False.
ExprPtr Parser::literal_expr() {
  const Token& t = peek();
  if (t.kind == Tok::String) {
    ExprPtr s = strings();
    if (s->kind == ExprKind::JoinedStr) error(s->span.begin, "patterns may only match literals and attribute lookups");
    return s;
  }
  if (t.kind == Tok::Name && (t.text == "None" || t.text == "True" || t.text == "False")) {
    return atom();
  }
  SourceLoc begin = t.begin;
  auto signed_number = [&]() -> ExprPtr {
    if (at(Tok::Minus)) {
      Token minus = advance();
      if (!at(Tok::Number)) invalid_syntax();
      auto u = std::make_unique<UnaryOp>();
      u->op = UnaryOpKind::USub;
      u->operand = number_atom();
      u->span = {minus.begin, prev_end()};
      return u;
    }
    if (!at(Tok::Number)) invalid_syntax();
    return number_atom();
  };
  auto is_imag = [](const Expr& e) {
    const Expr* x = &e;
    if (auto* u = as<UnaryOp>(x)) x = u->operand.get();
    auto* c = as<Constant>(x);
    return c && c->value_kind == Constant::Kind::Complex;
  };
  ExprPtr real = signed_number();
  if (!at(Tok::Plus) && !at(Tok::Minus)) return real;
  if (is_imag(*real)) error(real->span.begin, "real number required in complex literal");
  Token op = advance();
  if (!at(Tok::Number)) invalid_syntax();
  ExprPtr imag = number_atom();
  if (!is_imag(*imag)) error(imag->span.begin, "imaginary number required in complex literal");
  auto b = std::make_unique<BinOp>();
  b->left = std::move(real);
  b->op = op.kind == Tok::Plus ? Operator::Add : Operator::Sub;
  b->right = std::move(imag);
  b->span = {begin, prev_end()};
  return b;
}

PatternPtr Parser::closed_pattern() {
  const Token t = peek();
  Nest nest(*this, t.begin);
  switch (t.kind) {
    case Tok::Number: case Tok::Minus: case Tok::String: {
      auto v = std::make_unique<MatchValue>();
      v->value = literal_expr();
      v->span = v->value->span;
      return v;
    }
    case Tok::LPar: {
      advance();
      if (accept(Tok::RPar)) return make_node<MatchSequence>(t.begin, prev_end());
      PatternPtr first = at(Tok::Star) ? star_pattern() : pattern();
      if (accept(Tok::RPar)) {
        if (first->kind == PatternKind::MatchStar) invalid_syntax();
        return first;  // group pattern keeps the inner span
      }
      if (!at(Tok::Comma)) expect(Tok::RPar);
      auto seq = std::make_unique<MatchSequence>();
      seq->patterns.push_back(std::move(first));
      while (accept(Tok::Comma)) {
        if (at(Tok::RPar)) break;
        seq->patterns.push_back(at(Tok::Star) ? star_pattern() : pattern());
      }
      expect(Tok::RPar);
      seq->span = {t.begin, prev_end()};
      return seq;
    }
    case Tok::LSqb: {
      advance();
      auto seq = std::make_unique<MatchSequence>();
      while (!at(Tok::RSqb)) {
        seq->patterns.push_back(at(Tok::Star) ? star_pattern() : pattern());
        if (!accept(Tok::Comma)) break;
      }
      expect(Tok::RSqb);
      seq->span = {t.begin, prev_end()};
      return seq;
    }
    case Tok::LBrace: return mapping_pattern();
    case Tok::Name: {
      if (t.text == "None" || t.text == "True" || t.text == "False") {
        auto s = std::make_unique<MatchSingleton>();
        s->value = atom();
        s->span = s->value->span;
        return s;
      }
      if (t.is_keyword) invalid_syntax();
      Tok next = peek(1).kind;
      if (t.text == "_" && next != Tok::Dot && next != Tok::LPar && next != Tok::Equal) {
        advance();
        return make_node<MatchAs>(t.begin, t.end);  // wildcard
      }
      ExprPtr e = name_or_attr();
      if (at(Tok::LPar)) return class_pattern(std::move(e));
      if (e->kind == ExprKind::Name) {
        auto as = make_node<MatchAs>(t.begin, t.end);
        as->name = std::string(t.text);
        as->has_name = true;
        return as;
      }
      auto v = std::make_unique<MatchValue>();
      v->span = e->span;
      v->value = std::move(e);
      return v;
    }
    default:
      invalid_syntax();
  }
}

PatternPtr Parser::mapping_pattern() {
  Token l = advance();
  auto m = std::make_unique<MatchMapping>();
  while (!at(Tok::RBrace)) {
    if (accept(Tok::DoubleStar)) {
      m->rest = capture_target();
      m->has_rest = true;
      accept(Tok::Comma);
      if (!at(Tok::RBrace)) invalid_syntax();
      break;
    }
    ExprPtr key;
    if (at(Tok::Name) && !peek().is_keyword) {
      key = name_or_attr();
      if (key->kind == ExprKind::Name) invalid_syntax();  // only dotted names are value keys
    } else {
      key = literal_expr();
    }
    m->keys.push_back(std::move(key));
    expect(Tok::Colon);
    m->patterns.push_back(pattern());
    if (!accept(Tok::Comma)) break;
  }
  expect(Tok::RBrace);
  m->span = {l.begin, prev_end()};
  return m;
}

PatternPtr Parser::class_pattern(ExprPtr cls) {
  advance();  // '('
  auto c = std::make_unique<MatchClass>();
  SourceLoc begin = cls->span.begin;
  c->cls = std::move(cls);
  while (!at(Tok::RPar)) {
    if (at(Tok::Name) && peek(1).kind == Tok::Equal) {
      c->kwd_attrs.emplace_back(expect_name().text);
      advance();
      c->kwd_patterns.push_back(pattern());
    } else {
      if (!c->kwd_attrs.empty()) {
        error(peek().begin, "positional patterns follow keyword patterns");
      }
      c->patterns.push_back(pattern());
    }
    if (!accept(Tok::Comma)) break;
  }
  expect(Tok::RPar);
  c->span = {begin, prev_end()};
  return c;
}

}  // namespace nki::py
