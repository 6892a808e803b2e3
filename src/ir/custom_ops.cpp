#include "ir/custom_ops.h"

#include <array>

namespace nki::ir {

namespace {

constexpr std::array kTable = {
#define CUSTOM_OP(id, name, min_srcs, max_srcs, engine, doc) \
  CustomOpInfo{CustomOp::id, name, min_srcs, max_srcs, Engine::engine, doc},
#include "ir/custom_ops.def"
#undef CUSTOM_OP
};

// Row i describes enumerator i + 1 (None is 0): the table and the enum come from the same rows.
constexpr bool rows_follow_enum() {
  for (size_t i = 0; i < kTable.size(); ++i)
    if (static_cast<size_t>(kTable[i].id) != i + 1) return false;
  return true;
}
static_assert(rows_follow_enum(), "custom_ops.def rows must expand in enum order");

}  // namespace

const CustomOpInfo& custom_op_info(CustomOp op) {
  // None (0) maps to no row; clamp so a bad call reads row 0 rather than out of bounds.
  const size_t i = static_cast<size_t>(op);
  return kTable[i == 0 || i > kTable.size() ? 0 : i - 1];
}

std::span<const CustomOpInfo> custom_op_table() { return kTable; }

std::optional<CustomOp> custom_op_by_name(std::string_view name) {
  if (auto hash = name.find('#'); hash != std::string_view::npos) name = name.substr(0, hash);
  if (auto dot = name.rfind('.'); dot != std::string_view::npos) name = name.substr(dot + 1);
  for (const CustomOpInfo& row : kTable)
    if (row.name == name) return row.id;
  return std::nullopt;
}

}  // namespace nki::ir
