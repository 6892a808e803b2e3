// Attacks on `nkiagent serve` found by a red team (docs/reliability.md, "The RL server under
// attack"), each replayed against a real server on an ephemeral loopback port: every one must
// end in a JSON answer or a cut connection, never a crash, a starved route or unbounded work.
#include <gtest/gtest.h>

#include <httplib.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "serve/http_server.h"
#include "serve/json_guard.h"

namespace nki::serve {
namespace {

using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

const std::string kSource = NKI_SOURCE_DIR;
const std::string kTask = "l1_add_fp32";
constexpr const char* kToken = "0123456789abcdef-hardening-token";
const char* kSyntax = "import neuronxcc.nki as nki\n\n@nki.jit\ndef add_kernel(a, b)\n    return a\n";

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}
std::string solution() { return read_file(kSource + "/solutions/l1_add_fp32.py"); }

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// ---- The scanner that runs before nlohmann's (recursive) parser ----

TEST(JsonGuard, DepthCountsBracketsOutsideStringsOnly) {
  EXPECT_EQ(json_nesting_depth(R"({"a": [1, {"b": []}]})", 64), 4);
  EXPECT_EQ(json_nesting_depth(R"({"code": "[[[[{{{{"})", 64), 1);          // brackets in a string
  EXPECT_EQ(json_nesting_depth(R"({"code": "\"[[[[\\", "x": [[]]})", 64), 3);  // escaped quote, escaped backslash
  EXPECT_EQ(json_nesting_depth("", 64), 0);
  EXPECT_EQ(json_nesting_depth("]]]][[", 64), 2);  // unbalanced: the parser refuses it later
}

TEST(JsonGuard, DepthStopsAboveTheLimitOnHugeInput) {
  std::string deep(1 << 20, '[');  // what crashed the server: nlohmann recursing per level
  EXPECT_EQ(json_nesting_depth(deep, 64), 65);
  std::string wide;
  for (int i = 0; i < 10000; ++i) wide += "[],";
  EXPECT_EQ(json_nesting_depth("[" + wide + "1]", 64), 2);
}

TEST(JsonGuard, MarksIllFormedUtf8AndLeavesWellFormedTextAlone) {
  std::string ok = "plain \xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80";  // e-acute, euro sign, an emoji
  std::string copy = ok;
  EXPECT_EQ(mark_invalid_utf8(copy), 0u);
  EXPECT_EQ(copy, ok);
  const std::string m(kInvalidUtf8Marker);
  auto marked = [](std::string s) {
    mark_invalid_utf8(s);
    return s;
  };
  EXPECT_EQ(marked("a\xFF" "b"), "a" + m + "b");             // never valid
  EXPECT_EQ(marked("a\x80" "b"), "a" + m + "b");             // stray continuation byte
  EXPECT_EQ(marked("end\xC3"), "end" + m);                   // truncated sequence
  EXPECT_EQ(marked("\xC0\x80"), m + m);                      // overlong NUL
  EXPECT_EQ(marked("\xED\xA0\x80"), m + m + m);              // UTF-16 surrogate
  EXPECT_EQ(marked("\xF4\x90\x80\x80"), m + m + m + m);      // above U+10FFFF
  EXPECT_EQ(marked("sent " + m), "sent " + m);               // the client's own U+FDD0 counts too
  EXPECT_TRUE(has_invalid_utf8(marked("x\xFE")));
  EXPECT_FALSE(has_invalid_utf8(ok));
}

TEST(JsonGuard, MarksLoneSurrogateEscapes) {
  std::string lone = R"({"code": "x\udcff y"})";  // json.dumps of a byte Python could not decode
  EXPECT_EQ(mark_lone_surrogate_escapes(lone), 1u);
  EXPECT_EQ(lone, R"({"code": "x\uFDD0 y"})");
  EXPECT_TRUE(has_invalid_utf8(json::parse(lone)["code"].get<std::string>()));
  std::string high_alone = R"(["\ud83d", "\ud83dx"])";
  EXPECT_EQ(mark_lone_surrogate_escapes(high_alone), 2u);
  std::string pair = R"(["\ud83d\ude00"])";  // a well-formed pair (an emoji)
  EXPECT_EQ(mark_lone_surrogate_escapes(pair), 0u);
  std::string literal = R"(["\\udcff"])";  // a backslash, then the letters: not an escape
  EXPECT_EQ(mark_lone_surrogate_escapes(literal), 0u);
  std::string outside = R"({"k": 1} \udcff)";  // outside strings: the parser's business
  EXPECT_EQ(mark_lone_surrogate_escapes(outside), 0u);
}

// ---- The episode's compile_kernel tool traces kernels in the sandbox only ----

long max_rss_kb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);  // this process only: the sandboxed children are not counted
  return u.ru_maxrss;
}

// The reference solution, but building a 150 MB string while it is traced (about 300 MB of peak
// memory in the tracing process: measured with `nkiagent check`, which still traces in the parent
// after its child) before compiling fine. The server's peak memory must not grow by that much:
// it did when the agent's compile tool traced the kernel a second time in the server after the
// sandboxed child had succeeded (18 MB -> 1.8 GB for one call in the red team's run).
TEST(EpisodeCompile, RunsOnlyInTheSandbox) {
  ServiceConfig c;
  c.tasks_root = kSource + "/tasks";
  c.jobs = 1;
  c.kernel_seconds = 60;
  c.held_out_secret = 424242;
  Service service(c);
  std::string heavy = solution();
  size_t at = heavy.find("    rows, cols = a.shape\n");
  ASSERT_NE(at, std::string::npos);
  heavy.insert(at, "    s = \"x\" * 150000000\n");
  std::string id = service.start_episode({{"task", kTask}, {"mode", "agent"}, {"max_turns", 3}})["episode_id"];
  json call = {{"id", "c1"}, {"type", "function"},
               {"function", {{"name", "compile_kernel"}, {"arguments", json{{"code", heavy}}.dump()}}}};
  long before = max_rss_kb();
  json r = service.step_episode(id, {{"message", {{"role", "assistant"}, {"content", ""}, {"tool_calls", {call}}}}});
  long grown_kb = max_rss_kb() - before;
  std::string text = r["messages"][0]["content"];
  EXPECT_EQ(text.rfind("compile: ok", 0), 0u) << text;  // the child's answer, kept as it is
  EXPECT_LT(grown_kb, 128 * 1024) << "the server's peak memory grew by " << grown_kb / 1024 << " MB";
}

// ---- A server with a token, 8 HTTP threads and short request deadlines ----

class Hardened : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ServiceConfig c;
    c.tasks_root = kSource + "/tasks";
    c.jobs = 2;
    c.kernel_seconds = 10;
    c.held_out_secret = 424242;  // fixed: the golden cache is reused across test runs
    c.max_tool_calls = 3;
    service_ = new Service(c);
    HttpOptions h;
    h.port = 0;
    h.token = kToken;
    h.max_body_bytes = 1 << 20;
    h.http_threads = 8;          // caps: 2 waiting and 2 uploading connections
    h.read_timeout_seconds = 3;
    h.header_seconds = 2;
    h.body_seconds = 3;
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

  static httplib::Client client(int read_timeout = 120) {
    httplib::Client c("127.0.0.1", port_);
    c.set_read_timeout(read_timeout, 0);
    c.set_connection_timeout(3, 0);
    c.set_bearer_token_auth(kToken);
    return c;
  }
  static json post_text(const std::string& path, const std::string& body, int* status) {
    auto r = client().Post(path.c_str(), body, "application/json");
    EXPECT_TRUE(r) << path;
    if (!r) return {};
    *status = r->status;
    return json::parse(r->body);
  }
  // Generous: under attack the first answer may wait for the cap sweep (connections are cut
  // once 1 s old); before the fix it never came while the attackers kept sending.
  static bool healthy() {
    auto r = client(8).Get("/v1/health");
    return r && r->status == 200;
  }
  static int connect_raw() {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port_));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      ::close(fd);
      return -1;
    }
    return fd;
  }
  static std::string start_episode() {
    int st = 0;
    json e = post_text("/v1/episodes", json{{"task", kTask}, {"mode", "agent"}, {"max_turns", 5}}.dump(), &st);
    EXPECT_EQ(st, 200) << e.dump();
    return e.value("episode_id", "");
  }
  static json tool_call(const std::string& id, const std::string& name, const std::string& arguments) {
    return {{"id", id}, {"type", "function"}, {"function", {{"name", name}, {"arguments", arguments}}}};
  }

  static Service* service_;
  static HttpServer* server_;
  static std::thread* thread_;
  static int port_;
};

Service* Hardened::service_ = nullptr;
HttpServer* Hardened::server_ = nullptr;
std::thread* Hardened::thread_ = nullptr;
int Hardened::port_ = 0;

// 200 KB of nesting, as a whole body and inside one batch item: 400 json_too_deep, not SIGSEGV.
TEST_F(Hardened, DeeplyNestedBodyIsRefusedBeforeParsing) {
  int st = 0;
  json r = post_text("/v1/reward", std::string(200 * 1024, '['), &st);
  EXPECT_EQ(st, 400);
  EXPECT_EQ(r["error"]["code"], "json_too_deep") << r.dump();
  std::string item = R"({"task":"l1_add_fp32","code":"x","extra":)" + std::string(100000, '[') + std::string(100000, ']') + "}";
  r = post_text("/v1/reward", R"({"reward":"binary","items":[)" + item + "]}", &st);
  EXPECT_EQ(st, 400);
  EXPECT_EQ(r["error"]["code"], "json_too_deep") << r.dump();
  // Deep nesting inside a string is text, not structure: judged as usual (a syntax error).
  r = post_text("/v1/reward", json{{"task", kTask}, {"code", std::string(100000, '[')}}.dump(), &st);
  EXPECT_EQ(st, 200) << r.dump();
  EXPECT_EQ(r["reward"], -0.5);
  EXPECT_TRUE(healthy());
}

// A tool call's `arguments` is a JSON string the tool box parses: bounded the same way, and the
// episode is still usable afterwards.
TEST_F(Hardened, DeeplyNestedToolArgumentsAreRefusedBeforeParsing) {
  std::string id = start_episode();
  int st = 0;
  json msg = {{"role", "assistant"}, {"content", ""},
              {"tool_calls", {tool_call("c1", "compile_kernel", std::string(200 * 1024, '['))}}};
  json r = post_text("/v1/episodes/" + id + "/step", json{{"message", msg}}.dump(), &st);
  EXPECT_EQ(st, 400);
  EXPECT_EQ(r["error"]["code"], "json_too_deep") << r.dump();
  json ok = {{"role", "assistant"}, {"content", ""},
             {"tool_calls", {tool_call("c2", "compile_kernel", json{{"code", kSyntax}}.dump())}}};
  r = post_text("/v1/episodes/" + id + "/step", json{{"message", ok}}.dump(), &st);
  EXPECT_EQ(st, 200) << r.dump();
  EXPECT_EQ(r["messages"][0]["tool_call_id"], "c2");
}

// One bad item (ill-formed UTF-8 raw or as a lone surrogate escape, an unknown task, no code)
// gets an error entry with the bottom reward; the other items get their rewards.
TEST_F(Hardened, BadBatchItemsGetErrorEntriesAndTheOthersTheirRewards) {
  std::string body = R"({"reward":"binary","items":[)"
                     R"({"task":"l1_add_fp32","code":"x = 1 )" "\xFF\xFE" R"("},)"  // raw bytes
                     R"({"task":"no_such_task","code":"x"},)"
                     R"({"task":"l1_add_fp32","code":)" + json(solution()).dump() + "},"
                     R"({"task":"l1_add_fp32","completion":"\udcff"},)"
                     R"({"task":"l1_add_fp32"},)"
                     R"({"task":"l1_add_fp32","code":"x","reward":"graded","extra":")" "\xC3" R"("}]})";
  long long before = service_->stats().batch_item_errors;
  int st = 0;
  json r = post_text("/v1/reward", body, &st);
  ASSERT_EQ(st, 200) << r.dump();
  ASSERT_EQ(r["results"].size(), 6u);
  const json& res = r["results"];
  EXPECT_EQ(res[0]["error"]["code"], "invalid_utf8");
  EXPECT_EQ(res[0]["reward"], -0.5);
  EXPECT_EQ(res[1]["error"]["code"], "unknown_task");
  EXPECT_EQ(res[2]["reward"], 1.0) << res[2].dump();
  EXPECT_FALSE(res[2].contains("error"));
  EXPECT_EQ(res[3]["error"]["code"], "invalid_utf8");
  EXPECT_EQ(res[4]["error"]["code"], "bad_request");
  // Ill-formed bytes in a field nobody reads do not matter; the item is judged (graded scale).
  EXPECT_FALSE(res[5].contains("error")) << res[5].dump();
  EXPECT_EQ(res[5]["kind"], "graded");
  EXPECT_EQ(service_->stats().batch_item_errors, before + 4);
}

// An error message quoting bytes that are not UTF-8 is still a JSON answer with its own status
// (the reply's dump used to throw, and the request became a 500).
TEST_F(Hardened, RepliesQuotingInvalidUtf8AreStillJson) {
  auto r = client().Get(("/v1/tasks/" + kTask + "/prompt?mode=%FF%FE").c_str());
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400) << r->body;
  json j = json::parse(r->body);
  EXPECT_EQ(j["error"]["code"], "bad_request");
  EXPECT_NE(j["error"]["message"].get<std::string>().find("\xEF\xBF\xBD"), std::string::npos);  // U+FFFD
}

// At most max_tool_calls (3 here) calls run per message; the others get a tool result saying so.
TEST_F(Hardened, ToolCallsPerMessageAreBounded) {
  std::string id = start_episode();
  json calls = json::array();
  for (int i = 1; i <= 5; ++i)
    calls.push_back(tool_call("c" + std::to_string(i), "compile_kernel",
                              json{{"code", std::string(kSyntax) + "# " + std::to_string(i) + "\n"}}.dump()));
  long long refused = service_->stats().tool_calls_refused;
  int st = 0;
  json r = post_text("/v1/episodes/" + id + "/step",
                     json{{"message", {{"role", "assistant"}, {"content", ""}, {"tool_calls", calls}}}}.dump(), &st);
  ASSERT_EQ(st, 200) << r.dump();
  const json& m = r["messages"];
  ASSERT_GE(m.size(), 5u) << r.dump();
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(m[i]["role"], "tool");
    EXPECT_EQ(m[i]["tool_call_id"], "c" + std::to_string(i + 1));
    std::string text = m[i]["content"];
    if (i < 3) EXPECT_EQ(text.rfind("compile: failed", 0), 0u) << text;
    else EXPECT_EQ(text.rfind("not run: at most 3 tool calls", 0), 0u) << text;
  }
  EXPECT_EQ(service_->stats().tool_calls_refused, refused + 2);
}

// A dozen connections trickling request headers, without a token, must not starve authorised
// requests: the oldest waiting connections are cut once more than the cap wait.
TEST_F(Hardened, TricklingHeadersDoNotStarveAuthorisedRequests) {
  std::atomic<bool> stop{false};
  std::vector<int> fds;
  for (int i = 0; i < 12; ++i) {
    int fd = connect_raw();
    ASSERT_GE(fd, 0);
    ::send(fd, "GET /v1/tasks HTTP/1.1\r\n", 24, MSG_NOSIGNAL);
    fds.push_back(fd);
  }
  std::thread trickle([&] {
    for (int round = 0; round < 60 && !stop; ++round) {  // at most ~12 s
      for (int fd : fds) ::send(fd, "X", 1, MSG_NOSIGNAL);
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  int served = 0;
  for (int i = 0; i < 5; ++i) {
    auto r = client(8).Get("/v1/tasks");
    if (r && r->status == 200) ++served;
  }
  stop = true;
  trickle.join();
  for (int fd : fds) ::close(fd);
  EXPECT_EQ(served, 5);
}

// 40 connections trickling request bodies must not time out /v1/health.
TEST_F(Hardened, TricklingBodiesDoNotStarveHealth) {
  std::atomic<bool> stop{false};
  std::vector<int> fds;
  std::string head = "POST /v1/reward HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + std::string(kToken) +
                     "\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{";
  for (int i = 0; i < 40; ++i) {
    int fd = connect_raw();
    ASSERT_GE(fd, 0);
    ::send(fd, head.data(), head.size(), MSG_NOSIGNAL);
    fds.push_back(fd);
  }
  std::thread trickle([&] {
    for (int round = 0; round < 60 && !stop; ++round) {  // at most ~12 s
      for (int fd : fds) ::send(fd, " ", 1, MSG_NOSIGNAL);
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  int served = 0;
  for (int i = 0; i < 5; ++i) served += healthy() ? 1 : 0;
  stop = true;
  trickle.join();
  for (int fd : fds) ::close(fd);
  EXPECT_EQ(served, 5);
}

// Alone (no cap reached), a connection that never finishes its headers is cut at the header
// deadline (2 s here) although it keeps sending.
TEST_F(Hardened, HeadersHaveATotalDeadline) {
  int fd = connect_raw();
  ASSERT_GE(fd, 0);
  ::send(fd, "GET /v1/health HTTP/1.1\r\n", 25, MSG_NOSIGNAL);
  auto start = Clock::now();
  bool closed = false;
  while (seconds_since(start) < 15 && !closed) {
    if (::send(fd, "X", 1, MSG_NOSIGNAL) < 0) closed = true;
    char buf[256];
    if (::recv(fd, buf, sizeof buf, MSG_DONTWAIT) == 0) closed = true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  double s = seconds_since(start);
  ::close(fd);
  EXPECT_TRUE(closed);
  EXPECT_LT(s, 10);  // cut near 2 s; before, never while bytes kept coming
}

}  // namespace
}  // namespace nki::serve
