// The custom-op table (ir/custom_ops.def): complete, looked up by name, enforced by ir/verify.
#include "ir/custom_ops.h"

#include <gtest/gtest.h>

#include <set>

#include "ir/verify.h"
#include "ir_builder.h"

namespace nki {
namespace {

using namespace nki::testing;

// The last enumerator, counted from the .def rows independently of custom_op_table().
constexpr size_t kRows = 0
#define CUSTOM_OP(id, name, min_srcs, max_srcs, engine, doc) +1
#include "ir/custom_ops.def"
#undef CUSTOM_OP
    ;

TEST(CustomOpTable, EveryEnumeratorHasItsOwnRow) {
  ASSERT_EQ(ir::custom_op_table().size(), kRows);
  std::set<std::string_view> names;
  for (size_t i = 1; i <= kRows; ++i) {
    const auto op = static_cast<ir::CustomOp>(i);
    const ir::CustomOpInfo& row = ir::custom_op_info(op);
    EXPECT_EQ(row.id, op) << i;
    EXPECT_FALSE(row.name.empty()) << i;
    EXPECT_LE(row.min_srcs, row.max_srcs) << row.name;
    EXPECT_NE(row.engine, ir::Engine::Unknown) << row.name;
    EXPECT_FALSE(row.doc.empty()) << row.name;
    EXPECT_TRUE(names.insert(row.name).second) << "duplicate name " << row.name;
  }
}

TEST(CustomOpTable, LookupByNameRoundTrips) {
  for (const ir::CustomOpInfo& row : ir::custom_op_table()) {
    const std::string bare(row.name);
    EXPECT_EQ(ir::custom_op_by_name(bare), row.id) << bare;
    EXPECT_EQ(ir::custom_op_by_name("nisa." + bare), row.id) << bare;
  }
  // device_print carries its prefix after '#'; the prefix may contain dots.
  EXPECT_EQ(ir::custom_op_by_name("nl.device_print#a.b:"), ir::CustomOp::DevicePrint);
  EXPECT_EQ(ir::custom_op_by_name("frobnicate"), std::nullopt);
  EXPECT_EQ(ir::custom_op_by_name("nisa.nc_matmul"), std::nullopt);
}

std::string violation(const ir::Kernel& k) {
  std::optional<ir::InvariantViolation> v = ir::verify_kernel(k);
  return v ? v->what : "";
}

TEST(CustomOpTable, VerifyChecksTheOperandCount) {
  KernelBuilder b;
  int x = b.sbuf("x", DType::Float32, {128, 64}, 1);
  int v = b.sbuf("v", DType::Float32, {128, 8}, 1);
  int o = b.sbuf("o", DType::Float32, {128, 8}, 1);
  ir::Instr in;
  in.op = ir::Opcode::Custom;
  in.custom = ir::CustomOp::NcFindIndex8;
  in.name = "nc_find_index8";
  in.engine = ir::Engine::Vector;
  in.dst = whole(b.k, o);
  in.srcs = {T(whole(b.k, x)), T(whole(b.k, v))};
  in.loc = {9, 3};
  b.k.body = {S(in)};
  EXPECT_EQ(violation(b.k), "");

  std::get<ir::Instr>(b.k.body[0].node).srcs.pop_back();
  std::optional<ir::InvariantViolation> bad = ir::verify_kernel(b.k);
  ASSERT_TRUE(bad);
  EXPECT_NE(bad->what.find("instruction 'nc_find_index8'"), std::string::npos) << bad->what;
  EXPECT_NE(bad->what.find("takes 2 operand(s), has 1"), std::string::npos) << bad->what;
  EXPECT_EQ(bad->loc.line, 9);

  // A range (bn_stats: data and optional membership) accepts both ends, rejects beyond.
  ir::Instr& s = std::get<ir::Instr>(b.k.body[0].node);
  s.custom = ir::CustomOp::BnStats;
  s.name = "bn_stats";
  s.srcs = {T(whole(b.k, x)), T(whole(b.k, x))};
  EXPECT_EQ(violation(b.k), "");
  s.srcs.push_back(T(whole(b.k, x)));
  EXPECT_NE(violation(b.k).find("takes 1 to 2 operand(s), has 3"), std::string::npos) << violation(b.k);

  // A Custom instruction without a kind is broken IR, not a kernel error.
  s.custom = ir::CustomOp::None;
  EXPECT_NE(violation(b.k).find("has no custom-op kind"), std::string::npos) << violation(b.k);
}

}  // namespace
}  // namespace nki
