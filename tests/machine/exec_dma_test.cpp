// Executor tests: indirect DMA (gather with out-of-bounds error / skip) and SPMD grids.
#include <gtest/gtest.h>

#include <cmath>

#include "machine/executor.h"
#include "ir_builder.h"

using namespace nki;
using namespace nki::testing;
using machine::execute;

namespace {

// out[p, :] = data[idx[p], :] for p < 4, rows gathered by an indirect DMA.
ir::Kernel gather_kernel(bool skip) {
  KernelBuilder kb("gather");
  auto& k = kb.k;
  int data = kb.param("data", DType::Float32, {8, 3});
  int idx = kb.param("idx", DType::Int32, {4, 1});
  int o = kb.output("o", DType::Float32, {4, 3});
  int it = kb.sbuf("it", DType::Int32, {4, 1});
  int t = kb.sbuf("t", DType::Float32, {4, 3}, 0, ir::TensorInit::Fill);
  k.tensors[t].fill_value = -1.0;
  ir::Access src = box(k, data, {}, {4, 3});
  src.coef = {{0, 0}, {0, 1}};  // row comes only from the index
  auto ind = std::make_shared<ir::Access>(box(k, it, {}, {4, 1}));
  src.indirect = ir::Indirect{0, ind};
  ir::Instr g = copy(whole(k, t), src);
  g.oob_skip = skip;
  g.loc = {3, 5};
  k.body = {S(copy(whole(k, it), whole(k, idx))), S(g), S(copy(whole(k, o), whole(k, t)))};
  return kb.k;
}

std::vector<float> data8x3() {
  std::vector<float> v(24);
  for (int i = 0; i < 24; ++i) v[i] = static_cast<float>(i);
  return v;
}

}  // namespace

TEST(ExecDma, IndirectGather) {
  auto r = execute(gather_kernel(false),
                   {host_f32({8, 3}, data8x3()), host_of<int32_t>(DType::Int32, {4, 1}, std::vector<int32_t>{7, 0, 3, 3})});
  EXPECT_EQ(values<float>(r.outputs[0]),
            (std::vector<float>{21, 22, 23, 0, 1, 2, 9, 10, 11, 9, 10, 11}));
}

TEST(ExecDma, IndirectOutOfBoundsIsDynamicError) {
  try {
    execute(gather_kernel(false), {host_f32({8, 3}, data8x3()),
                                   host_of<int32_t>(DType::Int32, {4, 1}, std::vector<int32_t>{1, 9, 2, 3})});
    FAIL();
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().code, "dynamic_oob");
    EXPECT_EQ(e.diagnostic().message, "index 27 is out of bounds for axis 0 with size 24");
    EXPECT_EQ(e.diagnostic().line, 3);
    EXPECT_EQ(e.diagnostic().col, 5);
  }
}

TEST(ExecDma, IndirectOutOfBoundsSkipLeavesRowsUnchanged) {
  auto r = execute(gather_kernel(true), {host_f32({8, 3}, data8x3()),
                                         host_of<int32_t>(DType::Int32, {4, 1}, std::vector<int32_t>{1, 9, -1, 3})});
  EXPECT_EQ(values<float>(r.outputs[0]),
            (std::vector<float>{3, 4, 5, -1, -1, -1, -1, -1, -1, 9, 10, 11}));
}

// Indirect scatter with rmw add: dst[idx[p], :] += src[p, :] (atomic_rmw / dma_copy add).
TEST(ExecDma, IndirectScatterAccumulate) {
  KernelBuilder kb("scatter_add");
  auto& k = kb.k;
  int acc = kb.param("acc", DType::Float32, {3, 2});
  int idx = kb.param("idx", DType::Int32, {4, 1});
  int src = kb.param("src", DType::Float32, {4, 2});
  int it = kb.sbuf("it", DType::Int32, {4, 1});
  int st = kb.sbuf("st", DType::Float32, {4, 2});
  k.tensors[acc].mutable_param = true;
  ir::Access dst = box(k, acc, {}, {4, 2});
  dst.coef = {{0, 0}, {0, 1}};
  dst.indirect = ir::Indirect{0, std::make_shared<ir::Access>(box(k, it, {}, {4, 1}))};
  ir::Instr sc = copy(dst, whole(k, st));
  sc.rmw = ir::Alu::Add;
  k.body = {S(copy(whole(k, it), whole(k, idx))), S(copy(whole(k, st), whole(k, src))), S(sc)};
  auto r = execute(k, {host_f32({3, 2}, {0, 0, 0, 0, 0, 0}),
                       host_of<int32_t>(DType::Int32, {4, 1}, std::vector<int32_t>{2, 0, 2, 1}),
                       host_f32({4, 2}, {1, 2, 3, 4, 5, 6, 7, 8})});
  ASSERT_TRUE(r.outputs.empty());
  EXPECT_EQ(values<float>(r.args_after[0]), (std::vector<float>{3, 4, 7, 8, 6, 8}));
}

