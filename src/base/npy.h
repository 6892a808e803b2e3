// Reading and writing NumPy .npy files (format versions 1.0, 2.0 and 3.0; C order,
// little-endian) as nki::HostTensor. Every problem is reported as nki::IoError with a message
// that names the file and the problem.
//
// Reading: <f2 -> float16, <f4 -> float32, |i1 <i2 <i4 -> int8/16/32, |u1 <u2 <u4 ->
// uint8/16/32, |b1 -> bool (any nonzero byte read as 1). Wider types are narrowed to what the
// hardware has: <f8 -> float32 (round to nearest even; magnitudes beyond fp32 become +-inf, as
// NumPy's astype does), <i8 -> int32 and <u8 -> uint32, where a value outside the 32-bit range is
// an error (naming the first offending element) rather than a silent wrap or clamp.
// Rejected: fortran_order=True, big-endian data, object / structured / string / complex dtypes,
// bad magic, unknown version, malformed header, truncated data.
//
// Writing (shared/docs/cli-contract.md): float32, float16, int*, uint* and bool keep their dtype;
// bfloat16, tfloat32 and float8 are written as their exact float32 values, or, with
// NpyWriteOptions::bf16_as_raw_bits, bfloat16 as its raw uint16 bit patterns (<u2).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/host_tensor.h"

namespace nki {

struct NpyWriteOptions {
  bool bf16_as_raw_bits = false;
};

HostTensor read_npy(const std::string& path);
// Decodes an in-memory .npy image; `name` is used in error messages in place of a path.
HostTensor decode_npy(const std::vector<uint8_t>& bytes, const std::string& name);
// The same, reusing the image's buffer for the elements when they need no conversion.
HostTensor decode_npy(std::vector<uint8_t>&& bytes, const std::string& name);

void write_npy(const std::string& path, const HostTensor& t, const NpyWriteOptions& opts = {});
std::vector<uint8_t> encode_npy(const HostTensor& t, const NpyWriteOptions& opts = {});

}  // namespace nki
