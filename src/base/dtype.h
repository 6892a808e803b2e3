// NKI data types (SDK 2.24 legacy dialect, shared/docs/nki-spec.md §2.2.1) and their storage.
//
// Every tensor in the simulator stores elements at the dtype's real width (bf16 = 2 bytes,
// fp8 = 1 byte, tf32 = a 4-byte fp32 container whose mantissa is rounded to 10 bits).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace nki {

enum class DType : uint8_t {
  Bool,        // stored as uint8 (0/1)
  Int8,
  Int16,
  Int32,
  UInt8,
  UInt16,
  UInt32,
  Float16,     // IEEE binary16
  BFloat16,    // 1s 8e 7m
  TFloat32,    // 1s 8e 10m in a 32-bit container
  Float32,
  Float8E4M3,  // 1s 4e 3m, IEEE-style (ml_dtypes float8_e4m3: has inf/NaN, max finite 240)
  Float8E5M2,  // 1s 5e 2m
};

inline constexpr int kNumDTypes = 13;

// NKI spelling: "float32", "bfloat16", "float8_e4m3", "bool", ...
const char* dtype_name(DType t);
// Accepts NKI names plus common aliases ("bool_", "fp32", "bf16", "fp16", "float", "int").
std::optional<DType> parse_dtype(std::string_view name);
size_t dtype_size(DType t);
bool dtype_is_float(DType t);
bool dtype_is_int(DType t);       // Bool counts as integer-like (uint8 storage)
bool dtype_is_signed(DType t);

}  // namespace nki
