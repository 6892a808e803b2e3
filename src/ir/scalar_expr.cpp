#include "ir/scalar_expr.h"

#include <algorithm>

namespace nki::ir {

namespace {
int64_t checked_add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) throw IndexOverflow();
  return r;
}
int64_t checked_mul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) throw IndexOverflow();
  return r;
}

void canonicalize(ScalarExpr& e) {
  std::sort(e.terms.begin(), e.terms.end());
  std::vector<std::pair<int, int64_t>> out;
  for (const auto& t : e.terms) {
    if (!out.empty() && out.back().first == t.first) out.back().second = checked_add(out.back().second, t.second);
    else out.push_back(t);
  }
  out.erase(std::remove_if(out.begin(), out.end(), [](const auto& t) { return t.second == 0; }),
            out.end());
  e.terms = std::move(out);
}
}  // namespace

ScalarExpr add(const ScalarExpr& a, const ScalarExpr& b) {
  ScalarExpr r;
  r.constant = checked_add(a.constant, b.constant);
  r.terms = a.terms;
  r.terms.insert(r.terms.end(), b.terms.begin(), b.terms.end());
  canonicalize(r);
  return r;
}

ScalarExpr scale(const ScalarExpr& a, int64_t c) {
  ScalarExpr r;
  r.constant = checked_mul(a.constant, c);
  for (const auto& t : a.terms) r.terms.emplace_back(t.first, checked_mul(t.second, c));
  canonicalize(r);
  return r;
}

ScalarExpr sub(const ScalarExpr& a, const ScalarExpr& b) { return add(a, scale(b, -1)); }

ScalarExpr atom_expr(int atom) {
  ScalarExpr r;
  r.terms.emplace_back(atom, 1);
  return r;
}

bool equal(const ScalarExpr& a, const ScalarExpr& b) {
  return a.constant == b.constant && a.terms == b.terms;
}

}  // namespace nki::ir
