// Correctness credit beyond trivial kernels (task/trivial_credit.h) on data built here: the best
// constant against a brute-force search, and the credit of trivial and partly right outputs.
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>

#include <gtest/gtest.h>

#include "task/compare.h"
#include "task/trivial_credit.h"
#include "task/trivial_kernels.h"

namespace nki {
namespace {

// out = softmax-like: most values near 1/64, a few large ones; one input the output's size.
const char* kTask = R"({
  "id": "t_credit", "level": 1, "category": "test", "tags": [], "description": "credit",
  "origin": "test", "family": "credit", "init_args": [],
  "inputs": [{"name": "x", "shape": [4, 64], "dtype": "float32",
              "dist": {"kind": "normal", "mean": 0, "std": 1}}],
  "parameters": [], "buffers": [],
  "outputs": [{"shape": [4, 64], "dtype": "float32"}],
  "tolerance": null, "seed": 1, "trials": 1})";

HostTensor f32(std::vector<int64_t> shape, const std::vector<float>& v) {
  HostTensor t;
  t.shape = std::move(shape);
  t.data.resize(v.size() * 4);
  std::memcpy(t.data.data(), v.data(), t.data.size());
  return t;
}

// The most elements any of the candidate constants satisfies, by direct counting.
int64_t brute_best(const std::vector<double>& e, Tolerance tol, const std::vector<double>& candidates) {
  int64_t best = 0;
  for (double c : candidates) {
    int64_t n = 0;
    for (double v : e) n += element_passes(c, v, tol);
    best = std::max(best, n);
  }
  return best;
}

TEST(BestConstant, MatchesBruteForceOverEveryIntervalEnd) {
  std::mt19937 rng(7);
  std::normal_distribution<double> normal(0.0, 0.01);
  for (int round = 0; round < 20; ++round) {
    std::vector<double> e(200);
    for (size_t i = 0; i < e.size(); ++i) e[i] = (i % 3 == 0 ? 0.5 : 0.0) + normal(rng);  // two clusters
    Tolerance tol{1e-3 * (round + 1), 1e-3};
    // The optimum is attained at some interval's end: try every end (and points just inside).
    std::vector<double> candidates;
    for (double v : e) {
      double a = tol.atol + tol.rtol * std::fabs(v);
      candidates.push_back(v - a);
      candidates.push_back(v + a);
      candidates.push_back(std::nextafter(v - a, v));
      candidates.push_back(std::nextafter(v + a, v));
    }
    BestConstant b = best_constant(e, tol);
    EXPECT_EQ(b.hits, brute_best(e, tol, candidates)) << "round " << round;
    // The constant it names is accepted by that many elements.
    EXPECT_EQ(brute_best(e, tol, {b.value}), b.hits) << "round " << round;
  }
}

TEST(BestConstant, SkipsFlaggedElementsAndHandlesNonFinite) {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> e = {1, 1, 1, 2, 2, inf, inf, inf, inf, std::nan("")};
  Tolerance tol{0, 0};
  EXPECT_EQ(best_constant(e, tol).hits, 4);
  EXPECT_EQ(best_constant(e, tol).value, inf);
  std::vector<char> skip = {0, 0, 0, 0, 0, 1, 1, 1, 1, 0};
  BestConstant b = best_constant(e, tol, skip);
  EXPECT_EQ(b.hits, 3);
  EXPECT_EQ(b.value, 1.0);
  EXPECT_EQ(best_constant({std::nan("")}, tol).hits, 0);
}

class Credit : public ::testing::Test {
 protected:
  void SetUp() override {
    task = parse_task(kTask, "t_credit/task.json", "t_credit");
    std::vector<float> x(256), out(256);
    for (size_t i = 0; i < x.size(); ++i) x[i] = 2.0f + 0.01f * static_cast<float>(i);  // far from 0 and 1/64
    for (size_t i = 0; i < out.size(); ++i) {
      // 3/4 of the elements are 1/64 up to a hair (one constant gets them all), 1/8 equal the
      // input (a copy gets them), the last 1/8 are spread out.
      if (i % 8 < 6) out[i] = 1.0f / 64 + 1e-6f * static_cast<float>(i % 5);
      else if (i % 8 == 6) out[i] = x[i];
      else out[i] = 3.0f + 0.5f * static_cast<float>(i);
    }
    golden.args = {f32({4, 64}, x)};
    golden.arg_names = {"x"};
    golden.expected = {f32({4, 64}, out)};
  }
  HostTensor with(const std::function<float(size_t, float)>& f) const {
    std::vector<float> e(256);
    std::memcpy(e.data(), golden.expected[0].data.data(), 1024);
    for (size_t i = 0; i < e.size(); ++i) e[i] = f(i, e[i]);
    return f32({4, 64}, e);
  }
  TaskSpec task;
  GoldenTrial golden;
};

