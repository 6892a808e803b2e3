// Every benchmark task: trivial kernels (task/trivial_kernels.h: all zeros, 1.0, NaN, the first
// copied input, overwritten inputs; plus each input copied on its own and, per output, the
// constant accepted by the most reference elements) must never score above the floor of the
// graded reward's "runs" tier (0.4), however many of their elements happen to be within
// tolerance. Golden data comes from the shared cache (generated with torch when missing).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>

#include "serve/evaluate.h"
#include "task/golden_cache.h"
#include "task/trivial_credit.h"
#include "task/trivial_kernels.h"

namespace nki::serve {
namespace {

const std::string kSource = NKI_SOURCE_DIR;
constexpr double kRunsFloor = 0.4;  // docs/serve.md, the graded reward's "runs" tier

std::vector<std::string> task_dirs() {
  std::vector<std::string> dirs;
  for (const auto& e : std::filesystem::directory_iterator(kSource + "/tasks"))
    if (std::filesystem::exists(e.path() / "task.json")) dirs.push_back(e.path().string());
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

// Outputs with, per output, the constant most reference elements of `g` accept.
std::vector<HostTensor> best_constants(const TaskSpec& t, const GoldenTrial& g) {
  std::vector<HostTensor> out;
  for (size_t j = 0; j < t.outputs.size() && j < g.expected.size(); ++j) {
    BestConstant c = best_constant(element_values(g.expected[j]), t.tolerance_for(t.outputs[j].dtype, false));
    out.push_back(filled_output(t.outputs[j], static_cast<float>(c.value)));
  }
  return out;
}

// Every output that has the input's element count is that input; the others zeros.
std::vector<HostTensor> copies_of(const TaskSpec& t, const HostTensor& arg, bool* any) {
  std::vector<HostTensor> out;
  for (const TensorSpec& o : t.outputs) {
    std::optional<HostTensor> c = copied_input(o, arg);
    *any = *any || c.has_value();
    out.push_back(c ? std::move(*c) : filled_output(o, 0.0f));
  }
  return out;
}

TEST(ServeTrivialSweep, NoTrivialKernelScoresAboveTheRunsFloorOnAnyTask) {
  std::vector<std::string> dirs = task_dirs();
  ASSERT_GE(dirs.size(), 250u);
  int kernels = 0, high_raw = 0;
  double worst = 0;
  for (const std::string& dir : dirs) {
    TaskSpec t = load_task(dir);
    std::map<int, std::shared_ptr<const GoldenTrial>> loaded;
    EvalSettings s;
    s.held_out_trials = 0;
    s.golden = [&loaded](const TaskSpec& task, int k) {
      auto& g = loaded[k];
      if (!g) g = std::make_shared<const GoldenTrial>(load_golden(task, k));
      return g;
    };
    std::shared_ptr<const GoldenTrial> first = s.golden(t, 0);
    std::vector<std::pair<std::string, KernelRunner>> trivial;
    for (const std::string& kind : trivial_kinds()) trivial.emplace_back(kind, trivial_runner(t, kind));
    trivial.emplace_back("best constant", fixed_runner(best_constants(t, *first)));
    for (size_t a = 0; a < first->args.size(); ++a) {
      bool any = false;
      std::vector<HostTensor> outs = copies_of(t, first->args[a], &any);
      if (!any) continue;
      // The same input of whichever trial runs, not trial 0's.
      trivial.emplace_back("copy of argument " + std::to_string(a), [&t, a](const std::vector<HostTensor>& args) {
        bool unused = false;
        KernelRunResult r;
        r.outputs = copies_of(t, args[a], &unused);
        return r;
      });
    }
    for (auto& [what, runner] : trivial) {
      s.runner = runner;
      nlohmann::ordered_json r = reward_json(t, "", RewardKind::Graded, s);
      ++kernels;
      double v = r["reward"].get<double>();
      worst = std::max(worst, v);
      EXPECT_LE(v, kRunsFloor) << t.id << ", " << what << ": " << r.dump();
      EXPECT_FALSE(r["passed"].get<bool>()) << t.id << ", " << what;
      high_raw += r["fraction_correct"].get<double>() >= 0.5;
    }
  }
  std::printf("%zu tasks, %d trivial kernels, highest graded reward %.3f; %d with at least half of "
              "the elements within tolerance\n", dirs.size(), kernels, worst, high_raw);
  // The sweep is not vacuous: counting elements within tolerance would have paid many of them.
  EXPECT_GT(high_raw, 10);
}

}  // namespace
}  // namespace nki::serve
