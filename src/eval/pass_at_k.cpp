#include "eval/pass_at_k.h"

#include <stdexcept>
#include <string>

namespace nki::eval {

double pass_at_k(int n, int c, int k) {
  if (n < 1 || c < 0 || c > n || k < 1 || k > n)
    throw std::invalid_argument("pass_at_k needs 0 <= c <= n and 1 <= k <= n (n=" + std::to_string(n) +
                                ", c=" + std::to_string(c) + ", k=" + std::to_string(k) + ")");
  // Every size-k draw must contain a pass when fewer than k samples failed.
  if (n - c < k) return 1.0;
  double all_fail = 1.0;
  for (int i = n - c + 1; i <= n; ++i) all_fail *= 1.0 - static_cast<double>(k) / i;
  return 1.0 - all_fail;
}

double mean_pass_at_k(const std::vector<TaskSamples>& tasks, int k) {
  double sum = 0.0;
  int used = 0;
  for (const auto& t : tasks) {
    if (t.n < k) continue;
    sum += pass_at_k(t.n, t.c, k);
    ++used;
  }
  return used == 0 ? -1.0 : sum / used;
}

}  // namespace nki::eval
