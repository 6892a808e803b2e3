// run_checks (check/pipeline.h): the passes run in order, the allocation passes are
// alternatives and wait for clean bounds, and `last` stops the pipeline.
#include "check/pipeline.h"

#include <gtest/gtest.h>

#include "ir_builder.h"

namespace nki {
namespace {

using namespace nki::testing;

// t = load a[row : row+128]; out is never written (an outputs error), and t is larger than a
// trn1 SBUF partition (a capacity error).
struct Faulty {
  KernelBuilder b;
  int a, out, t;
  explicit Faulty(int64_t row) {
    a = b.param("a", DType::Float32, {128, 50000});
    out = b.output("out", DType::Float32, {128, 50000});
    t = b.sbuf("t", DType::Float32, {128, 50000});
    b.k.body.push_back(S(copy(whole(b.k, t), box(b.k, a, {C(row)}, {128, 50000}))));
  }
  check::CheckInputs inputs() const {
    check::CheckInputs in;
    in.writes.write_counts.assign(b.k.tensors.size(), 0);
    in.target = Target::Trn1;
    return in;
  }
};

std::vector<std::string> codes(const std::vector<Diagnostic>& ds) {
  std::vector<std::string> out;
  for (const Diagnostic& d : ds) out.push_back(d.code);
  return out;
}

TEST(CheckPipeline, PassNamesRoundTrip) {
  ASSERT_EQ(check::passes().size(), 4u);
  for (const check::PassInfo& p : check::passes()) {
    EXPECT_EQ(check::pass_named(p.name), p.pass);
    EXPECT_STREQ(check::pass_name(p.pass), p.name);
  }
  EXPECT_FALSE(check::pass_named("liveness"));
  EXPECT_STREQ(check::passes().front().name, "bounds");
  EXPECT_STREQ(check::passes().back().name, "direct-alloc");
}

TEST(CheckPipeline, FindingsComeInPipelineOrder) {
  Faulty k(0);
  const check::Findings f = check::run_checks(k.b.k, k.inputs());
  EXPECT_EQ(codes(f.errors()), (std::vector<std::string>{"err_tensor_output_not_written_to", "sbuf_capacity_exceeded"}));
  ASSERT_EQ(f.passes.size(), 4u);
  EXPECT_EQ(f.report(check::Pass::DirectAlloc)->skipped, "the kernel uses no direct allocation");
}

TEST(CheckPipeline, AnOutOfBoundsAccessSkipsTheAllocationPasses) {
  Faulty k(1);
  const check::Findings f = check::run_checks(k.b.k, k.inputs());
  EXPECT_EQ(codes(f.errors()),
            (std::vector<std::string>{"err_tensor_access_out_of_bound", "err_tensor_output_not_written_to"}));
  EXPECT_EQ(f.report(check::Pass::Capacity)->skipped, "an access is out of bounds");
}

TEST(CheckPipeline, LastStopsThePipeline) {
  Faulty k(1);
  const check::Findings f = check::run_checks(k.b.k, k.inputs(), check::Pass::Bounds);
  ASSERT_EQ(f.passes.size(), 1u);
  EXPECT_EQ(codes(f.errors()), std::vector<std::string>{"err_tensor_access_out_of_bound"});
  EXPECT_EQ(f.report(check::Pass::Outputs), nullptr);
}

TEST(CheckPipeline, DirectAllocationReplacesTheCapacityPass) {
  Faulty k(0);
  check::CheckInputs in = k.inputs();
  in.direct_allocation = true;  // and `t` is not among the placed tensors: mixing
  const check::Findings f = check::run_checks(k.b.k, in);
  EXPECT_EQ(f.report(check::Pass::Capacity)->skipped, "the kernel places its tiles itself (direct allocation)");
  EXPECT_EQ(codes(f.report(check::Pass::DirectAlloc)->errors), std::vector<std::string>{"mixed_allocation"});
}

}  // namespace
}  // namespace nki
