// Finding a Python interpreter that can produce golden data (torch + numpy), and the versions
// that go into the golden-cache key, without importing torch.
//
// Starting PyTorch only to read torch.__version__ used to cost seconds per `nkiagent verify`,
// even when every golden entry was cached. The probe now reads the versions from the installed
// files: torch/version.py (`__version__`, the string torch.__version__ returns), numpy/version.py
// when it is a literal, else the numpy-*.dist-info/METADATA or .egg-info/PKG-INFO next to the
// numpy package that `import numpy` would find. Only if neither exists does it import the
// package. The result is also cached on disk (probe_cache_dir), keyed by the interpreter and
// the environment variables that change sys.path, and reused while none of the files the probe
// looked at (the interpreter, every sys.path entry, the two packages and their version files)
// has changed its mtime, size or inode; so a warm verify starts no Python at all, and upgrading,
// reinstalling or shadowing torch or numpy is noticed. Whether torch really imports is checked
// by golden.py when an entry has to be generated, and reported with its stderr then.
#pragma once

#include <string>
#include <vector>

namespace nki {

struct PythonInfo {
  std::string path;            // interpreter as it will be invoked
  std::string torch_version;   // == str(torch.__version__)
  std::string numpy_version;   // == numpy.__version__ (for release builds)
  std::string python_version;  // "3.11.2"
  // Files whose (mtime, size, inode) decide whether a cached probe is still valid.
  std::vector<std::string> stamp_paths;
};

// Runs the probe script under `path` (timeout 120 s) and returns the versions; throws
// nki::IoError explaining what failed (not found, torch or numpy not installed, timeout).
PythonInfo probe_torch_python(const std::string& path);

// probe_torch_python with the on-disk cache in `cache_dir` (empty: no cache). A cache entry
// that is missing, unreadable or stale is replaced; a cache that cannot be written is ignored.
// `*cache_hit` (optional) tells whether the cached result was used.
PythonInfo probe_torch_python_cached(const std::string& path, const std::string& cache_dir,
                                     bool* cache_hit = nullptr);

// <golden cache root>/python, or empty when no cache root can be determined.
std::string probe_cache_dir();

// The interpreter used for golden data, probed once per process (and cached on disk):
//   1. $NKI_PYTHON if set (must work: no silent fallback when the user asked for one);
//   2. /usr/bin/python3 (Debian's python3-torch);
//   3. python3 on PATH.
// The chosen interpreter must have torch and numpy installed. Throws nki::IoError listing every
// candidate and why it was rejected.
const PythonInfo& find_torch_python();

}  // namespace nki
