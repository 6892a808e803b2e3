#include "eval/html.h"

#include <cstdio>

namespace nki::eval {

std::string html_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string href_escape(std::string_view path) {
  std::string encoded;
  for (char c : path) {
    if (c == ' ') encoded += "%20";
    else if (c == '#') encoded += "%23";
    else if (c == '?') encoded += "%3F";
    else if (c == '%') encoded += "%25";
    else encoded += c;
  }
  return html_escape(encoded);
}

std::string md_cell(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '\n' || c == '\r') out += ' ';
    else out += c;
  }
  return out;
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string percent(double fraction, int decimals) { return fixed(100.0 * fraction, decimals) + "%"; }

}  // namespace nki::eval
