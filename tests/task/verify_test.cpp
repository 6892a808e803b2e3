// verify_task with fake kernels and fake golden data (no Python needed).
#include <cmath>
#include <cstring>
#include <limits>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "task/verify.h"

namespace nki {
namespace {

const char* kAddTask = R"({
  "id": "t_add", "level": 1, "category": "elementwise", "tags": [], "description": "a + b",
  "origin": "test", "family": "add", "init_args": [],
  "inputs": [{"name": "a", "shape": [3, 5], "dtype": "float32",
              "dist": {"kind": "normal", "mean": 0, "std": 1}},
             {"name": "b", "shape": [3, 5], "dtype": "float32",
              "dist": {"kind": "normal", "mean": 0, "std": 1}}],
  "parameters": [], "buffers": [],
  "outputs": [{"shape": [3, 5], "dtype": "float32"}],
  "tolerance": null, "seed": 100, "trials": 3})";

HostTensor f32(std::vector<int64_t> shape, const std::vector<float>& v) {
  HostTensor t;
  t.shape = std::move(shape);
  t.data.resize(v.size() * 4);
  std::memcpy(t.data.data(), v.data(), t.data.size());
  return t;
}

std::vector<float> values(const HostTensor& t) {
  std::vector<float> v(t.data.size() / 4);
  std::memcpy(v.data(), t.data.data(), t.data.size());
  return v;
}

// Golden data computed in C++: a[i] = seed-dependent ramp, b = its square, expected = a + b.
GoldenTrial fake_golden(const TaskSpec& task, int trial) {
  GoldenTrial g;
  g.trial = trial;
  g.seed = task.trial_seed(trial);
  std::vector<float> a(15), b(15), sum(15);
  for (int i = 0; i < 15; ++i) {
    a[i] = 0.1f * i - static_cast<float>(g.seed % 7);
    b[i] = a[i] * a[i];
    sum[i] = a[i] + b[i];
  }
  g.arg_names = {"a", "b"};
  g.args = {f32({3, 5}, a), f32({3, 5}, b)};
  g.expected = {f32({3, 5}, sum)};
  return g;
}

KernelRunResult correct_add(const std::vector<HostTensor>& args) {
  std::vector<float> a = values(args[0]), b = values(args[1]), out(a.size());
  for (size_t i = 0; i < a.size(); ++i) out[i] = a[i] + b[i];
  KernelRunResult r;
  r.outputs = {f32(args[0].shape, out)};
  r.args_after = args;
  return r;
}

VerifyOptions fake_options() {
  VerifyOptions o;
  o.golden = fake_golden;
  return o;
}

TaskSpec add_task() { return parse_task(kAddTask, "t_add/task.json", "t_add"); }

TEST(Verify, CorrectKernelPassesAllTrials) {
  VerifyReport r = verify_task(add_task(), fake_options(), correct_add);
  EXPECT_EQ(r.status, VerifyStatus::Pass);
  EXPECT_EQ(verify_exit_code(r), 0);
  ASSERT_EQ(r.trials.size(), 3u);
  EXPECT_EQ(r.trials[2].seed, 102u);
  EXPECT_EQ(render_verify_text(r).rfind("PASS t_add: 3/3 trials correct", 0), 0u)
      << render_verify_text(r);
  std::string json = render_verify_json(r);
  EXPECT_NE(json.find("\"status\":\"pass\""), std::string::npos);
  EXPECT_NE(json.find("\"exit_code\":0"), std::string::npos);
}

