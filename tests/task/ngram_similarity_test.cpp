// The near-duplicate rule of decontamination (task/ngram_similarity.h): tokens, the computation
// of a reference, n-gram sets and the Jaccard index.
#include "task/ngram_similarity.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace nki {
namespace {

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(NgramTokens, StringsAreOneTokenCommentsAndLayoutAreDropped) {
  std::vector<std::string> t = code_tokens("x = a ** 2  # square\ns = r\"\"\"doc\n\"\"\"\ny = f(x,\n      1.5)\n");
  std::vector<std::string> want = {"x", "=", "a", "*", "*", "2", "s", "=", "r\"\"\"doc\n\"\"\"", "y", "=", "f", "(", "x", ",", "1.5", ")"};
  EXPECT_EQ(t, want);
  NgramSet g = token_ngrams(t, 5);
  EXPECT_TRUE(std::is_sorted(g.begin(), g.end()));
  EXPECT_EQ(g.size(), 13u);  // 17 tokens, 13 windows, all distinct
  EXPECT_DOUBLE_EQ(jaccard(g, g), 1.0);
  EXPECT_DOUBLE_EQ(jaccard(g, token_ngrams(code_tokens("completely different tokens here now ok"), 5)), 0.0);
  EXPECT_DOUBLE_EQ(jaccard({}, {}), 0.0);
  EXPECT_EQ(token_ngrams(code_tokens("a b"), 5).size(), 1u);  // shorter than n: one n-gram
  EXPECT_EQ(token_ngrams(code_tokens("a b a b a b a b"), 5).size(), 2u);  // repeats count once
}

TEST(NgramComputation, KeepsMethodBodiesDropsBoilerplate) {
  const char* src =
      "import torch\nimport torch.nn as nn\nbatch_size = 16\n\n"
      "class Model(nn.Module):\n"
      "    \"\"\"Doc\n    string.\"\"\"\n"
      "    def __init__(self, features):\n"
      "        super(Model, self).__init__()\n"
      "        self.w = nn.Linear(features,\n                           4)\n\n"
      "    @torch.no_grad()\n"
      "    def forward(self, x: torch.Tensor) -> torch.Tensor:\n"
      "        return torch.einsum(\"ij->i\", self.w(x))\n\n"
      "def helper(a): return a + 1\n\n"
      "def get_inputs():\n    return [torch.randn(batch_size, 8)]\n\n"
      "def get_init_inputs():\n    return [8]\n"
      "if __name__ == '__main__':\n    print(Model(8))\n";
  std::vector<std::string> want = {"self", ".", "w", "=", "nn", ".", "Linear", "(", "features", ",", "4", ")",
                                   "return", "torch", ".", "einsum", "(", "\"ij->i\"", ",", "self", ".", "w", "(",
                                   "x", ")", ")", "return", "a", "+", "1"};
  EXPECT_EQ(computation_tokens(src), want);
}

// A renamed, re-scaffolded copy of a benchmark reference is still a near duplicate; an unrelated
// one-line operator written in the same boilerplate is not (whole files would call it one).
TEST(NgramComputation, CatchesRenamedCopiesNotSharedBoilerplate) {
  std::string bench = read(std::string(NKI_SOURCE_DIR) + "/tasks/l1_elu_fp32/reference.py");
  ASSERT_NE(bench.find("F.elu(x, alpha=1.0)"), std::string::npos);
  std::string copy =
      "# taken from elsewhere\nimport torch.nn.functional as F\nfrom torch import nn\nN = 300\n\n"
      "class EluNet(nn.Module):\n    '''Exponential linear unit.'''\n\n    def __init__(self) -> None:\n"
      "        super(EluNet, self).__init__()\n\n    def forward(self, x):\n        return F.elu(x, alpha=1.0)\n\n\n"
      "def get_inputs():\n    return [torch.randn(N, 512)]\n\ndef get_init_inputs():\n    return []\n";
  EXPECT_GE(reference_jaccard(copy, bench), kNearDuplicateJaccard);
  EXPECT_LT(ngram_jaccard(copy, bench), kNearDuplicateJaccard);  // the old whole-file rule missed it

  std::string other = bench;
  other.replace(other.find("ELU with alpha 1.0"), 18, "Hard sigmoid");
  other.replace(other.find("F.elu(x, alpha=1.0)"), 19, "F.hardsigmoid(x)");
  EXPECT_GE(ngram_jaccard(other, bench), kNearDuplicateJaccard);  // the boilerplate dominates
  EXPECT_LT(reference_jaccard(other, bench), kNearDuplicateJaccard);
  EXPECT_DOUBLE_EQ(reference_jaccard(other, bench), 0.0);
}

}  // namespace
}  // namespace nki
