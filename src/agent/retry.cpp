#include "agent/retry.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <thread>

#include "agent/model_client.h"

namespace nki::agent {
namespace {

double env_double(const char* name, double fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  double d = std::strtod(v, &end);
  return (end && *end == '\0' && d >= 0) ? d : fallback;
}

// The server's own explanation: error.message (OpenAI and Anthropic), else a body excerpt.
std::string server_message(const std::string& body) {
  auto j = nlohmann::json::parse(body, nullptr, false);
  if (!j.is_discarded() && j.is_object()) {
    if (j.contains("error")) {
      const auto& e = j["error"];
      if (e.is_object() && e.contains("message") && e["message"].is_string())
        return one_line(e["message"].get<std::string>(), 200);
      if (e.is_string()) return one_line(e.get<std::string>(), 200);
    }
    if (j.contains("message") && j["message"].is_string())
      return one_line(j["message"].get<std::string>(), 200);
  }
  return body.empty() ? std::string("(empty body)") : one_line(body, 200);
}

void default_sleep(double s) {
  std::this_thread::sleep_for(std::chrono::duration<double>(s));
}

}  // namespace

RetryPolicy retry_policy_from_env(RetryPolicy p) {
  p.max_attempts = std::max(1, static_cast<int>(env_double("NKI_AGENT_MAX_ATTEMPTS", p.max_attempts)));
  p.retry_after_cap_s = env_double("NKI_AGENT_RETRY_AFTER_CAP", p.retry_after_cap_s);
  return p;
}

bool is_retryable_status(long s) {
  return s == 408 || s == 409 || s == 429 || (s >= 500 && s <= 599);
}

double parse_retry_after(const std::string& value) {
  if (value.empty()) return -1;
  char* end = nullptr;
  double d = std::strtod(value.c_str(), &end);
  if (end == value.c_str() || *end != '\0' || !std::isfinite(d) || d < 0) return -1;
  return d;
}

double retry_delay(const RetryPolicy& p, int attempt, double retry_after_s, std::mt19937& rng) {
  if (retry_after_s >= 0) return std::min(retry_after_s, p.retry_after_cap_s);
  double d = std::min(p.max_delay_s, p.base_delay_s * std::pow(2.0, attempt - 1));
  // Equal jitter keeps at least half the delay (so a storm still backs off) while spreading
  // clients that failed at the same moment.
  std::uniform_real_distribution<double> jitter(0.5, 1.0);
  return d * jitter(rng);
}

PostOutcome post_with_retry(const HttpRequest& request, const RetryPolicy& policy,
                            const std::string& provider, const SleepFn& sleep) {
  static thread_local std::mt19937 rng{std::random_device{}()};
  const SleepFn& do_sleep = sleep ? sleep : SleepFn(default_sleep);
  PostOutcome out;
  int max_attempts = std::max(1, policy.max_attempts);
  for (int attempt = 1;; ++attempt) {
    HttpResult r = http_post(request);
    out.attempts = attempt;
    out.elapsed_s += r.elapsed_s;
    bool transport_retry = r.error != TransportError::None && r.error != TransportError::Other;
    bool status_retry = r.error == TransportError::None && is_retryable_status(r.status);
    if (!transport_retry && !status_retry) {
      if (r.error != TransportError::None)
        throw ModelError(ModelErrorKind::BadResponse,
                         provider + ": request to " + request.url + " failed: " + r.error_text);
      out.result = std::move(r);
      return out;
    }
    if (attempt >= max_attempts) {
      std::ostringstream msg;
      msg << provider << ": ";
      ModelErrorKind kind = ModelErrorKind::Server;
      switch (r.error) {
        case TransportError::Timeout:
          kind = ModelErrorKind::Timeout;
          msg << "no answer from " << request.url << " within " << request.timeout_s << " s";
          break;
        case TransportError::Unreachable:
          kind = ModelErrorKind::Unreachable;
          msg << "cannot reach " << request.url << " (" << r.error_text << ")";
          break;
        case TransportError::Truncated:
          kind = ModelErrorKind::BadResponse;
          msg << "truncated response from " << request.url << " (" << r.error_text << ")";
          break;
        default:
          kind = r.status == 429 ? ModelErrorKind::RateLimited : ModelErrorKind::Server;
          msg << (r.status == 429 ? "rate limited" : "server error") << " (HTTP " << r.status
              << ") from " << request.url << ": " << server_message(r.body);
      }
      msg << " [gave up after " << attempt << (attempt == 1 ? " attempt]" : " attempts]");
      throw ModelError(kind, msg.str());
    }
    double wait = retry_delay(policy, attempt, parse_retry_after(r.retry_after), rng);
    out.elapsed_s += wait;
    do_sleep(wait);
  }
}

void raise_for_status(const std::string& provider, const std::string& model,
                      const std::string& url, const HttpResult& r, const std::string& key_env) {
  if (r.status >= 200 && r.status < 300) return;
  std::ostringstream msg;
  msg << provider << ": HTTP " << r.status << " from " << url << ": " << server_message(r.body);
  ModelErrorKind kind = ModelErrorKind::BadRequest;
  if (r.status == 401 || r.status == 403) {
    kind = ModelErrorKind::Auth;
    msg << " (authentication failed: check " << key_env << ")";
  } else if (r.status == 404) {
    kind = ModelErrorKind::NotFound;
    msg << " (model '" << model << "' not found, or wrong --base-url)";
  } else if (r.status == 429) {
    kind = ModelErrorKind::RateLimited;
  } else if (r.status >= 500) {
    kind = ModelErrorKind::Server;
  }
  throw ModelError(kind, msg.str());
}

}  // namespace nki::agent
