// nkiagent serve end to end: a Service and HttpServer on an ephemeral loopback port, driven by
// cpp-httplib's client. Every bad request must come back as a JSON error in bounded time.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <httplib.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "serve/http_server.h"

namespace nki::serve {
namespace {

using json = nlohmann::json;

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

const std::string kSource = NKI_SOURCE_DIR;
const std::string kTask = "l1_add_fp32";
constexpr const char* kToken = "0123456789abcdef-test-token";

// The task's reference solution, and kernels that fail it in each graded tier.
std::string solution() { return read_file(kSource + "/solutions/l1_add_fp32.py"); }
const char* kWrong =  // runs; the first 128 rows are a + b, the other 128 rows are a: half right
    "import neuronxcc.nki as nki\nimport neuronxcc.nki.language as nl\n\n@nki.jit\ndef add_kernel(a, b):\n"
    "    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)\n"
    "    t0 = nl.add(nl.load(a[0:128, :]), nl.load(b[0:128, :]))\n"
    "    nl.store(out[0:128, :], value=t0)\n"
    "    nl.store(out[128:256, :], value=nl.load(a[128:256, :]))\n"
    "    return out\n";
const char* kTooManyPartitions =  // parses, fails the checker
    "import neuronxcc.nki as nki\nimport neuronxcc.nki.language as nl\n\n@nki.jit\ndef add_kernel(a, b):\n"
    "    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)\n"
    "    nl.store(out, value=nl.add(nl.load(a), nl.load(b)))\n    return out\n";
const char* kSyntax = "import neuronxcc.nki as nki\n\n@nki.jit\ndef add_kernel(a, b)\n    return a\n";
const char* kInfinite =
    "import neuronxcc.nki as nki\nimport neuronxcc.nki.language as nl\n\n@nki.jit\ndef add_kernel(a, b):\n"
    "    n = 0\n    while True:\n        n = n + 1\n    return a\n";

// One server for the suite: starting it loads every task.
class ServeTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ServiceConfig c;
    c.tasks_root = kSource + "/tasks";
    c.jobs = 2;
    c.kernel_seconds = 5;
    c.held_out_secret = 424242;  // fixed: the golden cache is reused across test runs
    c.episode_idle_seconds = 2;
    service_ = new Service(c);
    HttpOptions h;
    h.port = 0;
    h.max_body_bytes = 64 * 1024;
    h.read_timeout_seconds = 3;  // short, so that the half-request test below is quick
    server_ = new HttpServer(*service_, h);
    port_ = server_->bind();
    thread_ = new std::thread([] { server_->listen(); });
  }
  static void TearDownTestSuite() {
    server_->stop();
    thread_->join();
    delete thread_;
    delete server_;
    delete service_;
  }

  static httplib::Client client(int port = 0) {
    httplib::Client c("127.0.0.1", port ? port : port_);
    c.set_read_timeout(120, 0);
    return c;
  }
  static json post(const std::string& path, const json& body, int* status) {
    auto r = client().Post(path.c_str(), body.dump(), "application/json");
    EXPECT_TRUE(r) << path;
    if (!r) return {};
    *status = r->status;
    return json::parse(r->body);
  }
  static json reward(const std::string& code, const std::string& kind, int* status) {
    return post("/v1/reward", {{"task", kTask}, {"code", code}, {"reward", kind}}, status);
  }

  static Service* service_;
  static HttpServer* server_;
  static std::thread* thread_;
  static int port_;
};

Service* ServeTest::service_ = nullptr;
HttpServer* ServeTest::server_ = nullptr;
std::thread* ServeTest::thread_ = nullptr;
int ServeTest::port_ = 0;

TEST_F(ServeTest, HealthTasksAndPrompt) {
  auto h = client().Get("/v1/health");
  ASSERT_TRUE(h);
  EXPECT_EQ(h->status, 200);
  EXPECT_EQ(json::parse(h->body)["status"], "ok");
  auto t = client().Get("/v1/tasks");
  ASSERT_TRUE(t);
  bool found = false;
  json tasks = json::parse(t->body);  // named: a loop over a temporary's member would dangle
  for (const json& e : tasks["tasks"]) found = found || e["id"] == kTask;
  EXPECT_TRUE(found);
  auto p = client().Get(("/v1/tasks/" + kTask + "/prompt").c_str());
  ASSERT_TRUE(p);
  json pj = json::parse(p->body);
  ASSERT_EQ(pj["messages"].size(), 2u);
  EXPECT_EQ(pj["messages"][0]["role"], "system");
  EXPECT_NE(pj["messages"][1]["content"].get<std::string>().find("forward"), std::string::npos);  // reference.py
  ASSERT_EQ(pj["tools"].size(), 2u);
  EXPECT_EQ(pj["tools"][1]["function"]["name"], "verify_kernel");
  auto s = client().Get(("/v1/tasks/" + kTask + "/prompt?mode=single-shot").c_str());
  ASSERT_TRUE(s);
  EXPECT_TRUE(json::parse(s->body)["tools"].empty());
}

