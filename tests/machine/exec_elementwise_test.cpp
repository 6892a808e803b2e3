// Executor tests: element-wise instructions over loops, masks, select/iota, casts, storage
// rounding modes and uninitialised memory.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "base/dtype_convert.h"
#include "machine/executor.h"
#include "ir_builder.h"

using namespace nki;
using namespace nki::testing;
using machine::execute;
using machine::RunOptions;

// out = a + b over 2x2 tiles of [128, 100] with HBM in/out.
TEST(ExecElementwise, TiledAddOverLoops) {
  KernelBuilder kb("tiled_add");
  auto& k = kb.k;
  int a = kb.param("a", DType::Float32, {256, 200});
  int b = kb.param("b", DType::Float32, {256, 200});
  int o = kb.output("out", DType::Float32, {256, 200});
  int ta = kb.sbuf("ta", DType::Float32, {128, 100}, 2);
  int tb = kb.sbuf("tb", DType::Float32, {128, 100}, 2);
  int tc = kb.sbuf("tc", DType::Float32, {128, 100}, 2);
  k.body.push_back(kb.loop(0, 2, 1, [&](int i) {
    return std::vector<ir::Stmt>{kb.loop(0, 2, 1, [&](int j) {
      std::vector<ScalarExpr> off = {V(i, 128), V(j, 100)};
      return std::vector<ir::Stmt>{
          S(copy(whole(k, ta), box(k, a, off, {128, 100}))),
          S(copy(whole(k, tb), box(k, b, off, {128, 100}))),
          S(alu(ir::Alu::Add, whole(k, tc), T(whole(k, ta)), T(whole(k, tb)))),
          S(copy(box(k, o, off, {128, 100}), whole(k, tc))),
      };
    })};
  }));
  auto av = iota_f(256 * 200), bv = iota_f(256 * 200, -0.5f, 3.0f);
  auto r = execute(k, {host_f32({256, 200}, av), host_f32({256, 200}, bv)});
  ASSERT_EQ(r.outputs.size(), 1u);
  auto out = values<float>(r.outputs[0]);
  for (size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], av[i] + bv[i]) << i;
  EXPECT_TRUE(r.warnings.empty());
}

// 200 rows in tiles of 128: the second tile is ragged and masked (i*128 + p < 200).
TEST(ExecElementwise, MaskedRaggedTiles) {
  KernelBuilder kb("ragged");
  auto& k = kb.k;
  int a = kb.param("a", DType::Float32, {200, 8});
  int o = kb.output("out", DType::Float32, {200, 8});
  int t = kb.sbuf("t", DType::Float32, {128, 8}, 1);
  k.body.push_back(kb.loop(0, 2, 1, [&](int i) {
    ir::Mask m;
    m.terms.push_back(pred({1, 0}, V(i, 128, -200), ir::CmpKind::Lt));
    auto ld = copy(whole(k, t), box(k, a, {V(i, 128), C(0)}, {128, 8}));
    ld.mask = m;
    auto add = alu(ir::Alu::Multiply, whole(k, t), T(whole(k, t)), I(2.0));
    add.mask = m;
    auto st = copy(box(k, o, {V(i, 128), C(0)}, {128, 8}), whole(k, t));
    st.mask = m;
    return std::vector<ir::Stmt>{S(ld), S(add), S(st)};
  }));
  auto av = iota_f(200 * 8);
  auto r = execute(k, {host_f32({200, 8}, av)});
  auto out = values<float>(r.outputs[0]);
  for (size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], 2 * av[i]) << i;
}

// Without the mask the same store runs off the end of the tensor: a static OOB error.
TEST(ExecElementwise, UnmaskedRaggedTileIsOutOfBound) {
  KernelBuilder kb("ragged_oob");
  auto& k = kb.k;
  int a = kb.param("a", DType::Float32, {200, 8});
  int t = kb.sbuf("t", DType::Float32, {128, 8}, 1);
  k.body.push_back(kb.loop(0, 2, 1, [&](int i) {
    return std::vector<ir::Stmt>{S(copy(whole(k, t), box(k, a, {V(i, 128), C(0)}, {128, 8})))};
  }));
  try {
    execute(k, {host_f32({200, 8}, iota_f(1600))});
    FAIL() << "expected an out-of-bound error";
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().code, "err_tensor_access_out_of_bound");
    EXPECT_EQ(e.diagnostic().line, 2);
    EXPECT_NE(e.diagnostic().message.find("[128, 255]"), std::string::npos)
        << e.diagnostic().message;
  }
}

