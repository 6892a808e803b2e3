// The Custom-instruction contract as data: the ir::CustomOp enum and its table (custom_ops.def),
// so the front ends, ir/verify, the simulator and the cost model agree on one list instead of
// each matching Instr::name strings.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

#include "ir/ir.h"

namespace nki::ir {

struct CustomOpInfo {
  CustomOp id;
  std::string_view name;  // bare name, e.g. "bn_stats"
  size_t min_srcs, max_srcs;
  Engine engine;
  std::string_view doc;   // the documented API it implements
};

// The row of `op` (CustomOp::None has none: the caller's bug).
const CustomOpInfo& custom_op_info(CustomOp op);
// Every row, in table order.
std::span<const CustomOpInfo> custom_op_table();
// The op whose bare name is `name` after dropping a module prefix ("nisa.", "nl.") and a
// "#suffix" (device_print's prefix), as Instr::name is written; nullopt when there is none.
std::optional<CustomOp> custom_op_by_name(std::string_view name);

}  // namespace nki::ir
