// ir::verify_kernel on hand-built IR: a well-formed kernel passes, and each broken invariant is
// reported with the instruction (or tensor, loop) it concerns.
#include "ir/verify.h"

#include <gtest/gtest.h>

#include "ir/walk.h"
#include "ir_builder.h"

namespace nki {
namespace {

using namespace nki::testing;

// a[256, 64] -> loop over two [128, 64] tiles: load into SBUF, store to out.
struct TwoTileCopy {
  KernelBuilder b;
  int a, out, t;
  TwoTileCopy() {
    a = b.param("a", DType::Float32, {256, 64});
    out = b.output("out", DType::Float32, {256, 64});
    t = b.sbuf("t", DType::Float32, {128, 64}, 1);
    b.k.body.push_back(b.loop(0, 2, 1, [&](int i) {
      std::vector<ir::Stmt> body;
      body.push_back(S(copy(box(b.k, t, {}, {128, 64}), box(b.k, a, {V(i, 128)}, {128, 64}))));
      body.push_back(S(copy(box(b.k, out, {V(i, 128)}, {128, 64}), box(b.k, t, {}, {128, 64}))));
      return body;
    }));
  }
  ir::Instr& instr(int n) { return std::get<ir::Instr>(std::get<ir::Loop>(b.k.body[0].node).body[static_cast<size_t>(n)].node); }
};

std::string violation(const ir::Kernel& k) {
  std::optional<ir::InvariantViolation> v = ir::verify_kernel(k);
  return v ? v->what : "";
}

TEST(IrVerify, WellFormedKernelPasses) {
  TwoTileCopy c;
  EXPECT_EQ(violation(c.b.k), "");
}

TEST(IrVerify, UnknownTensorIdNamesTheInstruction) {
  TwoTileCopy c;
  c.instr(1).srcs[0].access.tensor = 42;
  c.instr(1).loc = {7, 5};
  std::optional<ir::InvariantViolation> v = ir::verify_kernel(c.b.k);
  ASSERT_TRUE(v);
  EXPECT_NE(v->what.find("instruction 'nl.load' (copy) operand #0"), std::string::npos) << v->what;
  EXPECT_NE(v->what.find("tensor id 42"), std::string::npos) << v->what;
  EXPECT_EQ(v->loc.line, 7);
}

TEST(IrVerify, OffsetsMustMatchTheTensorRank) {
  TwoTileCopy c;
  c.instr(0).dst.offset.pop_back();
  EXPECT_NE(violation(c.b.k).find("1 offsets and 2 coefficient rows for a rank-2 tensor"), std::string::npos) << violation(c.b.k);
}

TEST(IrVerify, CoefficientRowsMustMatchTheIterationRank) {
  TwoTileCopy c;
  c.instr(0).srcs[0].access.coef[1].push_back(0);
  EXPECT_NE(violation(c.b.k).find("coefficient row of rank 3 for a rank-2 iteration space"), std::string::npos) << violation(c.b.k);
}

TEST(IrVerify, UnknownAtomAndLoopVariableBeforeItsLoop) {
  TwoTileCopy c;
  c.instr(0).srcs[0].access.offset[0] = V(99);
  EXPECT_NE(violation(c.b.k).find("atom id 99"), std::string::npos) << violation(c.b.k);

  // An instruction before the loop that uses the loop's variable.
  TwoTileCopy d;
  const int i = std::get<ir::Loop>(d.b.k.body[0].node).atom;
  ir::Instr early = copy(box(d.b.k, d.t, {}, {128, 64}), box(d.b.k, d.a, {V(i, 128)}, {128, 64}));
  d.b.k.body.insert(d.b.k.body.begin(), S(early));
  EXPECT_NE(violation(d.b.k).find("uses loop variable 'i0' before its loop"), std::string::npos) << violation(d.b.k);

  // After the loop it is accepted (the tracer emits it; the simulator reads the last value).
  TwoTileCopy e;
  e.b.k.body.push_back(S(copy(box(e.b.k, e.t, {}, {128, 64}), box(e.b.k, e.a, {V(i, 128)}, {128, 64}))));
  EXPECT_EQ(violation(e.b.k), "");
}

TEST(IrVerify, LoopAtomMustBeItsOwnVariable) {
  TwoTileCopy c;
  ir::Loop& lp = std::get<ir::Loop>(c.b.k.body[0].node);
  lp.var_name = "i0";
  c.b.k.atoms[static_cast<size_t>(lp.atom)].loop = lp.id + 5;
  EXPECT_NE(violation(c.b.k).find("the loop over 'i0' names an atom that is not its loop variable"), std::string::npos)
      << violation(c.b.k);
}

TEST(IrVerify, ViewLargerThanItsBaseAndBrokenAliasChain) {
  TwoTileCopy c;
  int v = c.b.tensor("v", ir::Buffer::SharedHbm, DType::Float32, {512, 64});
  c.b.k.tensors[static_cast<size_t>(v)].alias_of = c.a;
  EXPECT_NE(violation(c.b.k).find("view tensor 'v' is larger than its base tensor 'a'"), std::string::npos) << violation(c.b.k);
  c.b.k.tensors[static_cast<size_t>(v)].alias_of = 77;
  EXPECT_NE(violation(c.b.k).find("tensor 'v' has an invalid alias chain"), std::string::npos) << violation(c.b.k);
}

TEST(IrVerify, FixedOperandsOfMatmulMemsetAndReduce) {
  TwoTileCopy c;
  ir::Instr& in = c.instr(0);
  in.op = ir::Opcode::Matmul;
  in.name = "nisa.nc_matmul";
  EXPECT_NE(violation(c.b.k).find("instruction 'nisa.nc_matmul' (matmul) needs 2 operand(s), has 1"), std::string::npos)
      << violation(c.b.k);
  in.srcs.push_back(I(1.0));
  EXPECT_NE(violation(c.b.k).find("needs stationary and moving tensor operands"), std::string::npos) << violation(c.b.k);

  in.op = ir::Opcode::Memset;
  in.srcs = {T(box(c.b.k, c.a, {}, {128, 64}))};
  EXPECT_NE(violation(c.b.k).find("needs an immediate value"), std::string::npos) << violation(c.b.k);

  in.op = ir::Opcode::Reduce;
  in.axes = {2};
  EXPECT_NE(violation(c.b.k).find("reduces axis 2"), std::string::npos) << violation(c.b.k);
  in.axes = {1};
  EXPECT_EQ(violation(c.b.k), "");
}

TEST(IrVerify, MaskAndIfConditionAtomsAreChecked) {
  TwoTileCopy c;
  c.instr(0).mask = ir::Mask{{pred({1, 0}, V(123), ir::CmpKind::Lt)}};
  EXPECT_NE(violation(c.b.k).find("mask uses atom id 123"), std::string::npos) << violation(c.b.k);

  TwoTileCopy d;
  ir::If cond;
  cond.cond = ir::Mask{{pred({}, V(55), ir::CmpKind::Lt)}};
  d.b.k.body.push_back(ir::Stmt{cond});
  EXPECT_NE(violation(d.b.k).find("the condition of an if uses atom id 55"), std::string::npos) << violation(d.b.k);
}

// The walker visits each statement once, in program order, with enter/exit pairs around bodies.
TEST(IrWalk, VisitsInProgramOrderWithMatchedEnterAndExit) {
  TwoTileCopy c;
  ir::If cond;
  cond.then_body.push_back(S(copy(whole(c.b.k, c.t), whole(c.b.k, c.t))));
  c.b.k.body.push_back(ir::Stmt{cond});
  std::string trace;
  ir::WalkCallbacks cb;
  cb.instr = [&](const ir::Instr&, int depth) { trace += "I" + std::to_string(depth); };
  cb.enter_loop = [&](const ir::Loop&, int) { return trace += "(", true; };
  cb.exit_loop = [&](const ir::Loop&, int) { trace += ")"; };
  cb.enter_branch = [&](const ir::If&, bool then_branch, int) { return trace += then_branch ? "{" : "[", true; };
  cb.exit_branch = [&](const ir::If&, bool then_branch, int) { trace += then_branch ? "}" : "]"; };
  ir::walk(c.b.k, cb);
  EXPECT_EQ(trace, "(I1I1){I1}[]");
}

}  // namespace
}  // namespace nki
