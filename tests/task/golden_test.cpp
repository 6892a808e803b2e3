// Golden data through tools/golden/golden.py. Needs a Python with torch; skipped otherwise.
#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "base/diagnostic.h"
#include "base/dtype_convert.h"
#include "task/golden_cache.h"
#include "task/subprocess.h"
#include "task/verify.h"

namespace nki {
namespace {

namespace fs = std::filesystem;

const char* kTinyTask = R"({
  "id": "t_tiny", "level": 1, "category": "elementwise", "tags": [], "description": "2x + w",
  "origin": "test", "family": "tiny", "init_args": [6],
  "inputs": [{"name": "x", "shape": [4, 6], "dtype": "bfloat16",
              "dist": {"kind": "normal", "mean": 0.0, "std": 1.0}}],
  "parameters": [{"name": "w", "shape": [6], "dtype": "float32",
                  "dist": {"kind": "uniform", "low": 1.0, "high": 2.0}}],
  "buffers": [],
  "outputs": [{"shape": [4, 6], "dtype": "bfloat16"}],
  "tolerance": null, "seed": 5, "trials": 2})";

const char* kTinyReference = R"(import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.w = nn.Parameter(torch.zeros(n))

    def forward(self, x):
        return 2 * x + self.w
)";

void write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::vector<float> as_f32(const HostTensor& t) {
  std::vector<float> v(static_cast<size_t>(t.element_count()));
  convert_to_f32(t.dtype, t.data.data(), v.data(), v.size());
  return v;
}

class GoldenTest : public ::testing::Test {
 protected:
  void SetUp() override {
    try {
      python_ = find_torch_python();
    } catch (const IoError& e) {
      GTEST_SKIP() << "no torch-capable python: " << e.what();
    }
    char tmpl[] = "/tmp/nki_golden_test_XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    tmp_ = tmpl;
    ::setenv("NKI_CACHE_DIR", (tmp_ + "/cache").c_str(), 1);
  }
  void TearDown() override {
    if (!tmp_.empty()) fs::remove_all(tmp_);
  }
  // Creates tmp/<id>/ with the given manifest and reference.
  TaskSpec make_task(const std::string& id, const std::string& manifest,
                     const std::string& reference) {
    std::string dir = tmp_ + "/" + id;
    fs::create_directories(dir);
    write(dir + "/task.json", manifest);
    write(dir + "/reference.py", reference);
    return load_task(dir);
  }
  std::string load_error(const TaskSpec& t) {
    try {
      load_golden(t, 0, python_);
    } catch (const IoError& e) {
      return e.what();
    }
    return "(no error)";
  }

  PythonInfo python_;
  std::string tmp_;
};

