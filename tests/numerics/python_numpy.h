// Test helper: run short Python scripts with the system interpreter that has NumPy
// (/usr/bin/python3; the pyenv python3 first on PATH has no NumPy). Tests that need it call
// GTEST_SKIP() when it is unavailable.
#pragma once

#include <string>

namespace nki::testing {

// True when /usr/bin/python3 exists and can import numpy (checked once).
bool python_numpy_available();

// A fresh empty directory under $TMPDIR (or /tmp), removed by the destructor.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// Writes `script` to a file in `dir` and runs it with /usr/bin/python3, passing `dir` as
// sys.argv[1]. Returns the process exit status (0 on success).
int run_python(const TempDir& dir, const std::string& script);

}  // namespace nki::testing
