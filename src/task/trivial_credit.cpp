#include "task/trivial_credit.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "task/compare.h"
#include "task/trivial_kernels.h"

namespace nki {

BestConstant best_constant(const std::vector<double>& expected, Tolerance tol, const std::vector<char>& skip) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  // Each finite reference value accepts the closed interval [lo, hi] of constants, widened by
  // one step on each side so that rounding in e +- allowed never makes a count smaller than what
  // element_passes accepts: hits is an upper bound for every constant.
  std::vector<std::pair<double, double>> intervals;
  int64_t pos_inf = 0, neg_inf = 0;
  for (size_t i = 0; i < expected.size(); ++i) {
    if (!skip.empty() && skip[i]) continue;
    const double e = expected[i];
    if (std::isnan(e)) continue;  // no value passes where the reference is NaN
    if (std::isinf(e)) {
      ++(e > 0 ? pos_inf : neg_inf);
      continue;
    }
    const double allowed = tol.atol + tol.rtol * std::fabs(e);
    intervals.emplace_back(std::nextafter(e - allowed, -kInf), std::nextafter(e + allowed, kInf));
  }
  // Sweep the ends in order, an opening before a closing at the same position (closed
  // intervals): the most intervals open at once is the most elements one constant can satisfy.
  std::vector<std::pair<double, int>> ends;  // (position, 0 opens / 1 closes)
  ends.reserve(intervals.size() * 2);
  for (const auto& [lo, hi] : intervals) {
    ends.emplace_back(lo, 0);
    ends.emplace_back(hi, 1);
  }
  std::sort(ends.begin(), ends.end());
  BestConstant best;
  int64_t open = 0;
  double at = 0;
  for (const auto& [x, kind] : ends) {
    if (kind == 1) {
      --open;
    } else if (++open > best.hits) {
      best.hits = open;
      at = x;
    }
  }
  if (best.hits > 0) {
    // `at` is the left end of the overlap; its right end is the nearest closing among the
    // intervals holding `at`. The middle of the overlap is well inside every one of them.
    double right = kInf;
    for (const auto& [lo, hi] : intervals)
      if (lo <= at && at <= hi) right = std::min(right, hi);
    best.value = at + (right - at) / 2;
  }
  if (pos_inf > best.hits) best = {kInf, pos_inf};
  if (neg_inf > best.hits) best = {-kInf, neg_inf};
  return best;
}

TrivialCredit trivial_credit(const TaskSpec& task, const GoldenTrial& golden, const std::vector<HostTensor>& outputs,
                             bool strict) {
  TrivialCredit c;
  double earned = 0, open = 0;  // sums over outputs of max(0, right - constant) and of what is left
  const size_t n_out = std::min(task.outputs.size(), golden.expected.size());
  for (size_t j = 0; j < n_out; ++j) {
    const TensorSpec& spec = task.outputs[j];
    const Tolerance tol = task.tolerance_for(spec.dtype, strict);
    const std::vector<double> expected = element_values(golden.expected[j]);
    const size_t n = expected.size();
    // Elements that all zeros or a copied input already gets right earn nothing.
    std::vector<char> trivial(n, 0);
    for (size_t i = 0; i < n; ++i) trivial[i] = element_passes(0.0, expected[i], tol);
    for (const HostTensor& arg : golden.args) {
      std::optional<HostTensor> copy = copied_input(spec, arg);
      if (!copy) continue;
      const std::vector<double> v = element_values(*copy);
      for (size_t i = 0; i < n && i < v.size(); ++i) trivial[i] = trivial[i] || element_passes(v[i], expected[i], tol);
    }
    int64_t n_trivial = std::count(trivial.begin(), trivial.end(), 1);
    int64_t constant = best_constant(expected, tol, trivial).hits;
    int64_t right = 0;
    if (j < outputs.size() && outputs[j].shape == golden.expected[j].shape && outputs[j].dtype == spec.dtype) {
      const std::vector<double> actual = element_values(outputs[j]);
      if (actual.size() == n)
        for (size_t i = 0; i < n; ++i) right += !trivial[i] && element_passes(actual[i], expected[i], tol);
    }
    c.elements += static_cast<int64_t>(n);
    c.trivial += n_trivial;
    c.best_constant += constant;
    c.kernel_right += right;
    earned += static_cast<double>(std::max<int64_t>(0, right - constant));
    open += static_cast<double>(static_cast<int64_t>(n) - n_trivial - constant);
  }
  c.credit = open > 0 ? std::min(1.0, earned / open) : 0.0;
  return c;
}

}  // namespace nki
