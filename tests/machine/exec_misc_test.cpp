// Executor tests: two-operator ALU instructions, GpSimd integer arithmetic, bitvec reductions,
// fully masked instructions, negative loop steps and tf32 storage.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "base/dtype_convert.h"
#include "machine/executor.h"
#include "ir_builder.h"

using namespace nki;
using namespace nki::testing;
using machine::execute;

// scalar_tensor_tensor: (data * [P,1] operand) - tensor, then cast to bf16 (RNE).
TEST(ExecMisc, TwoOperatorAluWithPartitionScalar) {
  KernelBuilder kb("stt");
  auto& k = kb.k;
  int d = kb.param("d", DType::Float32, {2, 3});
  int s = kb.param("s", DType::Float32, {2, 1});
  int t = kb.param("t", DType::Float32, {2, 3});
  int o = kb.output("o", DType::BFloat16, {2, 3});
  ir::Access sb = box(k, s, {}, {2, 3});
  sb.coef = {{1, 0}, {0, 0}};
  ir::Instr in = alu(ir::Alu::Multiply, whole(k, o), T(whole(k, d)), T(sb));
  in.alu1 = ir::Alu::Subtract;
  in.has_second = true;
  in.srcs.push_back(T(whole(k, t)));
  k.body = {S(in)};
  std::vector<float> dv = {1, 2, 3, 4, 5, 6}, sv = {3, 0.5f}, tv = {0, 1, 2, 0.001f, 0, 0};
  auto out = values<uint16_t>(
      execute(k, {host_f32({2, 3}, dv), host_f32({2, 1}, sv), host_f32({2, 3}, tv)}).outputs[0]);
  for (int p = 0; p < 2; ++p)
    for (int f = 0; f < 3; ++f) {
      float e = dv[p * 3 + f] * sv[p] - tv[p * 3 + f];
      EXPECT_EQ(out[p * 3 + f], f32_to_bf16_bits(e)) << p << "," << f;
    }
}

// GpSimd integer tensor_tensor is exact (no fp32 detour); VectorE goes through fp32.
TEST(ExecMisc, GpSimdIntegerArithmeticIsExact) {
  KernelBuilder kb("gpsimd_int");
  auto& k = kb.k;
  int a = kb.param("a", DType::Int32, {1, 2});
  int og = kb.output("g", DType::Int32, {1, 2});
  int ov = kb.output("v", DType::Int32, {1, 2});
  ir::Instr g = alu(ir::Alu::Add, whole(k, og), T(whole(k, a)), I(1));
  g.engine = ir::Engine::GpSimd;
  ir::Instr v = alu(ir::Alu::Add, whole(k, ov), T(whole(k, a)), I(1));
  k.body = {S(g), S(v)};
  auto r = execute(k, {host_of<int32_t>(DType::Int32, {1, 2}, std::vector<int32_t>{16777217, 2147483647})});
  EXPECT_EQ(values<int32_t>(r.outputs[0]), (std::vector<int32_t>{16777218, 2147483647}));  // saturates
  // VectorE: 16777217 -> fp32 16777216; 16777216 + 1 = 16777217 rounds (ties to even) to 16777216.
  EXPECT_EQ(values<int32_t>(r.outputs[1])[0], 16777216);
}

// Bitvec reductions work on integer bits.
TEST(ExecMisc, BitwiseReduction) {
  KernelBuilder kb("reduce_bits");
  auto& k = kb.k;
  int a = kb.param("a", DType::UInt32, {2, 3});
  int o = kb.output("o", DType::UInt32, {2, 1});
  ir::Instr r;
  r.op = ir::Opcode::Reduce;
  r.alu0 = ir::Alu::BitwiseOr;
  r.dst = box(k, o, {}, {2});
  r.dst.coef = {{1}, {0}};
  r.srcs = {T(whole(k, a))};
  r.axes = {1};
  k.body = {S(r)};
  auto out = values<uint32_t>(execute(k, {host_of<uint32_t>(DType::UInt32, {2, 3},
      std::vector<uint32_t>{0x80000000u, 1, 16, 0x00FF0000u, 0x0000FF00u, 0x01000001u})}).outputs[0]);
  EXPECT_EQ(out, (std::vector<uint32_t>{0x80000011u, 0x01FFFF01u}));
}

// A fully masked instruction touches nothing, even where its box would be out of bounds.
TEST(ExecMisc, FullyMaskedInstructionIsSkipped) {
  KernelBuilder kb("masked_off");
  auto& k = kb.k;
  int a = kb.param("a", DType::Float32, {4, 4});
  int o = kb.output("o", DType::Float32, {4, 4});
  ir::Instr in = copy(box(k, o, {C(2), C(0)}, {4, 4}), box(k, a, {C(2), C(0)}, {4, 4}));
  ir::Mask m;
  m.terms.push_back(pred({1, 0}, C(-10), ir::CmpKind::Gt));  // p > 10: never
  in.mask = m;
  k.body = {S(in)};
  auto r = execute(k, {host_f32({4, 4}, std::vector<float>(16, 1.0f))});
  for (float v : values<float>(r.outputs[0])) EXPECT_TRUE(std::isnan(v));
}

