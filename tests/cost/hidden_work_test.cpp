// Kernels that try to hide work from the cost model (issue 26: "no kernel can hide work"). Each
// kernel in tests/cost/kernels/hidden_work does the same work as an honest rewrite, but places
// it behind a branch on a loop's index (or the program id) so that the iterations a model
// schedules before extrapolating issue nothing. None may be estimated more than 1.5x faster
// than the honest kernel, and every estimate is finite and positive.
#include <gtest/gtest.h>

#include <cmath>

#include "kernel_fixture.h"

namespace nki::cost {
namespace {

using testing::compile_file;

constexpr const char* kShape = "8192x512:float32";  // 64 tiles of [128, 512]

std::string kernel_path(const std::string& name) {
  return testing::source_dir() + "/tests/cost/kernels/hidden_work/" + name + ".py";
}

// The kernels are written in the legacy dialect; `current` reads the same kernel as a current
// (`import nki`) one, whose loops and branches lower to the same IR.
std::string as_current_dialect(std::string text) {
  for (auto [from, to] : {std::pair<std::string, std::string>{"import neuronxcc.nki as nki", "import nki"},
                          {"import neuronxcc.nki.language as nl", "import nki.language as nl"}}) {
    const size_t at = text.find(from);
    if (at == std::string::npos) throw std::runtime_error("no '" + from + "' to replace");
    text.replace(at, from.size(), to);
  }
  return text;
}

CostReport estimate_file(const std::string& name, const std::vector<int64_t>& grid = {}, CostOptions o = {},
                         Target target = Target::Trn1, bool current = false) {
  front::TraceOptions to;
  to.args = testing::specs({kShape, kShape});
  to.target = target;
  to.grid = grid;
  SourceFilePtr file = load_source_file(kernel_path(name));
  if (current) file = std::make_shared<SourceFile>(name + "_nki06.py", as_current_dialect(std::string(file->text())));
  toolchain::CompileResult c = toolchain::compile(file, to);
  std::string diags;
  for (const Diagnostic& d : c.diagnostics) diags += render_text(d);
  if (!c.ok()) throw std::runtime_error(name + " does not compile:\n" + diags);
  return estimate(*c.kernel, default_table(target), o);
}

struct Attack {
  const char* kernel;
  const char* honest;
  std::vector<int64_t> grid;
};

// The grid attack launches 256 idle instances before the 64 working ones.
const std::vector<Attack> kAttacks = {
    {"late_branch", "honest_add", {}},
    {"late_branch_sequential", "honest_add", {}},
    {"else_branch", "honest_add", {}},
    {"odd_iterations", "honest_add", {}},
    {"diagonal", "honest_add", {}},
    {"late_program", "honest_program", {64 + 256}},
};

TEST(HiddenWork, NoKernelIsEstimatedFasterThanItsHonestRewrite) {
  for (bool current : {false, true})
  for (Target target : {Target::Trn1, Target::Trn2}) {
    for (const Attack& a : kAttacks) {
      SCOPED_TRACE(std::string(a.kernel) + " on " + target_name(target) + (current ? " (nki 0.6)" : " (2.24)"));
      const std::vector<int64_t> honest_grid = a.grid.empty() ? std::vector<int64_t>{} : std::vector<int64_t>{64};
      CostReport honest = estimate_file(a.honest, honest_grid, {}, target, current);
      CostReport hidden = estimate_file(a.kernel, a.grid, {}, target, current);
      ASSERT_TRUE(std::isfinite(hidden.latency_ns));
      ASSERT_GT(hidden.latency_ns, 0);
      EXPECT_GE(hidden.latency_ns, honest.latency_ns / 1.5)
          << "honest " << honest.latency_ns << " ns, hidden " << hidden.latency_ns << " ns";
      // The same DMA traffic: every working iteration is charged.
      EXPECT_EQ(hidden.dma_bytes, honest.dma_bytes);
      EXPECT_EQ(hidden.dma_count, honest.dma_count);
    }
  }
}

// Extrapolation still applies inside each stretch of iterations that take the same branch, so
// a loop of thousands of idle iterations is not scheduled one by one, and the estimate agrees
// with scheduling every iteration.
TEST(HiddenWork, BranchSegmentsAreExtrapolatedAndAgreeWithTheFullSchedule) {
  CostOptions full;
  full.extrapolate = false;
  CostReport fast = estimate_file("late_branch");
  CostReport slow = estimate_file("late_branch", {}, full);
  EXPECT_GE(fast.extrapolated_loops, 2);  // the idle stretch and the working one
  EXPECT_LT(fast.scheduled, slow.scheduled / 4);
  EXPECT_EQ(fast.dma_count, slow.dma_count);
  EXPECT_NEAR(fast.latency_ns, slow.latency_ns, 0.02 * slow.latency_ns);
}

// A kernel that issues nothing that takes time gets an error, never a free 0 ns estimate.
TEST(HiddenWork, AnEmptyKernelHasNoEstimate) {
  ir::Kernel empty;
  EXPECT_THROW(estimate(empty, default_table(Target::Trn1)), CostUnsupportedConstruct);
}

}  // namespace
}  // namespace nki::cost
