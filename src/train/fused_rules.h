// The line rules of the row translation (fused_templates.cpp): each PyTorch expression form
// the synthesised seeds and patterns use, with its NKI statements. Data, kept apart from the
// translator that applies it.
#pragma once

#include <regex>
#include <string>
#include <vector>

namespace nki::train::lines {

// Line rules. A rule's pattern is the PyTorch expression with {o} for an operand (a name, or
// self.<parameter>) and {n} for a number; its output lines use $1.. for those captures, @ for
// the assigned variable, % for a suffix unique to the line, #C / #C1 / #RSQRTC / #LOGC for the
// row length, the row length minus one, 1/sqrt(row length) and log(row length).

enum class Kind { Map, Row, Reduce };

struct Rule {
  Kind kind;
  std::regex re;
  std::vector<std::string> out;
};

// The regex of a rule pattern: {o} an operand, {n} a number, {=k} the text of placeholder k.
std::string escape_with_placeholders(const std::string& p);

// The table, built once.
const std::vector<Rule>& rules();

}  // namespace nki::train::lines
