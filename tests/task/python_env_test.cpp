// The interpreter probe behind the golden-cache key: versions read from installed files agree
// with what importing the packages reports, and the on-disk probe cache is reused only while the
// files it looked at are unchanged.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "base/diagnostic.h"
#include "task/python_env.h"
#include "task/subprocess.h"

namespace nki {
namespace {

namespace fs = std::filesystem;

void write(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

int lines_in(const std::string& path) {
  std::ifstream in(path);
  int n = 0;
  for (std::string l; std::getline(in, l);) ++n;
  return n;
}

class PythonProbe : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/nki_python_probe_XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    tmp_ = tmpl;
    if (const char* p = std::getenv("PYTHONPATH")) old_pythonpath_ = p;
  }
  void TearDown() override {
    if (old_pythonpath_) ::setenv("PYTHONPATH", old_pythonpath_->c_str(), 1);
    else ::unsetenv("PYTHONPATH");
    if (!tmp_.empty()) fs::remove_all(tmp_);
  }
  // A site directory with stand-in torch and numpy packages that must never be imported (their
  // __init__ raises), and a wrapper interpreter that logs each start.
  void make_fake_site() {
    write(tmp_ + "/site/torch/__init__.py", "raise RuntimeError('the probe imported torch')\n");
    write(tmp_ + "/site/torch/version.py", "__version__ = '9.8.7'\ndebug = False\n");
    write(tmp_ + "/site/numpy/__init__.py", "raise RuntimeError('the probe imported numpy')\n");
    write(tmp_ + "/site/numpy/version.py", "from ._version import get_versions\n");  // not a literal
    write(tmp_ + "/site/numpy-3.1.4.dist-info/METADATA", "Metadata-Version: 2.1\nName: numpy\nVersion: 3.1.4\n\nbody\n");
    write(tmp_ + "/python", "#!/bin/sh\necho start >> " + tmp_ + "/starts.log\nexec /usr/bin/python3 \"$@\"\n");
    fs::permissions(tmp_ + "/python", fs::perms::owner_all);
    ::setenv("PYTHONPATH", (tmp_ + "/site").c_str(), 1);
  }
  std::string tmp_;
  std::optional<std::string> old_pythonpath_;
};

TEST_F(PythonProbe, AgreesWithImportingTorchAndNumpy) {
  if (::access("/usr/bin/python3", X_OK) != 0) GTEST_SKIP() << "no /usr/bin/python3";
  ProcessOptions po;
  po.timeout_seconds = 120.0;
  ProcessResult r = run_process(
      {"/usr/bin/python3", "-c",
       "import json, torch, numpy; print(json.dumps([str(torch.__version__), numpy.__version__]))"},
      po);
  if (!r.ok()) GTEST_SKIP() << "/usr/bin/python3 cannot import torch and numpy";
  auto imported = nlohmann::json::parse(r.out);
  PythonInfo p = probe_torch_python("/usr/bin/python3");
  EXPECT_EQ(p.torch_version, imported[0].get<std::string>());
  EXPECT_EQ(p.numpy_version, imported[1].get<std::string>());
  EXPECT_FALSE(p.stamp_paths.empty());
}

TEST_F(PythonProbe, ReadsVersionFilesWithoutImporting) {
  if (::access("/usr/bin/python3", X_OK) != 0) GTEST_SKIP() << "no /usr/bin/python3";
  make_fake_site();
  PythonInfo p = probe_torch_python(tmp_ + "/python");
  EXPECT_EQ(p.torch_version, "9.8.7");   // torch/version.py
  EXPECT_EQ(p.numpy_version, "3.1.4");   // numpy-*.dist-info/METADATA (version.py is no literal)
}

TEST_F(PythonProbe, MissingPackageIsAClearError) {
  if (::access("/usr/bin/python3", X_OK) != 0) GTEST_SKIP() << "no /usr/bin/python3";
  make_fake_site();
  // -S: no site-packages, so only the fake site on PYTHONPATH is visible; remove its torch.
  write(tmp_ + "/python", "#!/bin/sh\nexec /usr/bin/python3 -S \"$@\"\n");
  fs::remove_all(tmp_ + "/site/torch");
  try {
    probe_torch_python(tmp_ + "/python");
    FAIL() << "a Python without torch was accepted";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("No module named 'torch'"), std::string::npos) << e.what();
  }
}

TEST_F(PythonProbe, CacheIsReusedUntilAStampedFileChanges) {
  if (::access("/usr/bin/python3", X_OK) != 0) GTEST_SKIP() << "no /usr/bin/python3";
  make_fake_site();
  const std::string py = tmp_ + "/python", cache = tmp_ + "/cache", log = tmp_ + "/starts.log";
  bool hit = true;
  PythonInfo a = probe_torch_python_cached(py, cache, &hit);
  EXPECT_FALSE(hit);
  EXPECT_EQ(lines_in(log), 1);
  PythonInfo b = probe_torch_python_cached(py, cache, &hit);
  EXPECT_TRUE(hit);
  EXPECT_EQ(lines_in(log), 1) << "a cache hit started Python";
  EXPECT_EQ(b.torch_version, "9.8.7");
  EXPECT_EQ(b.numpy_version, a.numpy_version);

  // Upgrading torch (its version.py changes) is noticed.
  write(tmp_ + "/site/torch/version.py", "__version__ = '9.8.10'\n");
  PythonInfo c = probe_torch_python_cached(py, cache, &hit);
  EXPECT_FALSE(hit);
  EXPECT_EQ(c.torch_version, "9.8.10");
  EXPECT_EQ(lines_in(log), 2);

  // So is a numpy upgrade that replaces its metadata directory.
  fs::remove_all(tmp_ + "/site/numpy-3.1.4.dist-info");
  write(tmp_ + "/site/numpy-3.2.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: numpy\nVersion: 3.2.0\n");
  PythonInfo d = probe_torch_python_cached(py, cache, &hit);
  EXPECT_FALSE(hit);
  EXPECT_EQ(d.numpy_version, "3.2.0");

  // Another PYTHONPATH is another cache entry (a different torch may be found first).
  write(tmp_ + "/site2/torch/__init__.py", "");
  write(tmp_ + "/site2/torch/version.py", "__version__ = '1.0.0'\n");
  ::setenv("PYTHONPATH", (tmp_ + "/site2:" + tmp_ + "/site").c_str(), 1);
  PythonInfo e = probe_torch_python_cached(py, cache, &hit);
  EXPECT_FALSE(hit);
  EXPECT_EQ(e.torch_version, "1.0.0");

  // A damaged cache file is probed again, not trusted.
  ::setenv("PYTHONPATH", (tmp_ + "/site").c_str(), 1);
  for (const auto& f : fs::directory_iterator(cache)) write(f.path().string(), "{not json");
  PythonInfo f = probe_torch_python_cached(py, cache, &hit);
  EXPECT_FALSE(hit);
  EXPECT_EQ(f.torch_version, "9.8.10");
}

}  // namespace
}  // namespace nki
