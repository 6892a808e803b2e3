#include <chrono>

#include <gtest/gtest.h>

#include "task/sha256.h"
#include "task/subprocess.h"

namespace nki {
namespace {

TEST(Subprocess, CapturesOutputAndExitCode) {
  ProcessResult r = run_process({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"});
  EXPECT_TRUE(r.started);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.out, "out\n");
  EXPECT_EQ(r.err, "err\n");
  EXPECT_EQ(r.describe_failure(1), "exit code 3");
}

TEST(Subprocess, ArgumentsAreNotShellExpanded) {
  ProcessResult r = run_process({"/bin/echo", "$HOME", "a b"});
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.out, "$HOME a b\n");
}

TEST(Subprocess, EnvironmentOverride) {
  ProcessOptions o;
  o.env = {"NKI_TEST_VAR=hello"};
  ProcessResult r = run_process({"/bin/sh", "-c", "printf %s \"$NKI_TEST_VAR\""}, o);
  EXPECT_EQ(r.out, "hello");
}

TEST(Subprocess, TimeoutKillsTheProcessGroup) {
  ProcessOptions o;
  o.timeout_seconds = 0.3;
  auto t0 = std::chrono::steady_clock::now();
  // The child closes its pipes, then a grandchild sleeps: both must be killed.
  ProcessResult r = run_process({"/bin/sh", "-c", "exec >/dev/null 2>&1; sleep 20 & sleep 20"}, o);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_TRUE(r.timed_out);
  EXPECT_FALSE(r.ok());
  EXPECT_LT(secs, 5.0);
  EXPECT_EQ(r.describe_failure(0.3).rfind("timed out", 0), 0u);
}

TEST(Subprocess, MissingProgram) {
  ProcessResult r = run_process({"/nonexistent/program"});
  EXPECT_FALSE(r.started);
  EXPECT_FALSE(r.error.empty());
  EXPECT_FALSE(run_process({}).started);
}

TEST(Sha256, KnownVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  std::string million(1000000, 'a');
  EXPECT_EQ(sha256_hex(million),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, FieldsDoNotCollide) {
  Sha256 a, b;
  a.update_field("ab");
  a.update_field("c");
  b.update_field("a");
  b.update_field("bc");
  EXPECT_NE(a.hex_digest(), b.hex_digest());
}

}  // namespace
}  // namespace nki
