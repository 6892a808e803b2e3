// Retry policy for model calls: exponential back-off with jitter on 429, 5xx, timeouts and
// connection failures, honouring Retry-After; bounded in attempts and in each delay.
#pragma once

#include <functional>
#include <random>
#include <string>

#include "agent/http.h"

namespace nki::agent {

struct RetryPolicy {
  int max_attempts = 4;            // total attempts, first one included (>= 1)
  double base_delay_s = 1.0;       // delay before the 2nd attempt, doubled each time
  double max_delay_s = 30.0;       // cap of the exponential delay
  double retry_after_cap_s = 60.0; // a server's Retry-After is obeyed up to this many seconds
};

// Applies NKI_AGENT_MAX_ATTEMPTS and NKI_AGENT_RETRY_AFTER_CAP (seconds) when set.
RetryPolicy retry_policy_from_env(RetryPolicy defaults = {});

// 408, 409 (Anthropic's "conflict" retry hint), 429, 5xx (529 = Anthropic "overloaded").
bool is_retryable_status(long status);

// Seconds from a Retry-After value ("3", "1.5"); -1 when empty or not a number (HTTP dates are
// treated as absent: the exponential delay applies instead).
double parse_retry_after(const std::string& value);

// Delay before attempt `attempt` + 1 (attempt counts from 1): the exponential delay with
// "equal jitter" (uniform in [d/2, d]), replaced by the server's Retry-After (capped) when given.
double retry_delay(const RetryPolicy& policy, int attempt, double retry_after_s, std::mt19937& rng);

struct PostOutcome {
  HttpResult result;  // last attempt; error == None (the status may still be an error)
  int attempts = 0;
  double elapsed_s = 0;  // all attempts and waits
};

using SleepFn = std::function<void(double seconds)>;

// POSTs with retries. Throws ModelError (Timeout / Unreachable / BadResponse / RateLimited /
// Server) when every attempt failed; otherwise returns the final response, whose non-retryable
// error status the caller turns into a message with raise_for_status.
PostOutcome post_with_retry(const HttpRequest& request, const RetryPolicy& policy,
                            const std::string& provider, const SleepFn& sleep = {});

// Throws a one-line ModelError for a non-2xx status: names the provider, model, URL and the
// server's own error message, plus what to do (check the key, the model name, ...).
void raise_for_status(const std::string& provider, const std::string& model,
                      const std::string& url, const HttpResult& result,
                      const std::string& key_env);

}  // namespace nki::agent
