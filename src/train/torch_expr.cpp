#include "train/torch_expr.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace nki::train::expr {

namespace {

enum class Tok { Name, Number, String, Op, Open, Close, Comma, Colon, Dot, Assign, End };

struct Token {
  Tok kind;
  std::string text;
  size_t begin, end;
};

struct Unsupported : std::runtime_error {
  Unsupported() : std::runtime_error("unsupported expression") {}
};

std::vector<Token> tokenize(const std::string& s) {
  std::vector<Token> out;
  size_t i = 0;
  auto is_ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  while (i < s.size()) {
    char c = s[i];
    if (c == ' ' || c == '\t') {
      ++i;
      continue;
    }
    size_t b = i;
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      while (i < s.size() && is_ident(s[i])) ++i;
      out.push_back({Tok::Name, s.substr(b, i - b), b, i});
    } else if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '.' ||
                              ((s[i] == '-' || s[i] == '+') && (s[i - 1] == 'e' || s[i - 1] == 'E'))))
        ++i;
      out.push_back({Tok::Number, s.substr(b, i - b), b, i});
    } else if (c == '\'' || c == '"') {
      ++i;
      while (i < s.size() && s[i] != c) ++i;
      if (i >= s.size()) throw Unsupported();
      ++i;
      out.push_back({Tok::String, s.substr(b, i - b), b, i});
    } else if (c == '(' || c == '[' || c == '{') {
      ++i;
      out.push_back({Tok::Open, std::string(1, c), b, i});
    } else if (c == ')' || c == ']' || c == '}') {
      ++i;
      out.push_back({Tok::Close, std::string(1, c), b, i});
    } else if (c == ',') {
      ++i;
      out.push_back({Tok::Comma, ",", b, i});
    } else if (c == ':') {
      ++i;
      out.push_back({Tok::Colon, ":", b, i});
    } else if (c == '.') {
      ++i;
      out.push_back({Tok::Dot, ".", b, i});
    } else {
      static const char* two[] = {"**", "//", "<=", ">=", "==", "!=", "<<", ">>"};
      std::string op(1, c);
      for (const char* t : two)
        if (s.compare(i, 2, t) == 0) op = t;
      if (op == "=") {
        ++i;
        out.push_back({Tok::Assign, "=", b, i});
        continue;
      }
      if (std::string("+-*/%@<>&|^~").find(c) == std::string::npos) throw Unsupported();
      i += op.size();
      out.push_back({Tok::Op, op, b, i});
    }
  }
  out.push_back({Tok::End, "", s.size(), s.size()});
  return out;
}

int binary_precedence(const Token& t) {
  if (t.kind == Tok::Name) {
    if (t.text == "or") return 1;
    if (t.text == "and") return 2;
    return -1;  // `if`, `for`, `in`, `is`: outside the subset
  }
  if (t.kind != Tok::Op) return -1;
  const std::string& o = t.text;
  if (o == "<" || o == ">" || o == "<=" || o == ">=" || o == "==" || o == "!=") return 5;
  if (o == "|") return 6;
  if (o == "^") return 7;
  if (o == "&") return 8;
  if (o == "<<" || o == ">>") return 9;
  if (o == "+" || o == "-") return 10;
  if (o == "*" || o == "/" || o == "//" || o == "%" || o == "@") return 20;
  if (o == "**") return 40;
  return -1;
}

class Parser {
 public:
  explicit Parser(Tree& t) : t_(t), toks_(tokenize(t.text)) {}

  int parse_all() {
    int n = expression(0);
    if (peek().kind != Tok::End) throw Unsupported();
    return n;
  }

 private:
  const Token& peek() const { return toks_[pos_]; }
  const Token& take() { return toks_[pos_++]; }
  bool at(Tok k, const char* text = nullptr) const {
    return peek().kind == k && (!text || peek().text == text);
  }

  int add(Node n) {
    t_.nodes.push_back(std::move(n));
    return static_cast<int>(t_.nodes.size()) - 1;
  }

  int expression(int min_prec) {
    int lhs = unary();
    for (;;) {
      int p = binary_precedence(peek());
      if (p < 0 || p < min_prec) return lhs;
      take();
      // ** is right-associative and its right operand may carry a sign (Python's u_expr).
      int rhs = p == 40 ? expression(30) : expression(p + 1);
      Node n;
      n.kind = NodeKind::Binary;
      n.begin = t_.nodes[lhs].begin;
      n.end = t_.nodes[rhs].end;
      n.operands = {lhs, rhs};
      lhs = add(n);
    }
  }

  int unary() {
    if (at(Tok::Op, "-") || at(Tok::Op, "+") || at(Tok::Op, "~") || at(Tok::Name, "not")) {
      const Token& op = take();
      int x = expression(op.text == "not" ? 3 : 30);
      Node n;
      n.kind = NodeKind::Unary;
      n.begin = op.begin;
      n.end = t_.nodes[x].end;
      n.operands = {x};
      return add(n);
    }
    return trailers(primary());
  }

