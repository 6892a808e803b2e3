#include <gtest/gtest.h>

#include <string>

#include "target/target.h"

namespace nki {
namespace {

constexpr Target kAll[] = {Target::Trn1, Target::Trn2};

TEST(TargetNames, EveryListedNameParsesAndEachTargetRoundTrips) {
  for (std::string_view name : target_names()) EXPECT_TRUE(parse_target(name).has_value()) << name;
  for (Target t : kAll) {
    EXPECT_EQ(parse_target(target_name(t)), t);
    EXPECT_EQ(describe(t).target, t);
  }
  // The generation names (NeuronCore-v2 = gen2 = trn1 and inf2, NeuronCore-v3 = gen3 = trn2).
  EXPECT_EQ(parse_target("gen2"), Target::Trn1);
  EXPECT_EQ(parse_target("inf2"), Target::Trn1);
  EXPECT_EQ(parse_target("gen3"), Target::Trn2);
}

TEST(TargetNames, OtherTextIsNoTarget) {
  for (std::string_view bad : {"", "trn3", "TRN1", "trn1 ", "gen4"}) EXPECT_FALSE(parse_target(bad).has_value()) << bad;
}

// The constants are given one by one (each from its doc page); these are the relations between
// them that the docs state, so a mistyped value fails here.
TEST(TargetDesc, ConstantsAgreeWithEachOther) {
  for (Target t : kAll) {
    const TargetDesc& d = describe(t);
    SCOPED_TRACE(d.name);
    EXPECT_EQ(d.psum_banks * d.psum_bank_bytes, d.psum_partition_bytes);  // 8 banks of 2 KiB
    EXPECT_EQ(d.psum_fmax * 4, d.psum_bank_bytes);                        // 512 fp32 per bank
    EXPECT_EQ(d.gemm_moving_fmax, d.psum_fmax);  // one nc_matmul writes one PSUM bank
    EXPECT_EQ(d.pmax, d.partitions);             // a tile spans at most every partition
    EXPECT_LE(d.sbuf_direct_alloc_bytes, d.sbuf_partition_bytes);
    EXPECT_GT(d.sbuf_direct_alloc_bytes, 0);
  }
  // NeuronCore-v3 has the larger SBUF; the PSUM size stays (trainium2_arch.rst).
  EXPECT_GT(describe(Target::Trn2).sbuf_partition_bytes, describe(Target::Trn1).sbuf_partition_bytes);
  EXPECT_EQ(describe(Target::Trn2).psum_partition_bytes, describe(Target::Trn1).psum_partition_bytes);
  EXPECT_EQ(describe(Target::Trn1).nc_version + 1, describe(Target::Trn2).nc_version);
}

}  // namespace
}  // namespace nki
