#include "cli/numbers.h"

#include <charconv>
#include <cmath>

namespace nki::cli {

namespace {

// from_chars rejects a leading '+', which std::stoi (the old parser) accepted.
std::string_view without_plus(std::string_view text) {
  if (text.size() > 1 && text[0] == '+' && text[1] != '-') text.remove_prefix(1);
  return text;
}

}  // namespace

std::optional<int64_t> to_integer(std::string_view text) {
  text = without_plus(text);
  int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

std::optional<double> to_real(std::string_view text) {
  text = without_plus(text);
  double v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v, std::chars_format::general);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

}  // namespace nki::cli
