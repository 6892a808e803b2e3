// The real nkiagent binary as a child process: malformed command lines end with a documented
// exit code and a message naming the problem, never with a signal (issue 17 items 5 and 9).
// Set NKIAGENT=/path/to/nkiagent to run the same checks against another build.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "base/npy.h"
#include "cli/command.h"
#include "tests/cli/child_process.h"

namespace nki::cli {
namespace {

namespace fs = std::filesystem;
using testing::ChildOptions;
using testing::ChildResult;

const std::string kRepo = NKI_SOURCE_DIR;

ChildResult nkiagent(std::vector<std::string> args, ChildOptions options = {}) {
  args.insert(args.begin(), testing::nkiagent_path());
  options.unset_env.insert(options.unset_env.end(), {"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL",
                                                     "ANTHROPIC_BASE_URL"});
  return run_child(args, options);
}

// bench loads its tasks and price table before it can fail; allow a loaded machine time.
ChildOptions long_running() {
  ChildOptions o;
  o.timeout_s = 300;
  return o;
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// Exit 2 with `message` on stderr; prints the whole result otherwise.
void expect_usage_error(const ChildResult& r, const std::string& message) {
  EXPECT_TRUE(r.exited && r.exit_code == 2) << r.describe() << "\n" << r.err;
  EXPECT_NE(r.err.find(message), std::string::npos) << "stderr: " << r.err;
}

class CliBinary : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("nki_cli_bin_" + std::to_string(::getpid()) + "_" +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir / "a_directory");
  }
  void TearDown() override { fs::remove_all(dir); }

  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  }
  std::string two_input_kernel() {
    return write("add.py",
                 "import neuronxcc.nki as nki\n"
                 "import neuronxcc.nki.language as nl\n\n"
                 "@nki.jit\n"
                 "def add(a, b):\n"
                 "    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)\n"
                 "    nl.store(out, nl.load(a) + nl.load(b))\n"
                 "    return out\n");
  }
  std::string small_npy(const std::string& name) {
    HostTensor t;
    t.dtype = DType::Float32;
    t.shape = {4, 4};
    t.data.assign(16 * 4, 0);
    write_npy((dir / name).string(), t);
    return (dir / name).string();
  }
  fs::path dir;
};

// ---------------------------------------------------------------- issue 17 item 5
TEST(CliBinaryTrials, TasksAuditTrialsAbcIsAUsageError) {
  expect_usage_error(nkiagent({"tasks", "audit", "--trials", "abc"}),
                     "--trials expects an integer from 1 to 1000, got 'abc'");
}

TEST(CliBinaryTrials, TasksVerifySolutionsTrialsAbcIsAUsageError) {
  expect_usage_error(nkiagent({"tasks", "verify-solutions", "--trials", "abc"}),
                     "--trials expects an integer from 1 to 1000, got 'abc'");
}

TEST(CliBinaryTrials, TasksAuditTrialsBeyondIntIsAUsageError) {
  expect_usage_error(nkiagent({"tasks", "audit", "--trials", "99999999999"}),
                     "--trials expects an integer from 1 to 1000, got '99999999999'");
}

TEST(CliBinaryBench, TimeoutAbcIsAUsageError) {
  expect_usage_error(nkiagent({"bench", "--model", "openai:m", "--mode", "agent", "--subset", "ablation60", "--timeout", "abc"}),
                     "--timeout expects a number from 0.001 to 86400, got 'abc'");
}

TEST_F(CliBinary, RunWithADirectoryAsInputIsAnIoError) {
  ChildResult r = nkiagent({"run", two_input_kernel(), "--input", (dir / "a_directory").string(), "--input",
                            small_npy("b.npy"), "--out-dir", (dir / "out").string()});
  expect_usage_error(r, "is a directory, expected a .npy file");
}

// Every numeric option of every command, with values that used to reach std::stoi / std::stod
// or a static_cast: each is refused by the table before the command runs.
TEST(CliBinaryNumbers, EveryNumericOptionRefusesMalformedValues) {
  for (const CommandEntry& entry : command_list()) {
    for (const OptionSpec& o : entry.make().spec.options) {
      if (o.type != ValueType::Integer && o.type != ValueType::Real) continue;
      std::vector<std::string> bad = {"abc", "", "3abc", "99999999999999999999", "1e999", "nan", "-inf", "0x10"};
      bad.push_back(std::to_string(static_cast<int64_t>(std::floor(o.min)) - 1));
      bad.push_back(std::to_string(static_cast<int64_t>(o.max) + 1));
      if (o.type == ValueType::Integer) bad.push_back("1.5");
      for (const std::string& value : bad) {
        SCOPED_TRACE(std::string(entry.name) + " --" + o.name + " '" + value + "'");
        expect_usage_error(nkiagent({entry.name, "--" + o.name, value}), "--" + o.name + " expects ");
      }
    }
  }
}

