#include "task/python_env.h"

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "base/diagnostic.h"
#include "task/golden_cache.h"
#include "task/sha256.h"
#include "task/subprocess.h"

namespace nki {

namespace {

namespace fs = std::filesystem;

// Prints {"torch", "numpy", "python", "stamps"} as JSON without importing torch or numpy (see
// python_env.h). sys.path[0] is the current directory under -c; golden.py runs as a script and
// never sees it, so the probe drops it too. The user site directory is stamped even when it
// does not exist yet: creating it (pip install --user torch) must invalidate the cache.
constexpr const char* kProbe = R"PY(
import json, os, re, site, sys
from importlib.util import find_spec
if sys.path and sys.path[0] in ('', os.getcwd()):
    del sys.path[0]
stamps = [os.path.realpath(sys.executable)] + [p for p in sys.path if p]
if site.ENABLE_USER_SITE:
    stamps.append(site.getusersitepackages())
def literal(path, names):
    try:
        with open(path, encoding='utf-8') as f:
            text = f.read()
    except OSError:
        return None
    for n in names:
        m = re.search(r"^%s\s*(?::\s*str\s*)?=\s*['\"]([^'\"\n]+)['\"]" % n, text, re.M)
        if m:
            return m.group(1)
    return None
def package(name):
    spec = find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        sys.stderr.write("ModuleNotFoundError: No module named '%s'\n" % name)
        sys.exit(1)
    pkg = os.path.realpath(list(spec.submodule_search_locations)[0])
    stamps.append(pkg)
    return pkg
def metadata_version(name, site_dir):
    found = set()
    try:
        entries = os.listdir(site_dir)
    except OSError:
        return None
    for e in entries:
        base, ext = os.path.splitext(e)
        if ext not in ('.dist-info', '.egg-info') or base.split('-')[0].lower().replace('_', '-') != name:
            continue
        meta = os.path.join(site_dir, e)
        if os.path.isdir(meta):
            meta = os.path.join(meta, 'METADATA' if ext == '.dist-info' else 'PKG-INFO')
        try:
            with open(meta, encoding='utf-8', errors='replace') as f:
                for line in f:
                    if line.startswith('Version:'):
                        stamps.append(meta)
                        found.add(line.split(':', 1)[1].strip())
                        break
                    if not line.strip():
                        break
        except OSError:
            continue
    return found.pop() if len(found) == 1 else None
def version_of(name, names):
    pkg = package(name)
    stamps.append(os.path.join(pkg, 'version.py'))
    v = literal(os.path.join(pkg, 'version.py'), names) or metadata_version(name, os.path.dirname(pkg))
    return v or str(__import__(name).__version__)
out = {'torch': version_of('torch', ['__version__']),
       'numpy': version_of('numpy', ['__version__', 'version']),
       'python': '.'.join(map(str, sys.version_info[:3]))}
out['stamps'] = sorted(set(stamps))
print(json.dumps(out))
)PY";

constexpr double kProbeTimeout = 120.0;
constexpr const char* kCacheFormat = "nki-python-probe-v1";

// Last non-empty line of a stderr dump (usually "ModuleNotFoundError: No module named 'torch'").
std::string last_line(const std::string& text) {
  size_t end = text.find_last_not_of("\r\n ");
  if (end == std::string::npos) return {};
  size_t start = text.rfind('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1, end - (start == std::string::npos ? 0 : start + 1) + 1);
}

std::string env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

// What `path` resolves to when run: itself when it contains '/', else the first executable of
// that name on PATH (as posix_spawnp does).
std::string resolve_interpreter(const std::string& path) {
  if (path.find('/') != std::string::npos) return path;
  std::stringstream dirs(env_or_empty("PATH"));
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    std::string candidate = (dir.empty() ? "." : dir) + "/" + path;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return path;
}

// "mtime_ns size inode" of a file or directory, or "missing".
std::string stamp_of(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return "missing";
  long long ns = static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
  return std::to_string(ns) + " " + std::to_string(static_cast<long long>(st.st_size)) + " " +
         std::to_string(static_cast<unsigned long long>(st.st_ino));
}

// Everything besides the stamped files that decides which torch `path` would import.
std::string cache_file_name(const std::string& path) {
  Sha256 h;
  h.update_field(kCacheFormat);
  h.update_field(path);
  h.update_field(resolve_interpreter(path));
  for (const char* v : {"PYTHONPATH", "PYTHONHOME", "PYTHONUSERBASE", "PYTHONNOUSERSITE",
                        "PYTHONSAFEPATH", "PYTHONPLATLIBDIR", "HOME"}) {
    h.update_field(v);
    h.update_field(env_or_empty(v));
  }
  return h.hex_digest() + ".json";
}

std::optional<PythonInfo> read_cached(const std::string& file, const std::string& path) {
  std::ifstream in(file);
  if (!in) return std::nullopt;
  try {
    nlohmann::json j = nlohmann::json::parse(in);
    if (j.at("format").get<std::string>() != kCacheFormat || j.at("interpreter").get<std::string>() != path)
      return std::nullopt;
    PythonInfo info;
    info.path = path;
    info.torch_version = j.at("torch").get<std::string>();
    info.numpy_version = j.at("numpy").get<std::string>();
    info.python_version = j.at("python").get<std::string>();
    for (const auto& s : j.at("stamps").items()) {
      if (stamp_of(s.key()) != s.value().get<std::string>()) return std::nullopt;
      info.stamp_paths.push_back(s.key());
    }
    // The interpreter as invoked (a symlink may be re-pointed without touching its target).
    if (stamp_of(resolve_interpreter(path)) != j.at("interpreter_stamp").get<std::string>()) return std::nullopt;
    return info;
  } catch (const std::exception&) {
    return std::nullopt;  // damaged or from another version: probe again
  }
}

void write_cached(const std::string& dir, const std::string& file, const PythonInfo& info) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  nlohmann::json stamps = nlohmann::json::object();
  for (const std::string& p : info.stamp_paths) stamps[p] = stamp_of(p);
  nlohmann::json j = {{"format", kCacheFormat},
                      {"interpreter", info.path},
                      {"interpreter_stamp", stamp_of(resolve_interpreter(info.path))},
                      {"torch", info.torch_version},
                      {"numpy", info.numpy_version},
                      {"python", info.python_version},
                      {"stamps", stamps}};
  std::string tmp = file + ".tmp-" + std::to_string(::getpid());
  {
    std::ofstream out(tmp);
    if (!out || !(out << j.dump(1) << "\n")) {
      fs::remove(tmp, ec);
      return;  // a read-only cache only costs the probe next time
    }
  }
  if (::rename(tmp.c_str(), file.c_str()) != 0) fs::remove(tmp, ec);
}

}  // namespace

