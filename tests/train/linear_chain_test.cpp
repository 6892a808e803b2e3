// The linear-chain template (src/train/fused_templates.cpp add_linear_chain_templates): forward()
// lines with several nn.Linear calls, split into statements by src/train/torch_expr.h. The kernel
// must verify against golden data computed here in C++ from the PyTorch definition.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <random>

#include "agent/tools.h"
#include "toolchain/agent_glue.h"
#include "train/templates.h"
#include "train/torch_expr.h"
#include "train_fixture.h"

namespace nki::train {
namespace {

using namespace testing;

constexpr int64_t kRows = 200, kIn = 96, kHidden = 160;

// x [200, 96] -> fc1 (96 -> 160) -> `act` -> fc2 (160 -> 96), float32.
std::string write_mlp_task(const std::string& root, const std::string& id, const std::string& forward_line) {
  std::string dir = root + "/" + id;
  std::filesystem::create_directories(dir);
  auto param = [](const std::string& n, const std::string& shape) {
    return "{\"name\": \"" + n + "\", \"shape\": " + shape +
           ", \"dtype\": \"float32\", \"dist\": {\"kind\": \"normal\", \"mean\": 0, \"std\": 0.1}}";
  };
  std::ofstream(dir + "/task.json")
      << "{\"id\": \"" << id << "\", \"level\": 3, \"category\": \"mlp\", \"tags\": [], \"description\": \"test\","
      << " \"origin\": \"test\", \"family\": \"mlp_test\", \"init_args\": [],"
      << " \"inputs\": [{\"name\": \"x\", \"shape\": [200, 96], \"dtype\": \"float32\","
      << " \"dist\": {\"kind\": \"normal\", \"mean\": 0, \"std\": 1}}],"
      << " \"parameters\": [" << param("fc1.weight", "[160, 96]") << ", " << param("fc1.bias", "[160]") << ", "
      << param("fc2.weight", "[96, 160]") << ", " << param("fc2.bias", "[96]") << "],"
      << " \"buffers\": [], \"outputs\": [{\"shape\": [200, 96], \"dtype\": \"float32\"}],"
      << " \"tolerance\": null, \"seed\": 7, \"trials\": 1}";
  std::ofstream(dir + "/reference.py")
      << "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\n"
      << "class Model(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
      << "        self.fc1 = nn.Linear(96, 160)\n        self.fc2 = nn.Linear(160, 96)\n\n"
      << "    def forward(self, x):\n        y = " << forward_line << "\n        return y\n";
  return dir;
}

// y = fc2(act(fc1(x))) + (residual ? x : 0), in double.
GoldenProvider mlp_golden(std::function<double(double)> act, bool residual) {
  return [act, residual](const TaskSpec& t, int trial) {
    GoldenTrial g;
    g.trial = trial;
    g.seed = t.trial_seed(trial);
    std::mt19937 rng(static_cast<uint32_t>(g.seed));
    std::normal_distribution<float> nd(0.f, 1.f);
    auto fill = [&](size_t n, float scale) {
      std::vector<float> v(n);
      for (float& e : v) e = nd(rng) * scale;
      return v;
    };
    std::vector<float> x = fill(kRows * kIn, 1.f), w1 = fill(kHidden * kIn, 0.1f), b1 = fill(kHidden, 0.1f),
                       w2 = fill(kIn * kHidden, 0.1f), b2 = fill(kIn, 0.1f);
    g.arg_names = {"x", "fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"};
    g.args = {f32({kRows, kIn}, x), f32({kHidden, kIn}, w1), f32({kHidden}, b1), f32({kIn, kHidden}, w2), f32({kIn}, b2)};
    std::vector<float> y(kRows * kIn);
    for (int64_t r = 0; r < kRows; ++r) {
      std::vector<double> h(kHidden);
      for (int64_t j = 0; j < kHidden; ++j) {
        double s = b1[j];
        for (int64_t k = 0; k < kIn; ++k) s += double(x[r * kIn + k]) * w1[j * kIn + k];
        h[j] = act(s);
      }
      for (int64_t o = 0; o < kIn; ++o) {
        double s = b2[o];
        for (int64_t j = 0; j < kHidden; ++j) s += h[j] * w2[o * kHidden + j];
        y[r * kIn + o] = static_cast<float>(s + (residual ? x[r * kIn + o] : 0.0));
      }
    }
    g.expected = {f32({kRows, kIn}, y)};
    return g;
  };
}

// The split-translation candidate among a task's candidates (other generators may come first).
const TemplateKernel* chain_candidate(const std::vector<TemplateKernel>& k, const std::string& name) {
  for (const TemplateKernel& c : k)
    if (c.name == name) return &c;
  return nullptr;
}

TEST(TrainLinearChain, NestedMlpLinesVerify) {
  std::string root = temp_dir("linear_chain");
  struct Case {
    std::string line;
    std::function<double(double)> act;
    bool residual;
  };
  std::vector<Case> cases = {
      {"self.fc2(F.gelu(self.fc1(x)))", [](double v) { return 0.5 * v * (1 + std::erf(v / std::sqrt(2.0))); }, false},
      {"x + self.fc2(torch.relu(self.fc1(x)))", [](double v) { return v > 0 ? v : 0; }, true},
      {"self.fc2(torch.tanh(self.fc1(x)) * 2.0)", [](double v) { return std::tanh(v) * 2.0; }, false},
  };
  int id = 0;
  for (const Case& c : cases) {
    TaskSpec t = load_task(write_mlp_task(root, "m" + std::to_string(id++), c.line));
    std::vector<TemplateKernel> k = template_candidates(t, agent::task_arg_names(toolchain::task_info(t)));
    const TemplateKernel* chain = chain_candidate(k, "linear_chain:2");
    ASSERT_TRUE(chain) << c.line;
    Verdict v = check_reverify(chain->code, t, in_process(mlp_golden(c.act, c.residual), 1));
    EXPECT_FALSE(v) << c.line << ": " << (v ? v->message : "") << "\n" << chain->code;
  }
}

TEST(TrainLinearChain, UnknownPieceGetsNoCandidate) {
  std::string root = temp_dir("linear_chain_unknown");
  // torch.cumprod between the projections has no row translation: no candidate, not a guess.
  TaskSpec t = load_task(write_mlp_task(root, "u", "self.fc2(torch.cumprod(self.fc1(x), dim=-1))"));
  for (const TemplateKernel& k : template_candidates(t, agent::task_arg_names(toolchain::task_info(t))))
    EXPECT_NE(k.name.rfind("linear_chain", 0), 0u) << k.code;
}

// A row line no single rule knows is translated one operation at a time.
TEST(TrainLinearChain, CombinedRowLineIsSplit) {
  std::string root = temp_dir("split_row");
  std::string ref = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\n"
                    "class Model(nn.Module):\n    def __init__(self):\n        super().__init__()\n\n"
                    "    def forward(self, a):\n        y = torch.sigmoid(a * 2.0) - torch.tanh(-a) * 0.5\n        return y\n";
  TaskSpec t = load_task(write_task(root, "r", "synth_line", {{200, 64}}, {200, 64}, ref));
  std::vector<TemplateKernel> k = template_candidates(t, agent::task_arg_names(toolchain::task_info(t)));
  ASSERT_FALSE(k.empty());
  EXPECT_EQ(k[0].name, "fused_row:map");
  auto golden = golden_of([](const std::vector<std::vector<float>>& in, const TaskSpec&) {
    std::vector<float> o(in[0].size());
    for (size_t i = 0; i < o.size(); ++i) {
      double x = in[0][i];
      o[i] = static_cast<float>(1.0 / (1.0 + std::exp(-2.0 * x)) - std::tanh(-x) * 0.5);
    }
    return o;
  });
  Verdict v = check_reverify(k[0].code, t, in_process(golden, 1));
  EXPECT_FALSE(v) << (v ? v->message : "") << "\n" << k[0].code;
}

// Batched products with input matrices (attention): per batch, the tile's rows against that
// batch's k (transposed) and v; math.sqrt(a.shape[-1]) is folded to a number.
TEST(TrainLinearChain, BatchedAttentionWithInputMatricesVerifies) {
  std::string root = temp_dir("matmul_chain");
  const int64_t B = 2, S = 128, T = 96, D = 32;
  std::string ref = "import math\nimport torch\nimport torch.nn as nn\n\n\n"
                    "class Model(nn.Module):\n    def __init__(self):\n        super().__init__()\n\n"
                    "    def forward(self, a, b, c):\n"
                    "        y = torch.softmax(a @ b.transpose(-2, -1) / math.sqrt(a.shape[-1]), dim=-1) @ c\n"
                    "        return y\n";
  TaskSpec t = load_task(write_task(root, "att", "synth_line", {{B, S, D}, {B, T, D}, {B, T, D}}, {B, S, D}, ref));
  std::vector<TemplateKernel> k = template_candidates(t, agent::task_arg_names(toolchain::task_info(t)));
  const TemplateKernel* chain = chain_candidate(k, "matmul_chain:2");
  ASSERT_TRUE(chain);
  auto golden = golden_of([=](const std::vector<std::vector<float>>& in, const TaskSpec&) {
    std::vector<float> o(static_cast<size_t>(B * S * D));
    for (int64_t bb = 0; bb < B; ++bb)
      for (int64_t i = 0; i < S; ++i) {
        std::vector<double> p(static_cast<size_t>(T));
        double mx = -1e300, sum = 0;
        for (int64_t j = 0; j < T; ++j) {
          double d = 0;
          for (int64_t e = 0; e < D; ++e) d += double(in[0][(bb * S + i) * D + e]) * in[1][(bb * T + j) * D + e];
          p[j] = d / std::sqrt(double(D));
          mx = std::max(mx, p[j]);
        }
        for (double& x : p) sum += (x = std::exp(x - mx));
        for (int64_t e = 0; e < D; ++e) {
          double acc = 0;
          for (int64_t j = 0; j < T; ++j) acc += p[j] / sum * in[2][(bb * T + j) * D + e];
          o[(bb * S + i) * D + e] = static_cast<float>(acc);
        }
      }
    return o;
  });
  Verdict v = check_reverify(chain->code, t, in_process(golden, 1));
  EXPECT_FALSE(v) << (v ? v->message : "") << "\n" << chain->code;
}

// A prologue that rewrites an input makes the later `a.T` the rewritten value, not the input in
// HBM: no product with the input matrix.
TEST(TrainLinearChain, RewrittenInputIsNotReadAsAMatrix) {
  std::string root = temp_dir("matmul_rewritten");
  std::string ref = "import torch\nimport torch.nn as nn\n\n\n"
                    "class Model(nn.Module):\n    def __init__(self):\n        super().__init__()\n\n"
                    "    def forward(self, a):\n        a = a * 2.0\n        y = torch.matmul(a, a.T)\n        return y\n";
  TaskSpec t = load_task(write_task(root, "rw", "synth_line", {{128, 64}}, {128, 128}, ref));
  for (const TemplateKernel& k : template_candidates(t, agent::task_arg_names(toolchain::task_info(t))))
    EXPECT_NE(k.name.rfind("matmul_chain", 0), 0u) << k.code;
}

TEST(TorchExpr, SpansKeepTheReferenceSpelling) {
  std::optional<expr::Tree> t = expr::parse("self.w2(F.silu(self.w1(x)) * self.w3(x))");
  ASSERT_TRUE(t);
  const expr::Node& root = t->nodes[static_cast<size_t>(t->root)];
  ASSERT_EQ(root.kind, expr::NodeKind::Call);
  EXPECT_EQ(expr::dotted_name(*t, root.callee), "self.w2");
  ASSERT_EQ(root.operands.size(), 1u);
  const int product = root.operands[0];
  ASSERT_EQ(t->nodes[static_cast<size_t>(product)].kind, expr::NodeKind::Binary);
  const int lhs = t->nodes[static_cast<size_t>(product)].operands[0];
  EXPECT_EQ(expr::text_with(*t, product, {{lhs, "s0"}}), "s0 * self.w3(x)");
  EXPECT_EQ(expr::text_with(*t, t->root, {}), "self.w2(F.silu(self.w1(x)) * self.w3(x))");
  // Keyword arguments stay text; ** binds tighter than unary minus.
  std::optional<expr::Tree> k = expr::parse("-a ** 2 + b.mean(-1, keepdim=True)");
  ASSERT_TRUE(k);
  const expr::Node& sum = k->nodes[static_cast<size_t>(k->root)];
  ASSERT_EQ(sum.kind, expr::NodeKind::Binary);
  EXPECT_EQ(k->nodes[static_cast<size_t>(sum.operands[0])].kind, expr::NodeKind::Unary);
  const expr::Node& call = k->nodes[static_cast<size_t>(sum.operands[1])];
  EXPECT_TRUE(call.keyword_args);
  EXPECT_EQ(call.operands.size(), 1u);
  EXPECT_FALSE(expr::parse("lambda v: v"));
  EXPECT_FALSE(expr::parse("f(a"));
}

}  // namespace
}  // namespace nki::train