// ---------------------------------------------------------------- issue 17 item 9
TEST_F(CliBinary, VerifyOfADirectoryIsAnIoErrorLikeCheck) {
  std::string d = (dir / "a_directory").string();
  ChildResult check = nkiagent({"check", d});
  ChildResult verify = nkiagent({"verify", d, "--task", "l1_add_fp32", "--tasks-dir", kRepo + "/tasks"});
  expect_usage_error(check, "is a directory");
  expect_usage_error(verify, "is a directory");
}

TEST_F(CliBinary, RunNamesInputFilesNotArgSpecs) {
  std::string kernel = two_input_kernel();
  ChildResult none = nkiagent({"run", kernel, "--out-dir", (dir / "out").string()});
  expect_usage_error(none, "has no --input file");
  EXPECT_EQ(none.err.find("--arg"), std::string::npos) << none.err;
  std::string x = small_npy("x.npy");
  ChildResult three = nkiagent({"run", kernel, "--input", x, "--input", x, "--input", x, "--out-dir", (dir / "out").string()});
  expect_usage_error(three, "but 3 --input files were given");
  EXPECT_EQ(three.err.find("--arg"), std::string::npos) << three.err;
}

TEST(CliBinarySolve, UnknownOptionIsUnknownNotMissingAValue) {
  ChildResult r = nkiagent({"solve", "--bogus"});
  expect_usage_error(r, "unknown option --bogus");
  EXPECT_EQ(r.err.find("needs a value"), std::string::npos) << r.err;
}

TEST(CliBinaryVerify, MissingFilePrintsTheHelpHintOnce) {
  ChildResult r = nkiagent({"verify", "--task", "l1_add_fp32"});
  expect_usage_error(r, "verify takes exactly one kernel file");
  EXPECT_EQ(count(r.err, "nkiagent verify --help"), 1u) << r.err;
}

TEST(CliBinaryTrials, TasksAuditNegativeTrialsIsRefused) {
  expect_usage_error(nkiagent({"tasks", "audit", "--trials", "-5", "--tasks-dir", kRepo + "/tasks"}),
                     "--trials expects an integer from 1 to 1000, got '-5'");
}

TEST_F(CliBinary, BenchWithoutAnApiKeyIsAConfigurationErrorBeforeAnyEpisode) {
  std::string run_dir = (dir / "run").string();
  ChildResult r = nkiagent({"bench", "--model", "anthropic:claude-x", "--mode", "single-shot", "--subset", "ablation60",
                            "--tasks-dir", kRepo + "/tasks", "--run-dir", run_dir},
                           long_running());
  expect_usage_error(r, "ANTHROPIC_API_KEY is not set");
  EXPECT_FALSE(fs::exists(run_dir)) << "no episode may start";
  EXPECT_EQ(r.err.find("crashed"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("crashed"), std::string::npos) << r.out;
}

TEST_F(CliBinary, BenchWithAnUnknownProviderIsAConfigurationError) {
  std::string run_dir = (dir / "run").string();
  ChildResult r = nkiagent({"bench", "--model", "mistral:large", "--mode", "agent", "--subset", "ablation60",
                            "--tasks-dir", kRepo + "/tasks", "--run-dir", run_dir},
                           long_running());
  expect_usage_error(r, "unknown model provider 'mistral'");
  EXPECT_FALSE(fs::exists(run_dir));
}

// ---------------------------------------------------------------- every command
TEST(CliBinaryCommands, UsageErrorsGiveOneMessageAndOneHint) {
  for (const CommandEntry& entry : command_list()) {
    SCOPED_TRACE(entry.name);
    ChildResult r = nkiagent({entry.name, "--no-such-option"});
    expect_usage_error(r, "nkiagent " + std::string(entry.name) + ": unknown option --no-such-option\n");
    EXPECT_EQ(count(r.err, "--help"), 1u) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

TEST(CliBinaryCommands, HelpIsTheTableHelp) {
  for (const CommandEntry& entry : command_list()) {
    SCOPED_TRACE(entry.name);
    ChildResult r = nkiagent({entry.name, "--help"});
    EXPECT_TRUE(r.exited && r.exit_code == 0) << r.describe();
    EXPECT_EQ(r.out, format_help(entry.make().spec));
  }
}

TEST(CliBinaryCommands, NoCommandOrAnUnknownOneIsAUsageError) {
  ChildResult none = nkiagent({});
  EXPECT_TRUE(none.exited && none.exit_code == 2) << none.describe();
  EXPECT_NE(none.out.find("usage: nkiagent COMMAND"), std::string::npos);
  expect_usage_error(nkiagent({"frobnicate"}), "nkiagent: unknown command 'frobnicate'");
}

}  // namespace
}  // namespace nki::cli
