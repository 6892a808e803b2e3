// Seeds, expansion, rendering, dedupe and decontamination of the corpus synthesiser.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "base/diagnostic.h"
#include "synth/decontaminate.h"
#include "synth/dim_expr.h"
#include "synth/expand.h"
#include "task/task_spec.h"

namespace nki::synth {
namespace {

const std::string kSeeds = std::string(NKI_SOURCE_DIR) + "/synth/seeds";

const SeedSet& repo_seeds() {
  static const SeedSet set = load_seed_set(kSeeds);
  return set;
}

const Seed& seed_named(const std::string& name) {
  for (const Seed& s : repo_seeds().seeds)
    if (s.name == name) return s;
  throw std::runtime_error("no seed " + name);
}

const Pattern& pattern_named(const std::string& name) {
  for (const Pattern& p : repo_seeds().patterns)
    if (p.name == name) return p;
  throw std::runtime_error("no pattern " + name);
}

Candidate rendered(const std::string& seed, std::vector<std::string> chain, int variant, const std::string& dtype,
                   uint64_t rng = 1) {
  Candidate c;
  c.seed = &seed_named(seed);
  for (const std::string& p : chain) c.chain.push_back(&pattern_named(p));
  c.variant = variant;
  c.dtype = dtype;
  c.level = c.seed->level == 1 && !chain.empty() ? 2 : c.seed->level;
  c.category = c.seed->category;
  c.family = seed;
  c.id = "l" + std::to_string(c.level) + "_test_" + seed + "_v" + std::to_string(variant);
  render_candidate(repo_seeds(), rng, c);
  return c;
}

TEST(DimExpr, FloorDivisionAndErrors) {
  std::map<std::string, int64_t> s = {{"H", 33}, {"W", 14}};
  EXPECT_EQ(eval_dim_expr("(H-3)/2+1", s), 16);
  EXPECT_EQ(eval_dim_expr("2*W + H", s), 61);
  EXPECT_EQ(eval_dim_expr("H%4", s), 1);
  EXPECT_THROW(eval_dim_expr("Q+1", s), std::invalid_argument);
  EXPECT_THROW(eval_dim_expr("H/(W-14)", s), std::invalid_argument);
  EXPECT_THROW(eval_dim_expr("H)", s), std::invalid_argument);
}

TEST(SeedSet, RepositorySeedsCoverTheFamiliesWithProvenance) {
  const SeedSet& set = repo_seeds();
  EXPECT_GE(set.seeds.size(), 150u);
  EXPECT_GE(set.patterns.size(), 40u);
  std::set<std::string> categories;
  for (const Seed& s : set.seeds) {
    EXPECT_FALSE(s.provenance.empty()) << s.name;
    categories.insert(s.category);
  }
  for (const char* c : {"activation", "elementwise", "normalization", "reduction", "softmax", "matmul", "conv",
                        "pooling", "indexing", "scan", "attention", "moe", "layout", "loss"})
    EXPECT_TRUE(categories.count(c)) << c;
}

TEST(SeedSet, RejectsUnknownFieldsAndUnknownRoles) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("synth_seed_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  for (const char* f : {"_dims.json", "_layouts.json", "_patterns.json"}) fs::copy_file(kSeeds + "/" + f, dir / f, fs::copy_options::overwrite_existing);
  auto write = [&](const std::string& text) {
    std::ofstream(dir / "bad.json") << text;
  };
  write(R"({"seeds": [{"name": "x1", "level": 1, "category": "c", "provenance": "p", "description": "d", "inputs": ["x"], "layout": "map", "body": "x", "colour": 1}]})");
  try {
    load_seed_set(dir.string());
    ADD_FAILURE() << "unknown field accepted";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown field 'colour'"), std::string::npos) << e.what();
  }
  write(R"({"seeds": [{"name": "x1", "level": 1, "category": "c", "provenance": "p", "description": "d", "inputs": ["x"], "forms": [{"shapes": {"x": ["Z9"], "out": ["Z9"]}}], "body": "x"}]})");
  EXPECT_THROW(load_seed_set(dir.string()), IoError);
  write(R"({"seeds": [{"name": "x1", "level": 1, "category": "c", "provenance": "p", "description": "d", "inputs": ["x"], "layout": "map", "body": "x"}]})");
  EXPECT_EQ(load_seed_set(dir.string()).seeds.size(), 1u);
  fs::remove_all(dir);
}

TEST(Expansion, FiveDistinctVariantsWithAwkwardAnd3d4dShapes) {
  // relu uses the "map" layout (2-D, 3-D and 4-D forms): its five variants must all differ and
  // include an awkward extent, a 3-D and a 4-D input.
  std::set<std::string> shapes;
  std::set<size_t> ranks;
  bool awkward = false;
  for (int k = 0; k < kVariantsPerSeed; ++k) {
    Candidate c = rendered("relu", {}, k, "float32");
    ASSERT_TRUE(c.render_error.empty()) << c.render_error;
    std::string s;
    for (int64_t d : c.arg_shapes[0]) s += std::to_string(d) + "x";
    shapes.insert(s);
    ranks.insert(c.arg_shapes[0].size());
    for (const std::string& t : c.tags) awkward = awkward || t == "awkward";
  }
  EXPECT_EQ(shapes.size(), 5u);
  EXPECT_TRUE(ranks.count(2) && ranks.count(3) && ranks.count(4));
  EXPECT_TRUE(awkward);
}

TEST(Expansion, RespectsLevelRulesAndIsDeterministic) {
  ExpandResult a = expand(repo_seeds(), ExpandOptions{5, 900});
  ExpandResult b = expand(repo_seeds(), ExpandOptions{5, 900});
  ExpandResult other = expand(repo_seeds(), ExpandOptions{6, 900});
  ASSERT_EQ(a.candidates.size(), 900u);
  ASSERT_EQ(a.candidates.size(), b.candidates.size());
  std::set<std::string> ids;
  std::map<int, int> per_level;
  for (size_t i = 0; i < a.candidates.size(); ++i) {
    const Candidate& c = a.candidates[i];
    EXPECT_EQ(c.id, b.candidates[i].id);
    EXPECT_EQ(c.manifest_json, b.candidates[i].manifest_json);
    EXPECT_EQ(c.reference_py, b.candidates[i].reference_py);
    EXPECT_TRUE(ids.insert(c.id).second) << c.id;
    EXPECT_TRUE(chain_allowed(*c.seed, c.chain)) << c.id;
    ++per_level[c.level];
    int reductions = c.seed->reduce, contractions = c.seed->contract;
    for (const Pattern* p : c.chain) reductions += p->reduce, contractions += p->contract;
    if (c.level == 1) {
      EXPECT_TRUE(c.chain.empty()) << c.id;
    }
    if (c.level == 2) {
      EXPECT_LE(reductions, 1) << c.id;
      EXPECT_LE(contractions, 1) << c.id;
    }
  }
  EXPECT_EQ(per_level[1], 300);
  EXPECT_EQ(per_level[3], 300);
  EXPECT_EQ(per_level[2], 300);
  std::set<std::string> other_ids;
  for (const Candidate& c : other.candidates) other_ids.insert(c.id);
  EXPECT_NE(ids, other_ids) << "a different --seed must draw a different corpus";
}

TEST(Rendering, EveryCandidateIsAValidBenchmarkManifest) {
  ExpandResult r = expand(repo_seeds(), ExpandOptions{3, 600});
  for (const Candidate& c : r.candidates) {
    std::string text = final_manifest_text(c.manifest_json, "null");
    TaskSpec t = parse_task(text, c.id + "/task.json", c.id);
    EXPECT_EQ(t.kernel_args().size(), c.arg_shapes.size()) << c.id;
    EXPECT_EQ(t.outputs.size(), c.output_shapes.size()) << c.id;
    EXPECT_NE(c.reference_py.find("class Model(nn.Module):"), std::string::npos);
  }
  // a tightened tolerance lands in the manifest
  TaskSpec t = parse_task(final_manifest_text(r.candidates[0].manifest_json, R"({"atol": 0.001, "rtol": 0.01})"),
                          "x/task.json", r.candidates[0].id);
  ASSERT_TRUE(t.tolerance.has_value());
  EXPECT_DOUBLE_EQ(t.tolerance->atol, 0.001);
}

TEST(Rendering, EverySeedRendersMostOfItsVariants) {
  // A seed whose variants cannot be rendered (a typo in a template variable, a shape expression
  // over a symbol its form lacks) is a seed bug; extents that go non-positive for some draws are
  // allowed but must stay rare.
  for (const Seed& s : repo_seeds().seeds) {
    int ok = 0;
    std::string last_error;
    for (int k = 0; k < kVariantsPerSeed; ++k) {
      Candidate c = rendered(s.name, {}, k, s.dtypes[0]);
      if (c.render_error.empty()) ++ok;
      else last_error = c.render_error;
    }
    EXPECT_GE(ok, 4) << s.file << ": " << s.name << ": " << last_error;
  }
}

TEST(Rendering, ParametersFollowTorchRegistrationOrder) {
  // a seed with submodule parameters (fc.weight) plus a pattern with a direct parameter:
  // named_parameters() lists the direct one first.
  Candidate c = rendered("linear", {"bias"}, 0, "float32");
  ASSERT_TRUE(c.render_error.empty()) << c.render_error;
  TaskSpec t = parse_task(final_manifest_text(c.manifest_json, "null"), "x/task.json", c.id);
  ASSERT_EQ(t.parameters.size(), 3u);
  EXPECT_EQ(t.parameters[0].name, "bias_e1");
  EXPECT_EQ(t.parameters[1].name, "fc.weight");
}

TEST(Dedupe, IdempotentRepeatsCollapseToTheSameGraph) {
  Candidate once = rendered("tanh", {"relu"}, 1, "bfloat16");
  Candidate twice = rendered("tanh", {"relu", "relu"}, 1, "bfloat16");
  Candidate other = rendered("tanh", {"gelu"}, 1, "bfloat16");
  Candidate other_dtype = rendered("tanh", {"relu"}, 1, "float16");
  ASSERT_TRUE(once.render_error.empty() && twice.render_error.empty());
  EXPECT_NE(once.reference_py, twice.reference_py);
  EXPECT_EQ(once.graph_hash, twice.graph_hash);
  EXPECT_NE(once.graph_hash, other.graph_hash);
  EXPECT_NE(once.graph_hash, other_dtype.graph_hash);
  // non-idempotent repeats are different graphs
  EXPECT_NE(rendered("tanh", {"gelu", "gelu"}, 1, "bfloat16").graph_hash, other.graph_hash);
}

// The rule itself (tokens, computation, Jaccard) is tested in tests/task/ngram_similarity_test.cpp;
// here: the synthesiser's references are compared by their computation, so the docstring (shape,
// dtype) and the shared boilerplate do not count.
TEST(Decontamination, RenderedReferencesCompareByComputation) {
  Candidate a = rendered("softmax", {}, 0, "float32"), b = rendered("softmax", {}, 1, "bfloat16");
  EXPECT_NE(a.reference_py, b.reference_py);
  EXPECT_DOUBLE_EQ(jaccard(reference_ngrams(a.reference_py), reference_ngrams(b.reference_py)), 1.0);
  Candidate relu = rendered("relu", {}, 0, "float32"), tanh = rendered("tanh", {}, 0, "float32");
  EXPECT_LT(jaccard(reference_ngrams(relu.reference_py), reference_ngrams(tanh.reference_py)), kJaccardThreshold);
}

TEST(Decontamination, FamilyShapeAndNgramTestsAreIndependent) {
  Candidate c = rendered("softmax", {}, 0, "float32");
  BenchmarkTask same{"l1_softmax_copy", "softmax", c.arg_shapes, reference_ngrams(c.reference_py)};
  BenchmarkTask other_shape{"l1_softmax_other", "softmax", {{7, 9}}, reference_ngrams("def f(): return 1")};
  Contamination hit = Decontaminator({same}).check(c);
  EXPECT_TRUE(hit.family_shape);
  EXPECT_EQ(hit.family_shape_task, "l1_softmax_copy");
  EXPECT_DOUBLE_EQ(hit.max_jaccard, 1.0);
  EXPECT_TRUE(hit.ngram());
  Contamination miss = Decontaminator({other_shape}).check(c);
  EXPECT_FALSE(miss.family_shape);
  EXPECT_FALSE(miss.ngram());
  // a seed alias counts as the benchmark family (sum_last is the benchmark's sum_lastdim)
  Candidate s = rendered("sum_last", {}, 0, "float32");
  EXPECT_TRUE(Decontaminator({BenchmarkTask{"b", "sum_lastdim", s.arg_shapes, {}}}).check(s).family_shape);
  // ... but not once the candidate is fused
  Candidate fused = rendered("sum_last", {"tanh"}, 0, "float32");
  EXPECT_FALSE(Decontaminator({BenchmarkTask{"b", "sum_lastdim", fused.arg_shapes, {}}}).check(fused).family_shape);
}

TEST(Decontamination, RepositoryBenchmarkLoads) {
  Decontaminator d(std::string(NKI_SOURCE_DIR) + "/tasks");
  EXPECT_GE(d.size(), 150u);
}

}  // namespace
}  // namespace nki::synth
