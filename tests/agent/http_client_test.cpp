// The OpenAI and Anthropic clients against the fake server: round trips, retries, and every
// failure mode turning into a one-line ModelError instead of a crash or a hang.
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>

#include "agent/anthropic_client.h"
#include "agent/openai_client.h"
#include "fake_llm_server.h"
#include "test_support.h"

namespace nki::agent {
namespace {

using namespace nki::agent::testing;
using Clock = std::chrono::steady_clock;

Conversation simple_conversation() {
  Conversation c;
  c.system = "be brief";
  c.messages.push_back({Role::User, "hello", {}, "", "", false});
  return c;
}

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Runs `fn` expecting a ModelError; returns it for inspection.
template <typename Fn>
ModelError expect_model_error(Fn fn) {
  try {
    fn();
  } catch (const ModelError& e) {
    std::string msg = e.what();
    EXPECT_EQ(msg.find('\n'), std::string::npos) << "error must be one line: " << msg;
    return e;
  }
  ADD_FAILURE() << "expected a ModelError";
  return ModelError(ModelErrorKind::Config, "none");
}

class HttpClientTest : public ::testing::Test {
 protected:
  void SetUp() override { server.start(); }
  FakeLlmServer server;
};

TEST_F(HttpClientTest, OpenAITextRoundTripSendsKeyModelAndToolsAndPricesUsage) {
  server.push(ok(openai_text_body("hi there", 1000, 200, 400)));
  ClientConfig cfg = fast_config(server.base_url() + "/v1", "gpt-4o");
  cfg.prices = std::make_shared<const PriceTable>(PriceTable::from_json_text(
      R"({"models":{"openai:gpt-4o":{"input":2.0,"cached_input":1.0,"output":10.0}}})"));
  OpenAIClient client(cfg);
  Conversation conv = simple_conversation();
  conv.tools = {{"compile_kernel", "compiles", R"({"type":"object"})"}};

  ModelReply r = client.complete(conv);
  EXPECT_EQ(r.message.content, "hi there");
  EXPECT_EQ(r.stop_reason, "stop");
  EXPECT_EQ(r.usage.input_tokens, 1000);
  EXPECT_EQ(r.usage.output_tokens, 200);
  EXPECT_EQ(r.usage.cached_tokens, 400);
  EXPECT_EQ(r.usage.calls, 1);
  EXPECT_EQ(r.usage.retries, 0);
  EXPECT_GT(r.usage.latency_s, 0);
  // 600 uncached * 2 + 400 cached * 1 + 200 out * 10, per million.
  EXPECT_NEAR(r.usage.cost_usd, (600 * 2.0 + 400 * 1.0 + 200 * 10.0) / 1e6, 1e-12);

  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].method, "POST");
  EXPECT_EQ(reqs[0].path, "/v1/chat/completions");
  EXPECT_EQ(reqs[0].headers["authorization"], "Bearer test-key");
  auto body = nlohmann::json::parse(reqs[0].body);
  EXPECT_EQ(body["model"], "gpt-4o");
  EXPECT_EQ(body["messages"][0]["role"], "system");
  EXPECT_EQ(body["messages"][1]["content"], "hello");
  EXPECT_EQ(body["tools"][0]["function"]["name"], "compile_kernel");
}

TEST_F(HttpClientTest, AnthropicToolUseRoundTripSendsVersionAndKeyHeaders) {
  server.push(ok(anthropic_tool_use_body("toolu_1", "verify_kernel", "code here")));
  AnthropicClient client(fast_config(server.base_url(), "claude-test"));
  ModelReply r = client.complete(simple_conversation());
  ASSERT_EQ(r.message.tool_calls.size(), 1u);
  EXPECT_EQ(r.message.tool_calls[0].id, "toolu_1");
  EXPECT_EQ(r.message.tool_calls[0].name, "verify_kernel");
  EXPECT_EQ(nlohmann::json::parse(r.message.tool_calls[0].arguments)["code"], "code here");
  EXPECT_EQ(r.message.content, "Let me check it.");
  EXPECT_EQ(r.stop_reason, "tool_use");
  EXPECT_EQ(r.usage.input_tokens, 110);  // 100 + 10 cache reads
  EXPECT_EQ(r.usage.cached_tokens, 10);
  EXPECT_FALSE(r.usage.price_known);     // no price table given

  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].path, "/v1/messages");
  EXPECT_EQ(reqs[0].headers["x-api-key"], "test-key");
  EXPECT_EQ(reqs[0].headers["anthropic-version"], kAnthropicVersion);
  auto body = nlohmann::json::parse(reqs[0].body);
  EXPECT_EQ(body["system"][0]["text"], "be brief");
  EXPECT_EQ(body["system"][0]["cache_control"]["type"], "ephemeral");
  EXPECT_EQ(body["max_tokens"], 8192);
}

