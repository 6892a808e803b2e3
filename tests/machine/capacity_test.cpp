// check_capacity: SBUF / PSUM per-partition accounting over tensors live at the same time.
#include <gtest/gtest.h>

#include "machine/capacity.h"
#include "ir_builder.h"

using namespace nki;
using namespace nki::testing;
using machine::check_capacity;
using machine::Target;

namespace {

// A kernel touching tensor `t` from a loop nested `depth` deep (so its creation block is known).
void use_in_loops(KernelBuilder& kb, std::vector<ir::Stmt>& body, const std::vector<int>& ts) {
  for (int t : ts) {
    ir::Instr ms;
    ms.op = ir::Opcode::Memset;
    ms.dst = whole(kb.k, t);
    ms.srcs = {I(0)};
    body.push_back(S(ms));
  }
}

}  // namespace

TEST(Capacity, FitsOnTrn1) {
  KernelBuilder kb;
  int a = kb.sbuf("a", DType::Float32, {128, 16384});  // 64 KiB
  int b = kb.sbuf("b", DType::BFloat16, {128, 32768}); // 64 KiB
  use_in_loops(kb, kb.k.body, {a, b});
  EXPECT_TRUE(check_capacity(kb.k, Target::Trn1).empty());
}

TEST(Capacity, SbufOverflowNamesBiggestTensors) {
  KernelBuilder kb;
  int a = kb.sbuf("big", DType::Float32, {128, 32768});  // 128 KiB
  int b = kb.sbuf("mid", DType::Float32, {128, 16384});  // 64 KiB
  int c = kb.sbuf("small", DType::Float32, {4, 128, 32}, 0);  // block dims count: 4*32*4 = 512 B
  kb.k.tensors[c].partition_dim = 1;
  use_in_loops(kb, kb.k.body, {a, b, c});
  auto d = check_capacity(kb.k, Target::Trn1);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].code, "sbuf_capacity_exceeded");
  EXPECT_NE(d[0].message.find("197120 bytes"), std::string::npos) << d[0].message;
  EXPECT_NE(d[0].message.find("'big' (128 KiB), 'mid' (64 KiB)"), std::string::npos)
      << d[0].message;
  // trn2 has 224 KiB per partition.
  EXPECT_TRUE(check_capacity(kb.k, Target::Trn2).empty());
}

// Tiles created in sibling loops are never live together; nested ones are.
TEST(Capacity, SiblingLoopsDoNotAdd) {
  KernelBuilder kb;
  auto& k = kb.k;
  int a = kb.sbuf("a", DType::Float32, {128, 32768}, 1);  // 128 KiB
  int b = kb.sbuf("b", DType::Float32, {128, 32768}, 1);  // 128 KiB
  k.body.push_back(kb.loop(0, 2, 1, [&](int) {
    std::vector<ir::Stmt> body;
    use_in_loops(kb, body, {a});
    return body;
  }));
  k.body.push_back(kb.loop(0, 2, 1, [&](int) {
    std::vector<ir::Stmt> body;
    use_in_loops(kb, body, {b});
    return body;
  }));
  EXPECT_TRUE(check_capacity(k, Target::Trn1).empty());
  // Nested: b created inside a loop that sits in a's loop.
  KernelBuilder kb2;
  auto& k2 = kb2.k;
  int a2 = kb2.sbuf("a", DType::Float32, {128, 32768}, 1);
  int b2 = kb2.sbuf("b", DType::Float32, {128, 32768}, 2);
  k2.body.push_back(kb2.loop(0, 2, 1, [&](int) {
    std::vector<ir::Stmt> body;
    use_in_loops(kb2, body, {a2});
    body.push_back(kb2.loop(0, 2, 1, [&](int) {
      std::vector<ir::Stmt> inner;
      use_in_loops(kb2, inner, {b2});
      return inner;
    }));
    return body;
  }));
  auto d = check_capacity(k2, Target::Trn1);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].code, "sbuf_capacity_exceeded");
}

TEST(Capacity, PsumBankAndTotal) {
  KernelBuilder kb;
  int big_tile = kb.psum("wide", {128, 1024});  // 4 KiB > one bank
  use_in_loops(kb, kb.k.body, {big_tile});
  auto d = check_capacity(kb.k, Target::Trn1);
  ASSERT_GE(d.size(), 1u);
  EXPECT_EQ(d[0].code, "psum_capacity_exceeded");
  EXPECT_NE(d[0].message.find("'wide'"), std::string::npos);

  KernelBuilder kb2;
  std::vector<int> ts;
  for (int i = 0; i < 9; ++i) ts.push_back(kb2.psum("ps" + std::to_string(i), {128, 512}));
  use_in_loops(kb2, kb2.k.body, ts);
  auto d2 = check_capacity(kb2.k, Target::Trn1);
  ASSERT_EQ(d2.size(), 1u);  // 9 x 2 KiB = 18 KiB > 16 KiB
  EXPECT_EQ(d2[0].code, "psum_capacity_exceeded");
  ts.pop_back();
  KernelBuilder kb3;
  for (int i = 0; i < 8; ++i) kb3.psum("ps" + std::to_string(i), {128, 512});
  EXPECT_TRUE(check_capacity(kb3.k, Target::Trn1).empty());
}
