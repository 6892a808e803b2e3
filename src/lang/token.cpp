#include "lang/token.h"

#include <algorithm>
#include <array>

namespace nki::py {

const char* tok_name(Tok t) {
  switch (t) {
    case Tok::EndMarker: return "end of file";
    case Tok::Name: return "name";
    case Tok::Number: return "number";
    case Tok::String: return "string";
    case Tok::Newline: return "newline";
    case Tok::Indent: return "indent";
    case Tok::Dedent: return "dedent";
    case Tok::LPar: return "'('";
    case Tok::RPar: return "')'";
    case Tok::LSqb: return "'['";
    case Tok::RSqb: return "']'";
    case Tok::LBrace: return "'{'";
    case Tok::RBrace: return "'}'";
    case Tok::Colon: return "':'";
    case Tok::Comma: return "','";
    case Tok::Semi: return "';'";
    case Tok::Dot: return "'.'";
    case Tok::Ellipsis: return "'...'";
    case Tok::Arrow: return "'->'";
    case Tok::At: return "'@'";
    case Tok::AtEqual: return "'@='";
    case Tok::ColonEqual: return "':='";
    case Tok::Plus: return "'+'";
    case Tok::Minus: return "'-'";
    case Tok::Star: return "'*'";
    case Tok::Slash: return "'/'";
    case Tok::VBar: return "'|'";
    case Tok::Amper: return "'&'";
    case Tok::Less: return "'<'";
    case Tok::Greater: return "'>'";
    case Tok::Equal: return "'='";
    case Tok::Percent: return "'%'";
    case Tok::Tilde: return "'~'";
    case Tok::Circumflex: return "'^'";
    case Tok::DoubleStar: return "'**'";
    case Tok::DoubleSlash: return "'//'";
    case Tok::LeftShift: return "'<<'";
    case Tok::RightShift: return "'>>'";
    case Tok::EqEqual: return "'=='";
    case Tok::NotEqual: return "'!='";
    case Tok::LessEqual: return "'<='";
    case Tok::GreaterEqual: return "'>='";
    case Tok::PlusEqual: return "'+='";
    case Tok::MinEqual: return "'-='";
    case Tok::StarEqual: return "'*='";
    case Tok::SlashEqual: return "'/='";
    case Tok::PercentEqual: return "'%='";
    case Tok::AmperEqual: return "'&='";
    case Tok::VBarEqual: return "'|='";
    case Tok::CircumflexEqual: return "'^='";
    case Tok::LeftShiftEqual: return "'<<='";
    case Tok::RightShiftEqual: return "'>>='";
    case Tok::DoubleStarEqual: return "'**='";
    case Tok::DoubleSlashEqual: return "'//='";
    case Tok::Exclamation: return "'!'";
  }
  return "token";
}

bool is_hard_keyword(std::string_view name) {
  // Sorted for binary search.
  static constexpr std::array<std::string_view, 35> kKeywords = {
      "False", "None",   "True",    "and",      "as",       "assert", "async",
      "await", "break",  "class",   "continue", "def",      "del",    "elif",
      "else",  "except", "finally", "for",      "from",     "global", "if",
      "import", "in",    "is",      "lambda",   "nonlocal", "not",    "or",
      "pass",  "raise",  "return",  "try",      "while",    "with",   "yield"};
  return std::binary_search(kKeywords.begin(), kKeywords.end(), name);
}

}  // namespace nki::py
