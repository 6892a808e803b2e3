// Expressions of the Python 3.11 grammar (precedence from lambda/ternary down to atoms).
#include "lang/parser_impl.h"

namespace nki::py {

// Tokens that can start an expression (used after a trailing comma to tell `a, b,` from `a, b`).
bool starts_expression(const Token& t) {
  switch (t.kind) {
    case Tok::Number: case Tok::String: case Tok::LPar: case Tok::LSqb: case Tok::LBrace:
    case Tok::Minus: case Tok::Plus: case Tok::Tilde: case Tok::Star: case Tok::Ellipsis:
      return true;
    case Tok::Name:
      if (!t.is_keyword) return true;
      return t.text == "not" || t.text == "lambda" || t.text == "await" || t.text == "True" ||
             t.text == "False" || t.text == "None";
    default:
      return false;
  }
}

namespace {

bool is_comp_for(Parser* /*unused*/, const Token& t0, const Token& t1) {
  return (t0.kind == Tok::Name && t0.text == "for") ||
         (t0.kind == Tok::Name && t0.text == "async" && t1.kind == Tok::Name && t1.text == "for");
}

}  // namespace

// star_expressions: star_expression (',' star_expression)* [',']
ExprPtr Parser::star_expressions() {
  SourceLoc begin = peek().begin;
  ExprPtr first = star_expression();
  if (!at(Tok::Comma)) return first;
  auto t = std::make_unique<Tuple>();
  t->elts.push_back(std::move(first));
  while (accept(Tok::Comma)) {
    if (!starts_expression(peek())) break;
    t->elts.push_back(star_expression());
  }
  t->span = {begin, prev_end()};
  return t;
}

// star_expression: '*' bitwise_or | expression
ExprPtr Parser::star_expression() {
  if (at(Tok::Star)) {
    Token star = advance();
    Nest nest(*this, star.begin);
    auto s = std::make_unique<Starred>();
    s->value = bitwise_or();
    s->span = {star.begin, prev_end()};
    return s;
  }
  return expression();
}

// star_named_expression: '*' bitwise_or | named_expression
ExprPtr Parser::star_named_expression() {
  if (at(Tok::Star)) return star_expression();
  return named_expression();
}

// named_expression: NAME ':=' expression | expression !':='
ExprPtr Parser::named_expression() {
  if (at_plain_name() && peek(1).kind == Tok::ColonEqual) {
    Token n = advance();
    advance();
    auto target = make_node<Name>(n.begin, n.end);
    target->id = std::string(n.text);
    target->ctx = ExprContext::Store;
    auto e = std::make_unique<NamedExpr>();
    e->target = std::move(target);
    e->value = expression();
    e->span = {n.begin, prev_end()};
    return e;
  }
  ExprPtr e = expression();
  if (at(Tok::ColonEqual)) {
    error(e->span.begin, "cannot use assignment expressions with this expression");
  }
  return e;
}

// expression: disjunction 'if' disjunction 'else' expression | disjunction | lambdef
ExprPtr Parser::expression() {
  if (at_kw("lambda")) return lambdef();
  SourceLoc begin = peek().begin;
  ExprPtr body = disjunction();
  if (!at_kw("if")) {
    // Remembered for the "Perhaps you forgot a comma?" hint, which CPython gives for an
    // `expression` followed by another one (see invalid_syntax()).
    last_disjunction_ = {body->span, false};
    if (auto* n = as<Name>(body.get())) {
      last_disjunction_.legacy_print = n->id == "print" || n->id == "exec";
    }
    return body;
  }
  Nest nest(*this, peek().begin);
  advance();
  auto e = std::make_unique<IfExp>();
  e->body = std::move(body);
  e->test = disjunction();
  if (!at_kw("else")) error(peek().begin, "expected 'else' after 'if' expression");
  advance();
  e->orelse = expression();
  e->span = {begin, prev_end()};
  return e;
}

ExprPtr Parser::disjunction() {
  SourceLoc begin = peek().begin;
  ExprPtr first = conjunction();
  if (at_kw("or")) {
    auto e = std::make_unique<BoolOp>();
    e->op = BoolOpKind::Or;
    e->values.push_back(std::move(first));
    while (accept_kw("or")) e->values.push_back(conjunction());
    e->span = {begin, prev_end()};
    first = std::move(e);
  }
  return first;
}

ExprPtr Parser::conjunction() {
  SourceLoc begin = peek().begin;
  ExprPtr first = inversion();
  if (!at_kw("and")) return first;
  auto e = std::make_unique<BoolOp>();
  e->op = BoolOpKind::And;
  e->values.push_back(std::move(first));
  while (accept_kw("and")) e->values.push_back(inversion());
  e->span = {begin, prev_end()};
  return e;
}

ExprPtr Parser::inversion() {
  if (at_kw("not")) {
    Token n = advance();
    Nest nest(*this, n.begin);
    auto e = std::make_unique<UnaryOp>();
    e->op = UnaryOpKind::Not;
    e->operand = inversion();
    e->span = {n.begin, prev_end()};
    return e;
  }
  return comparison();
}

ExprPtr Parser::comparison() {
  SourceLoc begin = peek().begin;
  ExprPtr left = bitwise_or();
  std::unique_ptr<Compare> cmp;
  for (;;) {
    const Token& t = peek();
    CmpOp op;
    int ntoks = 1;
    switch (t.kind) {
      case Tok::EqEqual: op = CmpOp::Eq; break;
      case Tok::NotEqual: op = CmpOp::NotEq; break;
      case Tok::Less: op = CmpOp::Lt; break;
      case Tok::LessEqual: op = CmpOp::LtE; break;
      case Tok::Greater: op = CmpOp::Gt; break;
      case Tok::GreaterEqual: op = CmpOp::GtE; break;
      case Tok::Name:
        if (t.text == "in") { op = CmpOp::In; break; }
        if (t.text == "not" && at_kw_ahead(1, "in")) { op = CmpOp::NotIn; ntoks = 2; break; }
        if (t.text == "is") {
          if (at_kw_ahead(1, "not")) { op = CmpOp::IsNot; ntoks = 2; }
          else op = CmpOp::Is;
          break;
        }
        goto done;
      default:
        goto done;
    }
    for (int i = 0; i < ntoks; ++i) advance();
    if (!cmp) {
      cmp = std::make_unique<Compare>();
      cmp->left = std::move(left);
    }
    cmp->ops.push_back(op);
    cmp->comparators.push_back(bitwise_or());
  }
done:
  if (!cmp) return left;
  cmp->span = {begin, prev_end()};
  return cmp;
}

// Binary operator levels, lowest precedence first: | ^ & (<< >>) (+ -) (* / // % @).
ExprPtr Parser::bitwise(int level) {
  if (level > 5) return factor();
  SourceLoc begin = peek().begin;
  ExprPtr left = bitwise(level + 1);
  int links = 0;
  for (;;) {
    Operator op;
    Tok k = peek().kind;
    bool match = false;
    switch (level) {
      case 0: match = k == Tok::VBar; op = Operator::BitOr; break;
      case 1: match = k == Tok::Circumflex; op = Operator::BitXor; break;
      case 2: match = k == Tok::Amper; op = Operator::BitAnd; break;
      case 3:
        match = k == Tok::LeftShift || k == Tok::RightShift;
        op = k == Tok::LeftShift ? Operator::LShift : Operator::RShift;
        break;
      case 4:
        match = k == Tok::Plus || k == Tok::Minus;
        op = k == Tok::Plus ? Operator::Add : Operator::Sub;
        break;
      default:
        match = k == Tok::Star || k == Tok::Slash || k == Tok::DoubleSlash ||
                k == Tok::Percent || k == Tok::At;
        op = k == Tok::Star ? Operator::Mult
             : k == Tok::Slash ? Operator::Div
             : k == Tok::DoubleSlash ? Operator::FloorDiv
             : k == Tok::Percent ? Operator::Mod
                                 : Operator::MatMult;
        break;
    }
    if (!match) break;
    // Left-associative chains nest the AST without nesting the parser; count them so the tree
    // stays shallow enough for recursive consumers (dump, destructors).
    if (++tree_depth_ > kMaxTreeDepth) {
      tree_depth_ -= links + 1;
      error(peek().begin, "expression too long (parser nesting limit)");
    }
    ++links;
    advance();
    auto e = std::make_unique<BinOp>();
    e->left = std::move(left);
    e->op = op;
    e->right = bitwise(level + 1);
    e->span = {begin, prev_end()};
    left = std::move(e);
  }
  tree_depth_ -= links;
  return left;
}

// factor: ('+' | '-' | '~') factor | power
ExprPtr Parser::factor() {
  Tok k = peek().kind;
  if (k == Tok::Plus || k == Tok::Minus || k == Tok::Tilde) {
    Token t = advance();
    Nest nest(*this, t.begin);
    auto e = std::make_unique<UnaryOp>();
    e->op = k == Tok::Plus ? UnaryOpKind::UAdd : k == Tok::Minus ? UnaryOpKind::USub : UnaryOpKind::Invert;
    e->operand = factor();
    e->span = {t.begin, prev_end()};
    return e;
  }
  return power();
}

// power: await_primary '**' factor | await_primary
ExprPtr Parser::power() {
  SourceLoc begin = peek().begin;
  ExprPtr base;
  if (at_kw("await")) {
    Token a = advance();
    Nest nest(*this, a.begin);
    auto e = std::make_unique<Await>();
    e->value = primary();
    e->span = {a.begin, prev_end()};
    base = std::move(e);
  } else {
    base = primary();
  }
  if (!at(Tok::DoubleStar)) return base;
  Nest nest(*this, peek().begin);
  advance();
  auto e = std::make_unique<BinOp>();
  e->left = std::move(base);
  e->op = Operator::Pow;
  e->right = factor();
  e->span = {begin, prev_end()};
  return e;
}

// primary: primary '.' NAME | primary genexp | primary '(' [arguments] ')' |
//          primary '[' slices ']' | atom
ExprPtr Parser::primary() {
  SourceLoc begin = peek().begin;
  ExprPtr e = atom();
  int links = 0;
  for (;;) {
    Tok k = peek().kind;
    if (k != Tok::Dot && k != Tok::LPar && k != Tok::LSqb) break;
    if (++tree_depth_ > kMaxTreeDepth) {
      tree_depth_ -= links + 1;
      error(peek().begin, "expression too long (parser nesting limit)");
    }
    ++links;
    Token t = advance();
    if (k == Tok::Dot) {
      auto a = std::make_unique<Attribute>();
      a->value = std::move(e);
      a->attr = std::string(expect_name().text);
      a->span = {begin, prev_end()};
      e = std::move(a);
    } else if (k == Tok::LPar) {
      Nest nest(*this, t.begin);
      auto c = std::make_unique<Call>();
      c->func = std::move(e);
      call_arguments(c->args, c->keywords, t.begin);
      c->span = {begin, prev_end()};
      e = std::move(c);
    } else {
      Nest nest(*this, t.begin);
      auto s = std::make_unique<Subscript>();
      s->value = std::move(e);
      s->slice = slices();
      expect(Tok::RSqb);
      s->span = {begin, prev_end()};
      e = std::move(s);
    }
  }
  tree_depth_ -= links;
  return e;
}

ExprPtr Parser::atom() {
  const Token& t = peek();
  switch (t.kind) {
    case Tok::Name: {
      if (t.is_keyword) {
        if (t.text == "True" || t.text == "False" || t.text == "None") {
          auto c = make_node<Constant>(t.begin, t.end);
          if (t.text == "None") {
            c->value_kind = Constant::Kind::None;
          } else {
            c->value_kind = Constant::Kind::Bool;
            c->bool_value = t.text == "True";
          }
          advance();
          return c;
        }
        invalid_syntax();
      }
      auto n = make_node<Name>(t.begin, t.end);
      n->id = std::string(t.text);
      n->ctx = ExprContext::Load;
      advance();
      return n;
    }
    case Tok::Number: return number_atom();
    case Tok::String: return strings();
    case Tok::LPar: return paren_atom();
    case Tok::LSqb: return list_atom();
    case Tok::LBrace: return brace_atom();
    case Tok::Ellipsis: {
      auto c = make_node<Constant>(t.begin, t.end);
      c->value_kind = Constant::Kind::Ellipsis;
      advance();
      return c;
    }
    default:
      invalid_syntax();
  }
}

// tuple | group | genexp
ExprPtr Parser::paren_atom() {
  Token l = advance();
  Nest nest(*this, l.begin);
  if (at(Tok::RPar)) {
    advance();
    auto t = make_node<Tuple>(l.begin, prev_end());
    t->ctx = ExprContext::Load;
    return t;
  }
  if (at_kw("yield")) {
    ExprPtr y = yield_expr();
    expect(Tok::RPar);
    return y;
  }
  ExprPtr first = star_named_expression();
  if (is_comp_for(this, peek(), peek(1))) {
    if (first->kind == ExprKind::Starred) {
      error(first->span.begin, "iterable unpacking cannot be used in comprehension");
    }
    auto g = std::make_unique<GeneratorExp>();
    g->elt = std::move(first);
    g->generators = for_if_clauses();
    expect(Tok::RPar);
    g->span = {l.begin, prev_end()};
    return g;
  }
  if (accept(Tok::RPar)) {
    if (first->kind == ExprKind::Starred) error(first->span.begin, "cannot use starred expression here");
    return first;  // a group keeps the span of its content
  }
  if (!at(Tok::Comma)) expect(Tok::RPar);
  auto t = std::make_unique<Tuple>();
  t->ctx = ExprContext::Load;
  t->elts.push_back(std::move(first));
  while (accept(Tok::Comma)) {
    if (at(Tok::RPar)) break;
    t->elts.push_back(star_named_expression());
  }
  expect(Tok::RPar);
  t->span = {l.begin, prev_end()};
  return t;
}

// list | listcomp
ExprPtr Parser::list_atom() {
  Token l = advance();
  Nest nest(*this, l.begin);
  auto list = std::make_unique<List>();
  list->ctx = ExprContext::Load;
  if (accept(Tok::RSqb)) {
    list->span = {l.begin, prev_end()};
    return list;
  }
  ExprPtr first = star_named_expression();
  if (is_comp_for(this, peek(), peek(1))) {
    if (first->kind == ExprKind::Starred) {
      error(first->span.begin, "iterable unpacking cannot be used in comprehension");
    }
    auto c = std::make_unique<ListComp>();
    c->elt = std::move(first);
    c->generators = for_if_clauses();
    expect(Tok::RSqb);
    c->span = {l.begin, prev_end()};
    return c;
  }
  list->elts.push_back(std::move(first));
  while (accept(Tok::Comma)) {
    if (at(Tok::RSqb)) break;
    list->elts.push_back(star_named_expression());
  }
  expect(Tok::RSqb);
  list->span = {l.begin, prev_end()};
  return list;
}

// dict | set | dictcomp | setcomp
ExprPtr Parser::brace_atom() {
  Token l = advance();
  Nest nest(*this, l.begin);
  if (accept(Tok::RBrace)) return make_node<Dict>(l.begin, prev_end());
  ExprPtr first_key, first_value;
  bool is_dict = false;
  if (at(Tok::DoubleStar)) {
    advance();
    first_value = bitwise_or();
    is_dict = true;
  } else {
    // A dict key is an `expression`: an unparenthesized walrus or starred item cannot be one.
    bool bare_walrus = at_plain_name() && peek(1).kind == Tok::ColonEqual;
    first_key = star_named_expression();
    if (at(Tok::Colon)) {
      if (first_key->kind == ExprKind::Starred || bare_walrus) invalid_syntax();
      advance();
      first_value = expression();
      is_dict = true;
    }
  }
  if (is_dict) {
    if (first_key && is_comp_for(this, peek(), peek(1))) {
      auto c = std::make_unique<DictComp>();
      c->key = std::move(first_key);
      c->value = std::move(first_value);
      c->generators = for_if_clauses();
      expect(Tok::RBrace);
      c->span = {l.begin, prev_end()};
      return c;
    }
    auto d = std::make_unique<Dict>();
    d->keys.push_back(std::move(first_key));
    d->values.push_back(std::move(first_value));
    while (accept(Tok::Comma)) {
      if (at(Tok::RBrace)) break;
      if (accept(Tok::DoubleStar)) {
        d->keys.push_back(nullptr);
        d->values.push_back(bitwise_or());
        continue;
      }
      d->keys.push_back(expression());
      expect(Tok::Colon);
      d->values.push_back(expression());
    }
    expect(Tok::RBrace);
    d->span = {l.begin, prev_end()};
    return d;
  }
  if (is_comp_for(this, peek(), peek(1))) {
    if (first_key->kind == ExprKind::Starred) {
      error(first_key->span.begin, "iterable unpacking cannot be used in comprehension");
    }
    auto c = std::make_unique<SetComp>();
    c->elt = std::move(first_key);
    c->generators = for_if_clauses();
    expect(Tok::RBrace);
    c->span = {l.begin, prev_end()};
    return c;
  }
  auto s = std::make_unique<Set>();
  s->elts.push_back(std::move(first_key));
  while (accept(Tok::Comma)) {
    if (at(Tok::RBrace)) break;
    s->elts.push_back(star_named_expression());
  }
  expect(Tok::RBrace);
  s->span = {l.begin, prev_end()};
  return s;
}

// slices: slice !',' | ','.(slice | starred_expression)+ [',']
ExprPtr Parser::slices() {
  SourceLoc begin = peek().begin;
  auto one = [&]() -> ExprPtr {
    if (at(Tok::Star)) {
      Token star = advance();
      auto s = std::make_unique<Starred>();
      s->value = expression();
      s->span = {star.begin, prev_end()};
      return s;
    }
    return slice();
  };
  ExprPtr first = one();
  if (!at(Tok::Comma) && first->kind != ExprKind::Starred) return first;
  auto t = std::make_unique<Tuple>();
  t->ctx = ExprContext::Load;
  t->elts.push_back(std::move(first));
  while (accept(Tok::Comma)) {
    if (at(Tok::RSqb)) break;
    t->elts.push_back(one());
  }
  t->span = {begin, prev_end()};
  return t;
}

// slice: [expression] ':' [expression] [':' [expression]] | named_expression
ExprPtr Parser::slice() {
  SourceLoc begin = peek().begin;
  ExprPtr lower;
  if (!at(Tok::Colon)) {
    bool bare_walrus = at_plain_name() && peek(1).kind == Tok::ColonEqual;
    lower = named_expression();
    if (!at(Tok::Colon)) return lower;
    if (bare_walrus) invalid_syntax();  // a slice bound is an `expression`
  }
  advance();  // ':'
  auto s = std::make_unique<Slice>();
  s->lower = std::move(lower);
  auto ends_part = [&]() {
    Tok k = peek().kind;
    return k == Tok::Colon || k == Tok::Comma || k == Tok::RSqb;
  };
  if (!ends_part()) s->upper = expression();
  if (accept(Tok::Colon)) {
    if (!ends_part()) s->step = expression();
  }
  s->span = {begin, prev_end()};
  return s;
}

// lambdef: 'lambda' [lambda_params] ':' expression
ExprPtr Parser::lambdef() {
  Token kw = advance();
  Nest nest(*this, kw.begin);
  auto l = std::make_unique<Lambda>();
  l->args = parameters(Tok::Colon, false);
  expect(Tok::Colon);
  l->body = expression();
  l->span = {kw.begin, prev_end()};
  return l;
}

// yield_expr: 'yield' 'from' expression | 'yield' [star_expressions]
ExprPtr Parser::yield_expr() {
  Token kw = advance();
  if (accept_kw("from")) {
    auto y = std::make_unique<YieldFrom>();
    y->value = expression();
    y->span = {kw.begin, prev_end()};
    return y;
  }
  auto y = std::make_unique<Yield>();
  if (starts_expression(peek())) y->value = star_expressions();
  y->span = {kw.begin, prev_end()};
  return y;
}

ExprPtr Parser::yield_or_star_expressions() {
  if (at_kw("yield")) return yield_expr();
  return star_expressions();
}

// for_if_clauses: (['async'] 'for' star_targets 'in' disjunction ('if' disjunction)*)+
std::vector<comprehension> Parser::for_if_clauses() {
  std::vector<comprehension> gens;
  while (is_comp_for(this, peek(), peek(1))) {
    comprehension c;
    c.is_async = accept_kw("async");
    advance();  // 'for'
    c.target = star_targets();
    set_context(*c.target, ExprContext::Store, "comprehension");
    expect_kw("in");
    c.iter = disjunction();
    while (accept_kw("if")) c.ifs.push_back(disjunction());
    gens.push_back(std::move(c));
  }
  return gens;
}

// star_targets: star_target (',' star_target)* [','], parsed as expressions at `|` level (so
// that `in` is not taken as a comparison) and checked by set_context.
ExprPtr Parser::star_target() {
  if (at(Tok::Star)) {
    Token star = advance();
    Nest nest(*this, star.begin);
    auto s = std::make_unique<Starred>();
    s->value = bitwise_or();
    s->span = {star.begin, prev_end()};
    return s;
  }
  return bitwise_or();
}

ExprPtr Parser::star_targets() {
  SourceLoc begin = peek().begin;
  auto one = [&]() { return star_target(); };
  ExprPtr first = one();
  if (!at(Tok::Comma)) return first;
  auto t = std::make_unique<Tuple>();
  t->elts.push_back(std::move(first));
  while (accept(Tok::Comma)) {
    const Token& n = peek();
    bool starts = n.kind == Tok::LPar || n.kind == Tok::LSqb || n.kind == Tok::Star ||
                  (n.kind == Tok::Name && (!n.is_keyword || n.text == "True" ||
                                           n.text == "False" || n.text == "None"));
    if (!starts) break;
    t->elts.push_back(one());
  }
  t->span = {begin, prev_end()};
  return t;
}

void Parser::call_arguments(ExprList& args, std::vector<keyword>& keywords, SourceLoc lpar) {
  bool seen_keyword = false, seen_double_star = false;
  while (!at(Tok::RPar)) {
    const Token& t = peek();
    if (t.kind == Tok::Star) {
      Token star = advance();
      auto s = std::make_unique<Starred>();
      s->value = expression();
      s->span = {star.begin, prev_end()};
      if (seen_double_star) {
        error(star.begin, "iterable argument unpacking follows keyword argument unpacking");
      }
      args.push_back(std::move(s));
    } else if (t.kind == Tok::DoubleStar) {
      Token ds = advance();
      keyword k;
      k.is_double_star = true;
      k.value = expression();
      k.span = {ds.begin, prev_end()};
      keywords.push_back(std::move(k));
      seen_double_star = true;
    } else if (t.kind == Tok::Name && peek(1).kind == Tok::Equal) {
      Token n = advance();
      if (n.is_keyword) {
        if (n.text == "True" || n.text == "False" || n.text == "None") {
          error(n.begin, "cannot assign to " + std::string(n.text));
        }
        error(n.begin, "invalid syntax");
      }
      advance();
      keyword k;
      k.arg_name = std::string(n.text);
      k.value = expression();
      k.span = {n.begin, prev_end()};
      keywords.push_back(std::move(k));
      seen_keyword = true;
    } else {
      ExprPtr e = named_expression();
      if (is_comp_for(this, peek(), peek(1))) {
        bool alone = args.empty() && keywords.empty();
        auto g = std::make_unique<GeneratorExp>();
        SourceLoc gbegin = e->span.begin;
        g->elt = std::move(e);
        g->generators = for_if_clauses();
        if (!alone || !at(Tok::RPar)) {
          error(gbegin, "Generator expression must be parenthesized");
        }
        // A lone generator argument takes the call's parentheses as its own.
        g->span = {lpar, peek().end};
        args.push_back(std::move(g));
        break;
      }
      if (at(Tok::Equal)) {
        error(e->span.begin, "expression cannot contain assignment, perhaps you meant \"==\"?");
      }
      if (seen_double_star) {
        error(e->span.begin, "positional argument follows keyword argument unpacking");
      }
      if (seen_keyword) error(e->span.begin, "positional argument follows keyword argument");
      args.push_back(std::move(e));
    }
    if (!accept(Tok::Comma)) break;
  }
  expect(Tok::RPar);
}

arguments Parser::parameters(Tok closing, bool allow_annotations) {
  arguments a;
  bool seen_slash = false, seen_star = false, bare_star = false, seen_default = false;
  SourceLoc bare_star_at;
  auto param = [&](bool star_annotation) {
    Token n = expect_name();
    arg p;
    p.arg_name = std::string(n.text);
    if (allow_annotations && accept(Tok::Colon)) {
      p.annotation = star_annotation && at(Tok::Star) ? star_expression() : expression();
    }
    p.span = {n.begin, prev_end()};
    return p;
  };
  std::vector<arg> pos;
  while (!at(closing)) {
    const Token& t = peek();
    if (t.kind == Tok::Slash) {
      if (seen_slash) error(t.begin, "/ may appear only once");
      if (seen_star) error(t.begin, "/ must be ahead of *");
      if (pos.empty()) error(t.begin, "at least one argument must precede /");
      advance();
      a.posonlyargs = std::move(pos);
      pos.clear();
      seen_slash = true;
    } else if (t.kind == Tok::Star) {
      if (seen_star) error(t.begin, "* argument may appear only once");
      Token star = advance();
      seen_star = true;
      if (at(Tok::Comma) || at(closing)) {
        bare_star = true;
        bare_star_at = star.begin;
      } else {
        a.vararg = std::make_unique<arg>(param(true));
        if (at(Tok::Equal)) error(peek().begin, "var-positional argument cannot have default value");
      }
    } else if (t.kind == Tok::DoubleStar) {
      advance();
      a.kwarg = std::make_unique<arg>(param(false));
      if (at(Tok::Equal)) error(peek().begin, "var-keyword argument cannot have default value");
      accept(Tok::Comma);
      if (!at(closing)) error(peek().begin, "arguments cannot follow var-keyword argument");
      break;
    } else {
      arg p = param(false);
      ExprPtr def;
      if (accept(Tok::Equal)) def = expression();
      if (seen_star) {
        a.kwonlyargs.push_back(std::move(p));
        a.kw_defaults.push_back(std::move(def));
      } else {
        if (def) {
          a.defaults.push_back(std::move(def));
          seen_default = true;
        } else if (seen_default) {
          error(p.span.begin, "non-default argument follows default argument");
        }
        pos.push_back(std::move(p));
      }
    }
    if (!accept(Tok::Comma)) break;
  }
  if (bare_star && a.kwonlyargs.empty()) error(bare_star_at, "named arguments must follow bare *");
  a.args = std::move(pos);
  return a;
}

}  // namespace nki::py
