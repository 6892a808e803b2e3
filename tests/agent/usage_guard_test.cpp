// Hostile or broken token counts from the model server (negative, huge, fractional, non-numeric,
// missing): costs stay non-negative and finite, every correction is a warning in the transcript,
// and --max-cost still stops the episode. Both clients, over real HTTP against the fake server.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "agent/agent_loop.h"
#include "agent/anthropic_client.h"
#include "agent/openai_client.h"
#include "agent/usage_guard.h"
#include "fake_llm_server.h"
#include "test_support.h"

namespace nki::agent {
namespace {

using namespace nki::agent::testing;
namespace fs = std::filesystem;

bool any_contains(const std::vector<std::string>& lines, const std::string& needle) {
  for (const auto& l : lines)
    if (l.find(needle) != std::string::npos) return true;
  return false;
}

// `body` with its "usage" object replaced by `usage` (removed when `usage` is discarded).
std::string with_usage(const std::string& body, const nlohmann::json& usage) {
  auto j = nlohmann::json::parse(body);
  if (usage.is_discarded()) j.erase("usage");
  else j["usage"] = usage;
  return j.dump();
}

nlohmann::json no_usage() { return nlohmann::json(nlohmann::json::value_t::discarded); }

TEST(UsageGuard, ReadTokenCountAcceptsClampsAndRejects) {
  auto j = nlohmann::json::parse(R"({"ok": 120, "zero": 0, "neg": -5000000, "frac": 12.25,
      "whole_float": 40.0, "huge_int": 9000000000000000000, "huge_uint": 18446744073709551615,
      "huge_float": 1e300, "text": "12", "null": null, "obj": {}})");
  std::vector<std::string> w;
  auto read = [&](const char* key) { return read_token_count(&j, key, std::string("f.") + key, w); };

  EXPECT_EQ(read("ok").value, 120);
  EXPECT_TRUE(read("zero").usable);
  EXPECT_EQ(read("whole_float").value, 40);
  EXPECT_TRUE(w.empty()) << w.front();

  TokenRead neg = read("neg");
  EXPECT_FALSE(neg.usable);
  EXPECT_TRUE(neg.present);
  EXPECT_EQ(neg.value, 0);
  EXPECT_TRUE(any_contains(w, "f.neg = -5000000 is negative"));