// Loops with a negative step run start, start+step, ... while > stop (sequential order).
TEST(ExecMisc, NegativeStepSequentialLoop) {
  KernelBuilder kb("neg_step");
  auto& k = kb.k;
  int o = kb.output("o", DType::Float32, {1, 1});
  int acc = kb.sbuf("acc", DType::Float32, {1, 1}, 0, ir::TensorInit::Zeros);
  int t = kb.sbuf("t", DType::Float32, {1, 1});
  k.body.push_back(kb.loop(7, 0, -3, [&](int i) {  // 7, 4, 1
    ir::Instr io;
    io.op = ir::Opcode::Iota;
    io.dst = whole(k, t);
    io.iota = pred({0, 0}, V(i), ir::CmpKind::Lt);
    // acc = acc * 10 + i: order-sensitive
    ir::Instr m = alu(ir::Alu::Multiply, whole(k, acc), T(whole(k, acc)), I(10));
    m.alu1 = ir::Alu::Add;
    m.has_second = true;
    m.srcs.push_back(T(whole(k, t)));
    return std::vector<ir::Stmt>{S(io), S(m)};
  }, ir::LoopKind::Sequential));
  k.body.push_back(S(copy(whole(k, o), whole(k, acc))));
  EXPECT_EQ(values<float>(execute(k, {}).outputs[0])[0], 741.0f);
}

// tf32 tensors keep 10 mantissa bits in Precise mode, all 23 in LegacySim mode.
TEST(ExecMisc, Tf32StorageRounding) {
  KernelBuilder kb("tf32");
  auto& k = kb.k;
  int a = kb.param("a", DType::Float32, {1, 1});
  int o = kb.output("o", DType::Float32, {1, 1});
  int t = kb.sbuf("t", DType::TFloat32, {1, 1});
  k.body = {S(copy(whole(k, t), whole(k, a))), S(copy(whole(k, o), whole(k, t)))};
  const float x = 1.0f + 3.0f / 8192.0f;  // needs 13 mantissa bits
  auto p = values<float>(execute(k, {host_f32({1, 1}, {x})}).outputs[0]);
  EXPECT_EQ(p[0], round_to_tf32(x));
  EXPECT_NE(p[0], x);
  machine::RunOptions legacy;
  legacy.numerics = machine::Numerics::LegacySim;
  EXPECT_EQ(values<float>(execute(k, {host_f32({1, 1}, {x})}, legacy).outputs[0])[0], x);
}

// Buffers of 4 MiB and more are reserved and advised to use huge pages before their fill pass
// (Memory::allocate). Their contents must be exactly those of small buffers: the uninitialised
// pattern (NaN for floats, the sentinel 4 for integers) where nothing was written, the stored
// values elsewhere. Checked on both sides of the threshold, for fp32, bf16 and int32 outputs.
TEST(ExecMisc, LargeBuffersKeepUninitialisedPattern) {
  for (int64_t rows : {int64_t{8}, int64_t{1024}, int64_t{2048}}) {
    for (DType dt : {DType::Float32, DType::BFloat16, DType::Int32}) {
      const int64_t cols = 1024;
      KernelBuilder kb("large_alloc");
      auto& k = kb.k;
      int a = kb.param("a", DType::Float32, {rows / 2, cols});
      int o = kb.output("o", dt, {rows, cols});
      // Write the first half of the rows (a cast copy) and leave the second half unwritten.
      k.body = {S(copy(box(k, o, {C(0), C(0)}, {rows / 2, cols}), whole(k, a), ir::Engine::Vector))};
      std::vector<float> in(static_cast<size_t>(rows / 2 * cols));
      for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i % 97);
      auto r = execute(k, {host_f32({rows / 2, cols}, in)});
      ASSERT_EQ(r.outputs.size(), 1u);
      const HostTensor& h = r.outputs[0];
      const size_t half = in.size();
      if (dt == DType::Int32) {
        auto v = values<int32_t>(h);
        for (size_t i = 0; i < half; ++i) ASSERT_EQ(v[i], static_cast<int32_t>(i % 97)) << i;
        for (size_t i = half; i < v.size(); ++i) ASSERT_EQ(v[i], 4) << i;
      } else {
        std::vector<float> v(static_cast<size_t>(h.element_count()));
        convert_to_f32(dt, h.data.data(), v.data(), v.size());
        for (size_t i = 0; i < half; ++i) ASSERT_EQ(v[i], static_cast<float>(i % 97)) << i;
        for (size_t i = half; i < v.size(); ++i) ASSERT_TRUE(std::isnan(v[i])) << i;
      }
    }
  }
}
