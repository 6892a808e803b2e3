// The encoding an isolated run sends to its parent (toolchain/wire.h).
#include "toolchain/wire.h"

#include <gtest/gtest.h>

namespace nki::toolchain::wire {
namespace {

HostTensor tensor(std::vector<int64_t> shape, std::vector<uint8_t> bytes) {
  HostTensor t;
  t.dtype = DType::UInt8;
  t.shape = std::move(shape);
  t.data = std::move(bytes);
  return t;
}

TEST(WireTensorsAgainst, UnchangedTensorsTravelAsReferencesAndComeBackEqual) {
  std::vector<HostTensor> base = {tensor({4}, {1, 2, 3, 4}), tensor({2, 2}, {5, 6, 7, 8})};
  std::vector<HostTensor> after = base;
  after[1].data[3] = 9;  // the kernel wrote into its second argument

  Writer w;
  w.tensors_against(after, base);
  std::string referenced = w.take();
  Writer full;
  full.tensors(after);
  EXPECT_LT(referenced.size(), full.take().size());  // the unchanged tensor was not copied

  Reader rd(referenced);
  std::vector<HostTensor> got = rd.tensors_against(base);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].data, base[0].data);
  EXPECT_EQ(got[0].shape, base[0].shape);
  EXPECT_EQ(got[1].data, after[1].data);
  EXPECT_TRUE(rd.at_end());
}

TEST(WireTensorsAgainst, ChangedShapeOrExtraTensorsAreSentInFull) {
  std::vector<HostTensor> base = {tensor({4}, {1, 2, 3, 4})};
  std::vector<HostTensor> after = {tensor({2, 2}, {1, 2, 3, 4}), tensor({1}, {7})};
  Writer w;
  w.tensors_against(after, base);
  std::string msg = w.take();
  Reader rd(msg);
  std::vector<HostTensor> got = rd.tensors_against(base);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].shape, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(got[1].data, std::vector<uint8_t>{7});
}

TEST(WireTensorsAgainst, AReferencePastTheBaseIsADecodeError) {
  std::vector<HostTensor> base = {tensor({1}, {1}), tensor({1}, {2})};
  Writer w;
  w.tensors_against(base, base);
  std::string msg = w.take();
  Reader rd(msg);
  EXPECT_THROW(rd.tensors_against({base[0]}), DecodeError);
}

}  // namespace
}  // namespace nki::toolchain::wire
