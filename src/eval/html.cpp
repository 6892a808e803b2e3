#include "eval/html.h"

#include <algorithm>
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
  static constexpr std::string_view kMarkup = "\\`*_[]<>|~&";
  std::string out;
  for (char c : s) {
    if (c == '\n' || c == '\r') {
      out += ' ';
      continue;
    }
    if (kMarkup.find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

std::string md_code(std::string_view s) {
  std::string body;
  size_t run = 0, longest = 0;
  for (char c : s) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
    if (c == '\n' || c == '\r') body += ' ';
    else if (c == '|') body += "\\|";
    else body += c;
  }
  std::string fence(longest + 1, '`');
  // A span whose content starts or ends with a backtick needs a space so the fence stays whole.
  bool pad = !body.empty() && (body.front() == '`' || body.back() == '`');
  return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string percent(double fraction, int decimals) { return fixed(100.0 * fraction, decimals) + "%"; }

std::string latency_text(double ns) {
  if (ns < 1e3) return fixed(ns, 0) + " ns";
  if (ns < 1e6) return fixed(ns / 1e3, ns < 1e4 ? 2 : 1) + " \u00b5s";
  return fixed(ns / 1e6, 2) + " ms";
}

std::string speedup_text(double x) { return fixed(x, 2) + "\u00d7"; }

}  // namespace nki::eval