TEST_F(GoldenTest, GeneratesThenHitsCache) {
  TaskSpec t = make_task("t_tiny", kTinyTask, kTinyReference);
  GoldenTrial g = load_golden(t, 0, python_);
  EXPECT_FALSE(g.cache_hit);
  EXPECT_EQ(g.cache_entry.rfind(tmp_ + "/cache/golden/", 0), 0u);
  ASSERT_EQ(g.args.size(), 2u);
  EXPECT_EQ(g.arg_names, (std::vector<std::string>{"x", "w"}));
  EXPECT_EQ(g.args[0].dtype, DType::BFloat16);
  EXPECT_EQ(g.args[0].shape, (std::vector<int64_t>{4, 6}));
  EXPECT_EQ(g.args[1].dtype, DType::Float32);
  ASSERT_EQ(g.expected.size(), 1u);
  EXPECT_EQ(g.expected[0].dtype, DType::Float32);
  // The reference saw exactly the rounded bf16 inputs: expected = 2x + w in fp32.
  std::vector<float> x = as_f32(g.args[0]), w = as_f32(g.args[1]), e = as_f32(g.expected[0]);
  for (int i = 0; i < 24; ++i) EXPECT_FLOAT_EQ(e[i], 2 * x[i] + w[i % 6]) << i;
  for (float v : w) {
    EXPECT_GE(v, 1.0f);
    EXPECT_LT(v, 2.0f);
  }

  GoldenTrial again = load_golden(t, 0, python_);
  EXPECT_TRUE(again.cache_hit);
  EXPECT_EQ(again.args[0].data, g.args[0].data);
  EXPECT_EQ(again.expected[0].data, g.expected[0].data);

  GoldenTrial other = load_golden(t, 1, python_);
  EXPECT_FALSE(other.cache_hit);
  EXPECT_NE(other.args[0].data, g.args[0].data);  // seed + 1 draws different inputs
  // No temporary directories are left behind.
  for (const auto& e2 : fs::directory_iterator(tmp_ + "/cache/golden")) {
    EXPECT_NE(e2.path().filename().string().rfind(".tmp-", 0), 0u) << e2.path();
  }

  // A damaged entry (truncated by hand) is detected and regenerated.
  std::ofstream(g.cache_entry + "/out0.npy", std::ios::trunc) << "garbage";
  GoldenTrial repaired = load_golden(t, 0, python_);
  EXPECT_FALSE(repaired.cache_hit);
  EXPECT_EQ(repaired.expected[0].data, g.expected[0].data);

  // The key covers the trial, the torch version and the reference source.
  std::string k0 = golden_cache_key(t, 0, python_);
  EXPECT_EQ(k0, golden_cache_key(t, 0, python_));
  EXPECT_NE(k0, golden_cache_key(t, 1, python_));
  PythonInfo other_torch = python_;
  other_torch.torch_version += "-other";
  EXPECT_NE(k0, golden_cache_key(t, 0, other_torch));
  write(t.dir + "/reference.py", std::string(kTinyReference) + "# edited\n");
  EXPECT_NE(k0, golden_cache_key(t, 0, python_));
  EXPECT_FALSE(load_golden(t, 0, python_).cache_hit);
}

// Flips the last byte of `path` (inside the array data, so the .npy still parses).
void flip_last_byte(const std::string& path) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(-1, std::ios::end);
  char c = 0;
  f.get(c);
  f.seekp(-1, std::ios::end);
  f.put(static_cast<char>(c ^ 0x5a));
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

TEST_F(GoldenTest, TamperedOrTruncatedOutputIsDetectedAndRegenerated) {
  TaskSpec t = make_task("t_tiny", kTinyTask, kTinyReference);
  GoldenTrial g = load_golden(t, 0, python_);
  const std::string out0 = g.cache_entry + "/out0.npy";
  const std::string original = file_bytes(out0);

  // One flipped data byte still decodes as a valid .npy of the right shape: only the checksum
  // tells it from the real reference.
  flip_last_byte(out0);
  GoldenTrial repaired = load_golden(t, 0, python_);
  EXPECT_FALSE(repaired.cache_hit);
  EXPECT_EQ(repaired.expected[0].data, g.expected[0].data);
  EXPECT_EQ(file_bytes(out0), original);  // the entry on disk was replaced too

  fs::resize_file(out0, original.size() - 4);
  repaired = load_golden(t, 0, python_);
  EXPECT_FALSE(repaired.cache_hit);
  EXPECT_EQ(repaired.expected[0].data, g.expected[0].data);
  EXPECT_TRUE(load_golden(t, 0, python_).cache_hit);

  // An entry without SHA256SUMS (an older nkiagent's, or damaged) is regenerated, not trusted.
  fs::remove(g.cache_entry + "/SHA256SUMS");
  flip_last_byte(g.cache_entry + "/arg0.npy");
  repaired = load_golden(t, 0, python_);
  EXPECT_FALSE(repaired.cache_hit);
  EXPECT_EQ(repaired.args[0].data, g.args[0].data);
  EXPECT_TRUE(fs::exists(g.cache_entry + "/SHA256SUMS"));
  for (const auto& e : fs::directory_iterator(tmp_ + "/cache/golden"))
    EXPECT_NE(e.path().filename().string().rfind(".tmp-", 0), 0u) << e.path();
}