TEST_F(ServeTest, BinaryAndGradedRewardsByTier) {
  int st = 0;
  json pass = reward(solution(), "binary", &st);
  EXPECT_EQ(st, 200);
  EXPECT_EQ(pass["reward"], 1.0);
  EXPECT_EQ(pass["held_out_trials"], 2);
  json wrong = reward(kWrong, "binary", &st);
  EXPECT_EQ(wrong["reward"], -0.5);
  EXPECT_EQ(wrong["verdict"], "mismatch");

  json g_pass = reward(solution(), "graded", &st);
  EXPECT_EQ(g_pass["reward"], 1.0);
  json g_wrong = reward(kWrong, "graded", &st);
  EXPECT_EQ(g_wrong["tier"], "runs");
  EXPECT_NEAR(g_wrong["fraction_correct"].get<double>(), 0.5, 0.01);
  // The right half is a + b, which no trivial output gets: credit beyond trivial kernels ~0.5.
  EXPECT_NEAR(g_wrong["credit"].get<double>(), 0.5, 0.01);
  EXPECT_NEAR(g_wrong["reward"].get<double>(), 0.4 + 0.5 * 0.5, 0.01);
  json g_check = reward(kTooManyPartitions, "graded", &st);
  EXPECT_EQ(g_check["tier"], "parses");
  EXPECT_DOUBLE_EQ(g_check["reward"].get<double>(), 0.1);
  json g_syntax = reward(kSyntax, "graded", &st);
  EXPECT_EQ(g_syntax["tier"], "syntax");
  EXPECT_DOUBLE_EQ(g_syntax["reward"].get<double>(), 0.05);
}

// perf: the reference solution is the baseline itself (speedup 1, reward 1); a correct kernel with
// four times the DMAs is slower (0 < reward < 1); a wrong one gets the failure reward.
TEST_F(ServeTest, PerfRewardUsesTheCostModelAgainstTheBaseline) {
  int st = 0;
  json ref = reward(solution(), "perf", &st);
  ASSERT_EQ(st, 200);
  ASSERT_TRUE(ref["speedup"].is_number()) << ref.dump();
  EXPECT_NEAR(ref["speedup"].get<double>(), 1.0, 1e-5);
  EXPECT_NEAR(ref["reward"].get<double>(), 1.0, 1e-4);
  EXPECT_GT(ref["baseline_ns"].get<double>(), 0.0);
  std::string narrow = solution();
  narrow.replace(narrow.find("F = 512"), 7, "F = 256");
  json slow = reward(narrow, "perf", &st);
  ASSERT_EQ(slow["verdict"], "pass") << slow.dump();
  double speedup = slow["speedup"].get<double>();
  EXPECT_LT(speedup, 1.0);
  EXPECT_NEAR(slow["reward"].get<double>(), 1.0 + std::max(-1.0, std::log2(speedup)), 1e-9);
  EXPECT_LT(slow["reward"].get<double>(), 1.0);
  json wrong = reward(kWrong, "perf", &st);
  EXPECT_EQ(wrong["reward"], -0.5);
  EXPECT_TRUE(wrong["speedup"].is_null());
}

// `nkiagent serve --target trn2`: the perf reward estimates on the trn2 table against
// baselines.trn2.json, so the reference solution is again at speedup 1 with the trn2 baseline.
TEST(ServeTarget, PerfRewardOnTrn2UsesTheTrn2Baselines) {
  ServiceConfig c;
  c.tasks_root = kSource + "/tasks";
  c.jobs = 1;
  c.kernel_seconds = 5;
  c.held_out_secret = 424242;
  c.target = nki::Target::Trn2;
  Service trn2(c);
  EXPECT_EQ(trn2.health()["target"], "trn2");
  json r = trn2.reward({{"task", kTask}, {"code", solution()}, {"reward", "perf"}});
  ASSERT_TRUE(r["speedup"].is_number()) << r.dump();
  EXPECT_NEAR(r["speedup"].get<double>(), 1.0, 1e-5);
  nki::toolchain::BaselineLookup trn1_base(c.tasks_root, nki::Target::Trn1), trn2_base(c.tasks_root, nki::Target::Trn2);
  ASSERT_TRUE(trn2_base.latency_ns(kTask) && trn1_base.latency_ns(kTask));
  EXPECT_DOUBLE_EQ(r["baseline_ns"].get<double>(), *trn2_base.latency_ns(kTask));
  EXPECT_NE(*trn1_base.latency_ns(kTask), *trn2_base.latency_ns(kTask));  // the two tables differ on this task
}