// Masked-out destination elements keep their previous contents.
TEST(ExecElementwise, MaskLeavesDestinationUnchanged) {
  KernelBuilder kb("mask_keep");
  auto& k = kb.k;
  int o = kb.output("out", DType::Float32, {4, 4});
  int t = kb.sbuf("t", DType::Float32, {4, 4}, 0, ir::TensorInit::Fill);
  k.tensors[t].fill_value = 7.0;
  ir::Instr ms;
  ms.op = ir::Opcode::Memset;
  ms.dst = whole(k, t);
  ms.srcs = {I(-1.0)};
  ir::Mask m;  // strict lower triangle: p - f > 0
  m.terms.push_back(pred({1, -1}, C(0), ir::CmpKind::Gt));
  ms.mask = m;
  k.body = {S(ms), S(copy(whole(k, o), whole(k, t)))};
  auto out = values<float>(execute(k, {}).outputs[0]);
  for (int p = 0; p < 4; ++p)
    for (int f = 0; f < 4; ++f) EXPECT_EQ(out[p * 4 + f], p > f ? -1.0f : 7.0f);
}

// affine_select-style Select with a predicate, tensor-condition Select, and Iota.
TEST(ExecElementwise, SelectAndIota) {
  KernelBuilder kb("select_iota");
  auto& k = kb.k;
  int o1 = kb.output("causal", DType::Float32, {4, 4});
  int o2 = kb.output("where", DType::Int32, {4, 4});
  int idx = kb.sbuf("idx", DType::Int32, {4, 4});
  int src = kb.sbuf("src", DType::Float32, {4, 4});
  int sel = kb.sbuf("sel", DType::Float32, {4, 4});
  int cond = kb.sbuf("cond", DType::UInt8, {4, 4});
  int sel2 = kb.sbuf("sel2", DType::Int32, {4, 4});
  ir::Instr io;  // idx[p, f] = 10*p + f + 3
  io.op = ir::Opcode::Iota;
  io.dst = whole(k, idx);
  io.iota = pred({10, 1}, C(3), ir::CmpKind::Lt);
  ir::Instr cp = copy(whole(k, src), whole(k, idx), ir::Engine::Vector);
  ir::Instr s;  // keep where f <= p, else -9984
  s.op = ir::Opcode::Select;
  s.dst = whole(k, sel);
  s.select_pred = pred({-1, 1}, C(0), ir::CmpKind::Le);
  s.srcs = {T(whole(k, src)), I(-9984.0)};
  ir::Instr c = alu(ir::Alu::Greater, whole(k, cond), T(whole(k, src)), I(20.0));
  ir::Instr s2;
  s2.op = ir::Opcode::Select;
  s2.dst = whole(k, sel2);
  s2.srcs = {T(whole(k, cond)), T(whole(k, idx)), I(-1.0)};
  k.body = {S(io), S(cp), S(s), S(c), S(s2), S(copy(whole(k, o1), whole(k, sel))),
            S(copy(whole(k, o2), whole(k, sel2)))};
  auto r = execute(k, {});
  auto causal = values<float>(r.outputs[0]);
  auto where = values<int32_t>(r.outputs[1]);
  for (int p = 0; p < 4; ++p)
    for (int f = 0; f < 4; ++f) {
      int v = 10 * p + f + 3;
      EXPECT_EQ(causal[p * 4 + f], f <= p ? static_cast<float>(v) : -9984.0f);
      EXPECT_EQ(where[p * 4 + f], v > 20 ? v : -1);
    }
}