TEST_F(GoldenTest, TamperedEntryWithoutAGeneratorIsAClearIoError) {
  TaskSpec t = make_task("t_tiny", kTinyTask, kTinyReference);
  GoldenTrial g = load_golden(t, 0, python_);
  flip_last_byte(g.cache_entry + "/out0.npy");
  PythonInfo gone = python_;  // same versions, so the same cache key, but nothing can run
  gone.path = "/nonexistent/python3";
  std::string err;
  try {
    load_golden(t, 0, gone);
    FAIL() << "a damaged entry was trusted";
  } catch (const IoError& e) {
    err = e.what();
  }
  EXPECT_NE(err.find("golden cache entry for task 't_tiny' trial 0 is damaged"), std::string::npos) << err;
  EXPECT_NE(err.find("out0.npy: contents do not match SHA256SUMS"), std::string::npos) << err;
  EXPECT_NE(err.find("regenerating it failed"), std::string::npos) << err;
  EXPECT_NE(err.find("/nonexistent/python3"), std::string::npos) << err;
  // With the generator back, the entry is rebuilt and correct.
  GoldenTrial repaired = load_golden(t, 0, python_);
  EXPECT_FALSE(repaired.cache_hit);
  EXPECT_EQ(repaired.expected[0].data, g.expected[0].data);
}

TEST_F(GoldenTest, EntriesAreReadableByOtherUsersWhateverTheUmask) {
  TaskSpec t = make_task("t_tiny", kTinyTask, kTinyReference);
  mode_t old_mask = ::umask(077);
  GoldenTrial g;
  try {
    g = load_golden(t, 0, python_);
  } catch (...) {
    ::umask(old_mask);
    throw;
  }
  ::umask(old_mask);
  auto mode_of = [](const std::string& p) {
    struct stat st {};
    ::stat(p.c_str(), &st);
    return st.st_mode & 07777;
  };
  EXPECT_EQ(mode_of(tmp_ + "/cache"), 0755u);  // created by the cache, so opened up by it
  EXPECT_EQ(mode_of(tmp_ + "/cache/golden"), 0755u);
  EXPECT_EQ(mode_of(g.cache_entry), 0755u);
  int files = 0;
  for (const auto& e : fs::directory_iterator(g.cache_entry)) {
    EXPECT_EQ(mode_of(e.path().string()), 0644u) << e.path();
    ++files;
  }
  EXPECT_EQ(files, 5);  // arg0.npy, arg1.npy, out0.npy, meta.json, SHA256SUMS
  // SHA256SUMS uses sha256sum's format, so the entry can be checked by hand.
  ProcessOptions o;
  o.timeout_seconds = 30;
  ProcessResult r = run_process({"/bin/sh", "-c", "cd '" + g.cache_entry + "' && sha256sum --quiet -c SHA256SUMS"}, o);
  EXPECT_TRUE(r.ok()) << r.out << r.err;
}

TEST_F(GoldenTest, ReferenceProblemsAreReported) {
  std::string bad = kTinyReference;
  bad.replace(bad.find("return 2 * x + self.w"), 21, "return x / 0 + undefined_name");
  TaskSpec t = make_task("t_tiny", kTinyTask, bad);
  std::string err = load_error(t);
  EXPECT_NE(err.find("golden data for task 't_tiny' trial 0 failed"), std::string::npos) << err;
  EXPECT_NE(err.find("forward() failed: NameError"), std::string::npos) << err;
  EXPECT_NE(err.find("undefined_name"), std::string::npos) << err;
  // Nothing was published for the failing task.
  EXPECT_FALSE(fs::exists(tmp_ + "/cache/golden/" + golden_cache_key(t, 0, python_)));

  std::string manifest = kTinyTask;
  manifest.replace(manifest.find("[{\"shape\": [4, 6]"), 17, "[{\"shape\": [4, 7]");
  fs::remove_all(t.dir);
  t = make_task("t_tiny", manifest, kTinyReference);
  err = load_error(t);
  EXPECT_NE(err.find("output 0 has shape [4, 6], task.json declares [4, 7]"), std::string::npos)
      << err;

  manifest = kTinyTask;
  manifest.replace(manifest.find("\"name\": \"w\""), 11, "\"name\": \"v\"");
  fs::remove_all(t.dir);
  t = make_task("t_tiny", manifest, kTinyReference);
  err = load_error(t);
  EXPECT_NE(err.find("Model registers 'w' where task.json declares 'v'"), std::string::npos) << err;
}

