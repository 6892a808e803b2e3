// Golden data (kernel inputs + reference outputs) for one task trial, produced by
// tools/golden/golden.py under a torch-capable Python and cached outside the repository.
//
// Cache location: $NKI_CACHE_DIR, else $XDG_CACHE_HOME/nkiagent, else ~/.cache/nkiagent; entries
// live in <cache>/golden/<key>/ where key = SHA-256 of (reference.py, task.json, trial, trial
// seed, torch version, numpy version, golden.py). Any change to those regenerates the entry.
// Entries are written into a temporary directory, sealed with SHA256SUMS (checked on every read,
// see golden_cache_integrity.h) and renamed into place, so an interrupted run never leaves a
// half-written entry behind and a damaged entry is regenerated rather than trusted. Entries are
// readable by other users (0755/0644 whatever the umask), so one cache can be shared.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/host_tensor.h"
#include "task/python_env.h"
#include "task/task_spec.h"

namespace nki {

struct GoldenTrial {
  int trial = 0;
  uint64_t seed = 0;                    // seed + trial
  std::vector<std::string> arg_names;   // kernel-argument order: inputs, parameters, buffers
  std::vector<HostTensor> args;         // in the task dtype (bf16 as real bf16 HostTensors)
  std::vector<HostTensor> expected;     // float32 (floating outputs) or int32 (integer outputs)
  std::string cache_entry;              // directory the data came from (empty if not cached)
  bool cache_hit = false;
};

// Root of the cache (not created).
std::string golden_cache_root();
// Path of tools/golden/golden.py: $NKI_GOLDEN_SCRIPT, else <repo>/tools/golden/golden.py.
std::string golden_script_path();
// Content hash identifying the golden data of (task, trial) under `python`.
std::string golden_cache_key(const TaskSpec& task, int trial, const PythonInfo& python);

struct GoldenOptions {
  double timeout_seconds = 300.0;  // per golden.py run
};

// Makes sure a sealed cache entry for (task, trial) exists, running golden.py when it does not.
// Returns the entry directory; `*hit` tells whether it already existed. Its contents are checked
// only by load_golden. Throws nki::IoError with golden.py's stderr when generation fails.
std::string ensure_golden(const TaskSpec& task, int trial, const PythonInfo& python,
                          bool* hit = nullptr, const GoldenOptions& opts = {});

// Generates every missing entry among `trials` with a single golden.py run (torch is imported
// once instead of once per trial). Throws like ensure_golden.
void prefetch_golden(const TaskSpec& task, const std::vector<int>& trials,
                     const PythonInfo& python, const GoldenOptions& opts = {});

// Loads the entry's .npy files, each checked against SHA256SUMS and then against the manifest.
// A missing entry is generated; a damaged one (checksum mismatch, truncated or missing file, no
// SHA256SUMS) is discarded and generated again once. When that regeneration fails (no torch, no
// golden.py) the nki::IoError names the damage and the generation error. Uses find_torch_python().
GoldenTrial load_golden(const TaskSpec& task, int trial);
GoldenTrial load_golden(const TaskSpec& task, int trial, const PythonInfo& python,
                        const GoldenOptions& opts = {});

}  // namespace nki
