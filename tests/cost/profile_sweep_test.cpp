// `nkiagent profile` on every benchmark reference solution (solutions/*, with its task's shapes,
// both targets) and every docs/examples kernel (with its header's `nkiagent check` arguments):
// any compile or cost-model error fails (issue 12). CTest label `kernels`.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "kernel_fixture.h"
#include "task/task_spec.h"

namespace nki::cost {
namespace {

// Every benchmark reference solution profiles (with its task's shapes) on both targets.
TEST(ProfileSweep, EverySolutionProfiles) {
  namespace fs = std::filesystem;
  const std::string root = testing::source_dir();
  int n = 0;
  for (const auto& entry : fs::directory_iterator(root + "/solutions")) {
    if (entry.path().extension() != ".py") continue;
    std::string id = entry.path().stem().string();
    TaskSpec task = load_task(root + "/tasks/" + id);
    for (nki::Target tg : {nki::Target::Trn1, nki::Target::Trn2}) {
      toolchain::ProfileSettings s;
      s.isolation.enabled = false;
      s.trace.target = tg;
      for (const TensorSpec& t : task.kernel_args()) s.trace.args.push_back(front::ArgSpec{t.shape, t.dtype});
      toolchain::ProfileOutcome o = toolchain::profile(load_source_file(entry.path().string()), s);
      ASSERT_TRUE(o.report) << id << " " << o.error;
      EXPECT_GT(o.report->latency_ns, 0) << id;
      EXPECT_GT(o.report->dma_count, 0) << id;
    }
    ++n;
  }
  EXPECT_GT(n, 50);
}

// Every docs/examples kernel profiles, with the arguments (and grid) of its header's
// `nkiagent check FILE --arg ... [--grid N]` line.
TEST(ProfileSweep, EveryDocsExampleProfiles) {
  namespace fs = std::filesystem;
  const std::string root = testing::source_dir() + "/docs/examples";
  int n = 0;
  for (const auto& entry : fs::directory_iterator(root)) {
    if (entry.path().extension() != ".py") continue;
    const std::string id = entry.path().stem().string();
    std::ifstream in(entry.path());
    std::string line, cmd;
    while (std::getline(in, line))
      if (line.find("nkiagent check") != std::string::npos) { cmd = line; break; }
    ASSERT_FALSE(cmd.empty()) << id << ": no `nkiagent check` line in the header";
    toolchain::ProfileSettings s;
    s.isolation.enabled = false;
    std::istringstream words(cmd);
    std::string w, prev;
    while (words >> w) {
      if (prev == "--arg") s.trace.args.push_back(testing::specs({w})[0]);
      if (prev == "--grid") s.trace.grid = {std::stoll(w)};
      prev = w;
    }
    ASSERT_FALSE(s.trace.args.empty()) << id;
    toolchain::ProfileOutcome o = toolchain::profile(load_source_file(entry.path().string()), s);
    ASSERT_TRUE(o.report) << id << " " << o.error;
    EXPECT_GT(o.report->latency_ns, 0) << id;
    EXPECT_GT(o.report->dma_count, 0) << id;
    ++n;
  }
  EXPECT_GE(n, 10);
}

}  // namespace
}  // namespace nki::cost
