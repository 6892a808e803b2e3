// Pure JSON translation between the neutral message model and each provider's wire format.
#include <gtest/gtest.h>

#include "agent/anthropic_client.h"
#include "agent/openai_client.h"

namespace nki::agent {
namespace {

// user -> assistant (tool calls) -> two tool results -> user nudge
Conversation tool_conversation() {
  Conversation c;
  c.system = "sys";
  c.messages.push_back({Role::User, "task", {}, "", "", false});
  Message a{Role::Assistant, "checking", {}, "", "", false};
  a.tool_calls.push_back({"call_1", "compile_kernel", R"({"code":"x"})"});
  a.tool_calls.push_back({"call_2", "verify_kernel", R"({"code":"y"})"});
  c.messages.push_back(a);
  c.messages.push_back({Role::Tool, "OK", {}, "call_1", "compile_kernel", false});
  c.messages.push_back({Role::Tool, "MISMATCH", {}, "call_2", "verify_kernel", true});
  c.messages.push_back({Role::User, "try again", {}, "", "", false});
  c.tools.push_back({"compile_kernel", "desc", R"({"type":"object","properties":{"code":{"type":"string"}}})"});
  return c;
}

TEST(OpenAIWire, RequestCarriesToolCallsAndToolResults) {
  ClientConfig cfg;
  cfg.model = "m";
  cfg.max_tokens = 123;
  cfg.temperature = 0.5;
  auto j = openai_wire::build_request(cfg, tool_conversation());
  ASSERT_EQ(j["messages"].size(), 6u);  // system + 5
  EXPECT_EQ(j["messages"][0]["role"], "system");
  const auto& a = j["messages"][2];
  EXPECT_EQ(a["role"], "assistant");
  EXPECT_EQ(a["tool_calls"][1]["id"], "call_2");
  EXPECT_EQ(a["tool_calls"][1]["type"], "function");
  EXPECT_EQ(a["tool_calls"][1]["function"]["arguments"], R"({"code":"y"})");
  EXPECT_EQ(j["messages"][3]["role"], "tool");
  EXPECT_EQ(j["messages"][3]["tool_call_id"], "call_1");
  EXPECT_EQ(j["tools"][0]["type"], "function");
  EXPECT_EQ(j["tools"][0]["function"]["parameters"]["type"], "object");
  EXPECT_EQ(j["max_tokens"], 123);
  EXPECT_EQ(j["temperature"], 0.5);
}

TEST(OpenAIWire, NoToolsAndNoLimitsOmitTheFields) {
  Conversation c;
  c.messages.push_back({Role::User, "hi", {}, "", "", false});
  auto j = openai_wire::build_request(ClientConfig{}, c);
  EXPECT_FALSE(j.contains("tools"));
  EXPECT_FALSE(j.contains("max_tokens"));
  EXPECT_FALSE(j.contains("temperature"));
  EXPECT_EQ(j["messages"].size(), 1u);  // no empty system message
}

TEST(OpenAIWire, ParsesContentPartsToolCallsAndCachedTokens) {
  auto r = openai_wire::parse_response(R"({"choices":[{"message":{"role":"assistant",
      "content":[{"type":"text","text":"a"},{"type":"text","text":"b"}],
      "tool_calls":[{"id":"c1","type":"function","function":{"name":"verify_kernel","arguments":{"code":"k"}}}]},
      "finish_reason":"TOOL_CALLS"}],
      "usage":{"prompt_tokens":7,"completion_tokens":3,"prompt_tokens_details":{"cached_tokens":5}}})");
  EXPECT_EQ(r.message.content, "ab");
  ASSERT_EQ(r.message.tool_calls.size(), 1u);
  EXPECT_EQ(r.message.tool_calls[0].arguments, R"({"code":"k"})");  // object tolerated
  EXPECT_EQ(r.stop_reason, "tool_calls");
  EXPECT_EQ(r.usage.cached_tokens, 5);
}