TEST_F(HttpClientTest, InvalidUtf8InTheConversationIsReplacedNotFatal) {
  server.push(ok(openai_text_body("fine")));
  OpenAIClient client(fast_config(server.base_url()));
  Conversation conv = simple_conversation();
  conv.messages.push_back({Role::User, "tool echoed \xff\xfe bytes", {}, "", "", false});
  EXPECT_EQ(client.complete(conv).message.content, "fine");
  auto body = nlohmann::json::parse(server.requests()[0].body);
  EXPECT_NE(body["messages"][2]["content"].get<std::string>().find("\xEF\xBF\xBD"), std::string::npos);
}

TEST_F(HttpClientTest, RateLimitThenSuccessHonoursRetryAfterUpToTheCap) {
  // Retry-After asks for 100 s; the test policy caps it at 0.05 s.
  server.push(status(429, R"({"error":{"message":"slow down"}})", {{"Retry-After", "100"}}));
  server.push(ok(openai_text_body("done")));
  OpenAIClient client(fast_config(server.base_url()));
  auto t0 = Clock::now();
  ModelReply r = client.complete(simple_conversation());
  double took = seconds_since(t0);
  EXPECT_EQ(r.message.content, "done");
  EXPECT_EQ(r.usage.retries, 1);
  EXPECT_GE(took, 0.05);
  EXPECT_LT(took, 2.0);
  EXPECT_EQ(server.request_count(), 2u);
}

TEST_F(HttpClientTest, ServerErrorsAreRetriedWithBackoff) {
  server.push(status(500, "oops"));
  server.push(status(503, R"({"error":{"message":"overloaded"}})"));
  server.push(ok(openai_text_body("third time")));
  OpenAIClient client(fast_config(server.base_url()));
  ModelReply r = client.complete(simple_conversation());
  EXPECT_EQ(r.message.content, "third time");
  EXPECT_EQ(r.usage.retries, 2);
}

TEST_F(HttpClientTest, AnthropicOverloaded529IsRetried) {
  server.push(status(529, R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})"));
  server.push(ok(anthropic_text_body("fine")));
  AnthropicClient client(fast_config(server.base_url()));
  EXPECT_EQ(client.complete(simple_conversation()).message.content, "fine");
}

TEST_F(HttpClientTest, PersistentRateLimitGivesUpAfterMaxAttempts) {
  server.set_handler([](const FakeRequest&) {
    return status(429, R"({"error":{"message":"quota exceeded"}})", {{"Retry-After", "0"}});
  });
  OpenAIClient client(fast_config(server.base_url()));
  ModelError e = expect_model_error([&] { client.complete(simple_conversation()); });
  EXPECT_EQ(e.kind(), ModelErrorKind::RateLimited);
  EXPECT_NE(std::string(e.what()).find("quota exceeded"), std::string::npos) << e.what();
  EXPECT_NE(std::string(e.what()).find("3 attempts"), std::string::npos) << e.what();
  EXPECT_EQ(server.request_count(), 3u);
}

TEST_F(HttpClientTest, WrongKeyIsAnAuthErrorNamingTheEnvVarAndIsNotRetried) {
  server.push(status(401, R"({"error":{"message":"Incorrect API key provided"}})"));
  OpenAIClient client(fast_config(server.base_url()));
  ModelError e = expect_model_error([&] { client.complete(simple_conversation()); });
  EXPECT_EQ(e.kind(), ModelErrorKind::Auth);
  std::string msg = e.what();
  EXPECT_NE(msg.find("OPENAI_API_KEY"), std::string::npos) << msg;
  EXPECT_NE(msg.find("Incorrect API key"), std::string::npos) << msg;
  EXPECT_EQ(server.request_count(), 1u);
}

TEST_F(HttpClientTest, AnthropicForbiddenIsAnAuthError) {
  server.push(status(403, R"({"type":"error","error":{"type":"permission_error","message":"nope"}})"));
  AnthropicClient client(fast_config(server.base_url()));
  ModelError e = expect_model_error([&] { client.complete(simple_conversation()); });
  EXPECT_EQ(e.kind(), ModelErrorKind::Auth);
  EXPECT_NE(std::string(e.what()).find("ANTHROPIC_API_KEY"), std::string::npos);
}