PythonInfo probe_torch_python(const std::string& path) {
  ProcessOptions opts;
  opts.timeout_seconds = kProbeTimeout;
  ProcessResult r = run_process({path, "-c", kProbe}, opts);
  if (!r.ok()) {
    std::string why = r.describe_failure(kProbeTimeout);
    std::string detail = last_line(r.err);
    throw IoError(path + ": cannot find torch and numpy (" + why + ")" +
                  (detail.empty() ? "" : ": " + detail));
  }
  try {
    auto j = nlohmann::json::parse(last_line(r.out));
    PythonInfo info;
    info.path = path;
    info.torch_version = j.at("torch").get<std::string>();
    info.numpy_version = j.at("numpy").get<std::string>();
    info.python_version = j.at("python").get<std::string>();
    for (const auto& s : j.at("stamps")) info.stamp_paths.push_back(s.get<std::string>());
    return info;
  } catch (const std::exception&) {
    throw IoError(path + ": unexpected output from the torch probe: " + last_line(r.out));
  }
}

std::string probe_cache_dir() {
  try {
    return golden_cache_root() + "/python";
  } catch (const IoError&) {
    return {};
  }
}

PythonInfo probe_torch_python_cached(const std::string& path, const std::string& cache_dir,
                                     bool* cache_hit) {
  if (cache_hit) *cache_hit = false;
  if (cache_dir.empty()) return probe_torch_python(path);
  const std::string file = cache_dir + "/" + cache_file_name(path);
  if (std::optional<PythonInfo> hit = read_cached(file, path)) {
    if (cache_hit) *cache_hit = true;
    return *hit;
  }
  PythonInfo info = probe_torch_python(path);
  write_cached(cache_dir, file, info);
  return info;
}

const PythonInfo& find_torch_python() {
  static std::mutex mu;
  static std::optional<PythonInfo> cached;
  std::lock_guard<std::mutex> lock(mu);
  if (cached) return *cached;

  const std::string cache_dir = probe_cache_dir();
  if (const char* env = std::getenv("NKI_PYTHON"); env && *env) {
    try {
      cached = probe_torch_python_cached(env, cache_dir);
    } catch (const IoError& e) {
      throw IoError(std::string("NKI_PYTHON is set but unusable: ") + e.what());
    }
    return *cached;
  }
  std::string reasons;
  for (const char* candidate : {"/usr/bin/python3", "python3"}) {
    try {
      cached = probe_torch_python_cached(candidate, cache_dir);
      return *cached;
    } catch (const IoError& e) {
      reasons += std::string("\n  ") + e.what();
    }
  }
  throw IoError("no Python interpreter with torch found (needed to compute reference outputs; "
                "install python3-torch or set NKI_PYTHON):" + reasons);
}

}  // namespace nki
