// Small text helpers shared by the Markdown and HTML reports.
#pragma once

#include <string>
#include <string_view>

namespace nki::eval {

// Escapes &, <, >, " and ' so any string (task ids, model names, error text, paths) is safe both
// as element text and inside a quoted attribute value.
std::string html_escape(std::string_view s);

// Escapes a path for an href: HTML-escaped, plus spaces, '#' and '?' percent-encoded so a file
// name cannot turn into a fragment or query.
std::string href_escape(std::string_view path);

// Escapes '|' and newlines so a string stays inside one Markdown table cell.
std::string md_cell(std::string_view s);

std::string percent(double fraction, int decimals = 1);  // 0.7734 -> "77.3%"
std::string fixed(double v, int decimals);               // printf("%.*f")

}  // namespace nki::eval