// serve --nki 0.6: prompts from the current dialect's set, and only current-dialect kernels earn
// the reward (the legacy solution stops at its imports).
TEST(ServeDialect, CurrentDialectServerJudgesInThatDialect) {
  ServiceConfig c;
  c.tasks_root = kSource + "/tasks";
  c.jobs = 1;
  c.kernel_seconds = 5;
  c.held_out_secret = 424242;
  c.nki = "0.6";
  Service current(c);
  EXPECT_EQ(current.health()["nki"], "0.6");
  json p = current.task_prompt(kTask, "agent");
  EXPECT_NE(p.dump().find("NKI primer (NKI 0.6"), std::string::npos);
  const std::string own = read_file(kSource + "/solutions_nki06/l1_add_fp32.py");
  json ok = current.reward({{"task", kTask}, {"code", own}, {"reward", "binary"}});
  EXPECT_EQ(ok["reward"], 1.0) << ok.dump();
  // The perf reward divides by the current dialect's baseline: its own solution is exactly 1x.
  json perf = current.reward({{"task", kTask}, {"code", own}, {"reward", "perf"}});
  ASSERT_TRUE(perf["speedup"].is_number()) << perf.dump();
  EXPECT_NEAR(perf["speedup"].get<double>(), 1.0, 1e-5);
  json legacy = current.reward({{"task", kTask}, {"code", solution()}, {"reward", "binary"}});
  EXPECT_NE(legacy["reward"], 1.0) << legacy.dump();
  EXPECT_EQ(legacy["verdict"], "compile_error") << legacy.dump();
}

TEST_F(ServeTest, IdenticalInputsGiveIdenticalRewards) {
  int st = 0;
  json a = reward(kWrong, "graded", &st);
  long long hits = service_->stats().reward_cache_hits;
  json b = reward(kWrong, "graded", &st);
  EXPECT_EQ(a, b);
  EXPECT_EQ(service_->stats().reward_cache_hits, hits + 1);
}

TEST_F(ServeTest, BatchRewardKeepsOrder) {
  int st = 0;
  json r = post("/v1/reward",
                {{"reward", "binary"}, {"items", {{{"task", kTask}, {"code", kWrong}}, {{"task", kTask}, {"code", solution()}}}}},
                &st);
  EXPECT_EQ(st, 200);
  ASSERT_EQ(r["results"].size(), 2u);
  EXPECT_EQ(r["results"][0]["reward"], -0.5);
  EXPECT_EQ(r["results"][1]["reward"], 1.0);
}

TEST_F(ServeTest, CompileAndVerify) {
  int st = 0;
  json c = post("/v1/compile", {{"task", kTask}, {"code", kTooManyPartitions}}, &st);
  EXPECT_EQ(st, 200);
  EXPECT_EQ(c["ok"], false);
  EXPECT_EQ(c["diagnostics"][0]["code"], "err_num_partition_exceed_arch_limit");
  json v = post("/v1/verify", {{"task", kTask}, {"code", solution()}}, &st);
  EXPECT_EQ(st, 200);
  EXPECT_EQ(v["status"], "pass");
  EXPECT_EQ(v["report"]["task"], kTask);
}

