// Kernel parameters bound by name through the real binary (issue 28 item 5): `--arg NAME=VALUE`
// on check / ir / profile, `--input NAME=PATH` on run, mixed with positional values (those
// first), and the usage errors (exit 2) for an unknown name, a name given twice and a parameter
// left without a value.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <unistd.h>

#include "base/npy.h"
#include "tests/cli/child_process.h"

namespace nki::cli {
namespace {

namespace fs = std::filesystem;
using testing::ChildResult;

// def scale_add(x, eps, y, *, bias=0.0): x * eps + y + bias
const std::string kKernel = std::string(NKI_SOURCE_DIR) + "/tests/cli/kernels/scalar_between_tensors.py";
const std::string kTile = "128x512:float32";

ChildResult nkiagent(std::vector<std::string> args) {
  args.insert(args.begin(), testing::nkiagent_path());
  return testing::run_child(args);
}

void expect_compiles(const ChildResult& r) {
  EXPECT_TRUE(r.exited && r.exit_code == 0) << r.describe() << "\n" << r.err;
  EXPECT_NE(r.out.find("ok: kernel 'scale_add' compiles"), std::string::npos) << r.out;
}

void expect_usage_error(const ChildResult& r, const std::string& message) {
  EXPECT_TRUE(r.exited && r.exit_code == 2) << r.describe() << "\n" << r.err;
  EXPECT_NE(r.err.find(message), std::string::npos) << "stderr: " << r.err;
}

TEST(NamedArgs, AScalarBetweenTensorsIsBoundByName) {
  expect_compiles(nkiagent({"check", kKernel, "--arg", kTile, "--arg", "eps=1e-6", "--arg", "y=" + kTile}));
  // All by name, in any order, and --const for the scalar as before.
  expect_compiles(nkiagent({"check", kKernel, "--arg", "y=" + kTile, "--arg", "x=" + kTile, "--const", "eps=2"}));
  // A keyword-only parameter with a default can be named too.
  expect_compiles(
      nkiagent({"check", kKernel, "--arg", kTile, "--arg", "eps=0.5", "--arg", "y=" + kTile, "--arg", "bias=1.0"}));
}

TEST(NamedArgs, NamedTensorsGetTheirSpecAndFollowInTheOrderGiven) {
  // y named before x: y is kernel argument 0 with its own dtype, x argument 1.
  ChildResult r = nkiagent({"ir", kKernel, "--arg", "y=128x512:bfloat16", "--arg", "x=" + kTile, "--arg", "eps=1"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe() << "\n" << r.err;
  EXPECT_NE(r.out.find(" y: bfloat16[128, 512] shared_hbm param#0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" x: float32[128, 512] shared_hbm param#1"), std::string::npos) << r.out;
  // A shape that does not fit the kernel (y narrower than x) now fails inside it: exit 1.
  ChildResult bad = nkiagent({"check", kKernel, "--arg", kTile, "--arg", "eps=1", "--arg", "y=128x256:float32"});
  EXPECT_TRUE(bad.exited && bad.exit_code == 1) << bad.describe() << "\n" << bad.err;
}

TEST(NamedArgs, UnknownNamesAreUsageErrors) {
  expect_usage_error(nkiagent({"check", kKernel, "--arg", kTile, "--arg", "y=" + kTile, "--arg", "epz=1"}),
                     "--arg epz: kernel 'scale_add' has no parameter 'epz' (its parameters: x, eps, y, bias)");
  expect_usage_error(nkiagent({"check", kKernel, "--arg", kTile, "--arg", "y=" + kTile, "--const", "epz=1"}),
                     "--const epz: kernel 'scale_add' has no parameter 'epz'");
}

TEST(NamedArgs, AParameterGivenTwiceIsAUsageError) {
  expect_usage_error(nkiagent({"check", kKernel, "--arg", "eps=1", "--arg", "eps=2"}), "--arg eps=... is given twice");
  expect_usage_error(nkiagent({"check", kKernel, "--arg", kTile, "--arg", "x=" + kTile, "--arg", "eps=1"}),
                     "kernel parameter 'x' is given twice: by --arg spec #1 and by --arg x");
  expect_usage_error(
      nkiagent({"check", kKernel, "--arg", kTile, "--arg", "eps=1", "--arg", "y=" + kTile, "--const", "eps=2"}),
      "kernel parameter 'eps' is given twice: by --arg eps and by --const eps");
}

TEST(NamedArgs, MissingParametersAreUsageErrors) {
  expect_usage_error(nkiagent({"check", kKernel, "--arg", kTile, "--arg", "y=" + kTile}),
                     "kernel 'scale_add' has no --arg spec or other value for parameter 'eps' (no default)");
  expect_usage_error(nkiagent({"check", kKernel, "--arg", kTile}),
                     "kernel 'scale_add' has no --arg spec or other value for parameter 'eps', 'y' (no default)");
}

TEST(NamedArgs, PositionalValuesComeFirst) {
  expect_usage_error(nkiagent({"check", kKernel, "--arg", "eps=1", "--arg", kTile}),
                     "--arg 128x512:float32 after --arg eps=...: give the positional --arg values first");
}

TEST(NamedArgs, BadValuesAreUsageErrors) {
  expect_usage_error(nkiagent({"check", kKernel, "--arg", kTile, "--arg", "eps=(1", "--arg", "y=" + kTile}),
                     "--arg eps");
  expect_usage_error(nkiagent({"check", kKernel, "--arg", kTile, "--arg", "eps=1", "--arg", "y=128x512:float99"}),
                     "--arg unknown dtype 'float99'");
}

TEST(NamedArgs, ProfileTakesNamedArgs) {
  ChildResult r = nkiagent({"profile", kKernel, "--arg", kTile, "--arg", "eps=1", "--arg", "y=" + kTile, "--json"});
  EXPECT_TRUE(r.exited && r.exit_code == 0) << r.describe() << "\n" << r.err;
  EXPECT_NE(r.out.find("\"ok\": true"), std::string::npos) << r.out;
}

class NamedInputs : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("nki_named_inputs_" + std::to_string(::getpid()));
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }
  // A [128, 512] float32 array filled with `v`.
  std::string filled(const std::string& name, float v) {
    HostTensor t;
    t.shape = {128, 512};
    t.data.resize(128 * 512 * sizeof(float));
    for (size_t i = 0; i < 128 * 512; ++i) std::memcpy(t.data.data() + i * sizeof(float), &v, sizeof(float));
    write_npy((dir / name).string(), t);
    return (dir / name).string();
  }
  fs::path dir;
};

TEST_F(NamedInputs, RunBindsInputsByName) {
  const std::string x = filled("x.npy", 1.0f), y = filled("y.npy", 2.0f);
  // Named in the other order: x * eps + y = 1 * 3 + 2 = 5 (swapped it would be 2 * 3 + 1 = 7).
  ChildResult r = nkiagent({"run", kKernel, "--input", "y=" + y, "--input", "x=" + x, "--const", "eps=3.0",
                            "--out-dir", dir.string()});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe() << "\n" << r.err;
  HostTensor out = read_npy((dir / "out0.npy").string());
  ASSERT_EQ(out.shape, (std::vector<int64_t>{128, 512}));
  float first = 0, last = 0;
  std::memcpy(&first, out.data.data(), sizeof(float));
  std::memcpy(&last, out.data.data() + out.data.size() - sizeof(float), sizeof(float));
  EXPECT_EQ(first, 5.0f);
  EXPECT_EQ(last, 5.0f);

  expect_usage_error(nkiagent({"run", kKernel, "--input", "y=" + y, "--input", x, "--const", "eps=3.0"}),
                     "give the positional --input files first");
  expect_usage_error(nkiagent({"run", kKernel, "--input", x, "--input", "z=" + y, "--const", "eps=3.0"}),
                     "--input z: kernel 'scale_add' has no parameter 'z'");
}

}  // namespace
}  // namespace nki::cli