// fp32 -> int8/uint8 casts round half to even and saturate; NaN -> 0.
TEST(ExecElementwise, IntSaturationOnCast) {
  KernelBuilder kb("sat");
  auto& k = kb.k;
  int a = kb.param("a", DType::Float32, {1, 8});
  int o8 = kb.output("i8", DType::Int8, {1, 8});
  int ou8 = kb.output("u8", DType::UInt8, {1, 8});
  int o32 = kb.output("i32", DType::Int32, {1, 8});
  k.body = {S(copy(whole(k, o8), whole(k, a))), S(copy(whole(k, ou8), whole(k, a))),
            S(alu(ir::Alu::Multiply, whole(k, o32), T(whole(k, a)), I(1e10)))};
  std::vector<float> av = {2.5f, 3.5f, -2.5f, 300.0f, -300.0f, NAN, 127.4f, -0.6f};
  auto r = execute(k, {host_f32({1, 8}, av)});
  auto i8 = values<int8_t>(r.outputs[0]);
  auto u8 = values<uint8_t>(r.outputs[1]);
  auto i32 = values<int32_t>(r.outputs[2]);
  std::vector<int> e8 = {2, 4, -2, 127, -128, 0, 127, -1};
  std::vector<int> eu8 = {2, 4, 0, 255, 0, 0, 127, 0};
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(i8[i], e8[i]) << i;
    EXPECT_EQ(u8[i], eu8[i]) << i;
  }
  EXPECT_EQ(i32[0], INT32_MAX);
  EXPECT_EQ(i32[2], INT32_MIN);
  EXPECT_EQ(i32[5], 0);
}

// Integer copies are bit-exact (no fp32 detour): 2^24 + 1 survives int32 -> int32 and
// int32 -> uint32 (in range); bitvec ops work on integer bits.
TEST(ExecElementwise, IntegerCopyAndBitvecExact) {
  KernelBuilder kb("ints");
  auto& k = kb.k;
  int a = kb.param("a", DType::Int32, {1, 4});
  int o = kb.output("o", DType::UInt32, {1, 4});
  int ox = kb.output("x", DType::Int32, {1, 4});
  int t = kb.sbuf("t", DType::Int32, {1, 4});
  k.body = {S(copy(whole(k, t), whole(k, a))), S(copy(whole(k, o), whole(k, t))),
            S(alu(ir::Alu::BitwiseXor, whole(k, ox), T(whole(k, t)), I(0x0F0F)))};
  std::vector<int32_t> av = {16777217, -5, 2147483647, 0x12345};
  auto r = execute(k, {host_of<int32_t>(DType::Int32, {1, 4}, av)});
  auto o_u = values<uint32_t>(r.outputs[0]);
  auto o_x = values<int32_t>(r.outputs[1]);
  EXPECT_EQ(o_u[0], 16777217u);
  EXPECT_EQ(o_u[1], 0u);  // saturates at 0
  EXPECT_EQ(o_u[2], 2147483647u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(o_x[i], av[i] ^ 0x0F0F);
}

// bf16 tiles round on every store in Precise mode, and keep fp32 in LegacySim mode.
TEST(ExecElementwise, Bf16StorageRoundingPreciseVsLegacy) {
  KernelBuilder kb("bf16");
  auto& k = kb.k;
  int a = kb.param("a", DType::Float32, {1, 2});
  int o = kb.output("o", DType::Float32, {1, 2});
  int t = kb.sbuf("t", DType::BFloat16, {1, 2});
  int u = kb.sbuf("u", DType::BFloat16, {1, 2});
  // t = a (rounded to bf16); u = t + 1/1024; o = u
  k.body = {S(copy(whole(k, t), whole(k, a))),
            S(alu(ir::Alu::Add, whole(k, u), T(whole(k, t)), I(1.0 / 1024))),
            S(copy(whole(k, o), whole(k, u)))};
  std::vector<float> av = {1.0f + 1.0f / 256, 1.0f};  // 1+2^-8 is a bf16 tie -> 1.0
  RunOptions precise;
  auto rp = values<float>(execute(k, {host_f32({1, 2}, av)}, precise).outputs[0]);
  EXPECT_EQ(rp[0], 1.0f);  // round(round(1+2^-8) + 2^-10) = round(1 + 2^-10) = 1
  EXPECT_EQ(rp[1], 1.0f);
  RunOptions legacy;
  legacy.numerics = machine::Numerics::LegacySim;
  auto rl = values<float>(execute(k, {host_f32({1, 2}, av)}, legacy).outputs[0]);
  EXPECT_EQ(rl[0], 1.0f + 1.0f / 256 + 1.0f / 1024);
  EXPECT_EQ(rl[1], 1.0f + 1.0f / 1024);
}

// Reading never-written memory yields NaN (floats) / the sentinel 4 (ints); warn_uninit warns.
TEST(ExecElementwise, UninitialisedReadsGiveNaN) {
  KernelBuilder kb("uninit");
  auto& k = kb.k;
  int o = kb.output("o", DType::Float32, {2, 2});
  int oi = kb.output("oi", DType::Int32, {2, 2});
  int partial = kb.output("partial", DType::Float32, {2, 2});
  int t = kb.sbuf("t", DType::Float32, {2, 2});
  int ti = kb.sbuf("ti", DType::Int32, {2, 2});
  k.body = {S(alu(ir::Alu::Add, whole(k, o), T(whole(k, t)), I(1.0))),
            S(copy(whole(k, oi), whole(k, ti))),
            S(copy(box(k, partial, {C(0), C(0)}, {1, 2}), box(k, o, {C(0), C(0)}, {1, 2})))};
  RunOptions opt;
  opt.warn_uninit = true;
  auto r = execute(k, {}, opt);
  for (float v : values<float>(r.outputs[0])) EXPECT_TRUE(std::isnan(v));
  for (int32_t v : values<int32_t>(r.outputs[1])) EXPECT_EQ(v, 4);
  auto p = values<float>(r.outputs[2]);
  EXPECT_TRUE(std::isnan(p[2]) && std::isnan(p[3]));  // never written output rows stay NaN
  ASSERT_EQ(r.warnings.size(), 2u);
  EXPECT_EQ(r.warnings[0].code, "uninitialized_read");
  EXPECT_EQ(r.warnings[0].severity, Severity::Warning);
  EXPECT_NE(r.warnings[0].message.find("'t'"), std::string::npos);
}

TEST(ExecElementwise, ArgumentMismatchIsAnError) {
  KernelBuilder kb("args");
  auto& k = kb.k;
  kb.param("a", DType::Float32, {2, 2});
  try {
    execute(k, {host_of<int32_t>(DType::Int32, {2, 2}, std::vector<int32_t>(4, 0))});
    FAIL();
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().code, "arg_dtype_mismatch");
  }
  try {
    execute(k, {host_f32({4, 1}, std::vector<float>(4, 0))});
    FAIL();
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().code, "arg_shape_mismatch");
  }
}