TEST_F(Credit, TrivialOutputsEarnNothingAlthoughManyElementsMatch) {
  TrivialCredit zeros = trivial_credit(task, golden, {filled_output(task.outputs[0], 0.0f)});
  EXPECT_EQ(zeros.credit, 0.0);
  EXPECT_EQ(zeros.elements, 256);
  EXPECT_EQ(zeros.trivial, 32);        // the copied-input eighth
  EXPECT_EQ(zeros.best_constant, 192); // the 1/64 cluster
  // The constant 1/64 is within tolerance on 3/4 of the output, and still earns nothing.
  HostTensor c = filled_output(task.outputs[0], 1.0f / 64);
  OutputComparison cmp = compare_output(golden.expected[0], DType::Float32, c, task.tolerance_for(DType::Float32, false));
  EXPECT_EQ(cmp.elements - cmp.mismatches, 192);
  EXPECT_EQ(trivial_credit(task, golden, {c}).credit, 0.0);
  EXPECT_EQ(trivial_credit(task, golden, {*copied_input(task.outputs[0], golden.args[0])}).credit, 0.0);
  // Any other constant, too.
  for (float v : {1.0f, -1.0f, 3.5f, 1.0f / 64 + 2e-6f})
    EXPECT_EQ(trivial_credit(task, golden, {filled_output(task.outputs[0], v)}).credit, 0.0) << v;
}

TEST_F(Credit, GrowsWithTheElementsOnlyAComputingKernelGetsRight) {
  // Right on the spread-out eighth (the elements no trivial output gets) and the constant
  // elsewhere: 224 right beyond the trivial outputs, minus the best constant's 192, of 32 left.
  HostTensor spread_right = with([](size_t i, float e) { return i % 8 == 7 ? e : 1.0f / 64; });
  TrivialCredit a = trivial_credit(task, golden, {spread_right});
  EXPECT_EQ(a.kernel_right, 192 + 32);
  EXPECT_NEAR(a.credit, 32.0 / 32.0, 1e-12);
  // Half of the spread-out eighth right and nothing else: the constant subtracted takes it all.
  HostTensor half = with([](size_t i, float e) { return i % 16 == 7 ? e : -5.0f; });
  EXPECT_EQ(trivial_credit(task, golden, {half}).credit, 0.0);
  // Everything right: full credit; wrong shape or missing output: none.
  EXPECT_EQ(trivial_credit(task, golden, {golden.expected[0]}).credit, 1.0);
  HostTensor wrong_shape = golden.expected[0];
  wrong_shape.shape = {64, 4};
  EXPECT_EQ(trivial_credit(task, golden, {wrong_shape}).credit, 0.0);
  EXPECT_EQ(trivial_credit(task, golden, {}).credit, 0.0);
}

TEST(ElementPasses, AgreesWithCompareOutput) {
  std::vector<float> e = {0, 1, -1, 1e-4f, INFINITY, -INFINITY, NAN, 2, 100};
  std::vector<float> a = {1e-3f, 1.002f, -1.0025f, NAN, INFINITY, INFINITY, NAN, 2.0021f, 100.09f};
  Tolerance tol{1e-3, 1e-3};
  OutputComparison c = compare_output(f32({9}, e), DType::Float32, f32({9}, a), tol);
  int64_t passes = 0;
  for (size_t i = 0; i < e.size(); ++i) passes += element_passes(a[i], e[i], tol);
  EXPECT_EQ(passes, c.elements - c.mismatches);
  EXPECT_GT(passes, 2);
  EXPECT_LT(passes, 8);
}

}  // namespace
}  // namespace nki
