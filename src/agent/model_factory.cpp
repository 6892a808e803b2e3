#include "agent/model_factory.h"

#include <cstdlib>

#include "agent/anthropic_client.h"
#include "agent/openai_client.h"

namespace nki::agent {
namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

}  // namespace

ModelSpec parse_model_spec(const std::string& spec) {
  auto colon = spec.find(':');
  if (colon == std::string::npos || colon + 1 >= spec.size())
    throw ModelError(ModelErrorKind::Config,
                     "--model must be openai:NAME or anthropic:NAME, got '" + spec + "'");
  ModelSpec s{spec.substr(0, colon), spec.substr(colon + 1)};
  if (s.provider != "openai" && s.provider != "anthropic")
    throw ModelError(ModelErrorKind::Config, "unknown model provider '" + s.provider +
                                                 "' (expected openai or anthropic)");
  return s;
}

std::unique_ptr<ModelClient> make_model_client(const ClientOptions& o) {
  ModelSpec spec = parse_model_spec(o.model_spec);
  bool openai = spec.provider == "openai";
  const char* key_env = openai ? "OPENAI_API_KEY" : "ANTHROPIC_API_KEY";
  ClientConfig c;
  c.model = spec.model;
  c.timeout_s = o.timeout_s;
  c.retry = o.retry;
  c.max_tokens = o.max_tokens;
  c.temperature = o.temperature;
  c.prompt_cache = o.prompt_cache;
  c.prices = o.prices;
  c.api_key = env(key_env);
  c.base_url = o.base_url;
  if (c.base_url.empty()) c.base_url = env(openai ? "OPENAI_BASE_URL" : "ANTHROPIC_BASE_URL");
  if (c.api_key.empty() && o.base_url.empty())
    throw ModelError(ModelErrorKind::Config, std::string(key_env) + " is not set");
  if (c.base_url.empty()) c.base_url = openai ? "https://api.openai.com/v1" : "https://api.anthropic.com";
  if (openai) return std::make_unique<OpenAIClient>(std::move(c));
  return std::make_unique<AnthropicClient>(std::move(c));
}

}  // namespace nki::agent
