// Moving operand elements between tensor storage (any dtype, strided, masked, indirect) and
// dense scratch buffers in the engines' working formats: fp32 for arithmetic, int64 for integer
// (bitvec / exact) paths, raw bytes for bit-exact same-dtype copies. Scratch buffers are indexed
// by the view's flat (row-major iteration) index. Inactive (masked / dropped) elements are not
// touched in storage; gathers write 0 for them in the scratch buffer.
//
// Gathers return true when an active element was read that was never written (only tracked
// with RunOptions::warn_uninit).
#pragma once

#include <cstdint>

#include "machine/view.h"

namespace nki::machine {

bool gather_f32(const View& v, const uint8_t* mask, float* out);
void scatter_f32(const View& v, const uint8_t* mask, const float* in);

bool gather_i64(const View& v, const uint8_t* mask, int64_t* out);
void scatter_i64(const View& v, const uint8_t* mask, const int64_t* in);

// Raw element bytes (v.elem_size each); src and dst must share the storage dtype.
bool gather_raw(const View& v, const uint8_t* mask, uint8_t* out);
void scatter_raw(const View& v, const uint8_t* mask, const uint8_t* in);

// Direct strided copy of raw elements between two views of equal shape and storage dtype, with
// no scratch buffer. Returns false (and does nothing) when not applicable: masks, indirection,
// differing shapes, shadow tracking, or both views on the same storage.
bool copy_raw_direct(const View& src, const View& dst);

// Pointer to the view's elements when they are fp32 and one stride-1 run; else nullptr.
inline float* contiguous_f32(const View& v) {
  if (v.dtype != DType::Float32 || !v.contiguous()) return nullptr;
  return reinterpret_cast<float*>(v.data) + v.base;
}

// Saturating conversion of an int64 to an integer dtype's range (bool: nonzero -> 1).
int64_t saturate_int(DType t, int64_t v);

}  // namespace nki::machine
