#include "task/python_env.h"

#include <cstdlib>
#include <mutex>
#include <optional>

#include <nlohmann/json.hpp>

#include "base/diagnostic.h"
#include "task/subprocess.h"

namespace nki {

namespace {

constexpr const char* kProbe =
    "import json, sys\n"
    "import numpy, torch\n"
    "print(json.dumps({'torch': str(torch.__version__), 'numpy': numpy.__version__,\n"
    "                  'python': '.'.join(map(str, sys.version_info[:3]))}))\n";

constexpr double kProbeTimeout = 120.0;

// Last non-empty line of a stderr dump (usually "ModuleNotFoundError: No module named 'torch'").
std::string last_line(const std::string& text) {
  size_t end = text.find_last_not_of("\r\n ");
  if (end == std::string::npos) return {};
  size_t start = text.rfind('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1, end - (start == std::string::npos ? 0 : start + 1) + 1);
}

}  // namespace

PythonInfo probe_torch_python(const std::string& path) {
  ProcessOptions opts;
  opts.timeout_seconds = kProbeTimeout;
  ProcessResult r = run_process({path, "-c", kProbe}, opts);
  if (!r.ok()) {
    std::string why = r.describe_failure(kProbeTimeout);
    std::string detail = last_line(r.err);
    throw IoError(path + ": cannot import torch and numpy (" + why + ")" +
                  (detail.empty() ? "" : ": " + detail));
  }
  try {
    auto j = nlohmann::json::parse(last_line(r.out));
    PythonInfo info;
    info.path = path;
    info.torch_version = j.at("torch").get<std::string>();
    info.numpy_version = j.at("numpy").get<std::string>();
    info.python_version = j.at("python").get<std::string>();
    return info;
  } catch (const std::exception&) {
    throw IoError(path + ": unexpected output from the torch probe: " + last_line(r.out));
  }
}

const PythonInfo& find_torch_python() {
  static std::mutex mu;
  static std::optional<PythonInfo> cached;
  std::lock_guard<std::mutex> lock(mu);
  if (cached) return *cached;

  if (const char* env = std::getenv("NKI_PYTHON"); env && *env) {
    try {
      cached = probe_torch_python(env);
    } catch (const IoError& e) {
      throw IoError(std::string("NKI_PYTHON is set but unusable: ") + e.what());
    }
    return *cached;
  }
  std::string reasons;
  for (const char* candidate : {"/usr/bin/python3", "python3"}) {
    try {
      cached = probe_torch_python(candidate);
      return *cached;
    } catch (const IoError& e) {
      reasons += std::string("\n  ") + e.what();
    }
  }
  throw IoError("no Python interpreter with torch found (needed to compute reference outputs; "
                "install python3-torch or set NKI_PYTHON):" + reasons);
}

}  // namespace nki
