#include "serve/http_server.h"

#include <httplib.h>

#include <chrono>
#include <iterator>
#include <map>
#include <mutex>
#include <sstream>

#include "base/diagnostic.h"
#include "serve/http_connections.h"
#include "serve/json_guard.h"

namespace nki::serve {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

namespace {

// Replies never throw on bytes that are not UTF-8 (an error message quoting the client's
// input, a diagnostic cutting a multi-byte character): such bytes become U+FFFD.
std::string dump_text(const ojson& j) { return j.dump(-1, ' ', false, ojson::error_handler_t::replace); }

std::string error_body(const std::string& code, const std::string& message) {
  return dump_text(ojson{{"error", {{"code", code}, {"message", message}}}});
}

const char* default_code(int status) {
  switch (status) {
    case 400: return "bad_request";
    case 401: return "unauthorized";
    case 404: return "not_found";
    case 405: return "method_not_allowed";
    case 408: return "request_timeout";
    case 413: return "body_too_large";
    case 414: return "uri_too_long";
    default: return status >= 500 ? "internal_error" : "error";
  }
}

// Constant-time comparison: the token check must not leak how many characters matched.
bool same_token(const std::string& a, const std::string& b) {
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ (i < b.size() ? b[i] : 0));
  return diff == 0;
}

// Latency histogram buckets in seconds (Prometheus `le` labels).
constexpr double kBuckets[] = {0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60};

struct RouteStats {
  std::map<int, long long> by_status;
  long long count = 0;
  double seconds = 0;
  long long buckets[std::size(kBuckets)] = {};
};

}  // namespace

