// Names, sizes and kind predicates of the NKI dtypes (shared/docs/nki-spec.md §2.2.1).
#include "base/dtype.h"

#include <array>

namespace nki {
namespace {

struct DTypeRow {
  DType type;
  const char* name;
  size_t size;
  bool is_float;
  bool is_signed;
};

// One row per enum value, in enum order (checked by dtype_test).
constexpr std::array<DTypeRow, kNumDTypes> kRows = {{
    {DType::Bool, "bool", 1, false, false},
    {DType::Int8, "int8", 1, false, true},
    {DType::Int16, "int16", 2, false, true},
    {DType::Int32, "int32", 4, false, true},
    {DType::UInt8, "uint8", 1, false, false},
    {DType::UInt16, "uint16", 2, false, false},
    {DType::UInt32, "uint32", 4, false, false},
    {DType::Float16, "float16", 2, true, true},
    {DType::BFloat16, "bfloat16", 2, true, true},
    {DType::TFloat32, "tfloat32", 4, true, true},
    {DType::Float32, "float32", 4, true, true},
    {DType::Float8E4M3, "float8_e4m3", 1, true, true},
    {DType::Float8E5M2, "float8_e5m2", 1, true, true},
}};

const DTypeRow& row(DType t) {
  auto i = static_cast<size_t>(t);
  // An out-of-range enum value can only come from a cast bug; map it to float32 rather than
  // reading past the table.
  return i < kRows.size() ? kRows[i] : kRows[static_cast<size_t>(DType::Float32)];
}

struct Alias {
  std::string_view name;
  DType type;
};

// Extra spellings seen in kernels and on command lines (NumPy / torch style).
constexpr std::array<Alias, 12> kAliases = {{
    {"bool_", DType::Bool},
    {"fp32", DType::Float32},
    {"float", DType::Float32},
    {"f32", DType::Float32},
    {"bf16", DType::BFloat16},
    {"fp16", DType::Float16},
    {"half", DType::Float16},
    {"f16", DType::Float16},
    {"tf32", DType::TFloat32},
    {"int", DType::Int32},
    {"fp8_e4m3", DType::Float8E4M3},
    {"fp8_e5m2", DType::Float8E5M2},
}};

}  // namespace

const char* dtype_name(DType t) { return row(t).name; }

std::optional<DType> parse_dtype(std::string_view name) {
  // Accept qualified spellings such as "nl.float32" or "np.int8".
  if (auto dot = name.rfind('.'); dot != std::string_view::npos) name = name.substr(dot + 1);
  for (const auto& r : kRows) {
    if (name == r.name) return r.type;
  }
  for (const auto& a : kAliases) {
    if (name == a.name) return a.type;
  }
  return std::nullopt;
}

size_t dtype_size(DType t) { return row(t).size; }
bool dtype_is_float(DType t) { return row(t).is_float; }
bool dtype_is_int(DType t) { return !row(t).is_float; }
bool dtype_is_signed(DType t) { return row(t).is_signed; }

}  // namespace nki
