// Template kernels verified against golden data computed in C++, and repair mutations checked
// against what the compiler really reports.
#include <gtest/gtest.h>

#include <algorithm>

#include "agent/tools.h"
#include "toolchain/agent_glue.h"
#include "train/repairs.h"
#include "train/templates.h"
#include "train_fixture.h"

namespace nki::train {
namespace {

using namespace testing;

std::vector<std::string> args_of(const TaskSpec& t) { return agent::task_arg_names(toolchain::task_info(t)); }

// Rows = all leading axes, C = last axis.
std::vector<float> softmax_ref(const std::vector<std::vector<float>>& in, const TaskSpec& t) {
  int64_t C = t.inputs[0].shape.back();
  std::vector<float> o(in[0].size());
  for (size_t r = 0; r * C < o.size(); ++r) {
    float m = -1e30f;
    for (int64_t c = 0; c < C; ++c) m = std::max(m, in[0][r * C + c]);
    double s = 0;
    for (int64_t c = 0; c < C; ++c) s += std::exp(in[0][r * C + c] - m);
    for (int64_t c = 0; c < C; ++c) o[r * C + c] = static_cast<float>(std::exp(in[0][r * C + c] - m) / s);
  }
  return o;
}

std::vector<float> rowsum_ref(const std::vector<std::vector<float>>& in, const TaskSpec& t) {
  int64_t C = t.inputs[0].shape.back();
  std::vector<float> o(in[0].size() / static_cast<size_t>(C));
  for (size_t r = 0; r < o.size(); ++r) {
    double s = 0;
    for (int64_t c = 0; c < C; ++c) s += in[0][r * C + c];
    o[r] = static_cast<float>(s);
  }
  return o;
}

std::vector<float> matmul_ref(const std::vector<std::vector<float>>& in, const TaskSpec& t) {
  int64_t M = t.inputs[0].shape[0], K = t.inputs[0].shape[1], N = t.inputs[1].shape[1];
  std::vector<float> o(static_cast<size_t>(M * N));
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < N; ++n) {
      double s = 0;
      for (int64_t k = 0; k < K; ++k) s += double(in[0][m * K + k]) * in[1][k * N + n];
      o[m * N + n] = static_cast<float>(s);
    }
  return o;
}

std::vector<float> transpose_ref(const std::vector<std::vector<float>>& in, const TaskSpec& t) {
  int64_t R = t.inputs[0].shape[0], C = t.inputs[0].shape[1];
  std::vector<float> o(in[0].size());
  for (int64_t r = 0; r < R; ++r)
    for (int64_t c = 0; c < C; ++c) o[c * R + r] = in[0][r * C + c];
  return o;
}

struct Case {
  std::string family;
  std::vector<std::vector<int64_t>> inputs;
  std::vector<int64_t> output;
  ReferenceFn ref;
};

TEST(TrainTemplates, FirstCandidateOfEachKindVerifies) {
  std::string root = temp_dir("templates");
  std::vector<Case> cases = {
      {"add", {{300, 96}, {300, 96}}, {300, 96}, add_ref},           // ragged rows: masked last tile
      {"softmax", {{2, 100, 80}}, {2, 100, 80}, softmax_ref},       // 3-D viewed as [200, 80]
      {"sum_lastdim", {{256, 200}}, {256}, rowsum_ref},              // one value per row
      {"matmul", {{256, 384}, {384, 192}}, {256, 192}, matmul_ref},  // K accumulated in PSUM
      {"transpose2d", {{256, 384}}, {384, 256}, transpose_ref},
  };
  for (const Case& c : cases) {
    TaskSpec t = load_task(write_task(root, "t_" + c.family, c.family, c.inputs, c.output));
    std::vector<TemplateKernel> k = template_candidates(t, args_of(t));
    ASSERT_FALSE(k.empty()) << c.family;
    Verdict v = check_reverify(k[0].code, t, in_process(golden_of(c.ref), 1));
    EXPECT_FALSE(v) << c.family << ": " << (v ? v->message : "") << "\n" << k[0].code;
  }
}

TEST(TrainTemplates, UncoveredFamilyGetsNoCandidate) {
  std::string root = temp_dir("notemplate");
  TaskSpec t = load_task(write_task(root, "t_conv", "conv2d_weird", {{4, 8, 16, 16}}, {4, 8, 16, 16}));
  EXPECT_TRUE(template_candidates(t, args_of(t)).empty());
}

// Each compile-class mutation of a template kernel makes the real checker report an error.
TEST(TrainRepairs, MutationsBreakTheKernelTheWayTheirClassSays) {
  std::string root = temp_dir("repairs");
  TaskSpec rows = load_task(write_task(root, "t_sum", "sum_lastdim", {{300, 96}}, {300}));
  TaskSpec mm = load_task(write_task(root, "t_mm", "matmul", {{256, 384}, {384, 192}}, {256, 192}));
  toolchain::RunSettings rs;
  rs.isolation.enabled = false;
  struct Want {
    const TaskSpec* task;
    std::string kind;
    std::string code;  // diagnostic code the compile tool must report
  };
  std::vector<Want> wants = {
      {&rows, "partition_overflow", "err_num_partition_exceed_arch_limit"},
      {&rows, "missing_store", "err_tensor_output_not_written_to"},
      {&rows, "scope_error", "err_local_variable_used_out_of_scope"},
      {&rows, "mask_off_by_one", "err_tensor_access_out_of_bound"},
      {&rows, "reduce_axis0", ""},  // any compile error or none: checked below by verify class
  };
  for (const Want& w : wants) {
    std::vector<TemplateKernel> k = template_candidates(*w.task, args_of(*w.task));
    ASSERT_FALSE(k.empty());
    std::optional<std::string> broken = apply_mutation(w.kind, k[0].code);
    ASSERT_TRUE(broken) << w.kind;
    EXPECT_NE(*broken, k[0].code);
    if (w.code.empty()) continue;
    toolchain::SimulatorTools tools(*w.task, rs, toolchain::HeldOut{0, 0});
    agent::ToolResult r = tools.compile_kernel(*broken);
    EXPECT_FALSE(r.passed) << w.kind << "\n" << *broken;
    EXPECT_EQ(r.code, w.code) << w.kind << ": " << r.text;
  }
  // The matmul-only mutations apply to a matmul template and not to a row kernel.
  std::vector<TemplateKernel> km = template_candidates(mm, args_of(mm));
  ASSERT_FALSE(km.empty());
  EXPECT_TRUE(apply_mutation("psum_accumulate", km[0].code));
  EXPECT_FALSE(apply_mutation("psum_store", km[0].code));  // removed: no documented rule rejects it
  EXPECT_FALSE(apply_mutation("psum_accumulate", template_candidates(rows, args_of(rows))[0].code));
  // Accumulating by assignment keeps only the last K chunk: the values are wrong.
  Verdict v = check_reverify(*apply_mutation("psum_accumulate", km[0].code), mm, in_process(golden_of(matmul_ref), 1));
  ASSERT_TRUE(v);
  EXPECT_EQ(v->reason, "reverify_failed");
}

}  // namespace
}  // namespace nki::train
