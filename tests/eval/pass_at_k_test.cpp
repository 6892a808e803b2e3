#include "eval/pass_at_k.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace nki::eval {
namespace {

// 1 - C(n-c,k)/C(n,k) through log-gamma, as an independent reference for large n.
double via_binomials(int n, int c, int k) {
  if (n - c < k) return 1.0;
  auto lchoose = [](int a, int b) { return std::lgamma(a + 1.0) - std::lgamma(b + 1.0) - std::lgamma(a - b + 1.0); };
  return 1.0 - std::exp(lchoose(n - c, k) - lchoose(n, k));
}

TEST(PassAtK, HandComputedValues) {
  EXPECT_DOUBLE_EQ(pass_at_k(5, 2, 1), 0.4);                 // c/n
  EXPECT_NEAR(pass_at_k(5, 2, 2), 1.0 - 3.0 / 10.0, 1e-15);  // C(3,2)=3, C(5,2)=10
  EXPECT_NEAR(pass_at_k(10, 3, 5), 1.0 - 21.0 / 252.0, 1e-15);
  EXPECT_NEAR(pass_at_k(4, 1, 2), 0.5, 1e-15);               // 1 - C(3,2)/C(4,2) = 1 - 3/6
}

TEST(PassAtK, Edges) {
  EXPECT_EQ(pass_at_k(10, 0, 3), 0.0);
  EXPECT_EQ(pass_at_k(10, 10, 1), 1.0);
  EXPECT_EQ(pass_at_k(10, 8, 3), 1.0);  // only 2 failures: any 3 draws include a pass
  EXPECT_EQ(pass_at_k(1, 1, 1), 1.0);
}

TEST(PassAtK, StableForLargeN) {
  // C(1000, 500) overflows a double; the product form must still agree with log-gamma.
  EXPECT_NEAR(pass_at_k(1000, 3, 500), via_binomials(1000, 3, 500), 1e-9);
  EXPECT_NEAR(pass_at_k(200, 10, 100), via_binomials(200, 10, 100), 1e-9);
  EXPECT_NEAR(pass_at_k(200, 1, 1), 0.005, 1e-15);
}

TEST(PassAtK, RejectsImpossibleArguments) {
  EXPECT_THROW(pass_at_k(5, 6, 1), std::invalid_argument);
  EXPECT_THROW(pass_at_k(5, 1, 6), std::invalid_argument);
  EXPECT_THROW(pass_at_k(5, -1, 1), std::invalid_argument);
  EXPECT_THROW(pass_at_k(0, 0, 1), std::invalid_argument);
}

TEST(PassAtK, MeanSkipsTasksWithTooFewSamples) {
  std::vector<TaskSamples> tasks = {{5, 2}, {5, 0}, {1, 1}};
  EXPECT_NEAR(mean_pass_at_k(tasks, 2), (0.7 + 0.0) / 2, 1e-15);
  EXPECT_NEAR(mean_pass_at_k(tasks, 1), (0.4 + 0.0 + 1.0) / 3, 1e-15);
  EXPECT_LT(mean_pass_at_k(tasks, 6), 0.0);
}

}  // namespace
}  // namespace nki::eval
