// Code extraction, prompt rendering, price table and model-spec parsing.
#include <gtest/gtest.h>

#include <cstdlib>

#include "agent/code_extract.h"
#include "agent/model_factory.h"
#include "agent/pricing.h"
#include "agent/prompts.h"
#include "agent/retry.h"
#include "base/diagnostic.h"

namespace nki::agent {
namespace {

TEST(CodeExtract, PicksTheLastPythonBlockThatDefinesAFunction) {
  std::string text =
      "First try:\n```python\ndef kernel(a):\n    return 1\n```\n"
      "Shell:\n```bash\nls\n```\n"
      "Final:\n```python\n@nki.jit\ndef kernel(a):\n    return nl.load(a)\n```\nDone.";
  EXPECT_EQ(extract_code_from_text(text), "@nki.jit\ndef kernel(a):\n    return nl.load(a)\n");
}

TEST(CodeExtract, PrefersAKernelOverALaterSnippet) {
  std::string text =
      "```python\nimport neuronxcc.nki as nki\n@nki.jit\ndef kernel(a):\n    pass\n```\n"
      "Note the call:\n```python\nout = kernel(a)\n```\n";
  EXPECT_NE(extract_code_from_text(text).find("def kernel"), std::string::npos);
}

TEST(CodeExtract, UntaggedAndCutOffFencesCount) {
  EXPECT_EQ(extract_code_from_text("```\ndef f():\n  pass\n```"), "def f():\n  pass\n");
  EXPECT_EQ(extract_code_from_text("Here:\n```py\ndef f():\n  return nl.x"), "def f():\n  return nl.x\n");
}

TEST(CodeExtract, ProseWithoutCodeGivesNothing) {
  EXPECT_EQ(extract_code_from_text("I would tile the rows by 128 and store each tile."), "");
  EXPECT_EQ(extract_code_from_text("```python\n\n```"), "");
}

TEST(CodeExtract, UnfencedKernelIsTakenFromItsFirstCodeLine) {
  std::string text = "Sure.\nimport neuronxcc.nki.language as nl\n@nki.jit\ndef k(a):\n    return nl.load(a)\n";
  EXPECT_EQ(extract_code_from_text(text).rfind("import neuronxcc", 0), 0u);
}

TEST(CodeExtract, ToolArguments) {
  EXPECT_EQ(extract_code_from_arguments(R"({"code":"def k(): pass"})").code, "def k(): pass");
  EXPECT_EQ(extract_code_from_arguments(R"({"code":"```python\ndef k(): pass\n```"})").code,
            "def k(): pass\n");
  EXPECT_FALSE(extract_code_from_arguments("{oops").error.empty());
  EXPECT_FALSE(extract_code_from_arguments(R"({"source":"x"})").error.empty());
  EXPECT_FALSE(extract_code_from_arguments(R"({"code":"   "})").error.empty());
  EXPECT_FALSE(extract_code_from_arguments(R"({"code":42})").error.empty());
}

TEST(Prompts, RenderTemplateSubstitutesOnceAndRejectsUnknownNames) {
  EXPECT_EQ(render_template("a {{x}} b {{y}}", {{"x", "1"}, {"y", "{{x}}"}}), "a 1 b {{x}}");
  EXPECT_THROW(render_template("{{missing}}", {}), std::invalid_argument);
  EXPECT_EQ(render_template("no placeholders {", {}), "no placeholders {");
}

TaskInfo sample_task(int rank) {
  TaskInfo t;
  t.id = "l1_add_fp32";
  t.reference_source = "class Model(nn.Module):\n    def forward(self, a, b):\n        return a + b  # {{not a placeholder}}\n";
  t.inputs = {{"a", "[256, 1024]", "float32"}, {"b", "[256, 1024]", "float32"}};
  t.params = {{"weight", "[1024]", "float32"}};
  t.outputs = {{"out0", "[256, 1024]", "float32"}};
  t.tolerance = "atol=1e-3, rtol=1e-3";
  t.max_rank = rank;
  return t;
}

TEST(Prompts, EpisodePromptsFromTheShippedFilesAreFullyRendered) {
  std::string dir = std::string(NKI_SOURCE_DIR) + "/prompts";
  for (Mode mode : {Mode::Agent, Mode::MultiTurn, Mode::SingleShot}) {
    EpisodePrompts p = build_episode_prompts(dir, sample_task(2), mode, 7);
    for (const std::string* s : {&p.system, &p.review_followup, &p.no_code_followup})
      EXPECT_EQ(s->find("{{"), std::string::npos) << *s;
    EXPECT_NE(p.system.find("128"), std::string::npos);
    EXPECT_NE(p.system.find("nl.store"), std::string::npos);
    EXPECT_NE(p.system.find("shared_hbm"), std::string::npos);
    EXPECT_NE(p.task.find("def kernel(a, b, weight):"), std::string::npos);
    EXPECT_NE(p.task.find("atol=1e-3"), std::string::npos);
    EXPECT_NE(p.task.find("{{not a placeholder}}"), std::string::npos);  // reference kept verbatim
    EXPECT_NE(p.feedback.find("{{result}}"), std::string::npos);
  }
  EXPECT_NE(build_episode_prompts(dir, sample_task(2), Mode::Agent, 7).system.find("compile_kernel"),
            std::string::npos);
  EXPECT_EQ(build_episode_prompts(dir, sample_task(2), Mode::SingleShot, 7).system.find("compile_kernel"),
            std::string::npos);
}

TEST(Prompts, RankSectionFollowsTheTasksMaxRank) {
  EXPECT_EQ(rank_section_file(1), "rank_2d.md");
  EXPECT_EQ(rank_section_file(2), "rank_2d.md");
  EXPECT_EQ(rank_section_file(3), "rank_3d.md");
  EXPECT_EQ(rank_section_file(5), "rank_4d.md");
  std::string dir = std::string(NKI_SOURCE_DIR) + "/prompts";
  EXPECT_NE(build_episode_prompts(dir, sample_task(3), Mode::Agent, 10).system.find("3-D"), std::string::npos);
  EXPECT_NE(build_episode_prompts(dir, sample_task(4), Mode::Agent, 10).system.find("NCHW"), std::string::npos);
}

TEST(Prompts, MissingDirectoryIsAnIoErrorNamingTheFile) {
  try {
    build_episode_prompts("/nonexistent-prompts", sample_task(2), Mode::Agent, 10);
    FAIL();
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-prompts/"), std::string::npos);
  }
}

TEST(Prompts, ModeNamesRoundTrip) {
  for (Mode m : {Mode::Agent, Mode::MultiTurn, Mode::SingleShot}) EXPECT_EQ(mode_from_name(mode_name(m)), m);
  EXPECT_THROW(mode_from_name("multiturn"), std::invalid_argument);
}

TEST(Pricing, LongestPrefixWinsAndUnknownModelsAreFlagged) {
  auto t = PriceTable::from_json_text(R"({"models":{
      "anthropic:claude-sonnet-4":{"input":3,"cached_input":0.3,"output":15},
      "anthropic:claude":{"input":100,"output":100},
      "openai:gpt-4o":{"input":2.5,"output":10}}})");
  EXPECT_EQ(t.size(), 3u);
  EXPECT_DOUBLE_EQ(t.find("anthropic:claude-sonnet-4-20250514")->input, 3);
  EXPECT_DOUBLE_EQ(t.find("anthropic:claude-x")->input, 100);
  EXPECT_DOUBLE_EQ(t.find("openai:gpt-4o")->cached_input, 2.5);  // defaults to input
  EXPECT_FALSE(t.find("openai:o1").has_value());
  Usage u;
  u.input_tokens = 1'000'000;
  u.output_tokens = 1'000'000;
  t.apply("openai:o1", u);
  EXPECT_FALSE(u.price_known);
  t.apply("openai:gpt-4o", u);
  EXPECT_TRUE(u.price_known);
  EXPECT_DOUBLE_EQ(u.cost_usd, 12.5);
}

