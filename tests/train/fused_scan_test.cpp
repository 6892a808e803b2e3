// forward() lines of the scan, triangular-mask and renorm seeds that src/train/fused_scan_templates.cpp
// translates: each kernel must verify against golden data computed here in C++ from the PyTorch
// definition of the line (prefix scans along the last axis, masks over the last two axes).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>

#include "agent/tools.h"
#include "toolchain/agent_glue.h"
#include "train/templates.h"
#include "train_fixture.h"

namespace nki::train {
namespace {

using namespace testing;

std::string reference_of(const std::string& args, const std::vector<std::string>& lines) {
  std::string body;
  for (const std::string& l : lines) body += "        " + l + "\n";
  return "import math\nimport torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\n"
         "class Model(nn.Module):\n    def __init__(self):\n        super().__init__()\n\n"
         "    def forward(self, " + args + "):\n" + body + "        return y\n";
}

// Row by row over the last axis: f(a row, b row (or null), C, out row).
using RowMap = std::function<void(const float*, const float*, int64_t, double*)>;
ReferenceFn rows_ref(RowMap f) {
  return [f](const std::vector<std::vector<float>>& in, const TaskSpec& t) {
    int64_t C = t.inputs[0].shape.back();
    std::vector<float> o(in[0].size());
    std::vector<double> row(static_cast<size_t>(C));
    for (size_t r = 0; r < o.size() / static_cast<size_t>(C); ++r) {
      f(&in[0][r * C], in.size() > 1 ? &in[1][r * C] : nullptr, C, row.data());
      for (int64_t c = 0; c < C; ++c) o[r * C + c] = static_cast<float>(row[c]);
    }
    return o;
  };
}

// Element (i, j) of each [S, C] matrix of the last two axes: f(value, i, j).
using MatMap = std::function<double(float, int64_t, int64_t)>;
ReferenceFn mat_ref(MatMap f) {
  return [f](const std::vector<std::vector<float>>& in, const TaskSpec& t) {
    const auto& s = t.inputs[0].shape;
    int64_t C = s.back(), S = s[s.size() - 2];
    std::vector<float> o(in[0].size());
    for (size_t k = 0; k < o.size(); ++k) {
      int64_t j = static_cast<int64_t>(k) % C, i = (static_cast<int64_t>(k) / C) % S;
      o[k] = static_cast<float>(f(in[0][k], i, j));
    }
    return o;
  };
}

// Softmax (or log-softmax) of each matrix row with entries j > i (the triu(1) mask) set to `fill`.
ReferenceFn causal_softmax_ref(double fill, bool log) {
  return [fill, log](const std::vector<std::vector<float>>& in, const TaskSpec& t) {
    const auto& s = t.inputs[0].shape;
    int64_t C = s.back(), S = s[s.size() - 2];
    std::vector<float> o(in[0].size());
    std::vector<double> v(static_cast<size_t>(C));
    for (size_t r = 0; r < o.size() / static_cast<size_t>(C); ++r) {
      int64_t i = static_cast<int64_t>(r) % S;
      double m = -std::numeric_limits<double>::infinity(), sum = 0;
      for (int64_t j = 0; j < C; ++j) {
        v[j] = j > i ? fill : in[0][r * C + j];
        m = std::max(m, v[j]);
      }
      for (int64_t j = 0; j < C; ++j) sum += std::exp(v[j] - m);
      for (int64_t j = 0; j < C; ++j) o[r * C + j] = static_cast<float>(log ? v[j] - m - std::log(sum) : std::exp(v[j] - m) / sum);
    }
    return o;
  };
}

struct ScanCase {
  std::string line;
  int inputs;
  std::vector<int64_t> shape;
  std::string kind;  // expected candidate name
  ReferenceFn ref;
};

const std::string kTriu1 = "torch.ones(a.shape[-2], a.shape[-1], dtype=torch.bool).triu(1)";

TEST(TrainFusedScans, ScanMaskAndRenormLinesVerify) {
  std::string root = temp_dir("fused_scans");
  const std::vector<int64_t> rows = {200, 64};        // ragged flat rows: 128 + 72
  const std::vector<int64_t> mats = {2, 200, 48};     // two matrices of 200 rows: tiles of 128 + 72
  const std::vector<int64_t> small = {3, 2, 24, 24};  // six 24 x 24 matrices
  auto cumsum = [](const float* x, int64_t C, double* o) {
    double s = 0;
    for (int64_t c = 0; c < C; ++c) o[c] = s += x[c];
  };
  std::vector<ScanCase> cases = {
      {"torch.cumsum(a, dim=-1)", 1, rows, "fused_scan:map",
       rows_ref([&](const float* x, const float*, int64_t C, double* o) { cumsum(x, C, o); })},
      {"torch.cumsum(a, dim=-1) - a", 1, rows, "fused_scan:map", rows_ref([&](const float* x, const float*, int64_t C, double* o) {
         cumsum(x, C, o);
         for (int64_t c = 0; c < C; ++c) o[c] -= x[c];
       })},
      {"torch.cumsum(a, dim=-1) / math.sqrt(a.shape[-1])", 1, rows, "fused_scan:map",
       rows_ref([&](const float* x, const float*, int64_t C, double* o) {
         cumsum(x, C, o);
         for (int64_t c = 0; c < C; ++c) o[c] /= std::sqrt(double(C));
       })},
      {"torch.cumsum(a, dim=-1) / torch.arange(1, a.shape[-1] + 1, dtype=a.dtype)", 1, rows, "fused_scan:map",
       rows_ref([&](const float* x, const float*, int64_t C, double* o) {
         cumsum(x, C, o);
         for (int64_t c = 0; c < C; ++c) o[c] /= double(c + 1);
       })},
      {"torch.cumsum(a * (b > 0), dim=-1)", 2, rows, "fused_scan:map", rows_ref([](const float* x, const float* m, int64_t C, double* o) {
         double s = 0;
         for (int64_t c = 0; c < C; ++c) o[c] = s += m[c] > 0 ? x[c] : 0.0;
       })},
      {"torch.flip(torch.cumsum(torch.flip(a, dims=[-1]), dim=-1), dims=[-1])", 1, rows, "fused_scan:map",
       rows_ref([](const float* x, const float*, int64_t C, double* o) {
         double s = 0;
         for (int64_t c = C - 1; c >= 0; --c) o[c] = s += x[c];
       })},
      {"torch.cumprod(a, dim=-1)", 1, rows, "fused_scan:map", rows_ref([](const float* x, const float*, int64_t C, double* o) {
         double p = 1;
         for (int64_t c = 0; c < C; ++c) o[c] = p *= x[c];
       })},
      {"torch.cummax(a, dim=-1).values", 1, rows, "fused_scan:map", rows_ref([](const float* x, const float*, int64_t C, double* o) {
         double m = x[0];
         for (int64_t c = 0; c < C; ++c) o[c] = m = std::max(m, double(x[c]));
       })},
      {"torch.cummin(a, dim=-1).values", 1, rows, "fused_scan:map", rows_ref([](const float* x, const float*, int64_t C, double* o) {
         double m = x[0];
         for (int64_t c = 0; c < C; ++c) o[c] = m = std::min(m, double(x[c]));
       })},
      {"torch.logcumsumexp(a, dim=-1)", 1, rows, "fused_scan:map", rows_ref([](const float* x, const float*, int64_t C, double* o) {
         for (int64_t c = 0; c < C; ++c) {
           double m = *std::max_element(x, x + c + 1), s = 0;
           for (int64_t j = 0; j <= c; ++j) s += std::exp(x[j] - m);
           o[c] = std::log(s) + m;
         }
       })},
      {"torch.renorm(a, 2, 0, 7.0)", 1, rows, "fused_scan:map", rows_ref([](const float* x, const float*, int64_t C, double* o) {
         double n = 0;
         for (int64_t c = 0; c < C; ++c) n += double(x[c]) * x[c];
         n = std::sqrt(n);
         double f = n > 7.0 ? 7.0 / (n + 1e-7) : 1.0;
         for (int64_t c = 0; c < C; ++c) o[c] = x[c] * f;
       })},
      {"F.instance_norm(a)", 1, mats, "fused_scan:map", rows_ref([](const float* x, const float*, int64_t C, double* o) {
         double m = 0, v = 0;
         for (int64_t c = 0; c < C; ++c) m += x[c];
         m /= C;
         for (int64_t c = 0; c < C; ++c) v += (x[c] - m) * (x[c] - m);
         for (int64_t c = 0; c < C; ++c) o[c] = (x[c] - m) / std::sqrt(v / C + 1e-5);
       })},
      {"torch.tril(a)", 1, mats, "fused_mask:map", mat_ref([](float v, int64_t i, int64_t j) { return j <= i ? v : 0.0; })},
      {"torch.triu(a, diagonal=-1)", 1, mats, "fused_mask:map", mat_ref([](float v, int64_t i, int64_t j) { return j >= i - 1 ? v : 0.0; })},
      {"torch.triu(a)", 1, small, "fused_mask:map", mat_ref([](float v, int64_t i, int64_t j) { return j >= i ? v : 0.0; })},
      {"a.masked_fill(" + kTriu1 + ", -1.0)", 1, mats, "fused_mask:map",
       mat_ref([](float v, int64_t i, int64_t j) { return j > i ? -1.0 : v; })},
      {"a.masked_fill(torch.ones(a.shape[-2], a.shape[-1], dtype=torch.bool).tril(-1), 0.0)", 1, small, "fused_mask:map",
       mat_ref([](float v, int64_t i, int64_t j) { return j < i ? 0.0 : v; })},
      {"a.masked_fill(torch.ones(a.shape[-2], a.shape[-1], dtype=torch.bool).triu(8) | "
       "torch.ones(a.shape[-2], a.shape[-1], dtype=torch.bool).tril(-8), 0.0)",
       1, mats, "fused_mask:map", mat_ref([](float v, int64_t i, int64_t j) { return std::abs(j - i) >= 8 ? 0.0 : v; })},
      {"torch.softmax(a.masked_fill(" + kTriu1 + ", float('-inf')), dim=-1)", 1, mats, "fused_mask:map",
       causal_softmax_ref(-std::numeric_limits<double>::infinity(), false)},
      {"torch.log_softmax(a.masked_fill(" + kTriu1 + ", -1e4), dim=-1)", 1, small, "fused_mask:map", causal_softmax_ref(-1e4, true)},
  };
  int id = 0;
  for (const ScanCase& c : cases) {
    std::vector<std::vector<int64_t>> shapes(c.inputs, c.shape);
    std::string args = c.inputs == 1 ? "a" : "a, b";
    TaskSpec t = load_task(write_task(root, "t" + std::to_string(id++), "synth_line", shapes, c.shape, reference_of(args, {"y = " + c.line})));
    std::vector<TemplateKernel> k = template_candidates(t, agent::task_arg_names(toolchain::task_info(t)));
    ASSERT_FALSE(k.empty()) << c.line;
    EXPECT_EQ(k[0].name, c.kind) << c.line;
    Verdict v = check_reverify(k[0].code, t, in_process(golden_of(c.ref), 1));
    EXPECT_FALSE(v) << c.line << ": " << (v ? v->message : "") << "\n" << k[0].code;
  }
}

// A scan line among lines of the built-in table (prologue and epilogue) still gets one kernel.
TEST(TrainFusedScans, ScanBetweenTableLinesVerifies) {
  std::string root = temp_dir("fused_scan_chain");
  TaskSpec t = load_task(write_task(root, "t", "synth_line", {{200, 64}}, {200, 64},
                                    reference_of("a", {"a = torch.clamp(a, -1.5, 1.5)", "y = torch.cumsum(a, dim=-1) - a", "y = torch.tanh(y)"})));
  std::vector<TemplateKernel> k = template_candidates(t, agent::task_arg_names(toolchain::task_info(t)));
  ASSERT_FALSE(k.empty());
  EXPECT_EQ(k[0].name, "fused_scan:map");
  auto ref = rows_ref([](const float* x, const float*, int64_t C, double* o) {
    double s = 0;
    for (int64_t c = 0; c < C; ++c) {
      double v = std::min(std::max(double(x[c]), -1.5), 1.5);
      s += v;
      o[c] = std::tanh(s - v);
    }
  });
  Verdict v = check_reverify(k[0].code, t, in_process(golden_of(ref), 1));
  EXPECT_FALSE(v) << (v ? v->message : "") << "\n" << k[0].code;
}

// layernorm_stats: forward() returns (normalised x, mean, rsqrt(var + eps)); three outputs.
TEST(TrainFusedScans, TupleRowSeedVerifies) {
  std::string root = temp_dir("fused_tuple");
  std::string ref = reference_of("a", {"mu = a.mean(-1)", "rs = torch.rsqrt(a.var(-1, unbiased=False) + 1e-5)",
                                       "y = ((a - mu[:, None]) * rs[:, None], mu, rs)"});
  std::string dir = write_task(root, "t", "synth_line", {{200, 64}}, {200, 64}, ref);
  // the fixture writes one output: add the two per-row ones
  std::string j;
  {
    std::ifstream in(dir + "/task.json");
    j.assign(std::istreambuf_iterator<char>(in), {});
  }
  std::string one = "\"outputs\": [{\"shape\": [200, 64], \"dtype\": \"float32\"}]";
  ASSERT_NE(j.find(one), std::string::npos);
  j.replace(j.find(one), one.size(),
            "\"outputs\": [{\"shape\": [200, 64], \"dtype\": \"float32\"}, {\"shape\": [200], \"dtype\": \"float32\"}, "
            "{\"shape\": [200], \"dtype\": \"float32\"}]");
  std::ofstream(dir + "/task.json") << j;
  TaskSpec t = load_task(dir);
  std::vector<TemplateKernel> k = template_candidates(t, agent::task_arg_names(toolchain::task_info(t)));
  ASSERT_FALSE(k.empty());
  EXPECT_EQ(k[0].name, "fused_tuple:rows");
  GoldenProvider one_out = golden_of([](const std::vector<std::vector<float>>& in, const TaskSpec&) { return in[0]; });
  GoldenProvider g = [one_out](const TaskSpec& task, int trial) {
    GoldenTrial gt = one_out(task, trial);  // the inputs
    std::vector<float> x(200 * 64), y(200 * 64), mu(200), rs(200);
    std::memcpy(x.data(), gt.args[0].data.data(), x.size() * 4);
    for (int r = 0; r < 200; ++r) {
      double m = 0, v = 0;
      for (int c = 0; c < 64; ++c) m += x[r * 64 + c];
      m /= 64;
      for (int c = 0; c < 64; ++c) v += (x[r * 64 + c] - m) * (x[r * 64 + c] - m);
      double q = 1.0 / std::sqrt(v / 64 + 1e-5);
      for (int c = 0; c < 64; ++c) y[r * 64 + c] = static_cast<float>((x[r * 64 + c] - m) * q);
      mu[r] = static_cast<float>(m);
      rs[r] = static_cast<float>(q);
    }
    gt.expected = {f32({200, 64}, y), f32({200}, mu), f32({200}, rs)};
    return gt;
  };
  Verdict v = check_reverify(k[0].code, t, in_process(g, 1));
  EXPECT_FALSE(v) << (v ? v->message : "") << "\n" << k[0].code;
}

// The minGRU block: two projections and the recurrence over the sequence axis, then an epilogue.
TEST(TrainFusedScans, MinGruRecurrenceVerifies) {
  std::string root = temp_dir("fused_mingru");
  const int B = 2, S = 12, K = 160, N = 12;
  auto write = [&](const std::string& id, const std::string& step) {
    std::string dir = write_task(root, id, "synth_line", {{B, S, K}}, {B, S, N});
    std::string j;
    {
      std::ifstream in(dir + "/task.json");
      j.assign(std::istreambuf_iterator<char>(in), {});
    }
    auto param = [](const std::string& n, const std::string& dims) {
      return "{\"name\": \"" + n + "\", \"shape\": " + dims +
             ", \"dtype\": \"float32\", \"dist\": {\"kind\": \"normal\", \"mean\": 0, \"std\": 1}}";
    };
    std::string params = "\"parameters\": [" + param("z.weight", "[12, 160]") + ", " + param("z.bias", "[12]") + ", " +
                         param("h.weight", "[12, 160]") + ", " + param("h.bias", "[12]") + "]";
    j.replace(j.find("\"parameters\": []"), std::string("\"parameters\": []").size(), params);
    std::ofstream(dir + "/task.json") << j;
    std::ofstream(dir + "/reference.py")
        << "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
           "        self.z = nn.Linear(160, 12)\n        self.h = nn.Linear(160, 12)\n\n    def forward(self, a):\n"
           "        z = torch.sigmoid(self.z(a))\n        hh = self.h(a)\n        h = torch.zeros(a.shape[0], 12)\n"
           "        outs = []\n        for t in range(a.shape[1]):\n            " << step
        << "\n            outs.append(h)\n        y = torch.stack(outs, dim=1)\n        y = torch.abs(y)\n        return y\n";
    return load_task(dir);
  };
  TaskSpec t = write("t", "h = (1 - z[:, t]) * h + z[:, t] * hh[:, t]");
  std::vector<TemplateKernel> k = template_candidates(t, agent::task_arg_names(toolchain::task_info(t)));
  ASSERT_FALSE(k.empty());
  EXPECT_EQ(k[0].name, "fused_scan:mingru");
  // golden: inputs and parameters normal (golden_of draws them in kernel-argument order)
  GoldenProvider g = [](const TaskSpec& task, int trial) {
    GoldenTrial gt;
    gt.trial = trial;
    gt.seed = task.trial_seed(trial);
    std::mt19937 rng(static_cast<uint32_t>(gt.seed));
    std::normal_distribution<float> nd(0.f, 1.f);
    std::vector<std::vector<float>> v;
    for (const TensorSpec& a : task.kernel_args()) {
      std::vector<float> d(static_cast<size_t>(a.element_count()));
      for (float& e : d) e = nd(rng) * (a.shape.size() == 2 ? 0.08f : 1.f);  // weights scaled like fan-in
      gt.arg_names.push_back(a.name);
      gt.args.push_back(f32(a.shape, d));
      v.push_back(d);
    }
    const std::vector<float> &x = v[0], &wz = v[1], &bz = v[2], &wh = v[3], &bh = v[4];
    std::vector<float> o(B * S * N);
    for (int b = 0; b < B; ++b) {
      std::vector<double> h(N, 0.0);
      for (int s = 0; s < S; ++s)
        for (int n = 0; n < N; ++n) {
          double pz = bz[n], ph = bh[n];
          for (int c = 0; c < K; ++c) {
            pz += double(x[(b * S + s) * K + c]) * wz[n * K + c];
            ph += double(x[(b * S + s) * K + c]) * wh[n * K + c];
          }
          double z = 1.0 / (1.0 + std::exp(-pz));
          h[n] = (1 - z) * h[n] + z * ph;
          o[(b * S + s) * N + n] = static_cast<float>(std::fabs(h[n]));
        }
    }
    gt.expected = {f32({B, S, N}, o)};
    return gt;
  };
  Verdict v = check_reverify(k[0].code, t, in_process(g, 1));
  EXPECT_FALSE(v) << (v ? v->message : "") << "\n" << k[0].code;
  // another recurrence (z and 1 - z swapped) is not the minGRU step: no candidate
  TaskSpec u = write("u", "h = z[:, t] * h + (1 - z[:, t]) * hh[:, t]");
  EXPECT_TRUE(template_candidates(u, agent::task_arg_names(toolchain::task_info(u))).empty());
}

// The selective scan (Mamba S6): one scan per state along the steps, summed through cmat; then
// an epilogue reading a full-shape residual.
TEST(TrainFusedScans, SelectiveScanVerifies) {
  std::string root = temp_dir("fused_sscan");
  const int B = 2, D = 24, Lt = 20, Ns = 6;
  std::string dir = write_task(root, "t", "synth_line", {{B, D, Lt}, {B, D, Lt}, {B, Ns, Lt}}, {B, D, Lt});
  std::string j;
  {
    std::ifstream in(dir + "/task.json");
    j.assign(std::istreambuf_iterator<char>(in), {});
  }
  // cmat and a residual (the fixture names three inputs) and the a_log parameter
  std::string spec = ", \"dtype\": \"float32\", \"dist\": {\"kind\": \"normal\", \"mean\": 0, \"std\": 1}}";
  std::string last = "{\"name\": \"c\", \"shape\": [2, 6, 20]" + spec;
  ASSERT_NE(j.find(last), std::string::npos);
  j.replace(j.find(last), last.size(),
            last + ", {\"name\": \"d\", \"shape\": [2, 6, 20]" + spec + ", {\"name\": \"e\", \"shape\": [2, 24, 20]" + spec);
  j.replace(j.find("\"parameters\": []"), std::string("\"parameters\": []").size(),
            "\"parameters\": [{\"name\": \"a_log\", \"shape\": [24, 6]" + spec + "]");
  std::ofstream(dir + "/task.json") << j;
  std::ofstream(dir + "/reference.py")
      << "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\nclass Model(nn.Module):\n"
         "    def __init__(self):\n        super().__init__()\n        self.a_log = nn.Parameter(torch.zeros(24, 6))\n\n"
         "    def forward(self, a, b, c, d, e):\n        al = -torch.exp(self.a_log)\n"
         "        h = torch.zeros(a.shape[0], a.shape[1], al.shape[1])\n        outs = []\n"
         "        for t in range(a.shape[-1]):\n            da = torch.exp(b[:, :, t, None] * al)\n"
         "            h = da * h + b[:, :, t, None] * c[:, None, :, t] * a[:, :, t, None]\n"
         "            outs.append((h * d[:, None, :, t]).sum(-1))\n        y = torch.stack(outs, dim=-1)\n"
         "        y = F.silu(y + e)\n        return y\n";
  TaskSpec t = load_task(dir);
  std::vector<TemplateKernel> k = template_candidates(t, agent::task_arg_names(toolchain::task_info(t)));
  ASSERT_FALSE(k.empty());
  EXPECT_EQ(k[0].name, "fused_scan:selective");
  GoldenProvider g = [](const TaskSpec& task, int trial) {
    GoldenTrial gt;
    gt.trial = trial;
    gt.seed = task.trial_seed(trial);
    std::mt19937 rng(static_cast<uint32_t>(gt.seed));
    std::normal_distribution<float> nd(0.f, 1.f);
    std::vector<std::vector<float>> v;
    for (const TensorSpec& a : task.kernel_args()) {
      std::vector<float> d(static_cast<size_t>(a.element_count()));
      for (float& e : d) e = a.name == "b" ? std::fabs(nd(rng)) * 0.5f : nd(rng);  // delta >= 0, as a step size
      gt.arg_names.push_back(a.name);
      gt.args.push_back(f32(a.shape, d));
      v.push_back(d);
    }
    const std::vector<float> &x = v[0], &dl = v[1], &bm = v[2], &cm = v[3], &res = v[4], &alog = v[5];
    std::vector<float> o(B * D * Lt);
    for (int b = 0; b < B; ++b)
      for (int d = 0; d < D; ++d) {
        std::vector<double> h(Ns, 0.0);
        for (int s = 0; s < Lt; ++s) {
          double y = 0, dt = dl[(b * D + d) * Lt + s];
          for (int n = 0; n < Ns; ++n) {
            double bn = bm[(b * Ns + n) * Lt + s];
            h[n] = std::exp(dt * -std::exp(double(alog[d * Ns + n]))) * h[n] + dt * bn * x[(b * D + d) * Lt + s];
            y += h[n] * cm[(b * Ns + n) * Lt + s];
          }
          y += res[(b * D + d) * Lt + s];
          o[(b * D + d) * Lt + s] = static_cast<float>(y / (1.0 + std::exp(-y)));
        }
      }
    gt.expected = {f32({B, D, Lt}, o)};
    return gt;
  };
  Verdict v = check_reverify(k[0].code, t, in_process(g, 1));
  EXPECT_FALSE(v) << (v ? v->message : "") << "\n" << k[0].code;
}

// ema_scan: h_t = a h_{t-1} + (1 - a) x_t along the last axis, then an epilogue with a residual.
TEST(TrainFusedScans, EmaRecurrenceVerifies) {
  std::string root = temp_dir("fused_ema");
  auto task = [&](const std::string& id, const std::string& step) {
    return load_task(write_task(root, id, "synth_line", {{200, 40}, {200, 40}}, {200, 40},
                                reference_of("a, b", {"h = torch.zeros_like(a[..., 0])", "outs = []", "for t in range(a.shape[-1]):",
                                                      step, "outs.append(h)", "y = torch.stack(outs, dim=-1)", "y = y + b"})));
  };
  TaskSpec t = task("t", "h = 0.9 * h + (1.0 - 0.9) * a[..., t]");
  std::vector<TemplateKernel> k = template_candidates(t, agent::task_arg_names(toolchain::task_info(t)));
  ASSERT_FALSE(k.empty());
  EXPECT_EQ(k[0].name, "fused_scan:ema");
  Verdict v = check_reverify(k[0].code, t, in_process(golden_of(rows_ref([](const float* x, const float* r, int64_t C, double* o) {
                                                          double h = 0;
                                                          for (int64_t c = 0; c < C; ++c) o[c] = (h = 0.9 * h + 0.1 * x[c]) + r[c];
                                                        })),
                                                        1));
  EXPECT_FALSE(v) << (v ? v->message : "") << "\n" << k[0].code;
  // the two weights must be a and 1 - a of the same a
  TaskSpec u = task("u", "h = 0.9 * h + (1.0 - 0.8) * a[..., t]");
  EXPECT_TRUE(template_candidates(u, agent::task_arg_names(toolchain::task_info(u))).empty());
}

TEST(TrainFusedScans, NearMissesGetNoCandidate) {
  std::string root = temp_dir("fused_scan_miss");
  // a scan over another axis, renorm of a 3-D tensor (its axis-0 slices are not rows), a mask
  // built from another tensor's shape, and a masked_fill of -inf outside a softmax
  std::vector<std::pair<std::vector<int64_t>, std::string>> misses = {
      {{200, 64}, "torch.cumsum(a, dim=0)"},
      {{2, 100, 64}, "torch.renorm(a, 2, 0, 7.0)"},
      {{2, 3, 10, 16}, "F.instance_norm(a)"},
      {{200, 64}, "a.masked_fill(torch.ones(b.shape[-2], b.shape[-1], dtype=torch.bool).triu(1), 0.0)"},
      {{200, 64}, "a.masked_fill(" + kTriu1 + ", float('-inf'))"},
  };
  int id = 0;
  for (const auto& [shape, line] : misses) {
    std::string args = line.find("b.") != std::string::npos ? "a, b" : "a";
    std::vector<std::vector<int64_t>> shapes(args == "a" ? 1 : 2, shape);
    TaskSpec t = load_task(write_task(root, "m" + std::to_string(id++), "synth_line", shapes, shape, reference_of(args, {"y = " + line})));
    std::vector<TemplateKernel> k = template_candidates(t, agent::task_arg_names(toolchain::task_info(t)));
    EXPECT_TRUE(k.empty()) << line << "\n" << (k.empty() ? "" : k[0].code);
  }
}

}  // namespace
}  // namespace nki::train
