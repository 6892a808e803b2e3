// Small pieces every kernel template generator of src/train writes with: shape arithmetic,
// Python tuple text, tile sizes without a ragged tail, dtype names.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/dtype.h"

namespace nki::train {

// The product of s[from, to).
int64_t product(const std::vector<int64_t>& s, size_t from = 0, size_t to = SIZE_MAX);
// A Python tuple literal: (3,) or (2, 4).
std::string tuple_text(const std::vector<int64_t>& s);
// The largest divisor of n that is at most cap (tiles without a ragged tail).
int64_t divisor_at_most(int64_t n, int64_t cap);
bool is_float(DType t);
// The NKI name of a dtype, e.g. nl.bfloat16.
std::string nl_dtype(DType t);

}  // namespace nki::train