bool is_loopback(const std::string& host) {
  return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

namespace {

int http_threads(const HttpOptions& o, int jobs) { return o.http_threads > 0 ? o.http_threads : std::max(32, 8 * jobs); }

ConnectionLimits connection_limits(const HttpOptions& o, int jobs) {
  ConnectionLimits l;
  size_t quarter = std::max<size_t>(2, static_cast<size_t>(http_threads(o, jobs)) / 4);
  l.header_seconds = o.header_seconds;
  l.body_seconds = o.body_seconds;
  l.max_waiting = o.max_waiting > 0 ? o.max_waiting : quarter;
  l.max_uploading = o.max_uploading > 0 ? o.max_uploading : quarter;
  return l;
}

// The parsed body of a request: its nesting bounded BEFORE nlohmann parses it (its parser
// recurses per level), ill-formed UTF-8 marked so that only the fields holding it are refused.
json parse_body(std::string text, int max_depth) {
  if (json_nesting_depth(text, max_depth) > max_depth)
    throw ApiError(400, "json_too_deep", "the body nests arrays or objects deeper than " + std::to_string(max_depth) +
                                             " levels");
  mark_invalid_utf8(text);
  mark_lone_surrogate_escapes(text);
  return json::parse(text);  // throws json::parse_error on malformed JSON
}

}  // namespace

struct HttpServer::Impl {
  Service& service;
  HttpOptions options;
  GuardedServer server;
  std::mutex stats_mutex;
  std::map<std::string, RouteStats> stats;  // by route pattern

  Impl(Service& s, HttpOptions o)
      : service(s), options(std::move(o)), server(connection_limits(options, service.config().jobs)) {}

  void record(const std::string& route, int status, double seconds) {
    std::lock_guard<std::mutex> lock(stats_mutex);
    RouteStats& r = stats[route];
    ++r.by_status[status];
    ++r.count;
    r.seconds += seconds;
    for (size_t i = 0; i < std::size(kBuckets); ++i)
      if (seconds <= kBuckets[i]) ++r.buckets[i];
  }

  // Wraps a JSON handler: parses the body, maps ApiError / bad JSON / anything else to a JSON
  // error, and records the route's status and latency.
  template <class F>
  httplib::Server::Handler wrap(std::string route, F fn) {
    return [this, route, fn](const httplib::Request& req, httplib::Response& res) {
      GuardedServer::request_read();
      auto start = std::chrono::steady_clock::now();
      try {
        json body;
        if (req.method == "POST") {
          if (req.body.empty()) throw ApiError(400, "bad_request", "empty body; send a JSON object");
          body = parse_body(req.body, options.max_json_depth);
        }
        ojson out = fn(req, body);
        res.set_content(dump_text(out), "application/json");
        res.status = 200;
      } catch (const ApiError& e) {
        res.status = e.status;
        res.set_content(error_body(e.code, e.what()), "application/json");
      } catch (const json::parse_error& e) {
        res.status = 400;
        res.set_content(error_body("malformed_json", std::string("the body is not valid JSON: ") + e.what()),
                        "application/json");
      } catch (const json::exception& e) {
        res.status = 400;
        res.set_content(error_body("bad_request", std::string("unexpected JSON value: ") + e.what()), "application/json");
      } catch (const std::invalid_argument& e) {
        res.status = 400;
        res.set_content(error_body("bad_request", e.what()), "application/json");
      } catch (const std::exception& e) {
        res.status = 500;
        res.set_content(error_body("internal_error", e.what()), "application/json");
      }
      record(route, res.status, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    };
  }

  std::string metrics() {
    std::ostringstream m;
    const Service::Stats& s = service.stats();
    auto counter = [&](const char* name, const char* help, long long v) {
      m << "# HELP " << name << " " << help << "\n# TYPE " << name << " counter\n" << name << " " << v << "\n";
    };
    auto gauge = [&](const char* name, const char* help, long long v) {
      m << "# HELP " << name << " " << help << "\n# TYPE " << name << " gauge\n" << name << " " << v << "\n";
    };
    counter("nkiagent_kernels_judged_total", "Kernels compiled or simulated.", s.kernels_judged);
    counter("nkiagent_rewards_total", "Rewards returned (batch items counted one by one).", s.rewards);
    counter("nkiagent_reward_cache_hits_total", "Rewards answered from the memo of identical inputs.", s.reward_cache_hits);
    counter("nkiagent_kernel_limit_exceeded_total", "Kernels stopped by the per-kernel time or memory limit.", s.limit_exceeded);
    counter("nkiagent_episodes_started_total", "Multi-turn episodes started.", s.episodes_started);
    counter("nkiagent_episodes_expired_total", "Episodes dropped after being idle.", s.episodes_expired);
    counter("nkiagent_episode_steps_total", "Episode steps handled.", s.episode_steps);
    gauge("nkiagent_episodes_active", "Episodes held by the server.", static_cast<long long>(service.active_episodes()));
    gauge("nkiagent_workers_busy", "Workers judging a kernel now.", s.busy_workers);
    gauge("nkiagent_workers_total", "Size of the worker pool (--jobs).", service.config().jobs);
    gauge("nkiagent_requests_waiting", "Requests waiting for a worker.", s.waiting);
    gauge("nkiagent_reward_memo_entries", "Rewards held by the memo (bounded, least recently used out).",
          static_cast<long long>(service.memo_entries()));
    gauge("nkiagent_golden_bytes", "Golden data held in memory (bounded, least recently used out).",
          service.golden().bytes());
    counter("nkiagent_tool_calls_refused_total",
            "Episode tool calls not run (over the per-message limit, step budget, client gone, shutdown).",
            s.tool_calls_refused);
    counter("nkiagent_batch_item_errors_total", "Batch reward items answered with an error entry.", s.batch_item_errors);
    const GuardedServer::Counters& c = server.counters();
    m << "# HELP nkiagent_http_connections_cut_total Connections cut: a deadline missed or a cap exceeded.\n"
         "# TYPE nkiagent_http_connections_cut_total counter\n"
      << "nkiagent_http_connections_cut_total{reason=\"header_deadline\"} " << c.header_deadline << "\n"
      << "nkiagent_http_connections_cut_total{reason=\"body_deadline\"} " << c.body_deadline << "\n"
      << "nkiagent_http_connections_cut_total{reason=\"too_many_waiting\"} " << c.evicted_waiting << "\n"
      << "nkiagent_http_connections_cut_total{reason=\"too_many_uploading\"} " << c.evicted_uploading << "\n";
    size_t waiting = 0, uploading = 0, busy = 0;
    server.phase_counts(waiting, uploading, busy);
    m << "# HELP nkiagent_http_connections Open connections by phase.\n# TYPE nkiagent_http_connections gauge\n"
      << "nkiagent_http_connections{phase=\"waiting\"} " << waiting << "\n"
      << "nkiagent_http_connections{phase=\"uploading\"} " << uploading << "\n"
      << "nkiagent_http_connections{phase=\"busy\"} " << busy << "\n";
    std::lock_guard<std::mutex> lock(stats_mutex);
    m << "# HELP nkiagent_http_requests_total HTTP requests by route and status.\n"
         "# TYPE nkiagent_http_requests_total counter\n";
    for (const auto& [route, r] : stats)
      for (const auto& [status, n] : r.by_status)
        m << "nkiagent_http_requests_total{route=\"" << route << "\",status=\"" << status << "\"} " << n << "\n";
    m << "# HELP nkiagent_http_request_seconds Request latency by route.\n"
         "# TYPE nkiagent_http_request_seconds histogram\n";
    for (const auto& [route, r] : stats) {
      for (size_t i = 0; i < std::size(kBuckets); ++i)
        m << "nkiagent_http_request_seconds_bucket{route=\"" << route << "\",le=\"" << kBuckets[i] << "\"} "
          << r.buckets[i] << "\n";
      m << "nkiagent_http_request_seconds_bucket{route=\"" << route << "\",le=\"+Inf\"} " << r.count << "\n";
      m << "nkiagent_http_request_seconds_sum{route=\"" << route << "\"} " << r.seconds << "\n";
      m << "nkiagent_http_request_seconds_count{route=\"" << route << "\"} " << r.count << "\n";
    }
    return m.str();
  }

  void routes() {
    server.Get("/v1/health", wrap("/v1/health", [&s = service](const httplib::Request&, const json&) { return s.health(); }));
    server.Get("/v1/tasks", wrap("/v1/tasks", [&s = service](const httplib::Request&, const json&) { return s.list_tasks(); }));
    server.Get(R"(/v1/tasks/([A-Za-z0-9_.-]+)/prompt)",
               wrap("/v1/tasks/{id}/prompt", [&s = service](const httplib::Request& r, const json&) {
                 return s.task_prompt(r.matches[1].str(), r.has_param("mode") ? r.get_param_value("mode") : "agent");
               }));
    server.Post("/v1/compile", wrap("/v1/compile", [&s = service](const httplib::Request&, const json& b) { return s.compile(b); }));
    server.Post("/v1/verify", wrap("/v1/verify", [&s = service](const httplib::Request&, const json& b) { return s.verify(b); }));
    server.Post("/v1/reward", wrap("/v1/reward", [&s = service](const httplib::Request&, const json& b) {
                  return s.reward(b, CallContext{&GuardedServer::client_gone});
                }));
    server.Post("/v1/episodes", wrap("/v1/episodes", [&s = service](const httplib::Request&, const json& b) { return s.start_episode(b); }));
    server.Post(R"(/v1/episodes/([0-9a-f]+)/step)", wrap("/v1/episodes/{id}/step", [&s = service](const httplib::Request& r, const json& b) {
                  return s.step_episode(r.matches[1].str(), b, CallContext{&GuardedServer::client_gone});
                }));
    server.Delete(R"(/v1/episodes/([0-9a-f]+))", wrap("/v1/episodes/{id}", [&s = service](const httplib::Request& r, const json&) {
                    return s.delete_episode(r.matches[1].str());
                  }));
    server.Get("/metrics", [this](const httplib::Request&, httplib::Response& res) {
      GuardedServer::request_read();
      res.set_content(metrics(), "text/plain; version=0.0.4");
    });
  }

  void configure() {
    int threads = http_threads(options, service.config().jobs);
    server.new_task_queue = [threads] { return new httplib::ThreadPool(static_cast<size_t>(threads)); };
    server.set_payload_max_length(options.max_body_bytes);
    // SO_REUSEADDR only. cpp-httplib's default is SO_REUSEPORT, which lets a second server (a
    // forgotten one, or another user's) bind the same port and silently take half the requests;
    // SO_REUSEADDR alone still lets a restart after a crash or kill -9 bind at once despite the
    // old connections in TIME_WAIT (tests/serve/kill_restart_test.py).
    server.set_socket_options([](socket_t sock) {
      int yes = 1;
      setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, reinterpret_cast<const void*>(&yes), sizeof(yes));
    });
    server.set_read_timeout(options.read_timeout_seconds, 0);
    server.set_write_timeout(options.read_timeout_seconds, 0);
    // Anything httplib answers by itself (unknown route, oversized body) gets a JSON body too.
    server.set_error_handler(httplib::Server::HandlerWithResponse([this](const httplib::Request& req, httplib::Response& res) {
      if (res.body.empty()) {
        std::string msg = res.status == 413 ? "the body exceeds the server's limit of " + std::to_string(options.max_body_bytes) + " bytes"
                          : res.status == 404 ? "no route " + req.method + " " + req.path
                                              : "request failed";
        res.set_content(error_body(default_code(res.status), msg), "application/json");
      }
      return httplib::Server::HandlerResponse::Handled;
    }));
    server.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
      res.status = 500;
      res.set_content(error_body("internal_error", "unexpected failure"), "application/json");
    });
    server.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
      if (options.token.empty() || req.path == "/v1/health") return httplib::Server::HandlerResponse::Unhandled;
      std::string auth = req.get_header_value("Authorization");
      const std::string prefix = "Bearer ";
      if (auth.rfind(prefix, 0) == 0 && same_token(auth.substr(prefix.size()), options.token))
        return httplib::Server::HandlerResponse::Unhandled;
      res.status = 401;
      res.set_content(error_body("unauthorized", "missing or wrong bearer token (Authorization: Bearer <token>)"),
                      "application/json");
      record("unauthorized", 401, 0);
      return httplib::Server::HandlerResponse::Handled;
    });
    routes();
  }
};

HttpServer::HttpServer(Service& service, HttpOptions options) : impl_(std::make_unique<Impl>(service, std::move(options))) {
  impl_->configure();
}

HttpServer::~HttpServer() = default;

int HttpServer::bind() {
  const HttpOptions& o = impl_->options;
  int port = o.port == 0 ? impl_->server.bind_to_any_port(o.host) : (impl_->server.bind_to_port(o.host, o.port) ? o.port : -1);
  if (port <= 0) throw IoError("cannot bind " + o.host + ":" + std::to_string(o.port));
  return port;
}

void HttpServer::listen() { impl_->server.listen_after_bind(); }

void HttpServer::stop() {
  impl_->server.stop();
  impl_->server.cut_waiting();
}

}  // namespace nki::serve
