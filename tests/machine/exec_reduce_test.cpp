// Executor tests: Reduce, Activation (scale/bias, accumulator registers), Scan.
#include <gtest/gtest.h>

#include <cmath>

#include "machine/executor.h"
#include "ir_builder.h"

using namespace nki;
using namespace nki::testing;
using machine::execute;

namespace {

ir::Instr reduce(ir::Alu op, ir::Access dst, ir::Access src, std::vector<int> axes) {
  ir::Instr in;
  in.op = ir::Opcode::Reduce;
  in.name = "nisa.tensor_reduce";
  in.engine = ir::Engine::Vector;
  in.alu0 = op;
  in.dst = std::move(dst);
  in.srcs = {T(std::move(src))};
  in.axes = std::move(axes);
  return in;
}

}  // namespace

TEST(ExecReduce, SumMaxOverFreeAxesAndNegate) {
  KernelBuilder kb("reduce");
  auto& k = kb.k;
  int a = kb.param("a", DType::Float32, {3, 2, 4});
  int os = kb.output("sum", DType::Float32, {3, 1});
  int om = kb.output("negmax", DType::Float32, {3, 2});
  int oa = kb.output("sum_axis1", DType::Float32, {3, 4});
  auto s = reduce(ir::Alu::Add, box(k, os, {}, {3}), whole(k, a), {1, 2});
  s.dst.coef = {{1}, {0}};
  auto m = reduce(ir::Alu::Maximum, whole(k, om), whole(k, a), {2});
  m.negate = true;
  auto s1 = reduce(ir::Alu::Add, whole(k, oa), whole(k, a), {1});
  k.body = {S(s), S(m), S(s1)};
  std::vector<float> av(24);
  for (int i = 0; i < 24; ++i) av[i] = static_cast<float>((i * 5) % 7) - 2.5f;
  auto r = execute(k, {host_f32({3, 2, 4}, av)});
  auto sum = values<float>(r.outputs[0]);
  auto negmax = values<float>(r.outputs[1]);
  auto sa1 = values<float>(r.outputs[2]);
  for (int p = 0; p < 3; ++p) {
    float tot = 0;
    for (int i = 0; i < 8; ++i) tot += av[p * 8 + i];
    EXPECT_EQ(sum[p], tot);
    for (int j = 0; j < 2; ++j) {
      float mx = -INFINITY;
      for (int i = 0; i < 4; ++i) mx = std::max(mx, av[p * 8 + j * 4 + i]);
      EXPECT_EQ(negmax[p * 2 + j], -mx);
    }
    for (int i = 0; i < 4; ++i) EXPECT_EQ(sa1[p * 4 + i], av[p * 8 + i] + av[p * 8 + 4 + i]);
  }
}

// A masked reduction ignores masked-out inputs (ragged free size 3 of 4).
TEST(ExecReduce, MaskedReduction) {
  KernelBuilder kb("reduce_mask");
  auto& k = kb.k;
  int a = kb.param("a", DType::Float32, {2, 4});
  int o = kb.output("o", DType::Float32, {2, 1});
  auto s = reduce(ir::Alu::Add, box(k, o, {}, {2}), whole(k, a), {1});
  s.dst.coef = {{1}, {0}};
  ir::Mask m;
  m.terms.push_back(pred({0, 1}, C(-3), ir::CmpKind::Lt));
  s.mask = m;
  k.body = {S(s)};
  auto r = execute(k, {host_f32({2, 4}, {1, 2, 3, 100, 4, 5, 6, 100})});
  EXPECT_EQ(values<float>(r.outputs[0]), (std::vector<float>{6, 15}));
}

// out = exp(x * scale + bias[p]) with a [P,1] bias broadcast; accumulate-register reduction
// across two instructions (reset_reduce then reduce) into reduce_res.
TEST(ExecReduce, ActivationScaleBiasAndAccumulate) {
  KernelBuilder kb("act");
  auto& k = kb.k;
  int x = kb.param("x", DType::Float32, {2, 3});
  int bias = kb.param("bias", DType::Float32, {2, 1});
  int o = kb.output("o", DType::Float32, {2, 3});
  int acc = kb.output("acc", DType::Float32, {2, 1});
  auto act = [&](int cmd) {
    ir::Instr in;
    in.op = ir::Opcode::Activation;
    in.name = "nisa.activation";
    in.engine = ir::Engine::Scalar;
    in.act = ir::Act::Exp;
    in.dst = whole(k, o);
    ir::Access b = box(k, bias, {}, {2, 3});
    b.coef = {{1, 0}, {0, 0}};  // broadcast along the free dim
    in.srcs = {T(whole(k, x)), I(0.5), T(b)};
    in.reduce_op = ir::Alu::Add;
    in.reduce_res = whole(k, acc);
    in.reduce_cmd = cmd;
    return in;
  };
  k.body = {S(act(3)), S(act(2))};
  std::vector<float> xv = {0, 1, 2, -1, -2, 4}, bv = {0.25f, -1};
  auto r = execute(k, {host_f32({2, 3}, xv), host_f32({2, 1}, bv)});
  auto out = values<float>(r.outputs[0]);
  auto a = values<float>(r.outputs[1]);
  for (int p = 0; p < 2; ++p) {
    float s = 0;
    for (int f = 0; f < 3; ++f) {
      float e = static_cast<float>(std::exp(static_cast<double>(xv[p * 3 + f] * 0.5f + bv[p])));
      EXPECT_EQ(out[p * 3 + f], e);
      s += e;
    }
    float twice = s;
    for (int f = 0; f < 3; ++f)
      twice += static_cast<float>(std::exp(static_cast<double>(xv[p * 3 + f] * 0.5f + bv[p])));
    EXPECT_FLOAT_EQ(a[p], twice);
  }
}

// tensor_tensor_scan: r_i = (d0_i * r_{i-1}) + d1_i per partition, r_{-1} = initial.
TEST(ExecReduce, ScanRecurrence) {
  KernelBuilder kb("scan");
  auto& k = kb.k;
  int d0 = kb.param("d0", DType::Float32, {2, 4});
  int d1 = kb.param("d1", DType::Float32, {2, 4});
  int o = kb.output("o", DType::Float32, {2, 4});
  ir::Instr sc;
  sc.op = ir::Opcode::Scan;
  sc.alu0 = ir::Alu::Multiply;
  sc.alu1 = ir::Alu::Add;
  sc.dst = whole(k, o);
  sc.srcs = {T(whole(k, d0)), T(whole(k, d1)), I(1.0)};
  k.body = {S(sc)};
  std::vector<float> a = {2, 2, 2, 2, 0.5f, 1, 1, 0}, b = {1, 1, 1, 1, 0, 1, 2, 3};
  auto out = values<float>(execute(k, {host_f32({2, 4}, a), host_f32({2, 4}, b)}).outputs[0]);
  EXPECT_EQ(out, (std::vector<float>{3, 7, 15, 31, 0.5f, 1.5f, 3.5f, 3}));
}
