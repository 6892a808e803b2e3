// Custom instructions (conventions in src/machine/custom_ops.h), against hand-computed values.
#include <gtest/gtest.h>

#include <cmath>

#include "ir/custom_ops.h"
#include "machine/executor.h"
#include "ir_builder.h"

using namespace nki;
using namespace nki::testing;
using machine::execute;

namespace {

ir::Instr custom(const std::string& name, ir::Access dst, std::vector<ir::Operand> srcs) {
  ir::Instr in;
  in.op = ir::Opcode::Custom;
  in.name = "nisa." + name;
  in.custom = ir::custom_op_by_name(name).value_or(ir::CustomOp::None);  // None: unknown name
  in.engine = ir::Engine::Vector;
  in.dst = std::move(dst);
  in.srcs = std::move(srcs);
  return in;
}

}  // namespace

TEST(CustomOps, BnStatsAndAggr) {
  KernelBuilder kb;
  auto& k = kb.k;
  int x = kb.param("x", DType::Float32, {2, 6});
  int st = kb.output("stats", DType::Float32, {2, 6});
  int ag = kb.output("aggr", DType::Float32, {2, 2});
  k.body = {S(custom("bn_stats", whole(k, st), {T(whole(k, x))})),
            S(custom("bn_aggr", whole(k, ag), {T(whole(k, st))}))};
  std::vector<float> xv = {1, 2, 3, 4, 5, 6, 0, 0, 2, 0, 4, 8};
  auto r = execute(k, {host_f32({2, 6}, xv)});
  auto s = values<float>(r.outputs[0]);
  // row 0: even 1,3,5 (mean 3, M2 8); odd 2,4,6 (mean 4, M2 8)
  EXPECT_EQ(s[0], 3);
  EXPECT_EQ(s[1], 3);
  EXPECT_EQ(s[2], 8);
  EXPECT_EQ(s[3], 3);
  EXPECT_EQ(s[4], 4);
  EXPECT_EQ(s[5], 8);
  auto a = values<float>(r.outputs[1]);
  EXPECT_FLOAT_EQ(a[0], 3.5f);
  EXPECT_FLOAT_EQ(a[1], 35.0f / 12.0f);  // population variance of 1..6
  // row 1: 0,0,2,0,4,8 -> mean 14/6, var = mean(x^2) - mean^2
  float m = 14.0f / 6.0f;
  EXPECT_FLOAT_EQ(a[2], m);
  EXPECT_NEAR(a[3], 84.0f / 6.0f - m * m, 1e-5);
}

TEST(CustomOps, Max8FindIndex8MatchReplace8) {
  KernelBuilder kb;
  auto& k = kb.k;
  int x = kb.param("x", DType::Float32, {1, 10});
  int mx = kb.output("max", DType::Float32, {1, 8});
  int ix = kb.output("idx", DType::UInt32, {1, 8});
  int rep = kb.output("rep", DType::Float32, {1, 10});
  int ridx = kb.output("ridx", DType::UInt32, {1, 8});
  int vals = kb.param("vals", DType::Float32, {1, 8});
  auto mr = custom("nc_match_replace8", whole(k, rep), {T(whole(k, x)), T(whole(k, vals)), T(whole(k, ridx))});
  mr.float_attrs = {-1.0};
  k.body = {S(custom("max8", whole(k, mx), {T(whole(k, x))})),
            S(custom("nc_find_index8", whole(k, ix), {T(whole(k, x)), T(whole(k, vals))})), S(mr)};
  std::vector<float> xv = {5, 1, 9, 3, 9, 7, 2, 8, 0, 4};
  std::vector<float> vv = {9, 9, 7, 42, 1, 0, 4, 2};  // 9 twice; 42 absent
  auto r = execute(k, {host_f32({1, 10}, xv), host_f32({1, 8}, vv)});
  EXPECT_EQ(values<float>(r.outputs[0]), (std::vector<float>{9, 9, 8, 7, 5, 4, 3, 2}));
  EXPECT_EQ(values<uint32_t>(r.outputs[1]),
            (std::vector<uint32_t>{2, 4, 5, 0xFFFFFFFFu, 1, 8, 9, 6}));
  EXPECT_EQ(values<float>(r.outputs[2]), (std::vector<float>{5, -1, -1, 3, -1, -1, -1, 8, -1, -1}));
  // Reverse order: vals[1] (9) takes index 2 first, then vals[0] takes the next 9 at 4.
  EXPECT_EQ(values<uint32_t>(r.outputs[3]),
            (std::vector<uint32_t>{4, 2, 5, 0xFFFFFFFFu, 1, 8, 9, 6}));
}