// Tensors over RunOptions::max_bytes are refused with a clear error.
TEST(ExecElementwise, MemoryLimit) {
  KernelBuilder kb("big");
  auto& k = kb.k;
  kb.sbuf("huge", DType::Float32, {128, 1 << 20});
  RunOptions opt;
  opt.max_bytes = 1 << 20;
  try {
    execute(k, {}, opt);
    FAIL();
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().code, "sim_memory_limit");
  }
}

// Constants come from const_data; alias tensors (reshape / view(dtype)) share their base.
TEST(ExecElementwise, ConstantsAndAliases) {
  KernelBuilder kb("alias");
  auto& k = kb.k;
  int a = kb.param("a", DType::Float32, {2, 6});
  int bytes = kb.param("bytes", DType::UInt8, {1, 4});
  int o1 = kb.output("reshaped", DType::Float32, {1, 4});
  int o2 = kb.output("fp8", DType::Float32, {1, 4});
  int o3 = kb.output("const", DType::Float32, {2, 2});
  int view = kb.tensor("a_view", ir::Buffer::SharedHbm, DType::Float32, {3, 4});
  k.tensors[view].alias_of = a;
  int f8 = kb.tensor("as_fp8", ir::Buffer::SharedHbm, DType::Float8E5M2, {1, 4});
  k.tensors[f8].alias_of = bytes;
  int c = kb.tensor("ident", ir::Buffer::SharedHbm, DType::BFloat16, {2, 2});
  k.tensors[c].role = ir::TensorRole::Constant;
  // bf16 bit patterns of 1, 0, 0, -2
  std::vector<uint16_t> cb = {0x3F80, 0, 0, 0xC000};
  k.tensors[c].const_data.resize(8);
  std::memcpy(k.tensors[c].const_data.data(), cb.data(), 8);
  k.body = {S(copy(whole(k, o1), box(k, view, {C(2), C(0)}, {1, 4}))),  // row 2 of the [3,4] view
            S(copy(whole(k, o2), whole(k, f8))), S(copy(whole(k, o3), whole(k, c)))};
  std::vector<float> av(12);
  for (int i = 0; i < 12; ++i) av[i] = static_cast<float>(i);
  // e5m2 bytes: 0x3C = 1.0, 0x40 = 2.0, 0xC4 = -4.0, 0x7C = inf
  std::vector<uint8_t> bv = {0x3C, 0x40, 0xC4, 0x7C};
  for (auto mode : {machine::Numerics::Precise, machine::Numerics::LegacySim}) {
    RunOptions opt;
    opt.numerics = mode;
    auto r = execute(k, {host_f32({2, 6}, av), host_of<uint8_t>(DType::UInt8, {1, 4}, bv)}, opt);
    EXPECT_EQ(values<float>(r.outputs[0]), (std::vector<float>{8, 9, 10, 11}));
    EXPECT_EQ(values<float>(r.outputs[1]), (std::vector<float>{1, 2, -4, INFINITY}));
    EXPECT_EQ(values<float>(r.outputs[2]), (std::vector<float>{1, 0, 0, -2}));
  }
}