TEST(Pricing, CacheReadsAndWritesArePricedSeparately) {
  auto t = PriceTable::from_json_text(
      R"({"models":{"anthropic:c":{"input":3,"cached_input":0.3,"cache_write":3.75,"output":15}}})");
  Usage u;
  u.input_tokens = 1'000'000;  // 500k plain + 300k read + 200k written
  u.cached_tokens = 300'000;
  u.cache_write_tokens = 200'000;
  u.output_tokens = 0;
  t.apply("anthropic:c", u);
  EXPECT_NEAR(u.cost_usd, 0.5 * 3 + 0.3 * 0.3 + 0.2 * 3.75, 1e-12);
}

TEST(Pricing, MalformedTablesAreConfigErrors) {
  EXPECT_THROW(PriceTable::from_json_text("[]"), ModelError);
  EXPECT_THROW(PriceTable::from_json_text(R"({"models":{"a:b":{"input":1}}})"), ModelError);
  EXPECT_THROW(PriceTable::from_json_text(R"({"models":{"a:b":{"input":"1","output":2}}})"), ModelError);
  EXPECT_THROW(PriceTable::load("/nonexistent/prices.json"), ModelError);
}

TEST(Pricing, ShippedTableLoadsAndOverridesResolve) {
  std::string dir = std::string(NKI_SOURCE_DIR) + "/prompts";
  EXPECT_GT(PriceTable::load(dir + "/prices.json").size(), 0u);
  EXPECT_EQ(resolve_price_table_path("/x.json", dir), "/x.json");
  setenv("NKI_AGENT_PRICES", "/env.json", 1);
  EXPECT_EQ(resolve_price_table_path("", dir), "/env.json");
  unsetenv("NKI_AGENT_PRICES");
  EXPECT_EQ(resolve_price_table_path("", dir), dir + "/prices.json");
}

