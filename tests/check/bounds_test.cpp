// The bounds pass (check/bounds.h) on hand-built IR: loops are run with concrete values, and a
// mask on one coordinate narrows the range an access reaches.
#include "check/bounds.h"

#include <gtest/gtest.h>

#include "ir_builder.h"

namespace nki {
namespace {

using namespace nki::testing;

// for i in range(trips): t = load a[i*128 : i*128+128, :]  (a is [256, 64])
ir::Kernel tiled_load(int64_t trips, std::optional<ir::Mask> mask = std::nullopt) {
  KernelBuilder b;
  const int a = b.param("a", DType::Float32, {256, 64});
  const int t = b.sbuf("t", DType::Float32, {128, 64}, 1);
  b.k.body.push_back(b.loop(0, trips, 1, [&](int i) {
    ir::Instr in = copy(box(b.k, t, {}, {128, 64}), box(b.k, a, {V(i, 128)}, {128, 64}));
    in.mask = mask;
    return std::vector<ir::Stmt>{S(in)};
  }));
  return b.k;
}

TEST(BoundsPass, AccessesInsideTheTensorPass) {
  EXPECT_TRUE(check::static_bounds_errors(tiled_load(2), 20).empty());
}

TEST(BoundsPass, ReportsTheFirstFailingIteration) {
  const std::vector<Diagnostic> e = check::static_bounds_errors(tiled_load(3), 20);
  ASSERT_EQ(e.size(), 1u);  // one access, reported once (at i0=2), not once per iteration
  EXPECT_EQ(e[0].code, "err_tensor_access_out_of_bound");
  EXPECT_EQ(e[0].severity, Severity::Error);
  EXPECT_NE(e[0].message.find("tensor 'a' of shape [256, 64]: index range [256, 383] on dimension 0 of size 256"),
            std::string::npos)
      << e[0].message;
  EXPECT_NE(e[0].message.find("(at i0=2)"), std::string::npos) << e[0].message;
  EXPECT_EQ(e[0].line, 2);
}

TEST(BoundsPass, AMaskOnOneCoordinateNarrowsTheRange) {
  // a is [200, 64]: the second tile reaches rows 128..255 unless `p + 128*i < 200` masks them.
  auto kernel = [](bool masked) {
    KernelBuilder b;
    const int a = b.param("a", DType::Float32, {200, 64});
    const int t = b.sbuf("t", DType::Float32, {128, 64}, 1);
    b.k.body.push_back(b.loop(0, 2, 1, [&](int i) {
      ir::Instr in = copy(box(b.k, t, {}, {128, 64}), box(b.k, a, {V(i, 128)}, {128, 64}));
      if (masked) {
        ir::Mask m;
        m.terms.push_back(pred({1, 0}, V(i, 128, -200), ir::CmpKind::Lt));  // p + 128*i - 200 < 0
        in.mask = m;
      }
      return std::vector<ir::Stmt>{S(in)};
    }));
    return b.k;
  };
  const std::vector<Diagnostic> unmasked = check::static_bounds_errors(kernel(false), 20);
  ASSERT_EQ(unmasked.size(), 1u);
  EXPECT_NE(unmasked[0].message.find("index range [128, 255]"), std::string::npos) << unmasked[0].message;
  EXPECT_TRUE(check::static_bounds_errors(kernel(true), 20).empty());
}

TEST(BoundsPass, StopsAtTheErrorLimit) {
  // Two out-of-bounds accesses at different places; a limit of one keeps the first.
  KernelBuilder b;
  const int a = b.param("a", DType::Float32, {128, 64});
  const int t = b.sbuf("t", DType::Float32, {128, 64});
  ir::Instr first = copy(box(b.k, t, {}, {128, 64}), box(b.k, a, {C(1)}, {128, 64}));
  first.loc = {2, 1};
  ir::Instr second = copy(box(b.k, t, {}, {128, 64}), box(b.k, a, {C(0), C(8)}, {128, 64}));
  second.loc = {3, 1};
  b.k.body.push_back(S(first));
  b.k.body.push_back(S(second));
  EXPECT_EQ(check::static_bounds_errors(b.k, 20).size(), 2u);
  const std::vector<Diagnostic> one = check::static_bounds_errors(b.k, 1);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].line, 2);
}

}  // namespace
}  // namespace nki