// LegacySim holds bf16 parameters/outputs in fp32 and rounds once when returning them.
TEST(ExecElementwise, LegacySimRoundsOutputsOnReturn) {
  KernelBuilder kb("legacy_out");
  auto& k = kb.k;
  int a = kb.param("a", DType::BFloat16, {1, 2});
  int o = kb.output("o", DType::BFloat16, {1, 2});
  int acc = kb.sbuf("acc", DType::BFloat16, {1, 2});
  ir::Instr ms;
  ms.op = ir::Opcode::Memset;
  ms.dst = whole(k, acc);
  ms.srcs = {I(256.0)};
  k.body = {S(ms)};
  // acc += a, 4 times (a = 0.5): exact in fp32 (258), in bf16 256 + 0.5 rounds back to 256.
  for (int i = 0; i < 4; ++i)
    k.body.push_back(S(alu(ir::Alu::Add, whole(k, acc), T(whole(k, acc)), T(whole(k, a)))));
  k.body.push_back(S(copy(whole(k, o), whole(k, acc))));
  std::vector<uint16_t> half = {0x3F00, 0x3F00};  // 0.5
  RunOptions legacy;
  legacy.numerics = machine::Numerics::LegacySim;
  auto rl = values<uint16_t>(execute(k, {host_of<uint16_t>(DType::BFloat16, {1, 2}, half)}, legacy).outputs[0]);
  EXPECT_EQ(bf16_bits_to_f32(rl[0]), 258.0f);
  auto rp = values<uint16_t>(execute(k, {host_of<uint16_t>(DType::BFloat16, {1, 2}, half)}).outputs[0]);
  EXPECT_EQ(bf16_bits_to_f32(rp[0]), 256.0f);
}

// tensor_copy on ScalarE (trn1) goes through fp32: int32 values above 2^24 are rounded;
// VectorE copies are bit-exact.
TEST(ExecElementwise, ScalarEngineCopyGoesThroughFp32OnTrn1) {
  KernelBuilder kb("scalar_copy");
  auto& k = kb.k;
  int a = kb.param("a", DType::Int32, {1, 1});
  int os = kb.output("s", DType::Int32, {1, 1});
  int ov = kb.output("v", DType::Int32, {1, 1});
  k.body = {S(copy(whole(k, os), whole(k, a), ir::Engine::Scalar)),
            S(copy(whole(k, ov), whole(k, a), ir::Engine::Vector))};
  auto r = execute(k, {host_of<int32_t>(DType::Int32, {1, 1}, std::vector<int32_t>{16777217})});
  EXPECT_EQ(values<int32_t>(r.outputs[0])[0], 16777216);
  EXPECT_EQ(values<int32_t>(r.outputs[1])[0], 16777217);
  RunOptions trn2;
  trn2.target = nki::Target::Trn2;
  auto r2 = execute(k, {host_of<int32_t>(DType::Int32, {1, 1}, std::vector<int32_t>{16777217})}, trn2);
  EXPECT_EQ(values<int32_t>(r2.outputs[0])[0], 16777217);
}