TEST(ModelSpec, ParsesProviderAndRejectsOthers) {
  ModelSpec s = parse_model_spec("anthropic:claude-sonnet-4-20250514");
  EXPECT_EQ(s.provider, "anthropic");
  EXPECT_EQ(s.model, "claude-sonnet-4-20250514");
  EXPECT_THROW(parse_model_spec("gpt-4o"), ModelError);
  EXPECT_THROW(parse_model_spec("google:gemini"), ModelError);
  EXPECT_THROW(parse_model_spec("openai:"), ModelError);
}

TEST(ModelSpec, MissingKeyIsAConfigErrorUnlessABaseUrlIsGiven) {
  unsetenv("OPENAI_API_KEY");
  ClientOptions o;
  o.model_spec = "openai:gpt-4o";
  try {
    make_model_client(o);
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_EQ(e.kind(), ModelErrorKind::Config);
    EXPECT_NE(std::string(e.what()).find("OPENAI_API_KEY"), std::string::npos);
  }
  o.base_url = "http://127.0.0.1:9";
  EXPECT_EQ(make_model_client(o)->name(), "openai:gpt-4o");
}

TEST(Retry, DelaysGrowAreJitteredCappedAndHonourRetryAfter) {
  RetryPolicy p;
  p.base_delay_s = 1;
  p.max_delay_s = 4;
  p.retry_after_cap_s = 10;
  std::mt19937 rng(1);
  for (int i = 0; i < 20; ++i) {
    double d1 = retry_delay(p, 1, -1, rng), d3 = retry_delay(p, 3, -1, rng), d9 = retry_delay(p, 9, -1, rng);
    EXPECT_GE(d1, 0.5);
    EXPECT_LE(d1, 1.0);
    EXPECT_GE(d3, 2.0);
    EXPECT_LE(d3, 4.0);
    EXPECT_LE(d9, 4.0);
  }
  EXPECT_DOUBLE_EQ(retry_delay(p, 1, 3, rng), 3);
  EXPECT_DOUBLE_EQ(retry_delay(p, 1, 60, rng), 10);
  EXPECT_DOUBLE_EQ(parse_retry_after("2.5"), 2.5);
  EXPECT_LT(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), 0);
  EXPECT_LT(parse_retry_after(""), 0);
  EXPECT_TRUE(is_retryable_status(429));
  EXPECT_TRUE(is_retryable_status(529));
  EXPECT_FALSE(is_retryable_status(400));
  EXPECT_FALSE(is_retryable_status(401));
}

}  // namespace
}  // namespace nki::agent
