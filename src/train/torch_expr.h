// A small parser for the Python expressions of a reference's forward() (calls, attributes,
// arithmetic, comparisons, subscripts), kept as spans of the original text. The linear-chain
// template (fused_templates.cpp) uses it to split a nested line such as
// `self.fc2(F.gelu(self.fc1(x)))` into one statement per operation while every piece keeps the
// exact spelling of the reference, which is what the line rules match.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace nki::train::expr {

enum class NodeKind { Name, Number, String, Paren, Unary, Binary, Call, Attribute, Subscript, Literal };

struct Node {
  NodeKind kind = NodeKind::Name;
  size_t begin = 0, end = 0;  // span in Tree::text
  // Sub-expressions whose value feeds this one: operands (Unary / Binary / Paren), the object of
  // a method call and the positional arguments of a call. Keyword arguments, attribute names
  // and subscripts stay part of this node's text.
  std::vector<int> operands;
  int callee = -1;            // Call: the called expression
  bool keyword_args = false;  // Call: has name=value arguments
};

struct Tree {
  std::string text;
  std::vector<Node> nodes;
  int root = -1;
};

// nullopt for text outside the subset (lambdas, comprehensions, unbalanced brackets, ...).
std::optional<Tree> parse(const std::string& text);

// The text of node `n` with the spans of the nodes in `subst` replaced by their strings.
std::string text_with(const Tree& t, int n, const std::map<int, std::string>& subst);

// `a.b.c` as a string when node `n` is a name or a chain of attributes on a name, else "".
std::string dotted_name(const Tree& t, int n);

}  // namespace nki::train::expr