// A passing kernel off by known amounts: +0.002 at [1, 2] in trial 1 (reference 2.99: 0.50 of
// atol + rtol |ref| = 0.00399) and +0.006 at [0, 0] in trial 2 (reference 12: a larger absolute
// error, but only 0.46 of its 0.013). verify reports the worst share and where it is.
TEST(Verify, ReportsTheWorstShareOfTheToleranceAndWhere) {
  auto off_by_known_amounts = [](const std::vector<HostTensor>& args) {
    KernelRunResult r = correct_add(args);
    std::vector<float> v = values(r.outputs[0]);
    float a0 = values(args[0])[0];  // -(seed % 7): -2, -3, -4 for trials 0, 1, 2
    if (a0 == -3.0f) v[7] += 0.002f;
    if (a0 == -4.0f) v[0] += 0.006f;
    r.outputs[0] = f32({3, 5}, v);
    return r;
  };
  VerifyReport r = verify_task(add_task(), fake_options(), off_by_known_amounts);
  ASSERT_EQ(r.status, VerifyStatus::Pass);
  const double expected_share = 0.002 / (1e-3 + 1e-3 * 2.99);
  const OutputComparison& t1 = r.trials[1].outputs[0];
  EXPECT_NEAR(t1.tolerance_used, expected_share, 1e-3);
  EXPECT_EQ(t1.tolerance_used_index, (std::vector<int64_t>{1, 2}));
  EXPECT_NEAR(r.trials[2].outputs[0].tolerance_used, 0.006 / (1e-3 + 1e-3 * 12.0), 1e-3);
  EXPECT_EQ(r.trials[0].outputs[0].tolerance_used, 0.0);
  EXPECT_TRUE(r.trials[0].outputs[0].tolerance_used_index.empty());

  std::string text = render_verify_text(r);
  EXPECT_NE(text.find("max abs err 0.0059"), std::string::npos) << text;  // trial 2's, kept
  EXPECT_NE(text.find(", worst |err|/(atol+rtol*|ref|) 0.501"), std::string::npos) << text;
  EXPECT_NE(text.find(" at out0[1, 2] in trial 1)"), std::string::npos) << text;

  nlohmann::json j = nlohmann::json::parse(render_verify_json(r));
  const nlohmann::json& worst = j["tolerance_used"];
  EXPECT_NEAR(worst["value"].get<double>(), expected_share, 1e-3);
  EXPECT_EQ(worst["trial"], 1);
  EXPECT_EQ(worst["output"], 0);
  EXPECT_EQ(worst["held_out"], false);
  EXPECT_EQ(worst["index"], nlohmann::json::array({1, 2}));
  const nlohmann::json& out2 = j["trials"][2]["outputs"][0];
  EXPECT_EQ(out2["tolerance_used_index"], nlohmann::json::array({0, 0}));
  EXPECT_TRUE(out2.contains("max_rel_err"));  // the older fields stay
}

TEST(Verify, TrialCountOverride) {
  VerifyOptions o = fake_options();
  o.trials = 5;
  EXPECT_EQ(verify_task(add_task(), o, correct_add).trials.size(), 5u);
}

