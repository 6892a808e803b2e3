// Copy elision (Memory::alias_to): a whole-tile DMA load from HBM is deferred until either side
// is written. Every kernel here is run with elision on and off; the results must be identical
// and equal to the hand-computed values.
#include <gtest/gtest.h>

#include "ir_builder.h"
#include "machine/executor.h"

using namespace nki;
using namespace nki::testing;
using machine::execute;

namespace {

// Runs `k` with copy elision on and off; asserts identical outputs/args_after; returns the
// elided run.
machine::RunResult run_both(const ir::Kernel& k, const std::vector<HostTensor>& args) {
  machine::RunOptions on, off;
  off.elide_copies = false;
  machine::RunResult a = execute(k, args, on);
  machine::RunResult b = execute(k, args, off);
  EXPECT_EQ(a.outputs.size(), b.outputs.size());
  for (size_t i = 0; i < a.outputs.size() && i < b.outputs.size(); ++i)
    EXPECT_EQ(a.outputs[i].data, b.outputs[i].data) << "output " << i;
  EXPECT_EQ(a.args_after.size(), b.args_after.size());
  for (size_t i = 0; i < a.args_after.size() && i < b.args_after.size(); ++i)
    EXPECT_EQ(a.args_after[i].data, b.args_after[i].data) << "arg " << i;
  return a;
}

}  // namespace

// t = load(x); x[...] = 7 (store into the parameter); o = t  ->  o keeps x's old values.
TEST(CopyElision, WritingTheSourceKeepsTheLoadedValues) {
  KernelBuilder kb("k");
  auto& k = kb.k;
  int x = kb.param("x", DType::Float32, {4, 3});
  int o = kb.output("o", DType::Float32, {4, 3});
  int t = kb.sbuf("t", DType::Float32, {4, 3});
  ir::Instr fill = copy(whole(k, x), whole(k, x));
  fill.srcs = {I(7.0)};
  k.body = {S(copy(whole(k, t), whole(k, x))), S(fill), S(copy(whole(k, o), whole(k, t)))};
  auto r = run_both(k, {host_f32({4, 3}, iota_f(12))});
  EXPECT_EQ(values<float>(r.outputs[0]), iota_f(12));
  ASSERT_EQ(r.args_after.size(), 1u);
  EXPECT_EQ(values<float>(r.args_after[0]), std::vector<float>(12, 7.f));
}

// t = load(x); t += 1 in place; o = t; x unchanged.
TEST(CopyElision, WritingTheTileLeavesTheSourceAlone) {
  KernelBuilder kb("k");
  auto& k = kb.k;
  int x = kb.param("x", DType::Float32, {4, 3});
  int o = kb.output("o", DType::Float32, {4, 3});
  int o2 = kb.output("o2", DType::Float32, {4, 3});
  int t = kb.sbuf("t", DType::Float32, {4, 3});
  k.body = {S(copy(whole(k, t), whole(k, x))),
            S(alu(ir::Alu::Add, whole(k, t), T(whole(k, t)), I(1.0))),
            S(copy(whole(k, o), whole(k, t))), S(copy(whole(k, o2), whole(k, x)))};
  auto r = run_both(k, {host_f32({4, 3}, iota_f(12))});
  EXPECT_EQ(values<float>(r.outputs[0]), iota_f(12, 1.f, 1.f));
  EXPECT_EQ(values<float>(r.outputs[1]), iota_f(12));
}

// Tiles loaded row block by row block in a loop and added; also a tile-to-tile copy of a
// deferred tile and a partial (half) load, which is not deferred.
TEST(CopyElision, LoopOfLoadsComputeAndStores) {
  KernelBuilder kb("k");
  auto& k = kb.k;
  int a = kb.param("a", DType::Float32, {8, 4});
  int b = kb.param("b", DType::Float32, {8, 4});
  int o = kb.output("o", DType::Float32, {8, 4});
  int ta = kb.sbuf("ta", DType::Float32, {2, 4}, 1);
  int tb = kb.sbuf("tb", DType::Float32, {2, 4}, 1);
  int tc = kb.sbuf("tc", DType::Float32, {2, 4}, 1);
  k.body = {kb.loop(0, 4, 1, [&](int i) {
    std::vector<ir::Stmt> body;
    body.push_back(S(copy(whole(k, ta), box(k, a, {V(i, 2)}, {2, 4}))));
    body.push_back(S(copy(whole(k, tc), whole(k, ta))));  // SBUF -> SBUF of a deferred tile
    body.push_back(S(copy(box(k, tb, {}, {2, 2}), box(k, b, {V(i, 2)}, {2, 2}))));  // partial
    body.push_back(S(copy(box(k, tb, {C(0), C(2)}, {2, 2}), box(k, b, {V(i, 2), C(2)}, {2, 2}))));
    body.push_back(S(alu(ir::Alu::Add, whole(k, tc), T(whole(k, tc)), T(whole(k, tb)))));
    body.push_back(S(copy(box(k, o, {V(i, 2)}, {2, 4}), whole(k, tc))));
    return body;
  })};
  std::vector<float> av = iota_f(32), bv = iota_f(32, 1.f, 100.f), want(32);
  for (int e = 0; e < 32; ++e) want[static_cast<size_t>(e)] = av[static_cast<size_t>(e)] + bv[static_cast<size_t>(e)];
  auto r = run_both(k, {host_f32({8, 4}, av), host_f32({8, 4}, bv)});
  EXPECT_EQ(values<float>(r.outputs[0]), want);
}

// An on-chip tile returned as a result (legacy simulation kernels) is materialised at the end;
// a bf16 load goes through the same path (same storage dtype, no conversion).
TEST(CopyElision, ReturnedTileAndNarrowDtype) {
  KernelBuilder kb("k");
  auto& k = kb.k;
  int x = kb.param("x", DType::BFloat16, {2, 2});
  int t = kb.sbuf("t", DType::BFloat16, {2, 2});
  k.tensors[t].role = ir::TensorRole::Output;
  k.tensors[t].output_index = 0;
  k.outputs.push_back(t);
  k.body = {S(copy(whole(k, t), whole(k, x)))};
  std::vector<uint16_t> bits = {0x3f80, 0x4000, 0xc040, 0x7f80};  // 1, 2, -3, inf
  auto r = run_both(k, {host_of<uint16_t>(DType::BFloat16, {2, 2}, bits)});
  EXPECT_EQ(values<uint16_t>(r.outputs[0]), bits);
}

// A masked load is performed eagerly; the unmasked elements keep the tile's previous contents.
TEST(CopyElision, MaskedLoadIsNotDeferred) {
  KernelBuilder kb("k");
  auto& k = kb.k;
  int x = kb.param("x", DType::Float32, {4, 1});
  int o = kb.output("o", DType::Float32, {4, 1});
  int t = kb.sbuf("t", DType::Float32, {4, 1}, 0, ir::TensorInit::Zeros);
  ir::Instr ld = copy(whole(k, t), whole(k, x));
  ld.mask = ir::Mask{{pred({1, 0}, C(-2), ir::CmpKind::Lt)}};  // k0 - 2 < 0: partitions 0, 1
  k.body = {S(ld), S(copy(whole(k, o), whole(k, t)))};
  auto r = run_both(k, {host_f32({4, 1}, {5, 6, 7, 8})});
  EXPECT_EQ(values<float>(r.outputs[0]), (std::vector<float>{5, 6, 0, 0}));
}
