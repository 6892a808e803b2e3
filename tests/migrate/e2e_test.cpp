// migrate -> verify through the real binary on a few benchmark solutions (golden data through
// torch, hence the `slow` label), and a kernel the tool must refuse loudly.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "tests/cli/child_process.h"

namespace fs = std::filesystem;
using nki::cli::testing::ChildOptions;
using nki::cli::testing::nkiagent_path;
using nki::cli::testing::run_child;

namespace {

std::string repo() { return NKI_SOURCE_DIR; }

fs::path scratch(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("nki_migrate_e2e_" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d / name;
}

ChildOptions opts() {
  ChildOptions o;
  o.cwd = repo();
  o.timeout_s = 300;
  return o;
}

}  // namespace

class MigrateTask : public ::testing::TestWithParam<const char*> {};

// One task per main rule: plain nl (imports), nisa results (allocation), matmul accumulation,
// and a masked tail (mask -> slice bound).
TEST_P(MigrateTask, MigratesAndVerifies) {
  std::string id = GetParam();
  fs::path out = scratch(id + ".py");
  auto m = run_child({nkiagent_path(), "migrate", repo() + "/solutions/" + id + ".py", "--to", "0.6", "--task", id, "--out",
                      out.string()},
                     opts());
  ASSERT_TRUE(m.exited) << m.describe();
  EXPECT_EQ(m.exit_code, 0) << m.out << m.err;
  std::ifstream f(out);
  std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text.find("neuronxcc"), std::string::npos);
  EXPECT_EQ(text.find("nl.arange"), std::string::npos);
  auto v = run_child({nkiagent_path(), "verify", out.string(), "--task", id, "--nki", "0.6"}, opts());
  ASSERT_TRUE(v.exited) << v.describe();
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
  EXPECT_NE(v.out.find("PASS"), std::string::npos) << v.out;
}

INSTANTIATE_TEST_SUITE_P(Solutions, MigrateTask,
                         ::testing::Values("l1_add_fp32", "l1_div_fp32", "l1_matmul_fp32", "l1_softmax_fp32"));

TEST(MigrateRefuses, TriangularMaskIsReportedWithItsLine) {
  // A mask comparing two index arrays has no slice bound (0.6 writes it with affine_select).
  fs::path in = scratch("refuse.py");
  std::ofstream(in) << "import neuronxcc.nki as nki\n"
                       "import neuronxcc.nki.language as nl\n"
                       "import neuronxcc.nki.isa as nisa\n"
                       "\n"
                       "@nki.jit\n"
                       "def k(x):\n"
                       "    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)\n"
                       "    i_p = nl.arange(128)[:, None]\n"
                       "    i_f = nl.arange(128)[None, :]\n"
                       "    t = nl.load(x)\n"
                       "    nl.store(out[i_p, i_f], value=t, mask=(i_p >= i_f))\n"
                       "    return out\n";
  auto m = run_child({nkiagent_path(), "migrate", in.string(), "--arg", "128x128:float32", "--out",
                      scratch("refuse_out.py").string()},
                     opts());
  ASSERT_TRUE(m.exited) << m.describe();
  EXPECT_EQ(m.exit_code, 1) << m.out << m.err;
  EXPECT_NE(m.out.find("refuse.py:11:"), std::string::npos) << m.out;
  EXPECT_NE(m.out.find("not rewritten [mask_slices]: a mask that compares two index expressions"), std::string::npos)
      << m.out;
  EXPECT_NE(m.out.find("result: incomplete"), std::string::npos) << m.out;
}
