// Advice that holds (issue 26 item 5): every perf lint has a kernel where it fires and where
// applying its hint lowers the estimate, and a kernel where its premise is false and it stays
// silent. The kernels are in tests/cost/kernels/lints (one docstring each says which case it is).
// And the bottleneck the profile names is the resource whose busy time bounds the estimate.
#include <gtest/gtest.h>

#include <algorithm>

#include "kernel_fixture.h"

namespace nki::cost {
namespace {

CostReport estimate_lint_kernel(const std::string& name, const std::vector<std::string>& args, Target target) {
  auto file = load_source_file(testing::source_dir() + "/tests/cost/kernels/lints/" + name + ".py");
  auto k = testing::compile_file(file, args, target);
  if (!k) throw std::runtime_error(name + " does not compile");
  return estimate(*k, default_table(target));
}

bool has_lint(const CostReport& r, const std::string& code) {
  return std::any_of(r.lints.begin(), r.lints.end(),
                     [&](const Lint& l) { return l.code == code && l.line > 0 && !l.hint.empty(); });
}

struct LintCase {
  std::string lint;
  std::string fires, fixed, quiet;  // kernel files
  std::vector<std::string> args;    // for fires and fixed
  std::vector<std::string> quiet_args;
};

const std::vector<LintCase> kCases = {
    {"perf_small_dma", "small_dma_fires", "small_dma_fixed", "small_dma_quiet", {"128x2048:float32"}, {"128x2048:float32"}},
    {"perf_partitions", "partitions_fires", "partitions_fixed", "partitions_quiet", {"32x16384:float32"},
     {"1024x4096:float32"}},
    {"perf_fp32_matmul", "fp32_matmul_fires", "fp32_matmul_fixed", "fp32_matmul_quiet",
     {"128x128:float32", "128x512:float32"}, {"1024x128:float32", "1024x512:float32"}},
    {"perf_no_overlap", "no_overlap_fires", "no_overlap_fixed", "no_overlap_quiet", {"128x8192:float32"},
     {"128x8192:float32"}},
    // Quiet: the same kernel in fp32, where the DMA transpose path costs more than the plain load.
    {"perf_pe_transpose", "pe_transpose_fires", "pe_transpose_fixed", "pe_transpose_fires", {"4096x128:bfloat16"},
     {"4096x128:float32"}},
    {"perf_redundant_reload", "redundant_reload_fires", "redundant_reload_fixed", "redundant_reload_quiet",
     {"128x8192:float32", "128x512:float32"}, {"128x8192:float32", "128x8192:float32"}},
    {"perf_psum_banks", "psum_banks_fires", "psum_banks_fixed", "psum_banks_quiet",
     {"128x2048:bfloat16", "128x512:bfloat16"}, {"128x128:bfloat16", "128x512:bfloat16"}},
};

TEST(LintAdvice, EachHintLowersTheEstimateAndIsSilentWithoutItsPremise) {
  for (Target target : {Target::Trn1, Target::Trn2})
    for (const LintCase& c : kCases) {
      SCOPED_TRACE(c.lint + " on " + target_name(target));
      const CostReport fires = estimate_lint_kernel(c.fires, c.args, target);
      const CostReport fixed = estimate_lint_kernel(c.fixed, c.args, target);
      const CostReport quiet = estimate_lint_kernel(c.quiet, c.quiet_args, target);
      EXPECT_TRUE(has_lint(fires, c.lint)) << c.fires;
      EXPECT_FALSE(has_lint(fixed, c.lint)) << c.fixed;
      EXPECT_LT(fixed.latency_ns, fires.latency_ns) << "following the hint of " << c.lint << " must pay";
      EXPECT_FALSE(has_lint(quiet, c.lint)) << c.quiet;
    }
}

// The bottleneck bounds the estimate: no engine, DMA queue, the DMA engines together or HBM is
// busier than it.
TEST(LintAdvice, TheBottleneckIsTheBusiestResource) {
  for (const char* name : {"small_dma_fires", "small_dma_quiet"}) {
    const CostReport r = estimate_lint_kernel(name, {"128x2048:float32"}, Target::Trn1);
    SCOPED_TRACE(name);
    EXPECT_LE(r.bottleneck_busy_ns, r.latency_ns);
    for (const UnitStats& u : r.units) EXPECT_LE(std::min(u.busy_ns, r.latency_ns), r.bottleneck_busy_ns + 1e-6);
    EXPECT_LE(std::min(r.hbm_busy_ns, r.latency_ns), r.bottleneck_busy_ns + 1e-6);
  }
  // A chain of dependent exps per tile waits on results more than it keeps any resource busy;
  // small copies keep the DMA side busy.
  const CostReport chain = estimate_lint_kernel("small_dma_quiet", {"128x2048:float32"}, Target::Trn1);
  EXPECT_EQ(chain.bottleneck.rfind("dependency latency", 0), 0u) << chain.bottleneck;
  const CostReport copies = estimate_lint_kernel("small_dma_fires", {"128x2048:float32"}, Target::Trn1);
  EXPECT_GE(copies.bottleneck_busy_ns, 0.5 * copies.latency_ns);
  EXPECT_TRUE(copies.bottleneck.find("DMA") != std::string::npos || copies.bottleneck == "HBM") << copies.bottleneck;
}

// The three lower bounds and the gap above them, and the critical path's time by line.
TEST(LintAdvice, BoundsAndTheGapByLine) {
  const CostReport r = estimate_lint_kernel("small_dma_fires", {"128x2048:float32"}, Target::Trn1);
  const CostTable t = default_table(Target::Trn1);
  // One [128, 2048] fp32 input read once and the output written once.
  EXPECT_EQ(r.bounds.needed_bytes, 2 * 128 * 2048 * 4);
  EXPECT_NEAR(r.bounds.memory_needed_ns, 2.0 * 128 * 2048 * 4 / t.hbm_gb_per_s, 1e-6);
  EXPECT_GE(r.bounds.memory_ns, r.bounds.memory_needed_ns);
  EXPECT_DOUBLE_EQ(r.bounds.pipeline_ns, r.bottleneck_busy_ns);
  const double bound = std::max({r.bounds.memory_needed_ns, r.bounds.compute_ns, r.bounds.pipeline_ns});
  EXPECT_LE(bound, r.latency_ns);
  EXPECT_NEAR(r.bounds.gap_ns, r.latency_ns - bound, 1e-6);
  ASSERT_FALSE(r.gap_by_line.empty());
  double path = 0;
  for (const LineGap& g : r.gap_by_line) {
    EXPECT_GT(g.line, 0);
    EXPECT_GE(g.wait_ns, 0);
    EXPECT_NEAR(g.busy_ns + g.wait_ns, g.path_ns, 1e-6);
    path += g.path_ns;
  }
  EXPECT_LE(path, r.latency_ns * (1 + 1e-9));
  for (size_t i = 1; i < r.gap_by_line.size(); ++i) EXPECT_GE(r.gap_by_line[i - 1].wait_ns, r.gap_by_line[i].wait_ns);
  // A transpose is not useful work: a kernel that only transposes has no matmul compute bound.
  const CostReport tr = estimate_lint_kernel("pe_transpose_fires", {"4096x128:bfloat16"}, Target::Trn1);
  EXPECT_GT(tr.stats(Unit::PE).busy_ns, 0);
  EXPECT_EQ(tr.t_mm_ns, 0);
  EXPECT_LT(tr.bounds.compute_ns, tr.bounds.pipeline_ns);
}

}  // namespace
}  // namespace nki::cost
