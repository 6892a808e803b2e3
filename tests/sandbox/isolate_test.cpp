// The isolation primitive every untrusted kernel runs under: each way a child can fail must
// come back as its Outcome, and the parent must survive all of them.
#include "sandbox/isolate.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace nki::sandbox {
namespace {

Limits generous() {
  Limits l;
  l.wall_seconds = 30;
  l.memory_bytes = int64_t{1} << 30;
  return l;
}

TEST(Isolate, ReturnsThePayload) {
  Result r = run_isolated([] { return std::string("hello\0world", 11); }, generous());
  ASSERT_EQ(r.outcome, Outcome::Ok) << r.detail;
  EXPECT_EQ(r.payload, std::string("hello\0world", 11));
}

TEST(Isolate, LargePayloadArrivesWhole) {
  // Bigger than any pipe buffer: the parent must read while the child writes.
  Result r = run_isolated([] { return std::string(size_t{48} << 20, 'z'); }, generous());
  ASSERT_EQ(r.outcome, Outcome::Ok) << r.detail;
  EXPECT_EQ(r.payload.size(), size_t{48} << 20);
  EXPECT_EQ(r.payload.back(), 'z');
}

TEST(Isolate, SegfaultIsACrashNotOurDeath) {
  Result r = run_isolated([]() -> std::string {
    ::raise(SIGSEGV);
    return "unreachable";
  }, generous());
  EXPECT_EQ(r.outcome, Outcome::Crashed);
  EXPECT_EQ(r.signal, SIGSEGV);
  EXPECT_NE(r.describe().find("SIGSEGV"), std::string::npos) << r.describe();
}

TEST(Isolate, AbortIsACrash) {
  Result r = run_isolated([]() -> std::string { std::abort(); }, generous());
  EXPECT_EQ(r.outcome, Outcome::Crashed);
  EXPECT_EQ(r.signal, SIGABRT);
}

TEST(Isolate, HangIsStoppedAtTheWallLimit) {
  Limits l = generous();
  l.wall_seconds = 0.5;
  auto t0 = std::chrono::steady_clock::now();
  Result r = run_isolated([]() -> std::string {
    for (;;) ::pause();
  }, l);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.outcome, Outcome::TimedOut);
  EXPECT_LT(s, 10.0);
  EXPECT_NE(r.describe().find("wall-clock"), std::string::npos) << r.describe();
}

TEST(Isolate, AllocationPastTheCapIsOutOfMemory) {
  Limits l = generous();
  l.memory_bytes = int64_t{256} << 20;
  Result r = run_isolated([]() -> std::string {
    std::vector<std::vector<char>> hog;
    for (int i = 0; i < 64; ++i) hog.emplace_back(size_t{64} << 20, 'x');  // 4 GiB in all
    return "fits";
  }, l);
  EXPECT_EQ(r.outcome, Outcome::OutOfMemory) << r.describe();
}

TEST(Isolate, ExceptionIsReportedWithItsMessage) {
  Result r = run_isolated([]() -> std::string { throw std::runtime_error("boom"); }, generous());
  EXPECT_EQ(r.outcome, Outcome::Failed);
  EXPECT_EQ(r.detail, "boom");
}

TEST(Isolate, ExitWithoutResultIsACrash) {
  Result r = run_isolated([]() -> std::string { ::_exit(7); }, generous());
  EXPECT_EQ(r.outcome, Outcome::Crashed);
  EXPECT_NE(r.detail.find("7"), std::string::npos) << r.detail;
}

TEST(Isolate, ConcurrentChildrenFromManyThreads) {
  // One slow child and many fast ones started from other threads: a fast child must not wait
  // for the slow one (it would if the slow child inherited the fast ones' pipe ends).
  std::atomic<bool> slow_done{false};
  std::thread slow([&] {
    Limits l = generous();
    run_isolated([]() -> std::string {
      ::sleep(3);
      return "slow";
    }, l);
    slow_done = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  std::vector<std::thread> fast;
  std::atomic<int> ok{0};
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 4; ++i)
    fast.emplace_back([&] {
      if (run_isolated([] { return std::string("fast"); }, generous()).payload == "fast") ++ok;
    });
  for (auto& t : fast) t.join();
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(ok, 4);
  EXPECT_LT(s, 2.5);
  slow.join();
  EXPECT_TRUE(slow_done);
}

}  // namespace
}  // namespace nki::sandbox