  // Skips to the bracket closing the one just taken; returns the end of the closing token.
  size_t skip_balanced() {
    int depth = 1;
    while (depth > 0) {
      const Token& k = take();
      if (k.kind == Tok::End) throw Unsupported();
      if (k.kind == Tok::Open) ++depth;
      if (k.kind == Tok::Close) --depth;
      if (depth == 0) return k.end;
    }
    return 0;
  }

  int primary() {
    const Token& k = take();
    Node n;
    n.begin = k.begin;
    n.end = k.end;
    switch (k.kind) {
      case Tok::Name:
        if (k.text == "lambda" || k.text == "if" || k.text == "for") throw Unsupported();
        n.kind = NodeKind::Name;
        return add(n);
      case Tok::Number: n.kind = NodeKind::Number; return add(n);
      case Tok::String: n.kind = NodeKind::String; return add(n);
      case Tok::Open:
        if (k.text == "(") {
          if (at(Tok::Close, ")")) {
            n.kind = NodeKind::Literal;
            n.end = take().end;
            return add(n);
          }
          size_t save = pos_;
          int inner = expression(0);
          if (at(Tok::Close, ")")) {
            n.kind = NodeKind::Paren;
            n.end = take().end;
            n.operands = {inner};
            return add(n);
          }
          // A tuple: kept as one literal piece of text.
          pos_ = save;
          n.kind = NodeKind::Literal;
          n.end = skip_balanced();
          return add(n);
        }
        n.kind = NodeKind::Literal;  // list or dict display
        n.end = skip_balanced();
        return add(n);
      default: throw Unsupported();
    }
  }

  int trailers(int base) {
    for (;;) {
      if (at(Tok::Dot)) {
        take();
        if (!at(Tok::Name)) throw Unsupported();
        Node n;
        n.kind = NodeKind::Attribute;
        n.begin = t_.nodes[base].begin;
        n.end = take().end;
        n.callee = base;
        base = add(n);
      } else if (at(Tok::Open, "(")) {
        take();
        Node n;
        n.kind = NodeKind::Call;
        n.begin = t_.nodes[base].begin;
        n.callee = base;
        while (!at(Tok::Close, ")")) {
          if (at(Tok::Op, "*") || at(Tok::Op, "**")) throw Unsupported();
          if (at(Tok::Name) && toks_[pos_ + 1].kind == Tok::Assign) {
            take();
            take();
            expression(0);  // keyword value: parsed to move on, kept as text
            n.keyword_args = true;
          } else {
            n.operands.push_back(expression(0));
          }
          if (at(Tok::Comma)) take();
          else if (!at(Tok::Close, ")")) throw Unsupported();
        }
        n.end = take().end;
        base = add(n);
      } else if (at(Tok::Open, "[")) {
        take();
        Node n;
        n.kind = NodeKind::Subscript;
        n.begin = t_.nodes[base].begin;
        n.callee = base;
        n.end = skip_balanced();
        base = add(n);
      } else {
        return base;
      }
    }
  }

  Tree& t_;
  std::vector<Token> toks_;
  size_t pos_ = 0;
};

}  // namespace

std::optional<Tree> parse(const std::string& text) {
  Tree t;
  t.text = text;
  try {
    Parser p(t);
    t.root = p.parse_all();
  } catch (const Unsupported&) {
    return std::nullopt;
  }
  return t;
}

std::string text_with(const Tree& t, int n, const std::map<int, std::string>& subst) {
  const Node& node = t.nodes[static_cast<size_t>(n)];
  // Substitutions inside this node's span, in text order, outermost first (a substituted node
  // hides the ones inside it).
  std::vector<std::pair<size_t, int>> inside;
  for (const auto& [id, s] : subst) {
    const Node& c = t.nodes[static_cast<size_t>(id)];
    if (c.begin >= node.begin && c.end <= node.end) inside.push_back({c.begin, id});
  }
  std::sort(inside.begin(), inside.end(), [&](const auto& a, const auto& b) {
    if (a.first != b.first) return a.first < b.first;
    return t.nodes[static_cast<size_t>(a.second)].end > t.nodes[static_cast<size_t>(b.second)].end;
  });
  std::string out;
  size_t at = node.begin;
  for (const auto& [b, id] : inside) {
    if (b < at) continue;  // inside one already replaced
    out += t.text.substr(at, b - at);
    out += subst.at(id);
    at = t.nodes[static_cast<size_t>(id)].end;
  }
  out += t.text.substr(at, node.end - at);
  return out;
}

std::string dotted_name(const Tree& t, int n) {
  const Node& node = t.nodes[static_cast<size_t>(n)];
  if (node.kind == NodeKind::Name) return t.text.substr(node.begin, node.end - node.begin);
  if (node.kind == NodeKind::Attribute) {
    std::string base = dotted_name(t, node.callee);
    if (base.empty()) return "";
    return t.text.substr(node.begin, node.end - node.begin);
  }
  return "";
}

}  // namespace nki::train::expr
