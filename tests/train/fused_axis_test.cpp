// Seed lines of src/train/fused_axis_templates.cpp (reductions and softmax over a non-last axis,
// pooling with window == stride, matrix-vector and matrix products): each kernel must verify
// against golden data computed here in C++ from the PyTorch definition of the line.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>

#include "agent/tools.h"
#include "toolchain/agent_glue.h"
#include "train/templates.h"
#include "train_fixture.h"

namespace nki::train {
namespace {

using namespace testing;

std::string reference_with(const std::string& args, const std::vector<std::string>& body) {
  std::string s = "import math\nimport torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\n"
                  "class Model(nn.Module):\n    def __init__(self):\n        super().__init__()\n\n"
                  "    def forward(self, " + args + "):\n";
  for (const std::string& l : body) s += "        " + l + "\n";
  return s + "        return y\n";
}

int64_t prod(const std::vector<int64_t>& s, size_t from, size_t to) {
  int64_t p = 1;
  for (size_t i = from; i < to; ++i) p *= s[i];
  return p;
}

// f over the A values of axis d (strided), one result per (outer, inner) position.
using VecFn = std::function<double(const std::vector<double>&)>;
ReferenceFn axis_ref(size_t d, VecFn f) {
  return [d, f](const std::vector<std::vector<float>>& in, const TaskSpec& t) {
    const std::vector<int64_t>& S = t.inputs[0].shape;
    int64_t outer = prod(S, 0, d), A = S[d], inner = prod(S, d + 1, S.size());
    std::vector<float> o(static_cast<size_t>(outer * inner));
    for (int64_t b = 0; b < outer; ++b)
      for (int64_t j = 0; j < inner; ++j) {
        std::vector<double> v;
        for (int64_t a = 0; a < A; ++a) v.push_back(in[0][(b * A + a) * inner + j]);
        o[b * inner + j] = static_cast<float>(f(v));
      }
    return o;
  };
}

// softmax (log = false) or log_softmax over axis d.
ReferenceFn softmax_ref(size_t d, bool log) {
  return [d, log](const std::vector<std::vector<float>>& in, const TaskSpec& t) {
    const std::vector<int64_t>& S = t.inputs[0].shape;
    int64_t outer = prod(S, 0, d), A = S[d], inner = prod(S, d + 1, S.size());
    std::vector<float> o(in[0].size());
    for (int64_t b = 0; b < outer; ++b)
      for (int64_t j = 0; j < inner; ++j) {
        double m = -std::numeric_limits<double>::infinity(), s = 0;
        for (int64_t a = 0; a < A; ++a) m = std::max(m, double(in[0][(b * A + a) * inner + j]));
        for (int64_t a = 0; a < A; ++a) s += std::exp(in[0][(b * A + a) * inner + j] - m);
        for (int64_t a = 0; a < A; ++a) {
          double x = in[0][(b * A + a) * inner + j] - m;
          o[(b * A + a) * inner + j] = static_cast<float>(log ? x - std::log(s) : std::exp(x) / s);
        }
      }
    return o;
  };
}

// Window == stride pooling of the last two axes (kh = 1 for 1-D): f over each window.
ReferenceFn pool_ref(int64_t kh, int64_t kw, bool two_d, VecFn f) {
  return [=](const std::vector<std::vector<float>>& in, const TaskSpec& t) {
    const std::vector<int64_t>& S = t.inputs[0].shape;
    int64_t H = two_d ? S[S.size() - 2] : 1, W = S.back();
    int64_t lead = static_cast<int64_t>(in[0].size()) / (H * W), Ho = H / kh, Wo = W / kw;
    std::vector<float> o(static_cast<size_t>(lead * Ho * Wo));
    for (int64_t l = 0; l < lead; ++l)
      for (int64_t r = 0; r < Ho; ++r)
        for (int64_t c = 0; c < Wo; ++c) {
          std::vector<double> v;
          for (int64_t i = 0; i < kh; ++i)
            for (int64_t j = 0; j < kw; ++j) v.push_back(in[0][(l * H + r * kh + i) * W + c * kw + j]);
          o[(l * Ho + r) * Wo + c] = static_cast<float>(f(v));
        }
    return o;
  };
}

// 2-D pooling of the last two axes with window k, stride st and dilation dl (no padding).
ReferenceFn pool2d_ref(int64_t k, int64_t st, int64_t dl, VecFn f) {
  return [=](const std::vector<std::vector<float>>& in, const TaskSpec& t) {
    const std::vector<int64_t>& S = t.inputs[0].shape;
    int64_t H = S[S.size() - 2], W = S.back(), lead = static_cast<int64_t>(in[0].size()) / (H * W);
    int64_t Ho = (H - dl * (k - 1) - 1) / st + 1, Wo = (W - dl * (k - 1) - 1) / st + 1;
    std::vector<float> o;
    for (int64_t l = 0; l < lead; ++l)
      for (int64_t r = 0; r < Ho; ++r)
        for (int64_t c = 0; c < Wo; ++c) {
          std::vector<double> v;
          for (int64_t i = 0; i < k; ++i)
            for (int64_t j = 0; j < k; ++j) v.push_back(in[0][(l * H + r * st + i * dl) * W + c * st + j * dl]);
          o.push_back(static_cast<float>(f(v)));
        }
    return o;
  };
}

// out[b, m, n] = sum_k A(b, m, k) * B(b, k, n) for operands stored as given (ta / tb: transposed).
ReferenceFn matmul_ref(int64_t Bt, int64_t M, int64_t K, int64_t N, bool ta, bool tb) {
  return [=](const std::vector<std::vector<float>>& in, const TaskSpec&) {
    std::vector<float> o(static_cast<size_t>(Bt * M * N));
    for (int64_t b = 0; b < Bt; ++b)
      for (int64_t m = 0; m < M; ++m)
        for (int64_t n = 0; n < N; ++n) {
          double s = 0;
          for (int64_t k = 0; k < K; ++k) {
            double a = in[0][b * M * K + (ta ? k * M + m : m * K + k)];
            double bb = in[1][b * K * N + (tb ? n * K + k : k * N + n)];
            s += a * bb;
          }
          o[(b * M + m) * N + n] = static_cast<float>(s);
        }
    return o;
  };
}

double vsum(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s;
}
double vmax(const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); }
double vstd(const std::vector<double>& v) {
  double mu = vsum(v) / v.size(), s = 0;
  for (double x : v) s += (x - mu) * (x - mu);
  return std::sqrt(s / (v.size() - 1));
}

struct AxisCase {
  std::string args;
  std::vector<std::string> body;
  std::vector<std::vector<int64_t>> shapes;
  std::vector<int64_t> out;
  std::string kind;
  ReferenceFn ref;
};

TEST(TrainFusedAxis, SeedLinesVerify) {
  std::string root = temp_dir("fused_axis");
  std::vector<AxisCase> cases = {
      // reductions over axis 1 (rows = the leading axis), axis 0 (rows = the middle axis), and
      // axis 1 of NCHW (a batch loop over rows of H)
      {"a", {"y = torch.amax(a, dim=1)"}, {{3, 24, 64}}, {3, 64}, "fused_axis:reduce", axis_ref(1, vmax)},
      {"a", {"y = torch.sum(a, dim=0)"}, {{4, 200, 32}}, {200, 32}, "fused_axis:reduce", axis_ref(0, vsum)},
      {"a", {"y = torch.std(a, dim=1)"}, {{2, 6, 20, 16}}, {2, 20, 16}, "fused_axis:reduce", axis_ref(1, vstd)},
      {"a",
       {"y = torch.logsumexp(a, dim=0)"},
       {{3, 40, 32}},
       {40, 32},
       "fused_axis:reduce",
       axis_ref(0, [](const std::vector<double>& v) {
         double m = vmax(v), s = 0;
         for (double x : v) s += std::exp(x - m);
         return m + std::log(s);
       })},
      // a prologue on every slice and an epilogue on the reduced rows
      {"a",
       {"a = torch.relu(a)", "y = torch.mean(a, dim=1, keepdim=True)", "y = y * 0.5"},
       {{2, 5, 48}},
       {2, 1, 48},
       "fused_axis:reduce",
       axis_ref(1, [](const std::vector<double>& v) {
         double s = 0;
         for (double x : v) s += std::max(x, 0.0);
         return 0.5 * s / v.size();
       })},
      // softmax over the first axis of a 2-D input (one-row tiles) and over axis 1
      {"a", {"y = torch.softmax(a, dim=0)"}, {{50, 48}}, {50, 48}, "fused_axis:softmax", softmax_ref(0, false)},
      {"a", {"y = torch.log_softmax(a, dim=1)"}, {{2, 12, 40}}, {2, 12, 40}, "fused_axis:softmax", softmax_ref(1, true)},
      // pooling: 2x2 max, 1-D average of 4, global average (the whole free axis), LP (p = 2)
      {"a", {"y = F.max_pool2d(a, 2)"}, {{2, 4, 16, 16}}, {2, 4, 8, 8}, "fused_axis:pool", pool_ref(2, 2, true, vmax)},
      {"a",
       {"y = F.avg_pool1d(a, 4)"},
       {{2, 8, 64}},
       {2, 8, 16},
       "fused_axis:pool",
       pool_ref(1, 4, false, [](const std::vector<double>& v) { return vsum(v) / v.size(); })},
      {"a",
       {"y = F.adaptive_avg_pool2d(a, 1)"},
       {{2, 4, 8, 8}},
       {2, 4, 1, 1},
       "fused_axis:pool",
       pool_ref(8, 8, true, [](const std::vector<double>& v) { return vsum(v) / v.size(); })},
      {"a",
       {"y = F.lp_pool2d(a, 2.0, 2)"},
       {{2, 4, 8, 12}},
       {2, 4, 4, 6},
       "fused_axis:pool",
       pool_ref(2, 2, true, [](const std::vector<double>& v) {
         double s = 0;
         for (double x : v) s += x * x;
         return std::sqrt(s);
       })},
      // 2-D pools whose windows overlap along H or leave a ragged tail: one image per tile
      {"a", {"y = F.max_pool2d(a, 3, stride=2)"}, {{2, 4, 17, 17}}, {2, 4, 8, 8}, "fused_axis:pool", pool2d_ref(3, 2, 1, vmax)},
      {"a", {"y = F.max_pool2d(a, 3, stride=1, dilation=2)"}, {{2, 3, 12, 12}}, {2, 3, 8, 8}, "fused_axis:pool", pool2d_ref(3, 1, 2, vmax)},
      {"a",
       {"y = F.avg_pool2d(a, 4)"},
       {{2, 4, 14, 14}},
       {2, 4, 3, 3},
       "fused_axis:pool",
       pool2d_ref(4, 4, 1, [](const std::vector<double>& v) { return vsum(v) / v.size(); })},
      // 1-D max pooling with stride 2 and padding 1 (overlapping windows, -inf padding)
      {"a",
       {"y = F.max_pool1d(a, 3, stride=2, padding=1)"},
       {{2, 8, 50}},
       {2, 8, 25},
       "fused_axis:pool",
       [](const std::vector<std::vector<float>>& in, const TaskSpec&) {
         std::vector<float> o;
         for (int64_t r = 0; r < 16; ++r)
           for (int64_t c = 0; c < 25; ++c) {
             float m = -std::numeric_limits<float>::infinity();
             for (int64_t j = 2 * c - 1; j <= 2 * c + 1; ++j)
               if (j >= 0 && j < 50) m = std::max(m, in[0][r * 50 + j]);
             o.push_back(m);
           }
         return o;
       }},
      // halves of the last axis: a, b = x.chunk(2, dim=-1), and F.glu
      {"a",
       {"p, q = a.chunk(2, dim=-1)", "y = F.silu(p) * q"},
       {{200, 96}},
       {200, 48},
       "fused_axis:halves",
       [](const std::vector<std::vector<float>>& in, const TaskSpec&) {
         std::vector<float> o(200 * 48);
         for (int r = 0; r < 200; ++r)
           for (int c = 0; c < 48; ++c) {
             double p = in[0][r * 96 + c], q = in[0][r * 96 + 48 + c];
             o[r * 48 + c] = static_cast<float>(p / (1 + std::exp(-p)) * q);
           }
         return o;
       }},
      {"a",
       {"y = F.glu(a, dim=-1)"},
       {{2, 50, 64}},
       {2, 50, 32},
       "fused_axis:halves",
       [](const std::vector<std::vector<float>>& in, const TaskSpec&) {
         std::vector<float> o(100 * 32);
         for (int r = 0; r < 100; ++r)
           for (int c = 0; c < 32; ++c)
             o[r * 32 + c] = static_cast<float>(in[0][r * 64 + c] / (1 + std::exp(-double(in[0][r * 64 + 32 + c]))));
         return o;
       }},
      // matrix-vector and matrix products
      {"a, b", {"y = torch.matmul(a, b)"}, {{200, 64}, {64, 1}}, {200, 1}, "fused_axis:matvec", matmul_ref(1, 200, 64, 1, false, false)},
      {"a, b", {"y = a @ b"}, {{64}, {64, 48}}, {48}, "fused_axis:vecmat", matmul_ref(1, 1, 64, 48, false, false)},
      {"a, b", {"y = torch.outer(a, b)"}, {{100}, {48}}, {100, 48}, "fused_axis:outer", matmul_ref(1, 100, 1, 48, false, false)},
      {"a, b", {"y = a @ b"}, {{100, 256}, {256, 48}}, {100, 48}, "fused_axis:matmul", matmul_ref(1, 100, 256, 48, false, false)},
      {"a, b", {"y = torch.matmul(a.T, b.T)"}, {{64, 40}, {48, 64}}, {40, 48}, "fused_axis:matmul", matmul_ref(1, 40, 64, 48, true, true)},
      {"a, b",
       {"y = torch.bmm(a, b.transpose(1, 2))"},
       {{2, 32, 16}, {2, 24, 16}},
       {2, 32, 24},
       "fused_axis:matmul",
       matmul_ref(2, 32, 16, 24, false, true)},
      {"a, b, c",
       {"y = torch.linalg.multi_dot([a, b, c])"},
       {{64, 48}, {48, 40}, {40, 32}},
       {64, 32},
       "fused_axis:matmul_chain",
       [](const std::vector<std::vector<float>>& in, const TaskSpec&) {
         std::vector<double> ab(64 * 40, 0.0);
         for (int m = 0; m < 64; ++m)
           for (int j = 0; j < 40; ++j)
             for (int k = 0; k < 48; ++k) ab[m * 40 + j] += double(in[0][m * 48 + k]) * in[1][k * 40 + j];
         std::vector<float> o(64 * 32);
         for (int m = 0; m < 64; ++m)
           for (int n = 0; n < 32; ++n) {
             double s = 0;
             for (int j = 0; j < 40; ++j) s += ab[m * 40 + j] * in[2][j * 32 + n];
             o[m * 32 + n] = static_cast<float>(s);
           }
         return o;
       }},
      // unmasked attention: softmax(q @ k^T / sqrt(D)) @ v per batch, 48 keys in one PSUM row
      {"a, b, c",
       {"y = torch.softmax(a @ b.transpose(-2, -1) / math.sqrt(a.shape[-1]), dim=-1) @ c"},
       {{2, 40, 16}, {2, 48, 16}, {2, 48, 24}},
       {2, 40, 24},
       "fused_axis:attention",
       [](const std::vector<std::vector<float>>& in, const TaskSpec&) {
         std::vector<float> o(2 * 40 * 24);
         for (int g = 0; g < 2; ++g)
           for (int i = 0; i < 40; ++i) {
             std::vector<double> sc(48);
             double m = -1e300, z = 0;
             for (int j = 0; j < 48; ++j) {
               double d = 0;
               for (int k = 0; k < 16; ++k) d += double(in[0][(g * 40 + i) * 16 + k]) * in[1][(g * 48 + j) * 16 + k];
               sc[j] = d / 4.0;
               m = std::max(m, sc[j]);
             }
             for (double& x : sc) z += (x = std::exp(x - m));
             for (int n = 0; n < 24; ++n) {
               double acc = 0;
               for (int j = 0; j < 48; ++j) acc += sc[j] / z * in[2][(g * 48 + j) * 24 + n];
               o[(g * 40 + i) * 24 + n] = static_cast<float>(acc);
             }
           }
         return o;
       }},
  };
  int id = 0;
  for (const AxisCase& c : cases) {
    std::string what = c.body[c.body.size() > 1 ? 1 : 0];
    TaskSpec t = load_task(write_task(root, "t" + std::to_string(id++), "synth_axis", c.shapes, c.out, reference_with(c.args, c.body)));
    std::vector<TemplateKernel> k = template_candidates(t, agent::task_arg_names(toolchain::task_info(t)));
    ASSERT_FALSE(k.empty()) << what;
    EXPECT_EQ(k[0].name, c.kind) << what;
    Verdict v = check_reverify(k[0].code, t, in_process(golden_of(c.ref), 1));
    EXPECT_FALSE(v) << what << ": " << (v ? v->message : "") << "\n" << k[0].code;
  }
}

TEST(TrainFusedAxis, ArgmaxOverAxisVerifies) {
  std::string root = temp_dir("fused_axis_argmax");
  std::string dir = write_task(root, "t", "synth_axis", {{3, 40, 24}}, {40, 24},
                               reference_with("a", {"y = torch.argmax(a, dim=0).to(torch.int32)"}));
  {  // the index output is int32
    std::ifstream in(dir + "/task.json");
    std::string j((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    size_t at = j.rfind("\"dtype\": \"float32\"");
    j.replace(at, std::string("\"dtype\": \"float32\"").size(), "\"dtype\": \"int32\"");
    std::ofstream(dir + "/task.json") << j;
  }
  TaskSpec t = load_task(dir);
  ASSERT_EQ(t.outputs[0].dtype, DType::Int32);
  std::vector<TemplateKernel> k = template_candidates(t, agent::task_arg_names(toolchain::task_info(t)));
  ASSERT_FALSE(k.empty());
  EXPECT_EQ(k[0].name, "fused_axis:reduce");
  GoldenProvider base = golden_of(axis_ref(0, vmax));
  GoldenProvider g = [base](const TaskSpec& task, int trial) {
    GoldenTrial gt = base(task, trial);
    std::vector<float> x(static_cast<size_t>(task.inputs[0].element_count()));
    std::memcpy(x.data(), gt.args[0].data.data(), x.size() * 4);
    std::vector<int32_t> idx(40 * 24, 0);
    for (int j = 0; j < 40 * 24; ++j)
      for (int a = 1; a < 3; ++a)
        if (x[a * 40 * 24 + j] > x[idx[j] * 40 * 24 + j]) idx[j] = a;
    HostTensor e;
    e.dtype = DType::Int32;
    e.shape = {40, 24};
    e.data.resize(idx.size() * 4);
    std::memcpy(e.data.data(), idx.data(), e.data.size());
    gt.expected = {e};
    return gt;
  };
  Verdict v = check_reverify(k[0].code, t, in_process(g, 1));
  EXPECT_FALSE(v) << (v ? v->message : "") << "\n" << k[0].code;
}

// The epilogue lines of synth/seeds/_patterns.json added to the row table, on the output of a
// reduction over axis 0: y = f(sum_a x[a], b) with b a second input of the output's shape.
TEST(TrainFusedAxis, EpiloguePatternLinesVerify) {
  std::string root = temp_dir("fused_axis_epi");
  using F2 = std::function<double(double, double)>;
  auto selu = [](double x) { return 1.0507009873554805 * (x > 0 ? x : 1.6732632423543772 * std::expm1(x)); };
  auto mish = [](double x) { return x * std::tanh(std::log1p(std::exp(x))); };
  auto sigm = [](double x) { return 1.0 / (1.0 + std::exp(-x)); };
  std::vector<std::pair<std::string, F2>> lines = {
      {"y = -y", [](double y, double) { return -y; }},
      {"y = y + 0.5", [](double y, double) { return y + 0.5; }},
      {"y = y * 1.5 - 0.25", [](double y, double) { return y * 1.5 - 0.25; }},
      {"y = torch.exp(-y.abs())", [](double y, double) { return std::exp(-std::fabs(y)); }},
      {"y = 0.5 * (torch.relu(y) + torch.tanh(y))", [](double y, double) { return 0.5 * (std::max(y, 0.0) + std::tanh(y)); }},
      {"y = F.elu(y, 0.5)", [](double y, double) { return y > 0 ? y : 0.5 * std::expm1(y); }},
      {"y = F.mish(0.5 * y)", [mish](double y, double) { return mish(0.5 * y); }},
      {"y = torch.sigmoid(0.25 * y)", [sigm](double y, double) { return sigm(0.25 * y); }},
      {"y = F.hardswish(2.0 * y)", [](double y, double) { double s = 2 * y; return s * std::min(std::max(s + 3, 0.0), 6.0) / 6; }},
      {"y = F.softsign(2.0 * y)", [](double y, double) { return 2 * y / (std::fabs(2 * y) + 1); }},
      {"y = F.selu(y) + 0.1", [selu](double y, double) { return selu(y) + 0.1; }},
      {"y = y * torch.rsqrt(1.0 + y * y)", [](double y, double) { return y / std::sqrt(1 + y * y); }},
      {"y = y * (y.abs() > 0.1).to(y.dtype)", [](double y, double) { return std::fabs(y) > 0.1 ? y : 0.0; }},
      {"y = y + torch.sin(y).pow(2)", [](double y, double) { return y + std::sin(y) * std::sin(y); }},
      {"y = (torch.sqrt(y * y + 1.0) - 1.0) / 2.0 + y", [](double y, double) { return (std::sqrt(y * y + 1) - 1) / 2 + y; }},
      {"y = torch.sign(y) * torch.sqrt(y.abs() + 1e-3)",
       [](double y, double) { return (y > 0 ? 1.0 : y < 0 ? -1.0 : 0.0) * std::sqrt(std::fabs(y) + 1e-3); }},
      {"y = F.gelu(y + b)", [](double y, double b) { return 0.5 * (y + b) * std::erfc(-(y + b) / std::sqrt(2.0)); }},
      {"y = F.silu(y + b)", [sigm](double y, double b) { return (y + b) * sigm(y + b); }},
      {"y = y * torch.tanh(b)", [](double y, double b) { return y * std::tanh(b); }},
      {"y = b + y * b", [](double y, double b) { return b + y * b; }},
      {"y = (y + b) * 0.5", [](double y, double b) { return (y + b) * 0.5; }},
      {"y = y * torch.exp(b)", [](double y, double b) { return y * std::exp(b); }},
      {"y = y / F.softplus(b)", [](double y, double b) { return y / std::log1p(std::exp(b)); }},
  };
  int id = 0;
  for (const auto& [line, f] : lines) {
    TaskSpec t = load_task(write_task(root, "e" + std::to_string(id++), "synth_axis", {{3, 40, 32}, {40, 32}}, {40, 32},
                                      reference_with("a, b", {"y = torch.sum(a, dim=0)", line})));
    std::vector<TemplateKernel> k = template_candidates(t, agent::task_arg_names(toolchain::task_info(t)));
    ASSERT_FALSE(k.empty()) << line;
    EXPECT_EQ(k[0].name, "fused_axis:reduce") << line;
    F2 fn = f;
    ReferenceFn ref = [fn](const std::vector<std::vector<float>>& in, const TaskSpec&) {
      std::vector<float> o(40 * 32);
      for (int j = 0; j < 40 * 32; ++j) {
        double y = double(in[0][j]) + in[0][40 * 32 + j] + in[0][2 * 40 * 32 + j];
        o[j] = static_cast<float>(fn(y, in[1][j]));
      }
      return o;
    };
    Verdict v = check_reverify(k[0].code, t, in_process(golden_of(ref), 1));
    EXPECT_FALSE(v) << line << ": " << (v ? v->message : "") << "\n" << k[0].code;
  }
  // the row-wise ones on the same output rows
  std::vector<std::pair<std::string, ReferenceFn>> rows = {
      {"y = torch.log_softmax(y / 2.0, dim=-1)",
       [](const std::vector<std::vector<float>>& in, const TaskSpec&) {
         std::vector<float> o(40 * 32);
         for (int r = 0; r < 40; ++r) {
           std::vector<double> s(32);
           double m = -1e300, z = 0;
           for (int c = 0; c < 32; ++c) {
             int j = r * 32 + c;
             s[c] = (double(in[0][j]) + in[0][1280 + j] + in[0][2560 + j]) / 2.0;
             m = std::max(m, s[c]);
           }
           for (double x : s) z += std::exp(x - m);
           for (int c = 0; c < 32; ++c) o[r * 32 + c] = static_cast<float>(s[c] - m - std::log(z));
         }
         return o;
       }},
      {"y = torch.softmax(y + b, dim=-1)",
       [](const std::vector<std::vector<float>>& in, const TaskSpec&) {
         std::vector<float> o(40 * 32);
         for (int r = 0; r < 40; ++r) {
           std::vector<double> s(32);
           double m = -1e300, z = 0;
           for (int c = 0; c < 32; ++c) {
             int j = r * 32 + c;
             s[c] = double(in[0][j]) + in[0][1280 + j] + in[0][2560 + j] + in[1][j];
             m = std::max(m, s[c]);
           }
           for (double& x : s) z += (x = std::exp(x - m));
           for (int c = 0; c < 32; ++c) o[r * 32 + c] = static_cast<float>(s[c] / z);
         }
         return o;
       }},
  };
  for (const auto& [line, ref] : rows) {
    TaskSpec t = load_task(write_task(root, "e" + std::to_string(id++), "synth_axis", {{3, 40, 32}, {40, 32}}, {40, 32},
                                      reference_with("a, b", {"y = torch.sum(a, dim=0)", line})));
    std::vector<TemplateKernel> k = template_candidates(t, agent::task_arg_names(toolchain::task_info(t)));
    ASSERT_FALSE(k.empty()) << line;
    Verdict v = check_reverify(k[0].code, t, in_process(golden_of(ref), 1));
    EXPECT_FALSE(v) << line << ": " << (v ? v->message : "") << "\n" << k[0].code;
  }
}

// A task with nn.Module parameters: `params` (name, shape) are written into task.json after the
// inputs, and the golden data draws every kernel argument (weights scaled by 0.3).
std::string write_module_task(const std::string& root, const std::string& id, const std::vector<std::vector<int64_t>>& inputs,
                              const std::vector<std::pair<std::string, std::vector<int64_t>>>& params,
                              const std::vector<int64_t>& out, const std::string& init, const std::string& args,
                              const std::vector<std::string>& body) {
  std::string ref = reference_with(args, body);
  ref.replace(ref.find("super().__init__()\n"), std::string("super().__init__()\n").size(), "super().__init__()\n" + init);
  std::string dir = write_task(root, id, "synth_axis", inputs, out, ref);
  std::ifstream in(dir + "/task.json");
  std::string j((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string ps;
  for (const auto& [name, shape] : params) {
    std::string d;
    for (size_t i = 0; i < shape.size(); ++i) d += (i ? ", " : "") + std::to_string(shape[i]);
    ps += std::string(ps.empty() ? "" : ", ") + "{\"name\": \"" + name + "\", \"shape\": [" + d +
          "], \"dtype\": \"float32\", \"dist\": {\"kind\": \"normal\", \"mean\": 0, \"std\": 0.3}}";
  }
  j.replace(j.find("\"parameters\": []"), std::string("\"parameters\": []").size(), "\"parameters\": [" + ps + "]");
  std::ofstream(dir + "/task.json") << j;
  return dir;
}

GoldenProvider golden_all(ReferenceFn fn) {
  return [fn](const TaskSpec& t, int trial) {
    GoldenTrial g;
    g.trial = trial;
    g.seed = t.trial_seed(trial);
    std::mt19937 rng(static_cast<uint32_t>(g.seed));
    std::vector<std::vector<float>> in;
    for (const TensorSpec& s : t.kernel_args()) {
      std::normal_distribution<float> nd(0.f, s.name == t.inputs[0].name ? 1.f : 0.3f);
      std::vector<float> v(static_cast<size_t>(s.element_count()));
      for (float& x : v) x = nd(rng);
      g.arg_names.push_back(s.name);
      g.args.push_back(f32(s.shape, v));
      in.push_back(std::move(v));
    }
    g.expected = {f32(t.outputs[0].shape, fn(in, t))};
    return g;
  };
}

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

TEST(TrainFusedAxis, ModuleAndProductFormsVerify) {
  std::string root = temp_dir("fused_axis_mod");
  struct Case {
    std::string name, kind;
    std::string dir;
    ReferenceFn ref;
  };
  std::vector<Case> cases;
  // diag(d) @ b and addmm(c, a, b, beta, alpha)
  cases.push_back({"diag", "fused_axis:diag", write_task(root, "diag", "synth_axis", {{100}, {100, 48}}, {100, 48},
                                                         reference_with("a, b", {"y = torch.diag(a) @ b"})),
                   [](const std::vector<std::vector<float>>& in, const TaskSpec&) {
                     std::vector<float> o(100 * 48);
                     for (int m = 0; m < 100; ++m)
                       for (int n = 0; n < 48; ++n) o[m * 48 + n] = in[0][m] * in[1][m * 48 + n];
                     return o;
                   }});
  cases.push_back({"addmm", "fused_axis:matmul",
                   write_task(root, "addmm", "synth_axis", {{64, 40}, {64, 96}, {96, 40}}, {64, 40},
                              reference_with("a, b, c", {"y = torch.addmm(a, b, c, beta=0.5, alpha=2.0)"})),
                   [](const std::vector<std::vector<float>>& in, const TaskSpec&) {
                     std::vector<float> o(64 * 40);
                     for (int m = 0; m < 64; ++m)
                       for (int n = 0; n < 40; ++n) {
                         double acc = 0;
                         for (int k = 0; k < 96; ++k) acc += double(in[1][m * 96 + k]) * in[2][k * 40 + n];
                         o[m * 40 + n] = static_cast<float>(0.5 * in[0][m * 40 + n] + 2.0 * acc);
                       }
                     return o;
                   }});
  // dense mixture of experts: x [R, T], experts [E, O, T], gate.weight [E, T]
  cases.push_back({"moe", "fused_axis:moe",
                   write_module_task(root, "moe", {{200, 16}}, {{"experts", {6, 12, 16}}, {"gate.weight", {6, 16}}}, {200, 12},
                                     "        self.gate = nn.Linear(16, 6, bias=False)\n"
                                     "        self.experts = nn.Parameter(torch.zeros(6, 12, 16))\n",
                                     "x",
                                     {"g = torch.softmax(self.gate(x), dim=-1)", "h = torch.einsum('rt,eot->reo', x, self.experts)",
                                      "y = torch.einsum('re,reo->ro', g, h)"}),
                   [](const std::vector<std::vector<float>>& in, const TaskSpec&) {
                     const auto &x = in[0], &ex = in[1], &wg = in[2];
                     std::vector<float> o(200 * 12);
                     for (int r = 0; r < 200; ++r) {
                       double g[6], m = -1e300, z = 0;
                       for (int e = 0; e < 6; ++e) {
                         g[e] = 0;
                         for (int t = 0; t < 16; ++t) g[e] += double(x[r * 16 + t]) * wg[e * 16 + t];
                         m = std::max(m, g[e]);
                       }
                       for (double& v : g) z += (v = std::exp(v - m));
                       for (int oo = 0; oo < 12; ++oo) {
                         double acc = 0;
                         for (int e = 0; e < 6; ++e) {
                           double h = 0;
                           for (int t = 0; t < 16; ++t) h += double(x[r * 16 + t]) * ex[(e * 12 + oo) * 16 + t];
                           acc += g[e] / z * h;
                         }
                         o[r * 12 + oo] = static_cast<float>(acc);
                       }
                     }
                     return o;
                   }});
  // squeeze-excitation on x [2, 16, 6, 8] with fc1 [4, 16] (bias) and fc2 [16, 4]
  cases.push_back({"se", "fused_axis:squeeze_excitation",
                   write_module_task(root, "se", {{2, 16, 6, 8}}, {{"fc1.weight", {4, 16}}, {"fc1.bias", {4}}, {"fc2.weight", {16, 4}}},
                                     {2, 16, 6, 8},
                                     "        self.fc1 = nn.Linear(16, 4)\n        self.fc2 = nn.Linear(4, 16, bias=False)\n", "x",
                                     {"y = x * torch.sigmoid(self.fc2(torch.relu(self.fc1(x.mean(dim=(2, 3))))))[:, :, None, None]"}),
                   [](const std::vector<std::vector<float>>& in, const TaskSpec&) {
                     const auto &x = in[0], &w1 = in[1], &b1 = in[2], &w2 = in[3];
                     std::vector<float> o(x.size());
                     for (int b = 0; b < 2; ++b) {
                       double pooled[16], h[4];
                       for (int c = 0; c < 16; ++c) {
                         pooled[c] = 0;
                         for (int q = 0; q < 48; ++q) pooled[c] += x[(b * 16 + c) * 48 + q];
                         pooled[c] /= 48;
                       }
                       for (int t = 0; t < 4; ++t) {
                         h[t] = b1[t];
                         for (int c = 0; c < 16; ++c) h[t] += w1[t * 16 + c] * pooled[c];
                         h[t] = std::max(h[t], 0.0);
                       }
                       for (int c = 0; c < 16; ++c) {
                         double s = 0;
                         for (int t = 0; t < 4; ++t) s += w2[c * 4 + t] * h[t];
                         for (int q = 0; q < 48; ++q) o[(b * 16 + c) * 48 + q] = static_cast<float>(x[(b * 16 + c) * 48 + q] * sigmoid(s));
                       }
                     }
                     return o;
                   }});
  // attention pooling of h [2, 100, 32] with V [8, 32] (bias) and w [1, 8]
  cases.push_back({"apool", "fused_axis:attention_pool",
                   write_module_task(root, "apool", {{2, 100, 32}}, {{"V.weight", {8, 32}}, {"V.bias", {8}}, {"w.weight", {1, 8}}}, {2, 32},
                                     "        self.V = nn.Linear(32, 8)\n        self.w = nn.Linear(8, 1, bias=False)\n", "h",
                                     {"a = torch.softmax(self.w(torch.tanh(self.V(h))), dim=1)", "y = (a * h).sum(1)"}),
                   [](const std::vector<std::vector<float>>& in, const TaskSpec&) {
                     const auto &h = in[0], &vw = in[1], &vb = in[2], &ww = in[3];
                     std::vector<float> o(2 * 32);
                     for (int b = 0; b < 2; ++b) {
                       std::vector<double> sc(100);
                       double m = -1e300, z = 0;
                       for (int s = 0; s < 100; ++s) {
                         double acc = 0;
                         for (int t = 0; t < 8; ++t) {
                           double u = vb[t];
                           for (int d = 0; d < 32; ++d) u += vw[t * 32 + d] * h[(b * 100 + s) * 32 + d];
                           acc += ww[t] * std::tanh(u);
                         }
                         sc[s] = acc;
                         m = std::max(m, acc);
                       }
                       for (double& v : sc) z += (v = std::exp(v - m));
                       for (int d = 0; d < 32; ++d) {
                         double acc = 0;
                         for (int s = 0; s < 100; ++s) acc += sc[s] / z * h[(b * 100 + s) * 32 + d];
                         o[b * 32 + d] = static_cast<float>(acc);
                       }
                     }
                     return o;
                   }});
  // gated MLP (SwiGLU) on ragged rows and a hidden layer of 3 blocks; post-LN residual MLP
  cases.push_back({"swiglu", "fused_axis:mlp",
                   write_module_task(root, "swiglu", {{200, 48}}, {{"w1.weight", {72, 48}}, {"w3.weight", {72, 48}}, {"w2.weight", {40, 72}}},
                                     {200, 40},
                                     "        self.w1 = nn.Linear(48, 72, bias=False)\n        self.w3 = nn.Linear(48, 72, bias=False)\n"
                                     "        self.w2 = nn.Linear(72, 40, bias=False)\n",
                                     "x", {"y = self.w2(F.silu(self.w1(x)) * self.w3(x))"}),
                   [](const std::vector<std::vector<float>>& in, const TaskSpec&) {
                     const auto &x = in[0], &w1 = in[1], &w3 = in[2], &w2 = in[3];
                     std::vector<float> o(200 * 40);
                     for (int r = 0; r < 200; ++r) {
                       double h[72];
                       for (int j = 0; j < 72; ++j) {
                         double a = 0, b = 0;
                         for (int d = 0; d < 48; ++d) a += double(w1[j * 48 + d]) * x[r * 48 + d], b += double(w3[j * 48 + d]) * x[r * 48 + d];
                         h[j] = a * sigmoid(a) * b;
                       }
                       for (int n = 0; n < 40; ++n) {
                         double acc = 0;
                         for (int j = 0; j < 72; ++j) acc += w2[n * 72 + j] * h[j];
                         o[r * 40 + n] = static_cast<float>(acc);
                       }
                     }
                     return o;
                   }});
  cases.push_back({"postln", "fused_axis:mlp",
                   write_module_task(root, "postln", {{2, 50, 32}},
                                     {{"fc1.weight", {64, 32}}, {"fc1.bias", {64}}, {"fc2.weight", {32, 64}}, {"fc2.bias", {32}},
                                      {"ln.weight", {32}}, {"ln.bias", {32}}},
                                     {2, 50, 32},
                                     "        self.fc1 = nn.Linear(32, 64)\n        self.fc2 = nn.Linear(64, 32)\n        self.ln = nn.LayerNorm(32)\n",
                                     "x", {"y = self.ln(x + self.fc2(F.gelu(self.fc1(x))))"}),
                   [](const std::vector<std::vector<float>>& in, const TaskSpec&) {
                     const auto &x = in[0], &w1 = in[1], &b1 = in[2], &w2 = in[3], &b2 = in[4], &lw = in[5], &lb = in[6];
                     std::vector<float> o(100 * 32);
                     for (int r = 0; r < 100; ++r) {
                       double h[64], z[32], mu = 0, var = 0;
                       for (int j = 0; j < 64; ++j) {
                         double a = b1[j];
                         for (int d = 0; d < 32; ++d) a += double(w1[j * 32 + d]) * x[r * 32 + d];
                         h[j] = 0.5 * a * std::erfc(-a / std::sqrt(2.0));
                       }
                       for (int n = 0; n < 32; ++n) {
                         double acc = b2[n];
                         for (int j = 0; j < 64; ++j) acc += w2[n * 64 + j] * h[j];
                         z[n] = x[r * 32 + n] + acc;
                         mu += z[n] / 32;
                       }
                       for (double v : z) var += (v - mu) * (v - mu) / 32;
                       for (int n = 0; n < 32; ++n) o[r * 32 + n] = static_cast<float>((z[n] - mu) / std::sqrt(var + 1e-5) * lw[n] + lb[n]);
                     }
                     return o;
                   }});
  for (const Case& c : cases) {
    TaskSpec t = load_task(c.dir);
    std::vector<TemplateKernel> k = template_candidates(t, agent::task_arg_names(toolchain::task_info(t)));
    ASSERT_FALSE(k.empty()) << c.name;
    EXPECT_EQ(k[0].name, c.kind) << c.name;
    Verdict v = check_reverify(k[0].code, t, in_process(golden_all(c.ref), 1));
    EXPECT_FALSE(v) << c.name << ": " << (v ? v->message : "") << "\n" << k[0].code;
  }
}

TEST(TrainFusedAxis, NearMissFormsGetNoCandidate) {
  std::string root = temp_dir("fused_axis_miss");
  struct Miss {
    std::string line;
    std::vector<int64_t> in, out;
  };
  std::vector<Miss> misses = {
      // padding along H (output rows whose window starts in the padding): not written
      {"F.max_pool2d(a, 3, stride=1, padding=1)", {2, 4, 16, 16}, {2, 4, 16, 16}},
      // count_include_pad=False divides each window by its own count
      {"F.avg_pool2d(a, 3, stride=2, padding=1, count_include_pad=False)", {2, 4, 16, 16}, {2, 4, 8, 8}},
      // cumulative, not a reduction
      {"torch.cumsum(a, dim=0)", {4, 200, 32}, {4, 200, 32}},
      // an index output
      {"torch.argmax(a, dim=0)", {4, 200, 32}, {200, 32}},
  };
  int id = 0;
  for (const Miss& m : misses) {
    TaskSpec t = load_task(write_task(root, "m" + std::to_string(id++), "synth_axis", {m.in}, m.out, reference_with("a", {"y = " + m.line})));
    for (const TemplateKernel& k : template_candidates(t, agent::task_arg_names(toolchain::task_info(t))))
      EXPECT_NE(k.name.rfind("fused_axis", 0), 0u) << m.line << "\n" << k.code;
  }
}

}  // namespace
}  // namespace nki::train