TEST(CustomOps, GatherFlattenedAndPartitionReduce) {
  KernelBuilder kb;
  auto& k = kb.k;
  int d = kb.param("d", DType::Float32, {2, 2, 2});
  int i = kb.param("i", DType::UInt32, {2, 3});
  int g = kb.output("g", DType::Float32, {2, 3});
  int s = kb.output("s", DType::Float32, {1, 2, 2});
  auto pr = custom("tensor_partition_reduce", whole(k, s), {T(whole(k, d))});
  pr.alu0 = ir::Alu::Maximum;
  pr.engine = ir::Engine::GpSimd;
  k.body = {S(custom("gather_flattened", whole(k, g), {T(whole(k, d)), T(whole(k, i))})), S(pr)};
  auto r = execute(k, {host_f32({2, 2, 2}, {1, 2, 3, 4, 8, 7, 6, 5}),
                       host_of<uint32_t>(DType::UInt32, {2, 3}, std::vector<uint32_t>{3, 0, 3, 1, 2, 9})});
  auto gv = values<float>(r.outputs[0]);
  EXPECT_EQ(gv[0], 4);
  EXPECT_EQ(gv[1], 1);
  EXPECT_EQ(gv[2], 4);
  EXPECT_EQ(gv[3], 7);
  EXPECT_EQ(gv[4], 6);
  EXPECT_TRUE(std::isnan(gv[5]));  // out-of-range index
  EXPECT_EQ(values<float>(r.outputs[1]), (std::vector<float>{8, 7, 6, 5}));
}

TEST(CustomOps, DropoutAndRand) {
  KernelBuilder kb;
  auto& k = kb.k;
  int x = kb.param("x", DType::Float32, {4, 256});
  int keep = kb.output("keep", DType::Float32, {4, 256});
  int drop = kb.output("drop", DType::Float32, {4, 256});
  int half = kb.output("half", DType::Float32, {4, 256});
  int rnd = kb.output("rnd", DType::Float32, {4, 256});
  k.body = {S(custom("random_seed", whole(k, x), {I(42)})),
            S(custom("dropout", whole(k, keep), {T(whole(k, x)), I(0.0)})),
            S(custom("dropout", whole(k, drop), {T(whole(k, x)), I(1.0)})),
            S(custom("dropout", whole(k, half), {T(whole(k, x)), I(0.5)})),
            S(custom("rand", whole(k, rnd), {}))};
  std::vector<float> xv(1024, 3.0f);
  auto r = execute(k, {host_f32({4, 256}, xv)});
  EXPECT_EQ(values<float>(r.outputs[0]), xv);
  for (float v : values<float>(r.outputs[1])) EXPECT_EQ(v, 0.0f);
  int zeros = 0;
  for (float v : values<float>(r.outputs[2])) {
    EXPECT_TRUE(v == 0.0f || v == 3.0f);
    zeros += v == 0.0f;
  }
  EXPECT_GT(zeros, 400);
  EXPECT_LT(zeros, 624);
  for (float v : values<float>(r.outputs[3])) EXPECT_TRUE(v >= 0.0f && v < 1.0f);
  // Deterministic: a second run gives the same numbers.
  auto r2 = execute(k, {host_f32({4, 256}, xv)});
  EXPECT_EQ(r.outputs[3].data, r2.outputs[3].data);
}