TEST(OpenAIWire, RejectsMissingMessageAndNamelessToolCall) {
  EXPECT_THROW(openai_wire::parse_response(R"({"choices":[{}]})"), ModelError);
  EXPECT_THROW(openai_wire::parse_response(
                   R"({"choices":[{"message":{"tool_calls":[{"function":{"arguments":"{}"}}]}}]})"),
               ModelError);
  EXPECT_THROW(openai_wire::parse_response("[1,2]"), ModelError);
}

TEST(AnthropicWire, ToolResultsMergeIntoOneUserTurnAndRolesAlternate) {
  ClientConfig cfg;
  cfg.model = "claude";
  cfg.prompt_cache = false;
  auto j = anthropic_wire::build_request(cfg, tool_conversation());
  EXPECT_EQ(j["system"], "sys");
  EXPECT_EQ(j.dump().find("cache_control"), std::string::npos);
  const auto& msgs = j["messages"];
  ASSERT_EQ(msgs.size(), 3u);  // user, assistant, user(tool_result, tool_result, text)
  EXPECT_EQ(msgs[0]["role"], "user");
  EXPECT_EQ(msgs[1]["role"], "assistant");
  EXPECT_EQ(msgs[1]["content"][0]["type"], "text");
  EXPECT_EQ(msgs[1]["content"][1]["type"], "tool_use");
  EXPECT_EQ(msgs[1]["content"][1]["input"]["code"], "x");
  const auto& u = msgs[2]["content"];
  ASSERT_EQ(u.size(), 3u);
  EXPECT_EQ(u[0]["type"], "tool_result");
  EXPECT_EQ(u[0]["tool_use_id"], "call_1");
  EXPECT_FALSE(u[0].contains("is_error"));
  EXPECT_EQ(u[1]["is_error"], true);
  EXPECT_EQ(u[2]["text"], "try again");
  EXPECT_EQ(j["tools"][0]["input_schema"]["type"], "object");
}

TEST(AnthropicWire, PromptCacheMarksTheSystemPromptAndTheNewestBlock) {
  ClientConfig cfg;  // prompt_cache defaults to on
  auto j = anthropic_wire::build_request(cfg, tool_conversation());
  EXPECT_EQ(j["system"][0]["text"], "sys");
  EXPECT_EQ(j["system"][0]["cache_control"]["type"], "ephemeral");
  const auto& last = j["messages"].back()["content"];
  EXPECT_EQ(last.back()["cache_control"]["type"], "ephemeral");
  EXPECT_FALSE(last[0].contains("cache_control"));
  EXPECT_FALSE(j["messages"][1]["content"].back().contains("cache_control"));
}

TEST(AnthropicWire, MalformedRecordedArgumentsStayVisible) {
  Conversation c;
  Message a{Role::Assistant, "", {}, "", "", false};
  a.tool_calls.push_back({"t1", "compile_kernel", "{not json"});
  c.messages.push_back({Role::User, "task", {}, "", "", false});
  c.messages.push_back(a);
  auto j = anthropic_wire::build_request(ClientConfig{}, c);
  EXPECT_EQ(j["messages"][1]["content"][0]["input"]["_unparsed_arguments"], "{not json");
}

TEST(AnthropicWire, ParsesTextAndToolUseAndRejectsErrorObjects) {
  auto r = anthropic_wire::parse_response(R"({"content":[{"type":"thinking","thinking":"hm"},
      {"type":"text","text":"hello"},{"type":"tool_use","id":"t","name":"compile_kernel","input":{"code":"c"}}],
      "stop_reason":"tool_use","usage":{"input_tokens":5,"output_tokens":2,"cache_creation_input_tokens":3}})");
  EXPECT_EQ(r.message.content, "hello");
  ASSERT_EQ(r.message.tool_calls.size(), 1u);
  EXPECT_EQ(r.usage.input_tokens, 8);
  EXPECT_EQ(r.usage.cached_tokens, 0);
  EXPECT_EQ(r.usage.cache_write_tokens, 3);
  EXPECT_THROW(anthropic_wire::parse_response(R"({"type":"error","error":{"message":"x"}})"), ModelError);
  EXPECT_THROW(anthropic_wire::parse_response("not json"), ModelError);
}

}  // namespace
}  // namespace nki::agent