  EXPECT_EQ(read("frac").value, 13);
  EXPECT_TRUE(any_contains(w, "f.frac = 12.25 is not a whole number"));
  // uint64 max must not wrap to -1; every huge form is clamped to the cap.
  for (const char* key : {"huge_int", "huge_uint", "huge_float"}) {
    TokenRead r = read(key);
    EXPECT_TRUE(r.usable) << key;
    EXPECT_EQ(r.value, kMaxTokensPerCall) << key;
  }
  EXPECT_TRUE(any_contains(w, "f.huge_uint = 18446744073709551615 is implausibly large"));
  EXPECT_FALSE(read("text").usable);
  EXPECT_TRUE(any_contains(w, "f.text = \"12\" is not a number"));
  EXPECT_FALSE(read("obj").usable);
  size_t before = w.size();
  EXPECT_FALSE(read("null").usable);
  EXPECT_FALSE(read("absent").present);
  EXPECT_EQ(w.size(), before);  // null and absent are not warnings by themselves
  EXPECT_EQ(read_token_count(nullptr, "x", "x", w).value, 0);
}

TEST(UsageGuard, UsageSumsKeepABoundedWarningList) {
  Usage total, one;
  one.warnings = {"a", "b", "c"};
  for (int i = 0; i < 20; ++i) total += one;
  EXPECT_EQ(total.warnings.size(), kMaxUsageWarnings);
}

TEST(OpenAIWire, NegativeAndMissingCountsAreEstimatedWithWarnings) {
  std::string body = with_usage(openai_text_body("four"), {{"prompt_tokens", -5000000},
                                                           {"completion_tokens", -5000000},
                                                           {"prompt_tokens_details", {{"cached_tokens", -5000000}}}});
  ModelReply r = openai_wire::parse_response(body, /*request_bytes=*/4000);
  EXPECT_EQ(r.usage.input_tokens, 1000);  // 4000 bytes / 4
  EXPECT_EQ(r.usage.output_tokens, 1);    // "four"
  EXPECT_EQ(r.usage.cached_tokens, 0);
  EXPECT_TRUE(any_contains(r.usage.warnings, "openai: usage.prompt_tokens = -5000000 is negative; charged an "
                                             "estimate of 1000 tokens from the request's 4000 bytes"));
  EXPECT_EQ(r.usage.warnings.size(), 3u);  // one line per bad field

  // A required field that is absent (or null) is estimated too, and says so.
  r = openai_wire::parse_response(with_usage(openai_text_body("four"), {{"completion_tokens", 3}}), 4000);
  EXPECT_EQ(r.usage.input_tokens, 1000);
  EXPECT_EQ(r.usage.output_tokens, 3);
  EXPECT_TRUE(any_contains(r.usage.warnings, "openai: usage.prompt_tokens is missing; charged an estimate of 1000"));

  r = openai_wire::parse_response(with_usage(openai_text_body("four"), no_usage()), 4000);
  EXPECT_EQ(r.usage.input_tokens, 1000);
  EXPECT_EQ(r.usage.output_tokens, 1);
  EXPECT_TRUE(any_contains(r.usage.warnings, "openai: the response has no usage object"));

  // More cached than prompt tokens cannot make the uncached part negative.
  r = openai_wire::parse_response(openai_text_body("x", 100, 5, 900), 4000);
  EXPECT_EQ(r.usage.cached_tokens, 100);
  EXPECT_TRUE(any_contains(r.usage.warnings, "900 cached tokens exceed the 100 prompt tokens"));

  // Well-formed counts are taken as they are and warn about nothing.
  r = openai_wire::parse_response(openai_text_body("x", 100, 5, 40), 4000);
  EXPECT_EQ(r.usage.input_tokens, 100);
  EXPECT_EQ(r.usage.cached_tokens, 40);
  EXPECT_TRUE(r.usage.warnings.empty());
}

TEST(AnthropicWire, NegativeAndMissingCountsAreEstimatedWithWarnings) {
  std::string body = with_usage(anthropic_text_body("four"), {{"input_tokens", -5000000},
                                                              {"output_tokens", "lots"},
                                                              {"cache_read_input_tokens", -1}});
  ModelReply r = anthropic_wire::parse_response(body, 4000);
  EXPECT_EQ(r.usage.input_tokens, 1000);
  EXPECT_EQ(r.usage.cached_tokens, 0);
  EXPECT_EQ(r.usage.output_tokens, 1);
  EXPECT_TRUE(any_contains(r.usage.warnings, "anthropic: usage.input_tokens = -5000000 is negative"));
  EXPECT_TRUE(any_contains(r.usage.warnings, "anthropic: usage.output_tokens = \"lots\" is not a number"));
  EXPECT_TRUE(any_contains(r.usage.warnings, "anthropic: usage.cache_read_input_tokens = -1 is negative"));

  r = anthropic_wire::parse_response(with_usage(anthropic_text_body("four"), no_usage()), 4000);
  EXPECT_EQ(r.usage.input_tokens, 1000);
  EXPECT_TRUE(any_contains(r.usage.warnings, "anthropic: the response has no usage object"));

  // A huge count is clamped: the cost stays finite and sums cannot overflow.
  r = anthropic_wire::parse_response(
      with_usage(anthropic_text_body("x"), {{"input_tokens", 1e300}, {"output_tokens", 18446744073709551615ULL}}), 10);
  EXPECT_EQ(r.usage.input_tokens, kMaxTokensPerCall);
  EXPECT_EQ(r.usage.output_tokens, kMaxTokensPerCall);
}

TEST(Pricing, NegativeOrNonFinitePricesAreConfigErrors) {
  EXPECT_THROW(PriceTable::from_json_text(R"({"models":{"a:b":{"input":-1,"output":2}}})"), ModelError);
  EXPECT_THROW(PriceTable::from_json_text(R"({"models":{"a:b":{"input":1,"output":2,"cached_input":-0.5}}})"),
               ModelError);
  // A hand-built Usage with negative counts still costs nothing below zero.
  auto t = PriceTable::from_json_text(R"({"models":{"a:b":{"input":1,"output":2}}})");
  Usage u;
  u.input_tokens = 10;
  u.cached_tokens = -5'000'000;
  u.output_tokens = -5'000'000;
  t.apply("a:b", u);
  EXPECT_GE(u.cost_usd, 0);
}

// A whole episode against a server whose every reply carries hostile usage: without the guard
// the cost goes negative (or stays 0) and --max-cost never fires.
class HostileUsageEpisode : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("nki_usage_guard_" + std::to_string(::getpid()) + "_" +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }

