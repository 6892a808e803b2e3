// The simulated-work budget: kernels built to run (practically) forever stop with sim_budget,
// statically when the lower bound already exceeds it, at run time otherwise; ordinary kernels
// are unaffected.
#include <gtest/gtest.h>

#include <limits>

#include "ir_builder.h"
#include "machine/executor.h"
#include "machine/work_budget.h"

namespace nki::machine {
namespace {

using namespace nki::testing;

// out[128, 64] = x copied through SBUF inside a loop of `trips` iterations (same tile each time).
ir::Kernel copy_loop(int64_t trips, ir::LoopKind kind = ir::LoopKind::Sequential) {
  KernelBuilder b;
  int x = b.param("x", DType::Float32, {128, 64});
  int out = b.output("out", DType::Float32, {128, 64});
  int t = b.sbuf("t", DType::Float32, {128, 64});
  b.k.body.push_back(b.loop(0, trips, 1, [&](int) {
    std::vector<ir::Stmt> body;
    body.push_back(S(copy(whole(b.k, t), whole(b.k, x))));
    body.push_back(S(copy(whole(b.k, out), whole(b.k, t))));
    return body;
  }, kind));
  std::get<ir::Loop>(b.k.body.back().node).loc = {3, 5};
  return b.k;
}

std::vector<HostTensor> input() { return {host_f32({128, 64}, iota_f(128 * 64))}; }

TEST(WorkBudget, OrdinaryKernelRunsUnderTheDefaultBudget) {
  ir::Kernel k = copy_loop(4);
  RunResult r = execute(k, input());
  ASSERT_EQ(r.outputs.size(), 1u);
}

TEST(WorkBudget, InstructionWorkCountsElementsAndMatmulMacs) {
  ir::Kernel k = copy_loop(1);
  const auto& body = std::get<ir::Loop>(k.body[0].node).body;
  EXPECT_EQ(instruction_work(std::get<ir::Instr>(body[0].node)), 2 * 128 * 64);
  // 10 iterations of two 16384-element copies plus one unit per iteration.
  EXPECT_EQ(static_work(copy_loop(10), 1 << 30).units, 10 * (2 * 2 * 128 * 64 + 1));
}

TEST(WorkBudget, HugeLoopIsRefusedBeforeRunningAndNamesTheLoop) {
  ir::Kernel k = copy_loop(int64_t{1} << 50);
  try {
    execute(k, input());
    FAIL() << "expected sim_budget";
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().code, "sim_budget");
    EXPECT_EQ(e.diagnostic().line, 3);
    EXPECT_NE(e.diagnostic().message.find("sequential_range loop over"), std::string::npos) << e.diagnostic().message;
    EXPECT_NE(e.diagnostic().hint.find("not a compiler rule"), std::string::npos);
  }
}

TEST(WorkBudget, RuntimeMeterStopsWorkTheStaticBoundCannotSee) {
  // The loop's work sits behind an `if` whose other arm is empty: the static lower bound is
  // only the iterations, so the meter must stop it while running.
  KernelBuilder b;
  int x = b.param("x", DType::Float32, {128, 64});
  int out = b.output("out", DType::Float32, {128, 64});
  b.k.body.push_back(S(copy(whole(b.k, out), whole(b.k, x))));
  b.k.body.push_back(b.loop(0, 1000, 1, [&](int i) {
    ir::If c;
    c.cond.terms.push_back(pred({}, V(i, 1, -1000), ir::CmpKind::Lt));  // i < 1000: always
    c.then_body.push_back(S(copy(whole(b.k, out), whole(b.k, x))));
    std::vector<ir::Stmt> body;
    body.push_back(ir::Stmt{std::move(c)});
    return body;
  }));
  RunOptions o;
  o.max_work = 200 * 2 * 128 * 64;  // about 200 iterations' worth
  EXPECT_LT(static_work(b.k, o.max_work).units, o.max_work);
  try {
    execute(b.k, input(), o);
    FAIL() << "expected sim_budget";
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().code, "sim_budget");
    EXPECT_NE(e.diagnostic().message.find("work budget"), std::string::npos);
  }
}

TEST(WorkBudget, TripCountDoesNotWrapAround) {
  ir::Loop l;
  l.start = std::numeric_limits<int64_t>::min() / 2;
  l.stop = std::numeric_limits<int64_t>::max() / 2 + 10;
  l.step = 1;
  EXPECT_EQ(l.trip_count(), std::numeric_limits<int64_t>::max());
  l.step = -1;
  EXPECT_EQ(l.trip_count(), 0);
}

}  // namespace
}  // namespace nki::machine
