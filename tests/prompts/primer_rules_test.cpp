// The working patterns the primer (prompts/system.md) teaches, run on the simulator: see
// kernels/primer_rules.py. The patterns it forbids (a loop-body tile used after the loop, a
// Python range index used as a list index or in min()) are compile errors.
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "base/source.h"
#include "toolchain/toolchain.h"

namespace nki {
namespace {

constexpr int64_t R = 256, C = 1024;

std::vector<float> floats(const HostTensor& t) {
  std::vector<float> v(static_cast<size_t>(t.element_count()));
  EXPECT_EQ(t.dtype, DType::Float32);
  EXPECT_EQ(t.data.size(), v.size() * sizeof(float));
  std::memcpy(v.data(), t.data.data(), std::min(t.data.size(), v.size() * sizeof(float)));
  return v;
}

TEST(PrimerRules, TaughtPatternsComputeWhatThePrimerSays) {
  std::mt19937 rng(7);
  std::normal_distribution<float> dist;
  std::vector<float> x(static_cast<size_t>(R * C));
  for (float& v : x) v = dist(rng);
  HostTensor in;
  in.shape = {R, C};
  in.data.resize(x.size() * sizeof(float));
  std::memcpy(in.data.data(), x.data(), in.data.size());

  toolchain::RunSettings s;
  s.isolation.enabled = false;
  auto file = load_source_file(std::string(NKI_SOURCE_DIR) + "/tests/prompts/kernels/primer_rules.py");
  toolchain::RunOutcome r = toolchain::run(file, {in}, s);
  ASSERT_EQ(r.status, RunStatus::Ok) << (r.diagnostics.empty() ? "" : r.diagnostics[0].message);
  ASSERT_EQ(r.outputs.size(), 5u);
  EXPECT_EQ(r.outputs[0].shape, (std::vector<int64_t>{R}));   // the rank-1 output
  std::vector<float> rowsum = floats(r.outputs[0]), scaled = floats(r.outputs[1]),
                     cums = floats(r.outputs[2]), colsum = floats(r.outputs[3]), picked = floats(r.outputs[4]);

  double worst_row = 0, worst_scaled = 0, worst_cum = 0, worst_col = 0, worst_pick = 0;
  std::vector<double> col(C, 0.0);
  for (int64_t i = 0; i < R; ++i) {
    double sum = 0, run = 0;
    for (int64_t j = 0; j < C; ++j) sum += x[i * C + j];
    worst_row = std::max(worst_row, std::fabs(rowsum[i] - sum));
    for (int64_t j = 0; j < C; ++j) {
      double v = x[i * C + j];
      run += v;
      col[j] += v;
      worst_scaled = std::max(worst_scaled, std::fabs(scaled[i * C + j] - v * rowsum[i]));
      worst_cum = std::max(worst_cum, std::fabs(cums[i * C + j] - run));
      worst_pick = std::max(worst_pick, std::fabs(picked[i * C + j] - v * (i < 128 ? 1.0 : 2.0)));
    }
  }
  for (int64_t j = 0; j < C; ++j) worst_col = std::max(worst_col, std::fabs(colsum[j] - col[j]));
  // fp32 accumulation over 1024 (rows) or 256 (columns) terms of magnitude ~1.
  EXPECT_LT(worst_row, 1e-3);
  EXPECT_LT(worst_scaled, 1e-3);
  EXPECT_LT(worst_cum, 1e-3);
  EXPECT_LT(worst_col, 1e-3);
  EXPECT_EQ(worst_pick, 0.0);
}

std::string first_error(const std::string& source) {
  auto file = std::make_shared<SourceFile>("k.py", source);
  front::TraceOptions opts;
  opts.args = {front::ArgSpec{{256, 1024}, DType::Float32}};
  toolchain::CompileResult c = toolchain::compile(file, opts);
  for (const Diagnostic& d : c.diagnostics)
    if (d.severity == Severity::Error) return d.code;
  return "(compiles)";
}

constexpr const char* kHeader =
    "import neuronxcc.nki as nki\nimport neuronxcc.nki.language as nl\n\n@nki.jit\ndef kernel(x):\n"
    "    out = nl.ndarray((256, 512), dtype=x.dtype, buffer=nl.shared_hbm)\n";

TEST(PrimerRules, ForbiddenPatternsAreCompileErrors) {
  // A tile created in a loop body, used after the loop.
  EXPECT_EQ(first_error(std::string(kHeader) +
                        "    for j in nl.sequential_range(2):\n"
                        "        t = nl.load(x[0:128, j * 512:(j + 1) * 512])\n"
                        "    nl.store(out[0:128, :], value=t)\n    return out\n"),
            "err_local_variable_used_out_of_scope");
  // The fix the primer gives: create it before, assign with t[...] =.
  EXPECT_EQ(first_error(std::string(kHeader) +
                        "    t = nl.ndarray((128, 512), dtype=x.dtype, buffer=nl.sbuf)\n"
                        "    for j in nl.sequential_range(2):\n"
                        "        t[...] = nl.load(x[0:128, j * 512:(j + 1) * 512])\n"
                        "    nl.store(out[0:128, :], value=t)\n    return out\n"),
            "(compiles)");
  // A Python range index is symbolic: no list indexing, no min().
  EXPECT_NE(first_error(std::string(kHeader) + "    s = [1.0, 2.0]\n"
                        "    for i in range(2):\n"
                        "        t = nl.load(x[i * 128:(i + 1) * 128, 0:512])\n"
                        "        nl.store(out[i * 128:(i + 1) * 128, :], value=nl.multiply(t, s[i]))\n"
                        "    return out\n"),
            "(compiles)");
  EXPECT_NE(first_error(std::string(kHeader) +
                        "    for i in range(2):\n"
                        "        n = min(128, 256 - i * 128)\n"
                        "        t = nl.load(x[i * 128:i * 128 + n, 0:512])\n"
                        "        nl.store(out[i * 128:i * 128 + n, :], value=t)\n    return out\n"),
            "(compiles)");
  // An `if` comparing it is a branch of the loop body (the errors page's own example).
  EXPECT_EQ(first_error(std::string(kHeader) +
                        "    for i in range(4):\n"
                        "        t = nl.ndarray((128, 512), dtype=x.dtype, buffer=nl.sbuf)\n"
                        "        if i < 2:\n"
                        "            t[...] = nl.load(x[0:128, 0:512])\n"
                        "        else:\n"
                        "            t[...] = nl.load(x[128:256, 0:512])\n"
                        "        nl.store(out[0:128, :], value=t)\n    return out\n"),
            "(compiles)");
  // With nl.static_range the index is an int and both are fine.
  EXPECT_EQ(first_error(std::string(kHeader) + "    s = [1.0, 2.0]\n"
                        "    for i in nl.static_range(2):\n"
                        "        n = min(128, 256 - i * 128)\n"
                        "        t = nl.load(x[i * 128:i * 128 + n, 0:512])\n"
                        "        nl.store(out[i * 128:i * 128 + n, :], value=nl.multiply(t, s[i]))\n"
                        "    return out\n"),
            "(compiles)");
}

}  // namespace
}  // namespace nki