  ClientConfig config(const std::string& base_url, const std::string& provider_model) {
    ClientConfig c = fast_config(base_url, provider_model.substr(provider_model.find(':') + 1));
    // $10 per million of everything: a ~10 kB request is estimated at about 2.5k tokens, $0.025.
    c.prices = std::make_shared<const PriceTable>(PriceTable::from_json_text(
        R"({"models":{")" + provider_model + R"(":{"input":10,"cached_input":10,"output":10}}})"));
    return c;
  }

  EpisodeResult run(ModelClient& client) {
    EpisodeConfig cfg;
    cfg.mode = Mode::MultiTurn;
    cfg.max_turns = 10;
    cfg.task_id = "l1_add_fp32";
    cfg.max_cost_usd = 0.04;
    TaskInfo t;
    t.id = "l1_add_fp32";
    t.reference_source = "class Model(nn.Module):\n    def forward(self, a, b):\n        return a + b\n";
    t.inputs = {{"a", "[256, 1024]", "float32"}, {"b", "[256, 1024]", "float32"}};
    t.outputs = {{"out0", "[256, 1024]", "float32"}};
    t.tolerance = "atol=1e-3, rtol=1e-3";
    EpisodePrompts p = build_episode_prompts(std::string(NKI_SOURCE_DIR) + "/prompts", t, cfg.mode, 10);
    TranscriptWriter w(transcript());
    return run_episode(cfg, p, client, tools, &w);
  }

  std::string transcript() const { return (dir / "t.jsonl").string(); }

  // The budget fired well before the turn limit and every call was charged.
  void expect_budget_held(const EpisodeResult& r, const std::string& warning) {
    EXPECT_STREQ(stop_reason_name(r.stop_reason), "cost_budget");
    EXPECT_LT(r.turns, 10);
    EXPECT_TRUE(std::isfinite(r.usage.cost_usd));
    EXPECT_GE(r.usage.cost_usd, 0.04);
    for (const auto& turn : r.turn_log) EXPECT_GT(turn.usage.cost_usd, 0) << "turn " << turn.turn;
    int responses = 0;
    for (const auto& e : read_transcript(transcript()).events) {
      if (e["type"] != "response") continue;
      ++responses;
      ASSERT_TRUE(e["usage"].contains("warnings")) << e.dump();
      EXPECT_NE(e["usage"]["warnings"].dump().find(warning), std::string::npos) << e["usage"].dump();
      EXPECT_GE(e["usage"]["input_tokens"].get<long long>(), 0);
      EXPECT_GE(e["usage"]["cost_usd"].get<double>(), 0);
    }
    EXPECT_EQ(responses, r.turns);
  }

  fs::path dir;
  MarkerTools tools;
};

TEST_F(HostileUsageEpisode, OpenAINegativeUsageCannotDefeatMaxCost) {
  FakeLlmServer server;
  server.set_handler([](const FakeRequest&) {
    return ok(with_usage(openai_text_body("```python\n" + std::string(kWrongKernel) + "```"),
                         {{"prompt_tokens", -5000000}, {"completion_tokens", -5000000},
                          {"prompt_tokens_details", {{"cached_tokens", -5000000}}}}));
  });
  server.start();
  OpenAIClient client(config(server.base_url(), "openai:gpt-test"));
  expect_budget_held(run(client), "usage.prompt_tokens = -5000000 is negative");
}

TEST_F(HostileUsageEpisode, AnthropicNegativeUsageCannotDefeatMaxCost) {
  FakeLlmServer server;
  server.set_handler([](const FakeRequest&) {
    return ok(with_usage(anthropic_text_body("```python\n" + std::string(kWrongKernel) + "```"),
                         {{"input_tokens", -5000000}, {"output_tokens", -5000000},
                          {"cache_read_input_tokens", -5000000}}));
  });
  server.start();
  AnthropicClient client(config(server.base_url(), "anthropic:claude-test"));
  expect_budget_held(run(client), "usage.input_tokens = -5000000 is negative");
}

TEST_F(HostileUsageEpisode, MissingUsageIsEstimatedSoTheBudgetStillApplies) {
  FakeLlmServer server;
  server.set_handler([](const FakeRequest& req) {
    bool anthropic = req.path == "/v1/messages";
    std::string text = "```python\n" + std::string(kWrongKernel) + "```";
    return ok(with_usage(anthropic ? anthropic_text_body(text) : openai_text_body(text), no_usage()));
  });
  server.start();
  OpenAIClient openai(config(server.base_url(), "openai:gpt-test"));
  expect_budget_held(run(openai), "openai: the response has no usage object");
  AnthropicClient anthropic(config(server.base_url(), "anthropic:claude-test"));
  expect_budget_held(run(anthropic), "anthropic: the response has no usage object");
}

}  // namespace
}  // namespace nki::agent