TEST(GoldenPython, UnusableInterpreterIsAClearError) {
  try {
    probe_torch_python("/nonexistent/python3");
    FAIL();
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/python3: cannot find torch"),
              std::string::npos)
        << e.what();
  }
}

// A kernel computed in C++ passes verify against real golden data of a repository task.
TEST_F(GoldenTest, VerifyRepositoryTaskWithCppKernel) {
  TaskSpec t = load_task(std::string(NKI_SOURCE_DIR) + "/tasks/l1_add_fp32");
  auto add = [](const std::vector<HostTensor>& args) {
    KernelRunResult r;
    HostTensor out = args[0];
    std::vector<float> a = as_f32(args[0]), b = as_f32(args[1]);
    for (size_t i = 0; i < a.size(); ++i) a[i] += b[i];
    std::memcpy(out.data.data(), a.data(), out.data.size());
    r.outputs = {out};
    r.args_after = args;
    return r;
  };
  // Default golden provider: both trials are generated by one golden.py run, then cached.
  VerifyReport r = verify_task(t, VerifyOptions{}, add);
  EXPECT_EQ(r.status, VerifyStatus::Pass) << render_verify_text(r);
  EXPECT_EQ(r.trials.size(), 2u);
  EXPECT_TRUE(load_golden(t, 0, python_).cache_hit);
  EXPECT_TRUE(load_golden(t, 1, python_).cache_hit);
  EXPECT_FALSE(load_golden(t, 2, python_).cache_hit);
}

// Each task-quality rule of `golden.py --check` rejects a task that breaks it (docs/tasks.md,
// "Task-quality checks"); the tiny task itself passes.
TEST_F(GoldenTest, QualityChecksRejectDegenerateTasks) {
  struct Case {
    const char* what;
    std::string reference_body;  // replaces "return 2 * x + self.w"
    std::string manifest_from, manifest_to;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"fine", "return 2 * x + self.w", "", "", nullptr},
      {"nondeterministic", "return x + self.w + int.from_bytes(__import__('os').urandom(4), 'little') / 2**32", "", "",
       "differs between two identical runs"},
      {"constant", "return x * 0 + self.w.sum() * 0 + 3.0", "", "", "is constant"},
      {"mostly zeros", "y = x + self.w\n        y[:, 1:] = 0\n        y[1:, 0] = 0\n        return y", "\"shape\": [4, 6]", "\"shape\": [5, 6]",
       "% zeros"},
      {"tolerance below rounding", "return 2 * x + self.w", "\"tolerance\": null",
       "\"tolerance\": {\"atol\": 1e-3, \"rtol\": 1e-3}", "uses"},
      {"ignored input", "return 2 * self.w.expand(4, 6)", "", "", "input 'x' does not affect any output"},
      {"ignored parameter", "return 2 * x + self.w * 0", "", "", "parameter 'w' does not affect any output"},
      {"forward arity", "return 2 * x + self.w if extra is None else x", "", "", "forward() takes 2 argument(s)"},
  };
  int n = 0;
  for (const Case& c : cases) {
    std::string reference = kTinyReference;
    reference.replace(reference.find("return 2 * x + self.w"), 21, c.reference_body);
    if (std::string(c.what) == "forward arity") reference.replace(reference.find("(self, x)"), 9, "(self, x, extra=None)");
    std::string manifest = kTinyTask;
    if (!c.manifest_from.empty()) {
      // The "mostly zeros" case needs [5, 6] in and out; replace every occurrence.
      for (size_t at; (at = manifest.find(c.manifest_from)) != std::string::npos;)
        manifest.replace(at, c.manifest_from.size(), c.manifest_to);
    }
    std::string id = "t_quality" + std::to_string(n++);
    std::string renamed = manifest;
    renamed.replace(renamed.find("t_tiny"), 6, id);
    make_task(id, renamed, reference);
    ProcessOptions o;
    o.timeout_seconds = 120;
    ProcessResult r = run_process({python_.path, golden_script_path(), "--check", tmp_ + "/" + id}, o);
    if (!c.message) {
      EXPECT_EQ(r.exit_code, 0) << c.what << ": " << r.err;
      continue;
    }
    EXPECT_EQ(r.exit_code, 1) << c.what << ": " << r.out << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.what << ": " << r.err;
  }
}

