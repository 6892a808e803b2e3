// nkiagent serve: the RL environment server (docs/serve.md) on loopback by default; any other
// address needs --token-file.
#include <signal.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "base/diagnostic.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/numbers.h"
#include "serve/http_server.h"
#include "task/verify.h"

namespace nki::cli {

namespace {

std::vector<OptionSpec> serve_options() {
  OptionSpec secret = text_option("held-out-secret", "N", "seeds the held-out trials of every reward (a 63-bit integer)");
  secret.default_help = "a fresh random secret per server start";
  OptionSpec memory = integer_option("kernel-memory", "MB", 0, 1048576, "address-space limit per kernel child process");
  memory.default_help = "0, the toolchain's default (budgets + 1 GiB)";
  OptionSpec threads = integer_option("http-threads", "N", 0, 4096, "threads serving HTTP connections");
  threads.default_help = "0, 8 per job and at least 32";
  return {
      text_option("bind", "HOST:PORT", "address to listen on (port 0: any free port, printed on start)",
                  "127.0.0.1:8080"),
      integer_option("jobs", "N", 1, 256, "kernels judged at once", "2"),
      target_option(),
      episode_nki_option(),
      tasks_dir_option(),
      text_option("token-file", "FILE",
                  "file whose first line is the bearer token every request but /v1/health must send;\n"
                  "required unless --bind is a loopback address"),
      text_option("prompts", "DIR", "prompt files (default: $NKI_PROMPTS_DIR or the source tree's prompts/)"),
      real_option("kernel-seconds", "S", 0.1, 3600, "wall-clock limit for compiling or simulating one kernel", "60"),
      memory,
      integer_option("held-out-trials", "N", 0, 100, "held-out trials added to every reward and final verdict", "2"),
      secret,
      integer_option("max-body", "KB", 1, 65536, "largest request body accepted", "1024"),
      real_option("episode-idle", "S", 1, 86400, "an episode without a step for this long is dropped", "600"),
      integer_option("max-episodes", "N", 1, 100000, "episodes held at once", "256"),
      integer_option("max-tool-calls", "N", 1, 64,
                     "tool calls run per episode step message; later ones get a \"not run\" tool result", "8"),
      real_option("step-seconds", "S", 1, 86400,
                  "wall-clock budget of one episode step; tool calls after it are not run", "300"),
      integer_option("max-json-depth", "N", 2, 1000,
                     "deepest nesting of a request body or a tool call's arguments (checked before parsing)", "64"),
      threads,
      real_option("drain-seconds", "S", 0, 3600,
                  "after SIGINT/SIGTERM, longest wait for requests in flight before exiting anyway", "30"),
  };
}

std::string read_token(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw IoError("cannot read --token-file '" + path + "'");
  std::string token;
  std::getline(in, token);
  while (!token.empty() && (token.back() == '\r' || token.back() == ' ' || token.back() == '\t')) token.pop_back();
  if (token.size() < 16) throw IoError("--token-file '" + path + "': the token must have at least 16 characters");
  return token;
}

// "HOST:PORT", "[::1]:PORT" or ":PORT" (loopback).
void parse_bind(const std::string& bind, serve::HttpOptions& h) {
  size_t colon = bind.rfind(':');
  if (colon == std::string::npos) throw UsageError("--bind expects HOST:PORT, got '" + bind + "'");
  std::string host = bind.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  std::optional<int64_t> port = to_integer(bind.substr(colon + 1));
  if (!port || *port < 0 || *port > 65535) throw UsageError("--bind: the port must be 0 to 65535, got '" + bind + "'");
  h.host = host.empty() ? "127.0.0.1" : host;
  h.port = static_cast<int>(*port);
}

// Counts SIGINT/SIGTERM; a watcher thread stops the server (a signal handler may do no more).
volatile sig_atomic_t g_stop = 0;

int serve_command(const ParsedOptions& o) {
  if (!o.positionals().empty()) throw UsageError("unexpected argument '" + o.positionals().front() + "'");
  serve::HttpOptions h;
  parse_bind(o.text("bind"), h);
  if (o.has("token-file")) h.token = read_token(o.text("token-file"));
  if (h.token.empty() && !serve::is_loopback(h.host))
    throw UsageError("--bind " + h.host + " is not a loopback address: give --token-file");
  h.max_body_bytes = static_cast<size_t>(*o.integer("max-body")) * 1024;
  h.max_json_depth = static_cast<int>(*o.integer("max-json-depth"));
  h.http_threads = static_cast<int>(o.integer("http-threads").value_or(0));

  serve::ServiceConfig c;
  c.tasks_root = tasks_root_from(o);
  c.prompts_dir = o.text("prompts");
  c.jobs = static_cast<int>(*o.integer("jobs"));
  c.target = target_from(o);
  c.nki = o.text("nki");
  c.kernel_seconds = *o.real("kernel-seconds");
  c.kernel_memory_bytes = o.integer("kernel-memory").value_or(0) * (int64_t{1} << 20);
  c.held_out_trials = static_cast<int>(*o.integer("held-out-trials"));
  c.episode_idle_seconds = *o.real("episode-idle");
  c.max_episodes = static_cast<size_t>(*o.integer("max-episodes"));
  c.max_tool_calls = static_cast<size_t>(*o.integer("max-tool-calls"));
  c.step_seconds = *o.real("step-seconds");
  c.max_json_depth = h.max_json_depth;
  double drain_seconds = *o.real("drain-seconds");
  if (o.has("held-out-secret")) {
    std::optional<int64_t> secret = to_integer(o.text("held-out-secret"));
    if (!secret || *secret < 0)
      throw UsageError("--held-out-secret expects a non-negative integer, got '" + o.text("held-out-secret") + "'");
    c.held_out_secret = static_cast<uint64_t>(*secret);
  } else {
    c.held_out_secret = fresh_secret() >> 1;  // 63 bits, so that --held-out-secret can repeat it
  }

  serve::Service service(c);
  serve::HttpServer server(service, h);
  int port = server.bind();
  // A SIGINT/SIGTERM stops the listener and starts no new kernel work; requests in flight get
  // --drain-seconds to finish, then the process exits anyway (its sandboxed children die with
  // it). A second signal exits at once.
  struct sigaction sa {};
  sa.sa_handler = [](int) { g_stop = g_stop + 1; };
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  std::atomic<bool> done{false};
  std::thread watcher([&] {
    while (!g_stop && !done) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (done) return;
    std::cerr << "nkiagent serve: stopping; requests in flight get " << drain_seconds << " s to finish" << std::endl;
    service.begin_shutdown();
    server.stop();
    auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(drain_seconds);
    while (!done && g_stop < 2 && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (!done) {
      std::cerr << "nkiagent serve: exiting with requests still in flight ("
                << (g_stop < 2 ? "--drain-seconds passed" : "second signal") << ")" << std::endl;
      std::_Exit(0);
    }
  });
  std::cout << "nkiagent serve: listening on http://" << h.host << ":" << port << " (" << service.task_count()
            << " tasks, " << c.jobs << " jobs, " << (h.token.empty() ? "no token" : "token required") << ")"
            << std::endl;
  std::cerr << "nkiagent serve: held-out secret " << c.held_out_secret << " (" << c.held_out_trials
            << " trials per reward; repeat with --held-out-secret)" << std::endl;
  server.listen();
  done = true;
  watcher.join();
  return 0;
}

}  // namespace

Command make_serve_command() {
  Command c;
  c.spec.name = "serve";
  c.spec.synopsis = "nkiagent serve [--bind HOST:PORT] [--jobs N] [--tasks-dir DIR] [--token-file F] [options]";
  c.spec.description =
      "HTTP/JSON environment for RL trainers: tasks and prompts, compile / verify / reward (binary, graded),\n"
      "multi-turn episodes and Prometheus /metrics (docs/serve.md).";
  c.spec.options = serve_options();
  c.spec.epilog = "exit status: 0 after SIGINT/SIGTERM, 2 usage or setup error (bad --bind, token, tasks)";
  c.run = serve_command;
  return c;
}

}  // namespace nki::cli
