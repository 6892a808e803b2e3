// `nkiagent ir --after PASS` through the real binary: the check pipeline stops after PASS, the IR
// is printed with PASS's findings, and an unknown pass is a usage error (exit 2).
#include <gtest/gtest.h>

#include "tests/cli/child_process.h"

namespace nki::cli {
namespace {

using testing::ChildResult;

const std::string kRepo = NKI_SOURCE_DIR;
const std::string kTooBig = kRepo + "/tests/kernels/errors/sbuf_capacity_exceeded/bad.py";  // 196 KiB tile
const std::string kEstimate = kRepo + "/tests/kernels/errors/sbuf_capacity_estimate/warn.py";
const std::string kMixed = kRepo + "/tests/kernels/errors/mixed_allocation/bad.py";

ChildResult nkiagent(std::vector<std::string> args) {
  args.insert(args.begin(), testing::nkiagent_path());
  return testing::run_child(args);
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

TEST(IrAfter, AnUnknownPassIsAUsageError) {
  ChildResult r = nkiagent({"ir", kTooBig, "--arg", "128x50176:float32", "--after", "liveness"});
  EXPECT_TRUE(r.exited && r.exit_code == 2) << r.describe() << "\n" << r.err;
  EXPECT_NE(r.err.find("--after must be bounds|outputs|capacity|direct-alloc, got 'liveness'"), std::string::npos)
      << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(IrAfter, JsonReplacesTheIrSoBothAreAUsageError) {
  ChildResult r = nkiagent({"ir", kTooBig, "--arg", "128x50176:float32", "--after", "bounds", "--json"});
  EXPECT_TRUE(r.exited && r.exit_code == 2) << r.describe() << "\n" << r.err;
}

TEST(IrAfter, StoppingBeforeTheFailingPassPrintsTheIr) {
  ChildResult all = nkiagent({"ir", kTooBig, "--arg", "128x50176:float32"});
  EXPECT_TRUE(all.exited && all.exit_code == 1) << all.describe();
  EXPECT_NE(all.err.find("error[sbuf_capacity_exceeded]"), std::string::npos) << all.err;
  EXPECT_TRUE(all.out.empty()) << all.out;

  ChildResult early = nkiagent({"ir", kTooBig, "--arg", "128x50176:float32", "--after", "outputs"});
  EXPECT_TRUE(early.exited && early.exit_code == 0) << early.describe() << "\n" << early.err;
  EXPECT_NE(early.out.find("t[k0, k1][128, 50176] = copy(x[k0, k1][128, 50176])"), std::string::npos) << early.out;
  EXPECT_TRUE(ends_with(early.out,
                        "# check passes up to 'outputs': bounds, outputs (they read the IR and do not change it)\n"
                        "# findings of 'outputs': none\n"))
      << early.out;

  ChildResult at = nkiagent({"ir", kTooBig, "--arg", "128x50176:float32", "--after", "capacity"});
  EXPECT_TRUE(at.exited && at.exit_code == 1) << at.describe();
}

TEST(IrAfter, PrintsTheFindingsOfThePass) {
  ChildResult r = nkiagent({"ir", kEstimate, "--arg", "256x20480:float32", "--arg", "128x20480:float32", "--arg",
                            "128x20480:float32", "--after", "capacity"});
  EXPECT_TRUE(r.exited && r.exit_code == 0) << r.describe() << "\n" << r.err;
  EXPECT_NE(r.out.find("# findings of 'capacity': 1\n# warning[sbuf_capacity_estimate] 21:13: estimated SBUF use"),
            std::string::npos)
      << r.out;
}

TEST(IrAfter, APassThatDoesNotApplySaysWhy) {
  // The mixed-allocation kernel compiles up to `capacity`, which it skips (direct allocation).
  ChildResult r = nkiagent({"ir", kMixed, "--arg", "128x512:float32", "--after", "capacity"});
  EXPECT_TRUE(r.exited && r.exit_code == 0) << r.describe() << "\n" << r.err;
  EXPECT_TRUE(ends_with(r.out, "# 'capacity' did not run: the kernel places its tiles itself (direct allocation)\n"))
      << r.out;
  ChildResult all = nkiagent({"ir", kMixed, "--arg", "128x512:float32", "--after", "direct-alloc"});
  EXPECT_TRUE(all.exited && all.exit_code == 1) << all.describe();
  EXPECT_NE(all.err.find("error[mixed_allocation]"), std::string::npos) << all.err;
}

}  // namespace
}  // namespace nki::cli
