#include "train/kernel_text.h"

#include <algorithm>

namespace nki::train {

int64_t product(const std::vector<int64_t>& s, size_t from, size_t to) {
  int64_t p = 1;
  for (size_t i = from; i < std::min(to, s.size()); ++i) p *= s[i];
  return p;
}

std::string tuple_text(const std::vector<int64_t>& s) {
  std::string t = "(";
  for (size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
  return t + (s.size() == 1 ? ",)" : ")");
}

int64_t divisor_at_most(int64_t n, int64_t cap) {
  for (int64_t d = std::min(n, cap); d >= 1; --d)
    if (n % d == 0) return d;
  return 1;
}

bool is_float(DType t) { return t == DType::Float32 || t == DType::BFloat16 || t == DType::Float16; }

std::string nl_dtype(DType t) { return std::string("nl.") + dtype_name(t); }

}  // namespace nki::train
