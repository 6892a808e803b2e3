// The capacity pass (check/capacity.h) on hand-built IR: provable overflows are errors, the
// live-range estimate only warns, and the SBUF partition size is the one passed in (trn1 192 KiB,
// trn2 224 KiB).
#include "check/capacity.h"

#include <gtest/gtest.h>

#include "check/liveness.h"

#include "ir_builder.h"

namespace nki {
namespace {

using namespace nki::testing;


// 25600 float32 = 100 KiB per partition.
constexpr int64_t kHundredKiB = 25600;

struct TwoBigTiles {
  KernelBuilder b;
  int a, c, out1, out2, t1, t2;
  TwoBigTiles() {
    a = b.param("a", DType::Float32, {128, kHundredKiB});
    c = b.param("c", DType::Float32, {128, kHundredKiB});
    out1 = b.output("out1", DType::Float32, {128, kHundredKiB});
    out2 = b.output("out2", DType::Float32, {128, kHundredKiB});
    t1 = b.sbuf("t1", DType::Float32, {128, kHundredKiB});
    t2 = b.sbuf("t2", DType::Float32, {128, kHundredKiB});
  }
  void add(ir::Instr in, int line) {
    in.loc = {line, 1};
    b.k.body.push_back(S(in));
  }
};

TEST(CapacityPass, TwoLiveTilesOverThePartitionOnlyWarn) {
  // t1 = load a; t2 = load c; store t1; store t2: both live at the second load, but no
  // instruction needs both, so the compiler may still fit them (a warning, not an error).
  TwoBigTiles k;
  k.add(copy(whole(k.b.k, k.t1), whole(k.b.k, k.a)), 1);
  k.add(copy(whole(k.b.k, k.t2), whole(k.b.k, k.c)), 2);
  k.add(copy(whole(k.b.k, k.out1), whole(k.b.k, k.t1)), 3);
  k.add(copy(whole(k.b.k, k.out2), whole(k.b.k, k.t2)), 4);
  std::vector<Diagnostic> warnings;
  EXPECT_FALSE(check::capacity_error(k.b.k, Target::Trn1, &warnings));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].code, "sbuf_capacity_estimate");
  EXPECT_EQ(warnings[0].severity, Severity::Warning);
  EXPECT_NE(warnings[0].message.find("reaches 200 KiB per partition when 't2' is allocated, more than the 192 KiB "
                                     "of a trn1 SBUF partition"),
            std::string::npos)
      << warnings[0].message;
  EXPECT_EQ(check::peak_partition_bytes(k.b.k, ir::Buffer::Sbuf), 200 * 1024);
  // 224 KiB (trn2) holds both.
  warnings.clear();
  EXPECT_FALSE(check::capacity_error(k.b.k, Target::Trn2, &warnings));
  EXPECT_TRUE(warnings.empty());
}

TEST(CapacityPass, OneInstructionReadingMoreThanAPartitionIsAnError) {
  TwoBigTiles k;
  const int sum = k.b.sbuf("sum", DType::Float32, {128, 1});
  k.add(copy(whole(k.b.k, k.t1), whole(k.b.k, k.a)), 1);
  k.add(copy(whole(k.b.k, k.t2), whole(k.b.k, k.c)), 2);
  ir::Instr add = alu(ir::Alu::Add, box(k.b.k, sum, {}, {128, 1}), T(box(k.b.k, k.t1, {}, {128, kHundredKiB})),
                      T(box(k.b.k, k.t2, {}, {128, kHundredKiB})));
  k.add(add, 3);
  std::optional<Diagnostic> e = check::capacity_error(k.b.k, Target::Trn1);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code, "sbuf_capacity_exceeded");
  EXPECT_EQ(e->line, 3);
  EXPECT_NE(e->message.find("the operands that 'nisa.tensor_tensor' reads need at least 200 KiB of each SBUF "
                            "partition at the same time, more than the 192 KiB of a trn1 SBUF partition"),
            std::string::npos)
      << e->message;
  EXPECT_FALSE(check::capacity_error(k.b.k, Target::Trn2));
}

TEST(CapacityPass, OneTileLargerThanAPartition) {
  KernelBuilder b;
  const int a = b.param("a", DType::Float32, {128, 50000});
  const int t = b.sbuf("t", DType::Float32, {128, 50000});
  b.k.body.push_back(S(copy(whole(b.k, t), whole(b.k, a))));
  std::optional<Diagnostic> e = check::capacity_error(b.k, Target::Trn1);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code, "sbuf_capacity_exceeded");
  EXPECT_EQ(e->message, "'t' [128, 50000] float32 needs 200000 bytes per partition, more than the 192 KiB of a trn1 "
                        "SBUF partition");
  EXPECT_FALSE(check::capacity_error(b.k, Target::Trn2));
}

TEST(CapacityPass, PsumHasSixteenKiBPerPartitionOnEveryTarget) {
  KernelBuilder b;
  const int a = b.param("a", DType::Float32, {128, 4097});
  const int p = b.psum("p", {128, 4097}, 0, ir::TensorInit::Uninitialized);
  b.k.body.push_back(S(copy(whole(b.k, p), whole(b.k, a))));
  std::optional<Diagnostic> e = check::capacity_error(b.k, Target::Trn2);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code, "psum_capacity_exceeded");
  EXPECT_NE(e->message.find("the 16 KiB of a PSUM partition"), std::string::npos) << e->message;
}

TEST(CapacityPass, ATensorNeverAccessedTakesNoRoom) {
  KernelBuilder b;
  b.sbuf("unused", DType::Float32, {128, 50000});
  EXPECT_FALSE(check::capacity_error(b.k, Target::Trn1));
  EXPECT_TRUE(check::on_chip_liveness(b.k).ranges.empty());
}

}  // namespace
}  // namespace nki