TEST(Verify, GarbageIsAMismatch) {
  auto garbage = [](const std::vector<HostTensor>& args) {
    KernelRunResult r = correct_add(args);
    std::vector<float> v = values(r.outputs[0]);
    v[7] += 1.0f;
    v[9] = std::numeric_limits<float>::quiet_NaN();  // never stored by the kernel
    r.outputs[0] = f32({3, 5}, v);
    return r;
  };
  VerifyReport r = verify_task(add_task(), fake_options(), garbage);
  EXPECT_EQ(r.status, VerifyStatus::Mismatch);
  EXPECT_EQ(verify_exit_code(r), 4);
  ASSERT_EQ(r.trials.size(), 1u);  // stops at the first failing trial
  const OutputComparison& c = r.trials[0].outputs[0];
  EXPECT_EQ(c.mismatches, 2);
  EXPECT_EQ(c.never_written, 1);
  std::string text = render_verify_text(r);
  EXPECT_NE(text.find("FAIL t_add: wrong result on trial 0 (seed 100)"), std::string::npos) << text;
  EXPECT_NE(text.find("2 of 15 elements mismatch"), std::string::npos) << text;
  EXPECT_NE(text.find("never written: 1 elements"), std::string::npos) << text;
  EXPECT_NE(text.find("at [1, 2]: expected"), std::string::npos) << text;
  // +1 on a reference of 0.39: 1 / (0.001 + 0.001 * 0.39) = 719.4 times the tolerance.
  EXPECT_NE(text.find("worst |err|/(atol+rtol*|ref|) 719."), std::string::npos) << text;
  EXPECT_NE(text.find(" at [1, 2]\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("at [1, 4]: expected"), std::string::npos) << text;  // unwritten: summarised
  std::string json = render_verify_json(r);
  EXPECT_NE(json.find("\"never_written\":1"), std::string::npos);
  EXPECT_NE(json.find("\"exit_code\":4"), std::string::npos);
}

TEST(Verify, CompileErrorStopsImmediately) {
  auto broken = [](const std::vector<HostTensor>&) {
    KernelRunResult r;
    r.status = RunStatus::CompileError;
    Diagnostic d;
    d.code = "err_num_partition_exceed_arch_limit";
    d.message = "partition dimension 256 exceeds 128";
    d.file = "k.py";
    d.line = 4;
    d.col = 9;
    r.diagnostics.push_back(d);
    return r;
  };
  VerifyOptions o = fake_options();
  o.stop_on_failure = false;
  VerifyReport r = verify_task(add_task(), o, broken);
  EXPECT_EQ(r.status, VerifyStatus::CompileError);
  EXPECT_EQ(verify_exit_code(r), 1);
  EXPECT_EQ(r.trials.size(), 1u);
  std::string text = render_verify_text(r);
  EXPECT_NE(text.find("FAIL t_add: compile error"), std::string::npos) << text;
  EXPECT_NE(text.find("k.py:4:9: error[err_num_partition_exceed_arch_limit]"), std::string::npos)
      << text;
}

TEST(Verify, RunnerExceptionIsARuntimeError) {
  auto throwing = [](const std::vector<HostTensor>&) -> KernelRunResult {
    Diagnostic d;
    d.code = "oob";
    d.message = "index 66048 is out of bounds";
    throw DiagnosticError(d);
  };
  VerifyReport r = verify_task(add_task(), fake_options(), throwing);
  EXPECT_EQ(r.status, VerifyStatus::RuntimeError);
  EXPECT_EQ(verify_exit_code(r), 3);
  EXPECT_NE(render_verify_text(r).find("index 66048 is out of bounds"), std::string::npos);
  auto crashing = [](const std::vector<HostTensor>&) -> KernelRunResult {
    throw std::runtime_error("simulator bug");
  };
  VerifyReport r2 = verify_task(add_task(), fake_options(), crashing);
  EXPECT_EQ(r2.status, VerifyStatus::RuntimeError);
  EXPECT_EQ(r2.trials[0].diagnostics[0].code, "runner_exception");
}

TEST(Verify, ModifiedInputFails) {
  auto in_place = [](const std::vector<HostTensor>& args) {
    KernelRunResult r = correct_add(args);
    r.args_after[0] = r.outputs[0];  // the kernel wrote its result over input a
    return r;
  };
  VerifyReport r = verify_task(add_task(), fake_options(), in_place);
  EXPECT_EQ(r.status, VerifyStatus::Mismatch);
  ASSERT_EQ(r.trials[0].modified_inputs.size(), 1u);
  EXPECT_EQ(r.trials[0].modified_inputs[0].name, "a");
  EXPECT_NE(render_verify_text(r).find("input 'a' (argument 0) was modified"), std::string::npos);
}

TEST(Verify, WrongOutputCountAndShape) {
  auto two_outputs = [](const std::vector<HostTensor>& args) {
    KernelRunResult r = correct_add(args);
    r.outputs.push_back(r.outputs[0]);
    return r;
  };
  VerifyReport r = verify_task(add_task(), fake_options(), two_outputs);
  EXPECT_EQ(r.status, VerifyStatus::Mismatch);
  EXPECT_EQ(r.trials[0].problem, "kernel returned 2 output(s), the task expects 1");
  auto flat = [](const std::vector<HostTensor>& args) {
    KernelRunResult r = correct_add(args);
    r.outputs[0].shape = {15};
    return r;
  };
  VerifyReport r2 = verify_task(add_task(), fake_options(), flat);
  EXPECT_EQ(r2.status, VerifyStatus::Mismatch);
  EXPECT_NE(render_verify_text(r2).find("out0: shape [15], expected [3, 5]"), std::string::npos);
}

TEST(Verify, StrictModeTightensBf16) {
  std::string text = kAddTask;
  for (size_t p; (p = text.find("float32")) != std::string::npos;) text.replace(p, 7, "bfloat16");
  TaskSpec task = parse_task(text, "t_add/task.json", "t_add");
  VerifyOptions o;
  o.golden = [](const TaskSpec&, int trial) {
    GoldenTrial g;
    g.trial = trial;
    HostTensor x;
    x.dtype = DType::BFloat16;
    x.shape = {3, 5};
    x.data.assign(30, 0);
    g.args = {x, x};
    g.arg_names = {"a", "b"};
    g.expected = {f32({3, 5}, std::vector<float>(15, 100.3f))};
    return g;
  };
  auto runner = [](const std::vector<HostTensor>&) {
    KernelRunResult r;
    HostTensor out;
    out.dtype = DType::BFloat16;
    out.shape = {3, 5};
    uint16_t bits = 0x42C9;  // 100.5 in bfloat16
    for (int i = 0; i < 15; ++i) {
      out.data.push_back(static_cast<uint8_t>(bits & 0xFF));
      out.data.push_back(static_cast<uint8_t>(bits >> 8));
    }
    r.outputs = {out};
    return r;
  };
  EXPECT_EQ(verify_task(task, o, runner).status, VerifyStatus::Pass);
  o.strict = true;
  VerifyReport strict = verify_task(task, o, runner);
  EXPECT_EQ(strict.status, VerifyStatus::Mismatch);
  EXPECT_NE(render_verify_text(strict).find("[strict]"), std::string::npos);
}

}  // namespace
}  // namespace nki

