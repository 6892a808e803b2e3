// A compile reports every independent error (nki/tracer_recovery.cpp), capped at
// Tracer::kMaxErrors, and does not report the consequences of an error again.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "nki/tracer.h"

using namespace nki;
using namespace nki::front;

namespace {

const char* kHeader =
    "import neuronxcc.nki as nki\n"
    "import neuronxcc.nki.language as nl\n"
    "@nki.jit\n"
    "def k(a):\n"
    "    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)\n";  // lines 1-5

TraceResult trace(const std::string& body) {
  TraceOptions opts;
  opts.args = {ArgSpec{{256, 64}, DType::Float32}};
  return trace_kernel(std::make_shared<SourceFile>("k.py", std::string(kHeader) + body), opts);
}

std::vector<std::pair<std::string, int>> errors(const TraceResult& r) {
  std::vector<std::pair<std::string, int>> out;
  for (const Diagnostic& d : r.diagnostics)
    if (d.severity == Severity::Error) out.emplace_back(d.code, d.line);
  return out;
}

}  // namespace

TEST(MultiError, IndependentStatementsAreAllReported) {
  TraceResult r = trace(
      "    t = nl.load(a[0:128, :])\n"                          // 6
      "    u = nl.exp(a)\n"                                      // 7: HBM operand
      "    for i in nl.affine_range(2):\n"                       // 8
      "        s = [1.0, 2.0][i]\n"                              // 9: symbolic index
      "        nl.store(out[i * 128:(i + 1) * 128, :], value=t)\n"  // 10
      "    v = nl.load(a[0:128, 0:100])\n"                       // 11: out of bounds
      "    return out\n");
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.kernel, nullptr);
  auto e = errors(r);
  ASSERT_EQ(e.size(), 3u) << (e.empty() ? "" : e[0].first);
  EXPECT_EQ(e[0], (std::pair<std::string, int>{"err_unsupported_memory", 7}));
  EXPECT_EQ(e[1], (std::pair<std::string, int>{"symbolic_loop_index", 9}));
  EXPECT_EQ(e[2], (std::pair<std::string, int>{"err_tensor_access_out_of_bound", 11}));
}

TEST(MultiError, UsesOfAFailedStatementsNamesAreNotReportedAgain) {
  TraceResult r = trace(
      "    t = nl.exp(a)\n"                      // 6: the only real error
      "    u = nl.exp(t)\n"                       // 7: uses t
      "    nl.store(out[0:128, :], value=u)\n"    // 8: uses u
      "    return out\n");
  auto e = errors(r);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].second, 6);
}

TEST(MultiError, RepeatedErrorsOfAnUnrolledLoopAreReportedOnce) {
  TraceResult r = trace(
      "    for i in nl.static_range(4):\n"
      "        t = nl.exp(a[i * 64:(i + 1) * 64, :])\n"  // 7, four times
      "    return out\n");
  auto e = errors(r);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].second, 7);
}

TEST(MultiError, AtMostTheErrorLimitIsReported) {
  std::string body;
  for (int i = 0; i < 30; ++i) body += "    t" + std::to_string(i) + " = nl.exp(a)\n";
  body += "    return out\n";
  TraceResult r = trace(body);
  EXPECT_EQ(errors(r).size(), Tracer::kMaxErrors);
}

TEST(MultiError, AllOutOfBoundsAccessesOfAValidTraceAreReported) {
  TraceResult r = trace(
      "    t = nl.load(a[0:128, 0:128])\n"       // 6: columns beyond 64
      "    nl.store(out[200:328, :], value=nl.load(a[0:128, :]))\n"  // 7: rows beyond 256
      "    nl.store(out[0:128, 0:64], value=t[:, 0:64])\n"
      "    return out\n");
  auto e = errors(r);
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0], (std::pair<std::string, int>{"err_tensor_access_out_of_bound", 6}));
  EXPECT_EQ(e[1], (std::pair<std::string, int>{"err_tensor_access_out_of_bound", 7}));
}

TEST(MultiError, NoRecoveryInsideTry) {
  // A Python error in a try body is the program's to handle: the kernel compiles.
  TraceResult r = trace(
      "    try:\n"
      "        x = [1][5]\n"
      "    except IndexError:\n"
      "        x = 0\n"
      "    nl.store(out[0:128, :], value=nl.load(a[0:128, :]))\n"
      "    return out\n");
  EXPECT_TRUE(r.ok()) << (errors(r).empty() ? "" : errors(r)[0].first);
}
