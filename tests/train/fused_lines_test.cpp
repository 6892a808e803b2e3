// forward() lines of the synthesised seeds (torch_extra, torch_nn_more, reductions) that the fused
// row table of src/train/fused_templates.cpp translates: each kernel must verify against golden
// data computed here in C++ from the PyTorch definition of the line.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "agent/tools.h"
#include "toolchain/agent_glue.h"
#include "train/templates.h"
#include "train_fixture.h"

namespace nki::train {
namespace {

using namespace testing;

std::string reference_of(const std::string& args, const std::string& line) {
  return "import math\nimport torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\n"
         "class Model(nn.Module):\n    def __init__(self):\n        super().__init__()\n\n"
         "    def forward(self, " + args + "):\n        y = " + line + "\n        return y\n";
}

using Elem = std::function<float(float, float)>;

// Element-wise over a and (optionally) b.
ReferenceFn map_ref(Elem f) {
  return [f](const std::vector<std::vector<float>>& in, const TaskSpec&) {
    std::vector<float> o(in[0].size());
    for (size_t i = 0; i < o.size(); ++i) o[i] = f(in[0][i], in.size() > 1 ? in[1][i] : 0.f);
    return o;
  };
}

// One value per row of the last axis: f(a row, b row, C).
using RowFn = std::function<double(const float*, const float*, int64_t)>;
ReferenceFn row_ref(RowFn f) {
  return [f](const std::vector<std::vector<float>>& in, const TaskSpec& t) {
    int64_t C = t.inputs[0].shape.back();
    std::vector<float> o(in[0].size() / static_cast<size_t>(C));
    for (size_t r = 0; r < o.size(); ++r)
      o[r] = static_cast<float>(f(&in[0][r * C], in.size() > 1 ? &in[1][r * C] : nullptr, C));
    return o;
  };
}

struct LineCase {
  std::string line;
  int inputs;
  bool reduce;
  ReferenceFn ref;
};

TEST(TrainFusedLines, ExtraSeedLinesVerify) {
  std::string root = temp_dir("fused_lines");
  std::vector<LineCase> cases = {
      {"torch.expm1(a)", 1, false, map_ref([](float x, float) { return std::expm1(x); })},
      {"torch.sinh(a)", 1, false, map_ref([](float x, float) { return std::sinh(x); })},
      {"torch.cosh(a)", 1, false, map_ref([](float x, float) { return std::cosh(x); })},
      {"torch.asinh(a)", 1, false, map_ref([](float x, float) { return std::asinh(x); })},
      {"torch.exp2(a)", 1, false, map_ref([](float x, float) { return std::exp2(x); })},
      {"torch.copysign(a, b)", 2, false, map_ref([](float x, float y) { return std::copysign(x, y); })},
      {"torch.logaddexp2(a, b)", 2, false,
       map_ref([](float x, float y) { return static_cast<float>(std::log2(std::exp2(double(x)) + std::exp2(double(y)))); })},
      {"(a > b).to(a.dtype)", 2, false, map_ref([](float x, float y) { return x > y ? 1.f : 0.f; })},
      {"torch.where(a >= b, 2.0 * a, b - a)", 2, false, map_ref([](float x, float y) { return x >= y ? 2.f * x : y - x; })},
      {"torch.where(a > 0, a, b)", 2, false, map_ref([](float x, float y) { return x > 0 ? x : y; })},
      {"torch.clamp_min(a, -0.25)", 1, false, map_ref([](float x, float) { return std::max(x, -0.25f); })},
      {"torch.floor(a * 2.5)", 1, false, map_ref([](float x, float) { return std::floor(x * 2.5f); })},
      {"torch.frac(a * 2.0)", 1, false, map_ref([](float x, float) { return x * 2.f - std::trunc(x * 2.f); })},
      {"torch.relu(a).pow(2)", 1, false, map_ref([](float x, float) { return x > 0 ? x * x : 0.f; })},
      // _patterns.json epilogues
      {"(torch.sqrt(a * a + 1.0) - 1.0) / 2.0 + a", 1, false,
       map_ref([](float x, float) { return (std::sqrt(x * x + 1.f) - 1.f) / 2.f + x; })},
      {"0.5 * (torch.relu(a) + torch.tanh(a))", 1, false, map_ref([](float x, float) { return 0.5f * (std::max(x, 0.f) + std::tanh(x)); })},
      {"torch.sinc(a)", 1, false, map_ref([](float x, float) {
         double p = 3.141592653589793 * x;
         return x == 0 ? 1.f : static_cast<float>(std::sin(p) / p);
       })},
      {"(a - b) ** 2", 2, false, map_ref([](float x, float y) { return (x - y) * (x - y); })},
      // std::nearbyint rounds half to even in the default rounding mode, as torch.round does
      {"torch.round(a * 4.0) / 4.0", 1, false, map_ref([](float x, float) { return std::nearbyint(x * 4.f) / 4.f; })},
      {"torch.round(a)", 1, false, map_ref([](float x, float) { return std::nearbyint(x); })},
      {"torch.special.entr(a)", 1, false, map_ref([](float x, float) {
         return x > 0 ? -x * std::log(x) : x == 0 ? 0.f : -std::numeric_limits<float>::infinity();
       })},
      {"3.0 * torch.tanh(a / 3.0)", 1, false, map_ref([](float x, float) { return 3.f * std::tanh(x / 3.f); })},
      {"a + torch.sin(0.5 * a).pow(2) / 0.5", 1, false,
       map_ref([](float x, float) { return x + std::sin(0.5f * x) * std::sin(0.5f * x) / 0.5f; })},
      {"torch.special.ndtr(a)", 1, false, map_ref([](float x, float) { return 0.5f * std::erfc(-x / std::sqrt(2.f)); })},
      {"F.softplus(a, beta=2.0, threshold=20.0)", 1, false,
       map_ref([](float x, float) { return 2.f * x > 20.f ? x : std::log1p(std::exp(2.f * x)) / 2.f; })},
      {"F.cosine_similarity(a, b, dim=-1)", 2, true, row_ref([](const float* x, const float* y, int64_t C) {
         double xy = 0, xx = 0, yy = 0;
         for (int64_t c = 0; c < C; ++c) xy += double(x[c]) * y[c], xx += double(x[c]) * x[c], yy += double(y[c]) * y[c];
         return xy / std::max(std::sqrt(xx * yy), 1e-8);
       })},
      {"F.pairwise_distance(a, b)", 2, true, row_ref([](const float* x, const float* y, int64_t C) {
         double s = 0;
         for (int64_t c = 0; c < C; ++c) s += (double(x[c]) - y[c] + 1e-6) * (double(x[c]) - y[c] + 1e-6);
         return std::sqrt(s);
       })},
      {"torch.linalg.vector_norm(a, ord=float('inf'), dim=-1)", 1, true, row_ref([](const float* x, const float*, int64_t C) {
         double m = 0;
         for (int64_t c = 0; c < C; ++c) m = std::max(m, std::fabs(double(x[c])));
         return m;
       })},
      {"a - torch.logsumexp(a, dim=-1, keepdim=True) + math.log(a.shape[-1])", 1, false, [](const std::vector<std::vector<float>>& in, const TaskSpec& t) {
         int64_t C = t.inputs[0].shape.back();
         std::vector<float> o(in[0].size());
         for (size_t r = 0; r < o.size() / C; ++r) {
           double m = *std::max_element(&in[0][r * C], &in[0][r * C] + C), s = 0;
           for (int64_t c = 0; c < C; ++c) s += std::exp(in[0][r * C + c] - m);
           for (int64_t c = 0; c < C; ++c) o[r * C + c] = static_cast<float>(in[0][r * C + c] - (std::log(s) + m) + std::log(double(C)));
         }
         return o;
       }},
      {"a * (a == a.amax(dim=-1, keepdim=True))", 1, false, [](const std::vector<std::vector<float>>& in, const TaskSpec& t) {
         int64_t C = t.inputs[0].shape.back();
         std::vector<float> o(in[0].size());
         for (size_t r = 0; r < o.size() / C; ++r) {
           float m = *std::max_element(&in[0][r * C], &in[0][r * C] + C);
           for (int64_t c = 0; c < C; ++c) o[r * C + c] = in[0][r * C + c] == m ? m : 0.f;
         }
         return o;
       }},
      {"(a > 0).float().mean(dim=-1)", 1, true, row_ref([](const float* x, const float*, int64_t C) {
         double n = 0;
         for (int64_t c = 0; c < C; ++c) n += x[c] > 0 ? 1 : 0;
         return n / C;
       })},
  };
  int id = 0;
  for (const LineCase& c : cases) {
    std::vector<std::vector<int64_t>> shapes(c.inputs, std::vector<int64_t>{200, 64});  // ragged: 128 + 72 rows
    std::vector<int64_t> out = c.reduce ? std::vector<int64_t>{200} : std::vector<int64_t>{200, 64};
    std::string args = c.inputs == 1 ? "a" : "a, b";
    TaskSpec t = load_task(write_task(root, "t" + std::to_string(id++), "synth_line", shapes, out, reference_of(args, c.line)));
    std::vector<TemplateKernel> k = template_candidates(t, agent::task_arg_names(toolchain::task_info(t)));
    ASSERT_FALSE(k.empty()) << c.line;
    EXPECT_EQ(k[0].name, c.reduce ? "fused_row:reduce" : "fused_row:map") << c.line;
    Verdict v = check_reverify(k[0].code, t, in_process(golden_of(c.ref), 1));
    EXPECT_FALSE(v) << c.line << ": " << (v ? v->message : "") << "\n" << k[0].code;
  }
}

TEST(TrainFusedLines, UnknownLineGetsNoCandidate) {
  std::string root = temp_dir("fused_unknown");
  // torch.prod has no row translation: no candidate rather than a guess
  TaskSpec t = load_task(write_task(root, "t", "synth_line", {{200, 64}}, {200}, reference_of("a", "torch.prod(a, dim=-1)")));
  for (const TemplateKernel& k : template_candidates(t, agent::task_arg_names(toolchain::task_info(t))))
    EXPECT_NE(k.name.rfind("fused_row", 0), 0u) << k.code;
}

}  // namespace
}  // namespace nki::train
