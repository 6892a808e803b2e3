// The graded reward's order on real kernels (docs/serve.md, "Rewards"): no kernel < syntax error
// < does not compile < fails while running < runs with wrong outputs < passes; and the perf
// reward's refusal of a passing kernel the cost model cannot estimate. reward_json directly,
// without HTTP (tests/serve/serve_test.cpp covers the server).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "serve/evaluate.h"
#include "task/task_spec.h"

namespace nki::serve {
namespace {

const std::string kSource = NKI_SOURCE_DIR;

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TaskSpec load(const std::string& id) { return load_task(kSource + "/tasks/" + id); }

EvalSettings settings() {
  EvalSettings s;
  s.held_out_trials = 0;  // the public trials are enough to order the tiers
  return s;
}

nlohmann::ordered_json graded(const TaskSpec& t, const std::string& code) {
  return reward_json(t, code, RewardKind::Graded, settings());
}

// Variants of the task's reference solution (gathers 384 table rows, 128 indices at a time).
const char* kHeader = "import neuronxcc.nki as nki\nimport neuronxcc.nki.language as nl\n\n";
std::string gather_kernel(const std::string& index_line, const std::string& loop_count) {
  return std::string(kHeader) +
         "@nki.jit\ndef gather_rows_kernel(table, idx):\n"
         "    out = nl.ndarray((384, 256), dtype=table.dtype, buffer=nl.shared_hbm)\n"
         "    i_p = nl.arange(128)[:, None]\n    i_f = nl.arange(256)[None, :]\n"
         "    for t in nl.affine_range(" + loop_count + "):\n"
         "        idx_tile = nl.load(idx[t * 128 + i_p])\n" + index_line +
         "        rows = nl.load(table[idx_tile[i_p, 0], i_f])\n"
         "        nl.store(out[t * 128 + i_p, i_f], value=rows)\n"
         "    return out\n";
}

TEST(ServeGradedReward, TiersAreOrderedFromNoKernelToPass) {
  TaskSpec t = load("l1_gather_rows_fp32");
  struct Case {
    const char* what;
    std::string code;
    const char* tier;
  };
  const std::vector<Case> cases = {
      {"no kernel function", "import numpy as np\n\ndef gather(table, idx):\n    return table[idx]\n", "none"},
      {"syntax error", std::string(kHeader) + "@nki.jit\ndef gather_rows_kernel(table, idx)\n    return table\n",
       "syntax"},
      {"signature without the task's arguments", std::string(kHeader) + "@nki.jit\ndef k():\n    return None\n",
       "parses"},
      {"checker error (384 partitions)",
       std::string(kHeader) + "@nki.jit\ndef gather_rows_kernel(table, idx):\n"
           "    out = nl.ndarray((384, 256), dtype=table.dtype, buffer=nl.shared_hbm)\n"
           "    nl.store(out, value=nl.load(table[0:384, :]))\n    return out\n",
       "parses"},
      {"indices out of bounds at run time", gather_kernel("        idx_tile = nl.add(idx_tile, 1000)\n", "3"),
       "compiles"},
      {"a third of the rows never written", gather_kernel("", "1"), "runs"},
      {"reference solution", read_file(kSource + "/solutions/l1_gather_rows_fp32.py"), "passes"},
  };
  double previous = -1;
  std::string previous_tier;
  for (const Case& c : cases) {
    nlohmann::ordered_json r = graded(t, c.code);
    EXPECT_EQ(r["tier"], c.tier) << c.what << ": " << r.dump();
    double v = r["reward"].get<double>();
    if (c.tier == previous_tier)
      EXPECT_EQ(v, previous) << c.what << " is in the tier of the case before it: " << r.dump();
    else
      EXPECT_GT(v, previous) << c.what << " must score above the case before it: " << r.dump();
    previous = v;
    previous_tier = c.tier;
  }
}

TEST(ServeGradedReward, NoKernelIsStillARuntimeErrorVerdict) {
  // The verdict stays verify's (runtime_error, exit 3 in `nkiagent verify`); only the tier says
  // there was nothing to judge.
  nlohmann::ordered_json r = graded(load("l1_add_fp32"), "x = 1\n");
  EXPECT_EQ(r["verdict"], "runtime_error");
  EXPECT_EQ(r["tier"], "none");
  EXPECT_EQ(r["reward"], 0.0);
}

TEST(ServeGradedReward, PartlyRightKernelEarnsCreditBetweenTheTrivialFloorAndAPass) {
  nlohmann::ordered_json r = graded(load("l1_gather_rows_fp32"), gather_kernel("", "2"));  // 2 of 3 tiles
  ASSERT_EQ(r["tier"], "runs") << r.dump();
  EXPECT_NEAR(r["credit"].get<double>(), 2.0 / 3.0, 0.02) << r.dump();
  EXPECT_NEAR(r["reward"].get<double>(), 0.4 + 0.5 * r["credit"].get<double>(), 1e-12);
}

// A current-dialect add that passes but allocates a sequencer register, which the cost table
// does not model (cost/cost_model.cpp, CostUnsupportedConstruct).
std::string add_with_register(bool with_register) {
  std::string code = read_file(kSource + "/solutions_nki06/l1_add_fp32.py");
  std::string anchor = "    out = nl.ndarray(";
  if (with_register) code.insert(code.find(anchor), "    reg = nisa.register_alloc(0)\n");
  return code;
}

TEST(ServePerfReward, PassingKernelWithoutAnEstimateGetsTheFailureReward) {
  TaskSpec t = load("l1_add_fp32");
  EvalSettings s = settings();
  s.baselines = std::make_shared<toolchain::BaselineLookup>(kSource + "/tasks");
  nlohmann::ordered_json control = reward_json(t, add_with_register(false), RewardKind::Perf, s);
  ASSERT_EQ(control["verdict"], "pass") << control.dump();
  EXPECT_TRUE(control["estimated_ns"].is_number()) << control.dump();
  EXPECT_TRUE(control["perf_error"].is_null());
  EXPECT_GT(control["reward"].get<double>(), 0.0);

  nlohmann::ordered_json r = reward_json(t, add_with_register(true), RewardKind::Perf, s);
  ASSERT_EQ(r["verdict"], "pass") << r.dump();
  EXPECT_EQ(r["reward"], -0.5) << r.dump();
  EXPECT_TRUE(r["estimated_ns"].is_null());
  EXPECT_TRUE(r["speedup"].is_null());
  ASSERT_TRUE(r["perf_error"].is_string()) << r.dump();
  EXPECT_NE(r["perf_error"].get<std::string>().find("register"), std::string::npos) << r.dump();
  // Without any baseline a pass with an estimate is worth 1; without an estimate still nothing.
  s.baselines.reset();
  EXPECT_EQ(reward_json(t, add_with_register(false), RewardKind::Perf, s)["reward"], 1.0);
  EXPECT_EQ(reward_json(t, add_with_register(true), RewardKind::Perf, s)["reward"], -0.5);
}

}  // namespace
}  // namespace nki::serve
