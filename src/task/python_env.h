// Finding a Python interpreter that can import torch (needed only to produce golden data).
#pragma once

#include <string>

namespace nki {

struct PythonInfo {
  std::string path;            // interpreter as it will be invoked
  std::string torch_version;   // torch.__version__
  std::string numpy_version;   // numpy.__version__
  std::string python_version;  // "3.11.2"
};

// Runs `path -c "import torch, numpy; ..."` (timeout 120 s) and returns the versions; throws
// nki::IoError explaining what failed (not found, import error, timeout).
PythonInfo probe_torch_python(const std::string& path);

// The interpreter used for golden data, probed once per process and cached:
//   1. $NKI_PYTHON if set (must work: no silent fallback when the user asked for one);
//   2. /usr/bin/python3 (Debian's python3-torch);
//   3. python3 on PATH.
// The chosen interpreter must import torch and numpy. Throws nki::IoError listing every
// candidate and why it was rejected.
const PythonInfo& find_torch_python();

}  // namespace nki
