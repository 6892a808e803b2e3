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

// Makes any string (model names, task ids, subsets, paths, error text) print literally in
// Markdown, in a table cell or in running text: backslash-escapes the characters that open or
// close inline markup (\ ` * _ [ ] < > | ~ &), so `evil|name<script>*_` neither splits a cell
// nor becomes HTML or emphasis, and turns newlines into spaces. Other punctuation only matters at
// the start of a line, where the reports never put user text.
std::string md_cell(std::string_view s);

// A Markdown code span holding `s` literally: delimited by more backticks than `s` contains in a
// row, with '|' escaped (GFM tables split on it even inside code) and newlines as spaces.
std::string md_code(std::string_view s);

std::string percent(double fraction, int decimals = 1);  // 0.7734 -> "77.3%"
std::string fixed(double v, int decimals);
std::string latency_text(double ns);  // 850 ns, 12.3 µs, 4.56 ms (cost-model estimates)
std::string speedup_text(double x);   // 1.23×               // printf("%.*f")

}  // namespace nki::eval