// ---------------------------------------------------------------- held-out trials
namespace nki {
namespace heldout {

// Inputs depend on the whole trial seed, so no two trials share them.
GoldenTrial seeded_golden(const TaskSpec& task, int trial) {
  GoldenTrial g;
  g.trial = trial;
  g.seed = task.trial_seed(trial);
  std::vector<float> a(15), b(15), sum(15);
  for (int i = 0; i < 15; ++i) {
    a[i] = 0.25f * i + static_cast<float>(g.seed % 100003) * 1e-3f;
    b[i] = 1.0f - 0.5f * i;
    sum[i] = a[i] + b[i];
  }
  g.arg_names = {"a", "b"};
  g.args = {f32({3, 5}, a), f32({3, 5}, b)};
  g.expected = {f32({3, 5}, sum)};
  return g;
}

// The attack: remember the outputs of the public trials (their seeds are printed by `tasks
// show`) and pick one by looking at a single input element; compute nothing.
KernelRunResult memorising_kernel(const TaskSpec& task, const std::vector<HostTensor>& args) {
  KernelRunResult r;
  r.args_after = args;
  float probe = values(args[0])[0];
  for (int t = 0; t < task.trials; ++t) {
    GoldenTrial g = seeded_golden(task, t);
    if (values(g.args[0])[0] == probe) {
      r.outputs = {g.expected[0]};
      return r;
    }
  }
  r.outputs = {f32({3, 5}, std::vector<float>(15, 0.f))};
  return r;
}

TEST(VerifyHeldOut, MemorisingKernelPassesPublicTrialsButNotHeldOutOnes) {
  TaskSpec task = add_task();
  VerifyOptions o;
  o.golden = seeded_golden;
  auto run = [&](const std::vector<HostTensor>& a) { return memorising_kernel(task, a); };
  EXPECT_EQ(verify_task(task, o, run).status, VerifyStatus::Pass);  // the attack works on public trials

  o.held_out = held_out_trials(task, 0x5eedULL, 2);
  VerifyReport r = verify_task(task, o, run);
  EXPECT_EQ(r.status, VerifyStatus::Mismatch);
  ASSERT_EQ(r.trials.size(), 4u);  // three public trials pass, the first held-out one fails
  EXPECT_FALSE(r.trials[2].held_out);
  EXPECT_TRUE(r.trials[3].held_out);
  EXPECT_FALSE(r.trials[3].passed);
  EXPECT_NE(render_verify_text(r).find("held-out trial"), std::string::npos) << render_verify_text(r);
  EXPECT_NE(render_verify_json(r).find("\"held_out\":true"), std::string::npos);
}

TEST(VerifyHeldOut, CorrectKernelPassesHeldOutTrials) {
  TaskSpec task = add_task();
  VerifyOptions o;
  o.golden = seeded_golden;
  o.held_out = held_out_trials(task, 42, 2);
  VerifyReport r = verify_task(task, o, correct_add);
  EXPECT_EQ(r.status, VerifyStatus::Pass);
  EXPECT_EQ(r.trials.size(), 5u);
  EXPECT_EQ(r.trials_requested, 5);
}

TEST(VerifyHeldOut, TrialsAreReproducibleFromTheSecretAndDisjointFromPublicOnes) {
  TaskSpec task = add_task();
  std::vector<int> a = held_out_trials(task, 7, 3), b = held_out_trials(task, 7, 3);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, held_out_trials(task, 8, 3));
  for (int t : a) EXPECT_GE(t, 1'000'000);
  EXPECT_NE(fresh_secret(), fresh_secret());
}

}  // namespace heldout
}  // namespace nki