TEST(CustomOps, StreamShuffleAndLocalGather) {
  KernelBuilder kb;
  auto& k = kb.k;
  int x = kb.param("x", DType::Int32, {32, 2});
  int o = kb.output("o", DType::Int32, {32, 2});
  int t = kb.sbuf("t", DType::Int32, {32, 2}, 0, ir::TensorInit::Fill);
  k.tensors[t].fill_value = -7;
  auto sh = custom("nc_stream_shuffle", whole(k, t), {T(whole(k, x))});
  sh.int_attrs.assign(32, 255);
  sh.int_attrs[0] = 5;
  sh.int_attrs[1] = 0;
  sh.int_attrs[31] = 31;
  k.body = {S(sh), S(copy(whole(k, o), whole(k, t)))};
  std::vector<int32_t> xv(64);
  for (int i = 0; i < 64; ++i) xv[i] = 100 + i;
  auto r = values<int32_t>(execute(k, {host_of<int32_t>(DType::Int32, {32, 2}, xv)}).outputs[0]);
  EXPECT_EQ(r[0], 110);
  EXPECT_EQ(r[1], 111);
  EXPECT_EQ(r[2], 100);
  EXPECT_EQ(r[3], 101);
  EXPECT_EQ(r[4], -7);
  EXPECT_EQ(r[62], 162);

  // local_gather: 16 partitions (one core), source [16, 8], index [16, 1] read partition-first,
  // 3 valid indices, 2 elements each.
  KernelBuilder kb2;
  auto& k2 = kb2.k;
  int s2 = kb2.param("s", DType::Float32, {16, 8});
  int i2 = kb2.param("i", DType::UInt16, {16, 1});
  int o2 = kb2.output("o", DType::Float32, {16, 6});
  auto lg = custom("local_gather", whole(k2, o2), {T(whole(k2, s2)), T(whole(k2, i2))});
  lg.engine = ir::Engine::GpSimd;
  lg.int_attrs = {2, 3};
  k2.body = {S(lg)};
  std::vector<float> sv(128);
  for (int i = 0; i < 128; ++i) sv[i] = static_cast<float>(i);
  std::vector<uint16_t> iv(16, 0);
  iv[0] = 6;
  iv[1] = 0;
  iv[2] = 3;
  auto out = values<float>(execute(k2, {host_f32({16, 8}, sv), host_of<uint16_t>(DType::UInt16, {16, 1}, iv)}).outputs[0]);
  for (int p = 0; p < 16; ++p) {
    std::vector<float> expect = {p * 8.0f + 6, p * 8.0f + 7, p * 8.0f + 0,
                                 p * 8.0f + 1, p * 8.0f + 3, p * 8.0f + 4};
    for (int j = 0; j < 6; ++j) EXPECT_EQ(out[p * 6 + j], expect[j]) << p << "," << j;
  }
}

// TensorE transpose on trn1 is a matmul with the identity: a NaN in input column f turns the
// whole output row f into NaN; on trn2 / VectorE it is an exact copy.
TEST(CustomOps, TransposeNaNContaminationOnTrn1) {
  KernelBuilder kb;
  auto& k = kb.k;
  int x = kb.param("x", DType::Float32, {3, 2});
  int o = kb.output("o", DType::Float32, {2, 3});
  auto tr = custom("nc_transpose", whole(k, o), {T(whole(k, x))});
  tr.engine = ir::Engine::Tensor;
  k.body = {S(tr)};
  std::vector<float> xv = {1, 2, NAN, 4, 5, 6};  // column 0 = {1, NaN, 5}
  machine::RunOptions trn2;
  trn2.target = nki::Target::Trn2;
  auto exact = values<float>(execute(k, {host_f32({3, 2}, xv)}, trn2).outputs[0]);
  EXPECT_EQ(exact[0], 1);
  EXPECT_TRUE(std::isnan(exact[1]));
  EXPECT_EQ(exact[2], 5);
  EXPECT_EQ(exact[3], 2);
  EXPECT_EQ(exact[4], 4);
  EXPECT_EQ(exact[5], 6);
  auto v1 = values<float>(execute(k, {host_f32({3, 2}, xv)}).outputs[0]);
  for (int p = 0; p < 3; ++p) EXPECT_TRUE(std::isnan(v1[p])) << p;  // row 0 contaminated
  EXPECT_EQ(v1[3], 2);
  EXPECT_EQ(v1[4], 4);
  EXPECT_EQ(v1[5], 6);
}

TEST(CustomOps, UnknownNameIsAnError) {
  KernelBuilder kb;
  auto& k = kb.k;
  int o = kb.output("o", DType::Float32, {1, 1});
  k.body = {S(custom("frobnicate", whole(k, o), {}))};
  try {
    execute(k, {});
    FAIL();
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().code, "sim_unsupported");
  }
}

