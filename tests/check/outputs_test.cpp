// The outputs pass (check/outputs.h): what the front end saw written decides whether outputs
// and mutable parameters were handled.
#include "check/outputs.h"

#include <gtest/gtest.h>

#include "ir_builder.h"

namespace nki {
namespace {

using namespace nki::testing;

check::WriteFacts writes(const ir::Kernel& k, std::vector<int> written) {
  check::WriteFacts w;
  w.write_counts.assign(k.tensors.size(), 0);
  for (int t : written) ++w.write_counts[static_cast<size_t>(t)];
  w.kernel_def_loc = {1, 1};
  w.last_return_loc = {4, 3};
  return w;
}

TEST(OutputsPass, AWrittenOutputPasses) {
  KernelBuilder b;
  b.param("a", DType::Float32, {128, 64});
  const int out = b.output("out", DType::Float32, {128, 64});
  EXPECT_TRUE(check::output_errors(b.k, writes(b.k, {out})).empty());
}

TEST(OutputsPass, AnOutputNeverWritten) {
  KernelBuilder b;
  b.param("a", DType::Float32, {128, 64});
  b.output("out", DType::Float32, {128, 64});
  const std::vector<Diagnostic> e = check::output_errors(b.k, writes(b.k, {}));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].code, "err_tensor_output_not_written_to");
  EXPECT_EQ(e[0].message, "output tensor 'out' is never written to");
  EXPECT_EQ(e[0].hint, "write every element with nl.store(out[...], value=tile)");
}

TEST(OutputsPass, AReturnedViewCountsTheWritesOfItsStorage) {
  KernelBuilder b;
  b.param("a", DType::Float32, {128, 64});
  const int storage = b.tensor("buf", ir::Buffer::SharedHbm, DType::Float32, {128, 64});
  const int view = b.output("out", DType::Float32, {64, 128});
  b.k.tensors[static_cast<size_t>(view)].alias_of = storage;
  EXPECT_TRUE(check::output_errors(b.k, writes(b.k, {storage})).empty());
  EXPECT_EQ(check::output_errors(b.k, writes(b.k, {})).size(), 1u);
}

TEST(OutputsPass, AMutableParameterUpdatedButNotReturned) {
  KernelBuilder b;
  const int a = b.param("a", DType::Float32, {128, 64});
  b.k.tensors[static_cast<size_t>(a)].mutable_param = true;
  const int out = b.output("out", DType::Float32, {128, 64});
  const std::vector<Diagnostic> e = check::output_errors(b.k, writes(b.k, {a, out}));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].code, "err_mutable_parameter_not_returned");
  EXPECT_EQ(e[0].line, 4);  // at the last return
  // Not updated: nothing to return.
  EXPECT_TRUE(check::output_errors(b.k, writes(b.k, {out})).empty());
}

TEST(OutputsPass, NoOutputAndNoParameterWritten) {
  KernelBuilder b;
  const int a = b.param("a", DType::Float32, {128, 64});
  const std::vector<Diagnostic> e = check::output_errors(b.k, writes(b.k, {}));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].message, "kernel 'kernel' produces no output (nothing is returned or stored)");
  EXPECT_EQ(e[0].line, 1);  // at the def
  // Pass-by-reference: a written parameter is the result.
  EXPECT_TRUE(check::output_errors(b.k, writes(b.k, {a})).empty());
}

}  // namespace
}  // namespace nki
