#include "python_numpy.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace nki::testing {
namespace {
constexpr const char* kPython = "/usr/bin/python3";
}

bool python_numpy_available() {
  static const bool available = [] {
    if (!std::filesystem::exists(kPython)) return false;
    std::string cmd = std::string(kPython) + " -c \"import numpy\" > /dev/null 2>&1";
    return std::system(cmd.c_str()) == 0;
  }();
  return available;
}

TempDir::TempDir() {
  const char* base = std::getenv("TMPDIR");
  std::string templ = std::string(base && *base ? base : "/tmp") + "/nki_numerics_XXXXXX";
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data())) throw std::runtime_error("mkdtemp failed for " + templ);
  path_ = buf.data();
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

int run_python(const TempDir& dir, const std::string& script) {
  const std::string script_path = dir.file("script.py");
  {
    std::ofstream out(script_path);
    out << script;
  }
  std::string cmd = std::string(kPython) + " " + script_path + " " + dir.path();
  return std::system(cmd.c_str());
}

}  // namespace nki::testing
