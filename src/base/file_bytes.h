// Whole-file reads in one sized read: no stream iterators, no growth by doubling, so a
// several-MB golden file costs one allocation and one pass (docs/performance.md, warm verify).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace nki {

// The bytes of `path`. Throws IoError naming the path when it cannot be opened or read.
std::vector<uint8_t> read_file_bytes(const std::string& path);

}  // namespace nki
