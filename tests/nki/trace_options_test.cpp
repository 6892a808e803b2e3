// TraceOptions budgets of the compile-time evaluation (nki/tracer.h): max_eval_steps and
// max_eval_seconds reach the evaluator, so one caller can compile many kernels on small budgets.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "nki/tracer.h"

using namespace nki;
using namespace nki::front;

namespace {

// A valid one-tile copy kernel that first spins a compile-time Python loop of `n` iterations
// (a few evaluation steps each).
std::string spinning_kernel(int n) {
  return "import neuronxcc.nki as nki\n"
         "import neuronxcc.nki.language as nl\n"
         "@nki.jit\n"
         "def k(a):\n"
         "    i = 0\n"
         "    while i < " + std::to_string(n) + ":\n"
         "        i += 1\n"
         "    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)\n"
         "    nl.store(out, value=nl.load(a))\n"
         "    return out\n";
}

TraceResult trace(const std::string& src, TraceOptions opts) {
  opts.args = {ArgSpec{{128, 64}, DType::Float32}};
  return trace_kernel(std::make_shared<SourceFile>("k.py", src), opts);
}

std::string first_error(const TraceResult& r) {
  for (const Diagnostic& d : r.diagnostics)
    if (d.severity == Severity::Error) return d.code;
  return {};
}

}  // namespace

TEST(TraceOptions, DefaultStepBudgetAllowsModestCompileTimeLoops) {
  TraceResult r = trace(spinning_kernel(10'000), {});
  EXPECT_TRUE(r.ok()) << first_error(r);
}

TEST(TraceOptions, LowerStepBudgetStopsTheSameKernel) {
  TraceOptions opts;
  opts.max_eval_steps = 1'000;
  TraceResult r = trace(spinning_kernel(10'000), opts);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(first_error(r), "evaluation_budget");
}

TEST(TraceOptions, ZeroSecondBudgetStopsALongLoop) {
  // A 0 s budget fails at the first step that sees the (coarse, millisecond) clock move.
  TraceOptions opts;
  opts.max_eval_seconds = 0.0;
  TraceResult r = trace(spinning_kernel(100'000), opts);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(first_error(r), "evaluation_budget");
}