// A 2x3 grid: instance (i, j) writes out[i, j] = 10*i + j through program ids, into a shared
// output; a private SBUF tile is fresh (NaN) in every instance.
TEST(ExecDma, SpmdGridWithProgramIds) {
  KernelBuilder kb("spmd");
  auto& k = kb.k;
  k.grid = {2, 3};
  int o = kb.output("o", DType::Float32, {2, 3});
  int fresh = kb.output("fresh", DType::Float32, {2, 3});
  int t = kb.sbuf("t", DType::Float32, {1, 1});
  int u = kb.sbuf("u", DType::Float32, {1, 1});
  int p0 = kb.program_id(0), p1 = kb.program_id(1);
  ir::Instr io;
  io.op = ir::Opcode::Iota;
  io.dst = whole(k, t);
  ir::ScalarExpr rest = V(p0, 10);
  rest.terms.push_back({p1, 1});
  io.iota = pred({0, 0}, rest, ir::CmpKind::Lt);
  // `u` is read before anything writes it in this instance: it must be NaN every time, even
  // though the previous instance wrote it at the end.
  ir::Instr probe = copy(box(k, fresh, {V(p0), V(p1)}, {1, 1}), whole(k, u));
  k.body = {S(io), S(probe), S(copy(box(k, o, {V(p0), V(p1)}, {1, 1}), whole(k, t))),
            S(copy(whole(k, u), whole(k, t), ir::Engine::Vector))};
  auto r = execute(k, {});
  EXPECT_EQ(values<float>(r.outputs[0]), (std::vector<float>{0, 1, 2, 10, 11, 12}));
  for (float v : values<float>(r.outputs[1])) EXPECT_TRUE(std::isnan(v));
}

// Floor-div / mod atoms follow Python semantics (toward -inf; sign of the divisor).
TEST(ExecDma, FloorDivModAtoms) {
  KernelBuilder kb("divmod");
  auto& k = kb.k;
  int o = kb.output("o", DType::Int32, {7, 2});
  int t = kb.sbuf("t", DType::Int32, {1, 2});
  k.body.push_back(kb.loop(-3, 4, 1, [&](int i) {
    int q = kb.floordiv(V(i), 2), m = kb.mod(V(i), 2);
    ir::Instr a, b;
    a.op = b.op = ir::Opcode::Iota;
    a.dst = box(k, t, {}, {1, 1});
    b.dst = box(k, t, {C(0), C(1)}, {1, 1});
    a.iota = pred({0, 0}, V(q), ir::CmpKind::Lt);
    b.iota = pred({0, 0}, V(m), ir::CmpKind::Lt);
    return std::vector<ir::Stmt>{S(a), S(b), S(copy(box(k, o, {V(i, 1, 3), C(0)}, {1, 2}), whole(k, t)))};
  }, ir::LoopKind::Sequential));
  auto v = values<int32_t>(execute(k, {}).outputs[0]);
  for (int i = -3; i < 4; ++i) {
    int fq = (i >= 0) ? i / 2 : -((-i + 1) / 2);
    EXPECT_EQ(v[(i + 3) * 2], fq) << i;
    EXPECT_EQ(v[(i + 3) * 2 + 1], i - 2 * fq) << i;
  }
}

