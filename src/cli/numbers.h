// Checked text-to-number conversion for command-line values. std::stoi and friends throw on
// bad input and accept trailing garbage ("3abc" is 3); these accept exactly one number and
// never throw, so no conversion exception can escape to main().
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace nki::cli {

// A decimal integer with an optional sign and nothing else ("12", "+3", "-5"); nullopt for
// anything else, including values outside int64_t.
std::optional<int64_t> to_integer(std::string_view text);

// A finite decimal number ("2.5", "1e3", "-0.1"); nullopt for anything else, including inf,
// nan, hexadecimal and values that overflow a double.
std::optional<double> to_real(std::string_view text);

}  // namespace nki::cli