// Each bad request: a JSON error with a stable code, never a hang or a dropped connection.
TEST_F(ServeTest, BadRequestsGetJsonErrors) {
  auto expect_error = [](const httplib::Result& r, int status, const std::string& code) {
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, status) << r->body;
    json j = json::parse(r->body);
    EXPECT_EQ(j["error"]["code"], code) << r->body;
    EXPECT_FALSE(j["error"]["message"].get<std::string>().empty());
  };
  expect_error(client().Post("/v1/reward", "{\"task\": ", "application/json"), 400, "malformed_json");
  expect_error(client().Post("/v1/reward", "", "application/json"), 400, "bad_request");
  expect_error(client().Post("/v1/reward", json{{"task", "no_such_task"}, {"code", "x"}}.dump(), "application/json"), 404,
               "unknown_task");
  expect_error(client().Post("/v1/reward", json{{"task", "../../etc"}, {"code", "x"}}.dump(), "application/json"), 404,
               "unknown_task");
  expect_error(client().Post("/v1/reward", json{{"task", kTask}}.dump(), "application/json"), 400, "bad_request");
  expect_error(client().Post("/v1/reward", json{{"task", kTask}, {"code", 7}}.dump(), "application/json"), 400,
               "bad_request");
  expect_error(client().Post("/v1/episodes", json{{"task", kTask}, {"mode", "optimize"}}.dump(), "application/json"),
               400, "bad_request");
  expect_error(client().Post("/v1/reward", json{{"task", kTask}, {"code", "x"}, {"reward", "shiny"}}.dump(),
                             "application/json"),
               400, "bad_request");
  std::string big = json{{"task", kTask}, {"code", std::string(100 * 1024, '#')}}.dump();
  expect_error(client().Post("/v1/reward", big, "application/json"), 413, "body_too_large");
  expect_error(client().Get("/v1/nothing"), 404, "not_found");
  expect_error(client().Get("/v1/tasks/no_such_task/prompt"), 404, "unknown_task");
}

TEST_F(ServeTest, TooManyBatchItemsIsRefusedBeforeJudging) {
  json items = json::array();
  for (int i = 0; i < 65; ++i) items.push_back({{"task", kTask}, {"code", kSyntax}});
  auto start = std::chrono::steady_clock::now();
  int st = 0;
  json r = post("/v1/reward", {{"items", items}}, &st);
  EXPECT_EQ(st, 413) << r.dump();
  EXPECT_EQ(r["error"]["code"], "batch_too_large");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10);
}

TEST_F(ServeTest, KernelAllocatingWithoutBoundGetsTheFailureReward) {
  const char* hog =
      "import neuronxcc.nki as nki\nimport neuronxcc.nki.language as nl\n\n@nki.jit\ndef add_kernel(a, b):\n"
      "    xs = [0]\n    while True:\n        xs = xs + xs\n    return a\n";
  auto start = std::chrono::steady_clock::now();
  int st = 0;
  json r = reward(hog, "binary", &st);
  EXPECT_EQ(st, 200) << r.dump();
  EXPECT_EQ(r["reward"], -0.5) << r.dump();
  EXPECT_EQ(r["passed"], false);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 60);
  // The server is unharmed.
  json ok = reward(solution() + "\n# after the memory hog\n", "binary", &st);
  EXPECT_EQ(st, 200);
  EXPECT_EQ(ok["reward"], 1.0) << ok.dump();
}

// A client that sends half a request and then nothing is cut after the read timeout, and the
// server answers others meanwhile.
TEST_F(ServeTest, HalfRequestIsCutAfterTheReadTimeout) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port_));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  const char* half = "POST /v1/reward HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"task\":";
  ASSERT_GT(::send(fd, half, std::strlen(half), 0), 0);
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(client().Get("/v1/health")->status, 200);
  char buf[512];
  ssize_t n;
  while ((n = ::recv(fd, buf, sizeof buf, 0)) > 0) {}
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ::close(fd);
  EXPECT_EQ(n, 0);  // closed by the server
  EXPECT_LT(s, 20);
}

TEST_F(ServeTest, InfiniteLoopKernelIsCutInBoundedTime) {
  auto start = std::chrono::steady_clock::now();
  int st = 0;
  json v = post("/v1/verify", {{"task", kTask}, {"code", kInfinite}}, &st);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(st, 422) << v.dump();
  EXPECT_EQ(v["error"]["code"], "kernel_limit_exceeded");
  EXPECT_LT(s, 60);
  // The reward of the same kernel is the failure reward: a trainer needs a number.
  json r = reward(kInfinite, "binary", &st);
  EXPECT_EQ(st, 200);
  EXPECT_EQ(r["reward"], -0.5);
  EXPECT_EQ(r["limit_exceeded"], true);
}

