// The kernel-wide direct-allocation rules (check/direct_alloc.h) over placements given as the
// front end records them.
#include "check/direct_alloc.h"

#include <gtest/gtest.h>

#include "ir_builder.h"

namespace nki {
namespace {

using namespace nki::testing;

// t1 = load a; t2 = load a; out = t1 + t2 (t1 and t2 are live together).
struct TwoTiles {
  KernelBuilder b;
  int a, out, t1, t2;
  TwoTiles() {
    a = b.param("a", DType::Float32, {128, 64});
    out = b.output("out", DType::Float32, {128, 64});
    t1 = b.sbuf("t1", DType::Float32, {128, 64});
    t2 = b.sbuf("t2", DType::Float32, {128, 64});
    b.k.body.push_back(S(copy(whole(b.k, t1), whole(b.k, a))));
    b.k.body.push_back(S(copy(whole(b.k, t2), whole(b.k, a))));
    b.k.body.push_back(S(alu(ir::Alu::Add, whole(b.k, out), T(whole(b.k, t1)), T(whole(b.k, t2)))));
  }
  // A one-tile SBUF placement of `tensor` at byte `addr` of partitions 0..127.
  check::DirectTensor placed(int tensor, int64_t addr) const {
    check::DirectTensor d;
    d.tensor = tensor;
    d.buffer = ir::Buffer::Sbuf;
    d.pdim_size = 128;
    d.fdim_bytes = 64 * 4;
    d.tiles.push_back({0, 0, addr});
    return d;
  }
};

TEST(DirectAllocPass, DisjointPlacementsPass) {
  TwoTiles k;
  std::vector<Diagnostic> warnings;
  EXPECT_FALSE(check::direct_alloc_error(k.b.k, {k.placed(k.t1, 0), k.placed(k.t2, 256)}, {}, warnings));
  EXPECT_TRUE(warnings.empty());
}

TEST(DirectAllocPass, OverlappingLiveTilesWarn) {
  TwoTiles k;
  std::vector<Diagnostic> warnings;
  EXPECT_FALSE(check::direct_alloc_error(k.b.k, {k.placed(k.t1, 0), k.placed(k.t2, 128)}, {}, warnings));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].code, "allocation_overlap");
  EXPECT_NE(warnings[0].message.find("'t2' is placed on SBUF memory that 't1' (line 1) also uses while both are live"),
            std::string::npos)
      << warnings[0].message;
}

TEST(DirectAllocPass, AnAutomaticallyAllocatedTileIsMixing) {
  TwoTiles k;
  std::vector<Diagnostic> warnings;
  std::optional<Diagnostic> e = check::direct_alloc_error(k.b.k, {k.placed(k.t1, 0)}, {}, warnings);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code, "mixed_allocation");
  EXPECT_NE(e->message.find("'t2' [128, 64] in sbuf is allocated automatically"), std::string::npos) << e->message;
}

TEST(DirectAllocPass, AFoldedResultIsNotMixing) {
  // A result copied into an allocated tile by the very next instruction, and never used again.
  KernelBuilder b;
  const int a = b.param("a", DType::Float32, {128, 64});
  const int out = b.output("out", DType::Float32, {128, 64});
  const int tmp = b.sbuf("tmp", DType::Float32, {128, 64});
  const int t = b.sbuf("t", DType::Float32, {128, 64});
  b.k.body.push_back(S(copy(whole(b.k, tmp), whole(b.k, a))));
  b.k.body.push_back(S(copy(whole(b.k, t), whole(b.k, tmp), ir::Engine::Vector)));
  b.k.body.push_back(S(copy(whole(b.k, out), whole(b.k, t))));
  check::DirectTensor d;
  d.tensor = t;
  d.pdim_size = 128;
  d.fdim_bytes = 256;
  d.tiles.push_back({});
  std::vector<Diagnostic> warnings;
  EXPECT_FALSE(check::direct_alloc_error(b.k, {d}, {tmp}, warnings));
  EXPECT_TRUE(check::direct_alloc_error(b.k, {d}, {}, warnings));
}

TEST(DirectAllocPass, AnInternalHbmTensorIsRejected) {
  TwoTiles k;
  k.b.tensor("scratch", ir::Buffer::SharedHbm, DType::Float32, {128, 64});
  std::vector<Diagnostic> warnings;
  std::optional<Diagnostic> e = check::direct_alloc_error(k.b.k, {k.placed(k.t1, 0), k.placed(k.t2, 256)}, {}, warnings);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code, "non_io_hbm_tensor");
  EXPECT_NE(e->message.find("'scratch'"), std::string::npos) << e->message;
}

}  // namespace
}  // namespace nki
