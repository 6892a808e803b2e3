// Unbiased pass@k (Chen et al. 2021, the Codex paper): with n samples of which c passed,
//   pass@k = 1 - C(n-c, k) / C(n, k),
// evaluated as the product 1 - prod_{i=n-c+1}^{n} (1 - k/i), which never forms the huge
// binomials and stays exact to rounding for any n.
#pragma once

#include <vector>

namespace nki::eval {

// Requires 0 <= c <= n and 1 <= k <= n; throws std::invalid_argument otherwise.
double pass_at_k(int n, int c, int k);

// Mean of pass_at_k over tasks, each given as (n, c). Tasks with n < k are skipped (they cannot
// estimate pass@k); returns a negative value when no task qualifies.
struct TaskSamples {
  int n = 0;
  int c = 0;
};
double mean_pass_at_k(const std::vector<TaskSamples>& tasks, int k);

}  // namespace nki::eval