// Every task directory passes `golden.py --check` (manifest, reference, outputs, determinism and
// the task-quality rules).
TEST_F(GoldenTest, AllTasksPassGoldenCheck) {
  std::string root = std::string(NKI_SOURCE_DIR) + "/tasks";
  std::vector<std::string> argv = {python_.path, golden_script_path(), "--check"};
  for (const auto& e : fs::directory_iterator(root)) {
    if (fs::exists(e.path() / "task.json")) argv.push_back(e.path().string());
  }
  ASSERT_GE(argv.size(), 23u);
  // One process for every task; each reference runs 2 + (number of arguments) times (the
  // determinism and every-argument-matters checks), so allow for 250 tasks on a loaded machine.
  ProcessOptions o;
  o.timeout_seconds = 1800;
  o.env = {"PYTHONDONTWRITEBYTECODE=1"};
  ProcessResult r = run_process(argv, o);
  EXPECT_TRUE(r.ok()) << r.describe_failure(1800) << "\n" << r.out << r.err;
}

}  // namespace
}  // namespace nki

namespace nki {
namespace {

// golden.py's own command line: clear messages and distinct exit codes for bad use.
TEST_F(GoldenTest, GoldenScriptCommandLineErrors) {
  ProcessOptions o;
  o.timeout_seconds = 120;
  ProcessResult usage = run_process({python_.path, golden_script_path()}, o);
  EXPECT_EQ(usage.exit_code, 2);
  EXPECT_NE(usage.err.find("usage: golden.py"), std::string::npos) << usage.err;

  ProcessResult bad_trial = run_process(
      {python_.path, golden_script_path(), tmp_, "--trial", "x", "--out", tmp_ + "/o"}, o);
  EXPECT_EQ(bad_trial.exit_code, 2);
  EXPECT_NE(bad_trial.err.find("--trial needs a non-negative integer"), std::string::npos);

  std::string dir = tmp_ + "/t_broken";
  fs::create_directories(dir);
  write(dir + "/task.json", "{\"id\": \"t_broken\",");
  ProcessResult broken = run_process({python_.path, golden_script_path(), "--check", dir}, o);
  EXPECT_EQ(broken.exit_code, 1);
  EXPECT_NE(broken.err.find("t_broken/task.json: invalid JSON"), std::string::npos) << broken.err;
  EXPECT_NE(broken.out.find("FAIL t_broken"), std::string::npos);

  std::string renamed = kTinyTask;
  renamed.replace(renamed.find("t_tiny"), 6, "t_broken");
  write(dir + "/task.json", renamed);
  ProcessResult no_ref = run_process({python_.path, golden_script_path(), "--check", dir}, o);
  EXPECT_EQ(no_ref.exit_code, 1);
  EXPECT_NE(no_ref.err.find("reference.py: file not found"), std::string::npos) << no_ref.err;
}

}  // namespace
}  // namespace nki