TEST_F(HttpClientTest, UnknownModelIsNotFoundNamingTheModel) {
  server.push(status(404, R"({"error":{"message":"The model does not exist","code":"model_not_found"}})"));
  OpenAIClient client(fast_config(server.base_url(), "gpt-nonexistent"));
  ModelError e = expect_model_error([&] { client.complete(simple_conversation()); });
  EXPECT_EQ(e.kind(), ModelErrorKind::NotFound);
  EXPECT_NE(std::string(e.what()).find("gpt-nonexistent"), std::string::npos) << e.what();
}

TEST_F(HttpClientTest, MalformedJsonIsABadResponse) {
  server.push(ok("{\"choices\": [ {\"message\": "));
  OpenAIClient client(fast_config(server.base_url()));
  ModelError e = expect_model_error([&] { client.complete(simple_conversation()); });
  EXPECT_EQ(e.kind(), ModelErrorKind::BadResponse);
  EXPECT_NE(std::string(e.what()).find("not valid JSON"), std::string::npos) << e.what();
}

TEST_F(HttpClientTest, WellFormedButUnexpectedJsonIsABadResponse) {
  server.push(ok(R"({"choices": []})"));
  server.push(ok(R"({"content": "not an array"})"));
  OpenAIClient openai(fast_config(server.base_url()));
  AnthropicClient anthropic(fast_config(server.base_url()));
  EXPECT_EQ(expect_model_error([&] { openai.complete(simple_conversation()); }).kind(),
            ModelErrorKind::BadResponse);
  EXPECT_EQ(expect_model_error([&] { anthropic.complete(simple_conversation()); }).kind(),
            ModelErrorKind::BadResponse);
}

TEST_F(HttpClientTest, TruncatedBodyIsRetriedThenReported) {
  server.set_handler([](const FakeRequest&) {
    FakeResponse r = ok(openai_text_body("cut"));
    r.kind = FakeResponse::Kind::Truncated;
    return r;
  });
  OpenAIClient client(fast_config(server.base_url()));
  ModelError e = expect_model_error([&] { client.complete(simple_conversation()); });
  EXPECT_EQ(e.kind(), ModelErrorKind::BadResponse);
  EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << e.what();
  EXPECT_EQ(server.request_count(), 3u);
}

TEST_F(HttpClientTest, DroppedConnectionThenSuccessRecovers) {
  FakeResponse drop;
  drop.kind = FakeResponse::Kind::Drop;
  server.push(drop);
  server.push(ok(openai_text_body("back")));
  OpenAIClient client(fast_config(server.base_url()));
  EXPECT_EQ(client.complete(simple_conversation()).message.content, "back");
}

TEST_F(HttpClientTest, SlowServerTimesOutWithinTheBound) {
  server.set_handler([](const FakeRequest&) {
    FakeResponse r = ok(openai_text_body("too late"));
    r.kind = FakeResponse::Kind::Hang;
    r.delay_s = 5;
    return r;
  });
  ClientConfig cfg = fast_config(server.base_url());
  cfg.timeout_s = 0.3;
  cfg.retry.max_attempts = 2;
  OpenAIClient client(cfg);
  auto t0 = Clock::now();
  ModelError e = expect_model_error([&] { client.complete(simple_conversation()); });
  EXPECT_EQ(e.kind(), ModelErrorKind::Timeout);
  EXPECT_LT(seconds_since(t0), 3.0);
  EXPECT_NE(std::string(e.what()).find("0.3 s"), std::string::npos) << e.what();
}

TEST(HttpClientUnreachable, ClosedPortIsUnreachable) {
  int port;
  {
    FakeLlmServer probe;  // grab a free port, then close it
    port = probe.port();
  }
  ClientConfig cfg = fast_config("http://127.0.0.1:" + std::to_string(port));
  cfg.retry.max_attempts = 2;
  OpenAIClient client(cfg);
  ModelError e = expect_model_error([&] { client.complete(simple_conversation()); });
  EXPECT_EQ(e.kind(), ModelErrorKind::Unreachable);
  EXPECT_NE(std::string(e.what()).find("cannot reach"), std::string::npos) << e.what();
}

}  // namespace
}  // namespace nki::agent