TEST_F(ServeTest, MultiTurnEpisode) {
  int st = 0;
  json e = post("/v1/episodes", {{"task", kTask}, {"mode", "agent"}, {"max_turns", 3}}, &st);
  ASSERT_EQ(st, 200) << e.dump();
  std::string id = e["episode_id"];
  EXPECT_EQ(e["messages"].size(), 2u);
  EXPECT_EQ(e["tools"].size(), 2u);
  auto call = [](const std::string& name, const std::string& code) {
    return json{{"role", "assistant"}, {"content", ""},
                {"tool_calls", {{{"id", "c1"}, {"type", "function"},
                                 {"function", {{"name", name}, {"arguments", json{{"code", code}}.dump()}}}}}}};
  };
  json s1 = post("/v1/episodes/" + id + "/step", {{"message", call("compile_kernel", kTooManyPartitions)}}, &st);
  EXPECT_EQ(st, 200) << s1.dump();
  EXPECT_EQ(s1["done"], false);
  ASSERT_EQ(s1["messages"].size(), 1u);
  EXPECT_EQ(s1["messages"][0]["role"], "tool");
  EXPECT_EQ(s1["messages"][0]["tool_call_id"], "c1");
  EXPECT_NE(s1["messages"][0]["content"].get<std::string>().find("err_num_partition_exceed_arch_limit"), std::string::npos);
  json s2 = post("/v1/episodes/" + id + "/step", {{"message", call("verify_kernel", solution())}}, &st);
  EXPECT_EQ(s2["done"], true) << s2.dump();
  EXPECT_EQ(s2["stop_reason"], "verified");
  EXPECT_EQ(s2["verdict"], "pass");
  EXPECT_EQ(s2["reward"], 1.0);
  json s3 = post("/v1/episodes/" + id + "/step", {{"message", call("verify_kernel", solution())}}, &st);
  EXPECT_EQ(st, 409);
  EXPECT_EQ(s3["error"]["code"], "episode_done");
  json bad = post("/v1/episodes/" + id + "/step", {{"nothing", 1}}, &st);
  EXPECT_EQ(st, 409);  // a finished episode refuses before looking at the body
  json unknown = post("/v1/episodes/abc123/step", {{"message", call("verify_kernel", "x")}}, &st);
  EXPECT_EQ(st, 404);
  EXPECT_EQ(unknown["error"]["code"], "unknown_episode");
}

TEST_F(ServeTest, IdleEpisodesExpire) {
  int st = 0;
  json e = post("/v1/episodes", {{"task", kTask}, {"mode", "multi-turn"}}, &st);
  ASSERT_EQ(st, 200);
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  json s = post("/v1/episodes/" + e["episode_id"].get<std::string>() + "/step",
                {{"message", {{"role", "assistant"}, {"content", "thinking"}}}}, &st);
  EXPECT_EQ(st, 404) << s.dump();
  EXPECT_GE(service_->stats().episodes_expired, 1);
}

TEST_F(ServeTest, MetricsInPrometheusText) {
  int st = 0;
  reward(kWrong, "binary", &st);
  auto m = client().Get("/metrics");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->status, 200);
  EXPECT_NE(m->body.find("# TYPE nkiagent_rewards_total counter"), std::string::npos);
  EXPECT_NE(m->body.find("nkiagent_http_requests_total{route=\"/v1/reward\",status=\"200\"}"), std::string::npos);
  EXPECT_NE(m->body.find("nkiagent_http_request_seconds_bucket{route=\"/v1/reward\",le=\"+Inf\"}"), std::string::npos);
}

// A second server with a token: every route but /v1/health needs it.
TEST(ServeToken, WrongOrMissingTokenIs401) {
  ServiceConfig c;
  c.tasks_root = kSource + "/tasks";
  Service service(c);
  HttpOptions h;
  h.port = 0;
  h.token = kToken;
  HttpServer server(service, h);
  int port = server.bind();
  std::thread t([&] { server.listen(); });
  httplib::Client cl("127.0.0.1", port);
  auto health = cl.Get("/v1/health");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->status, 200);
  auto none = cl.Get("/v1/tasks");
  ASSERT_TRUE(none);
  EXPECT_EQ(none->status, 401);
  EXPECT_EQ(json::parse(none->body)["error"]["code"], "unauthorized");
  auto wrong = cl.Get("/v1/tasks", {{"Authorization", std::string("Bearer ") + kToken + "x"}});
  ASSERT_TRUE(wrong);
  EXPECT_EQ(wrong->status, 401);
  auto right = cl.Get("/v1/tasks", {{"Authorization", std::string("Bearer ") + kToken}});
  ASSERT_TRUE(right);
  EXPECT_EQ(right->status, 200);
  server.stop();
  t.join();
}

TEST(ServeLoopback, Addresses) {
  EXPECT_TRUE(is_loopback("127.0.0.1"));
  EXPECT_TRUE(is_loopback("localhost"));
  EXPECT_TRUE(is_loopback("::1"));
  EXPECT_FALSE(is_loopback("0.0.0.0"));
  EXPECT_FALSE(is_loopback("10.0.0.1"));
}

}  // namespace
}  // namespace nki::serve