// An `if` on a loop variable: only iterations with i < 2 write.
TEST(ExecDma, IfOnLoopVariable) {
  KernelBuilder kb("if");
  auto& k = kb.k;
  int o = kb.output("o", DType::Float32, {1, 4});
  k.body.push_back(S(copy(whole(k, o), whole(k, o))));
  k.body.clear();
  ir::Instr init;
  init.op = ir::Opcode::Memset;
  init.dst = whole(k, o);
  init.srcs = {I(0)};
  k.body.push_back(S(init));
  k.body.push_back(kb.loop(0, 4, 1, [&](int i) {
    ir::If cond;
    cond.cond.terms.push_back(pred({}, V(i, 1, -2), ir::CmpKind::Lt));
    ir::Instr w;
    w.op = ir::Opcode::Memset;
    w.dst = box(k, o, {C(0), V(i)}, {1, 1});
    w.srcs = {I(5)};
    cond.then_body.push_back(S(w));
    ir::Instr e = w;
    e.srcs = {I(-5)};
    cond.else_body.push_back(S(e));
    return std::vector<ir::Stmt>{ir::Stmt{std::move(cond)}};
  }));
  EXPECT_EQ(values<float>(execute(k, {}).outputs[0]), (std::vector<float>{5, 5, -5, -5}));
}

// tensor_copy_dynamic_src: a runtime offset (one value in SBUF, broadcast to every element)
// added to the free index of an on-chip copy.
TEST(ExecDma, DynamicFreeOffsetBroadcastIndex) {
  KernelBuilder kb("dyn_src");
  auto& k = kb.k;
  int src = kb.param("src", DType::Float32, {2, 8});
  int offs = kb.param("offs", DType::Int32, {1, 1});
  int o = kb.output("o", DType::Float32, {2, 3});
  int s = kb.sbuf("s", DType::Float32, {2, 8});
  int ot = kb.sbuf("ot", DType::Int32, {1, 1});
  int t = kb.sbuf("t", DType::Float32, {2, 3});
  ir::Access a = box(k, s, {}, {2, 3});  // s[p, offs + j]
  a.indirect = ir::Indirect{1, std::make_shared<ir::Access>(box(k, ot, {}, {1, 1}))};
  k.body = {S(copy(whole(k, s), whole(k, src))), S(copy(whole(k, ot), whole(k, offs))),
            S(copy(whole(k, t), a, ir::Engine::Vector)), S(copy(whole(k, o), whole(k, t)))};
  std::vector<float> sv(16);
  for (int i = 0; i < 16; ++i) sv[i] = static_cast<float>(i);
  auto r = execute(k, {host_f32({2, 8}, sv), host_of<int32_t>(DType::Int32, {1, 1}, std::vector<int32_t>{4})});
  EXPECT_EQ(values<float>(r.outputs[0]), (std::vector<float>{4, 5, 6, 12, 13, 14}));
  // offset 6 makes j = 2 land on column 8: a dynamic out-of-bounds error.
  try {
    execute(k, {host_f32({2, 8}, sv), host_of<int32_t>(DType::Int32, {1, 1}, std::vector<int32_t>{6})});
    FAIL();
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().code, "dynamic_oob");
  }
}

// warn_uninit: a tile created inside a loop is "fresh" on every iteration, so reading it before
// writing it warns even though the previous iteration wrote it.
TEST(ExecDma, UninitWarningPerLoopScope) {
  KernelBuilder kb("uninit_loop");
  auto& k = kb.k;
  int o = kb.output("o", DType::Float32, {1, 2});
  int t = kb.sbuf("t", DType::Float32, {1, 2}, 1);
  k.body.push_back(kb.loop(0, 2, 1, [&](int i) {
    ir::Instr w;
    w.op = ir::Opcode::Memset;
    w.dst = whole(k, t);
    w.srcs = {I(1)};
    return std::vector<ir::Stmt>{S(copy(whole(k, o), whole(k, t), ir::Engine::Vector)), S(w)};
  }));
  machine::RunOptions opt;
  opt.warn_uninit = true;
  auto r = execute(k, {}, opt);
  ASSERT_EQ(r.warnings.size(), 1u);  // one per site, although it happens twice
  EXPECT_EQ(r.warnings[0].code, "uninitialized_read");
  // Without the option there are no warnings, and the stale value of iteration 0 is visible.
  auto r2 = execute(k, {});
  EXPECT_TRUE(r2.warnings.empty());
  EXPECT_EQ(values<float>(r2.outputs[0]), (std::vector<float>{1, 1}));
}
