// A resolved operand: an instruction operand's Access evaluated at the current loop/program-id
// values, flattened to (base element offset, per-iteration-dim element strides) over the storage
// of its tensor. Elements are enumerated in row-major order of the operand's iteration shape;
// `flat` below always means that enumeration index.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/dtype.h"

namespace nki::machine {

struct View {
  int tensor = -1;
  uint8_t* data = nullptr;          // storage bytes of the tensor's root (or, for a Use::Read
                                    // view of a deferred copy, of the copy's source)
  int store_root = -1;              // the root tensor whose storage `data` is
  DType dtype = DType::Float32;     // storage dtype
  size_t elem_size = 4;
  int64_t base = 0;                 // element offset of coordinate (0, ..., 0)
  std::vector<int64_t> shape;       // iteration shape
  std::vector<int64_t> strides;     // element stride per iteration dim
  std::vector<int64_t> indirect;    // per-flat-element extra offset (indirect index); or empty
  std::vector<uint8_t> dropped;     // per-flat-element 1 = skipped (oob_skip); or empty
  uint8_t* shadow = nullptr;        // warn_uninit shadow of the root, or nullptr

  // Collapsed iteration (size-1 dims dropped, mergeable dims merged); never empty.
  std::vector<int64_t> cshape, cstrides;

  int64_t count() const {
    int64_t n = 1;
    for (int64_t s : shape) n *= s;
    return n;
  }
  // Computes cshape/cstrides from shape/strides.
  void collapse();
  // True when the elements occupy one stride-1 run (or a single element) with no indirection.
  bool contiguous() const {
    return indirect.empty() && dropped.empty() && cshape.size() == 1 &&
           (cstrides[0] == 1 || cshape[0] <= 1);
  }
};

inline void View::collapse() {
  cshape.clear();
  cstrides.clear();
  for (size_t j = 0; j < shape.size(); ++j) {
    if (shape[j] == 1) continue;
    if (!cshape.empty() && cstrides.back() == strides[j] * shape[j]) {
      cshape.back() *= shape[j];
      cstrides.back() = strides[j];
    } else {
      cshape.push_back(shape[j]);
      cstrides.push_back(strides[j]);
    }
  }
  if (cshape.empty()) {
    cshape.push_back(1);
    cstrides.push_back(1);
  }
  for (int64_t s : shape)
    if (s == 0) {
      cshape.assign(1, 0);
      cstrides.assign(1, 1);
    }
}

// Calls fn(flat, elem_offset, stride, len) for every maximal run of active elements, where an
// element is active unless mask[flat] == 0 (mask may be null) or it was dropped (oob_skip).
// Indirect views are visited one element at a time.
template <class Fn>
void for_each_run(const View& v, const uint8_t* mask, Fn&& fn) {
  const int64_t total = v.count();
  if (total == 0) return;
  const size_t outer = v.cshape.size() - 1;
  const int64_t len = v.cshape[outer];
  const int64_t stride = v.cstrides[outer];
  const bool simple = v.indirect.empty() && v.dropped.empty() && mask == nullptr;
  int64_t idx[16] = {0};
  std::vector<int64_t> idx_big;
  int64_t* ix = idx;
  if (outer > 16) {
    idx_big.assign(outer, 0);
    ix = idx_big.data();
  }
  int64_t off = v.base;
  for (int64_t flat = 0; flat < total; flat += len) {
    if (simple) {
      fn(flat, off, stride, len);
    } else {
      int64_t i = 0;
      while (i < len) {
        auto active = [&](int64_t e) {
          return (mask == nullptr || mask[flat + e]) &&
                 (v.dropped.empty() || !v.dropped[static_cast<size_t>(flat + e)]);
        };
        if (!active(i)) {
          ++i;
          continue;
        }
        if (!v.indirect.empty()) {
          fn(flat + i, off + i * stride + v.indirect[static_cast<size_t>(flat + i)], stride,
             int64_t{1});
          ++i;
          continue;
        }
        int64_t j = i + 1;
        while (j < len && active(j)) ++j;
        fn(flat + i, off + i * stride, stride, j - i);
        i = j;
      }
    }
    for (size_t d = outer; d-- > 0;) {
      off += v.cstrides[d];
      if (++ix[d] < v.cshape[d]) break;
      off -= v.cstrides[d] * v.cshape[d];
      ix[d] = 0;
    }
  }
}

}  // namespace nki::machine
