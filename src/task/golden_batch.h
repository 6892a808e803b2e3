// Golden data of many tasks with one Python run (the batch form of prefetch_golden in
// golden_cache.h; implemented in golden_cache.cpp, next to the cache's sealing helpers).
#pragma once

#include <vector>

#include "task/golden_cache.h"

namespace nki {

// Generates every missing entry of many tasks with one Python run (tools/golden/golden_batch.py
// calling golden.py's own generator, so the entries are the ones golden.py would write). Entries
// whose generation failed are simply not published: load_golden later regenerates them one by
// one and reports the error in full. Returns how many entries were published. Throws
// nki::IoError only when the batch could not be prepared.
struct GoldenWork {
  const TaskSpec* task = nullptr;
  std::vector<int> trials;
};
int prefetch_golden_batch(const std::vector<GoldenWork>& work, const PythonInfo& python,
                          const GoldenOptions& opts = {});

}  // namespace nki
