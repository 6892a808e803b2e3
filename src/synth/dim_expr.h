// Integer expressions over shape symbols, as seeds write them: "R", "2*F", "(H-3)/2+1", "S*S*D".
// '/' is floor division (what torch uses for pooling/conv output extents); operands are int64.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace nki::synth {

// Evaluates `expr` with the values in `symbols`. Throws std::invalid_argument naming the
// expression for an unknown symbol, a syntax error or a division by zero.
int64_t eval_dim_expr(const std::string& expr, const std::map<std::string, int64_t>& symbols);

}  // namespace nki::synth
