// A dense, C-ordered, host-side array: what crosses the boundary between the simulator and its
// users (.npy files, the task/verify layer, the Python module). Elements are stored at the real
// width of `dtype` (see base/dtype.h).
#pragma once

#include <cstdint>
#include <vector>

#include "base/dtype.h"

namespace nki {

struct HostTensor {
  DType dtype = DType::Float32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;  // size == element_count() * dtype_size(dtype)

  int64_t element_count() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
  }
};

}  // namespace nki