// range_select keeps on_true where bound0[p] <= j < bound1[p] and max-reduces into reduce_res.
TEST(CustomOps, RangeSelectWithMaxReduce) {
  KernelBuilder kb;
  auto& k = kb.k;
  int x = kb.param("x", DType::Float32, {2, 5});
  int b0 = kb.param("b0", DType::Float32, {2, 1});
  int b1 = kb.param("b1", DType::Float32, {2, 1});
  int o = kb.output("o", DType::Float32, {2, 5});
  int mx = kb.output("mx", DType::Float32, {2, 1});
  auto rs = custom("range_select", whole(k, o), {T(whole(k, x)), T(whole(k, b0)), T(whole(k, b1))});
  rs.int_attrs = {static_cast<int64_t>(ir::Alu::GreaterEqual), static_cast<int64_t>(ir::Alu::Less), 0};
  rs.float_attrs = {-1000.0};
  rs.reduce_op = ir::Alu::Maximum;
  rs.reduce_cmd = 3;
  rs.reduce_res = whole(k, mx);
  k.body = {S(rs)};
  auto r = execute(k, {host_f32({2, 5}, {1, 9, 3, 4, 5, 6, 7, 8, 2, 10}), host_f32({2, 1}, {2, 0}),
                       host_f32({2, 1}, {4, 3})});
  EXPECT_EQ(values<float>(r.outputs[0]),
            (std::vector<float>{-1000, -1000, 3, 4, -1000, 6, 7, 8, -1000, -1000}));
  EXPECT_EQ(values<float>(r.outputs[1]), (std::vector<float>{4, 8}));
}

TEST(CustomOps, SelectReduceAndSequenceBounds) {
  KernelBuilder kb;
  auto& k = kb.k;
  int pr = kb.param("pred", DType::UInt8, {1, 4});
  int x = kb.param("x", DType::Float32, {1, 4});
  int ids = kb.param("ids", DType::Int32, {1, 6});
  int o = kb.output("o", DType::Float32, {1, 4});
  int acc = kb.output("acc", DType::Float32, {1, 1});
  int sb = kb.output("sb", DType::Int32, {1, 2, 6});
  auto sr = custom("select_reduce", whole(k, o), {T(whole(k, pr)), T(whole(k, x)), I(-5.0)});
  sr.reduce_op = ir::Alu::Maximum;
  sr.reduce_cmd = 3;
  sr.reduce_res = whole(k, acc);
  k.body = {S(sr), S(custom("sequence_bounds", whole(k, sb), {T(whole(k, ids))}))};
  auto r = execute(k, {host_of<uint8_t>(DType::UInt8, {1, 4}, std::vector<uint8_t>{1, 0, 1, 0}),
                       host_f32({1, 4}, {-9, 2, -7, 3}),
                       host_of<int32_t>(DType::Int32, {1, 6}, std::vector<int32_t>{1, 1, 2, 2, 2, 0})});
  EXPECT_EQ(values<float>(r.outputs[0]), (std::vector<float>{-9, -5, -7, -5}));
  EXPECT_EQ(values<float>(r.outputs[1]), (std::vector<float>{-5}));
  EXPECT_EQ(values<int32_t>(r.outputs[2]), (std::vector<int32_t>{0, 0, 2, 2, 2, 6, 2, 2, 5, 5, 5, -1}));
}

TEST(CustomOps, DevicePrintAddsANote) {
  KernelBuilder kb;
  auto& k = kb.k;
  int x = kb.param("x", DType::Float32, {2, 2});
  ir::Instr p;
  p.op = ir::Opcode::Custom;
  p.custom = ir::CustomOp::DevicePrint;
  p.name = "nl.device_print#x tile:";
  p.dst = whole(k, x);
  p.srcs = {T(whole(k, x))};
  p.loc = {4, 2};
  k.body = {ir::Stmt{p}};
  auto r = execute(k, {host_f32({2, 2}, {1, 2.5f, -3, 0})});
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].severity, Severity::Note);
  EXPECT_EQ(r.warnings[0].code, "device_print");
  EXPECT_EQ(r.warnings[0].message, "x tile: [2, 2] 1 2.5 -3 0");
  EXPECT_EQ(r.warnings[0].line, 4);
}
