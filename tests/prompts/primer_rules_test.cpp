// The working patterns the primer (prompts/system.md) teaches, run on the simulator: see
// kernels/primer_rules.py. The patterns it forbids (a loop-body tile used after the loop, a
// Python range index used as a list index or in min()) are compile errors.
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "agent/prompts.h"
#include "base/source.h"
#include "toolchain/toolchain.h"

namespace nki {
namespace {

constexpr int64_t C = 1024;

std::vector<float> floats(const HostTensor& t) {
  std::vector<float> v(static_cast<size_t>(t.element_count()));
  EXPECT_EQ(t.dtype, DType::Float32);
  EXPECT_EQ(t.data.size(), v.size() * sizeof(float));
  std::memcpy(v.data(), t.data.data(), std::min(t.data.size(), v.size() * sizeof(float)));
  return v;
}

// Runs a primer kernel on an R x C input and checks its five outputs: row sums (rank-1), rows
// scaled by their sum, cumulative sums along rows, column sums, rows times 1 + row // 128.
void check_primer_kernel(const std::string& kernel, int64_t R) {
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
  auto file = load_source_file(std::string(NKI_SOURCE_DIR) + "/tests/prompts/kernels/" + kernel);
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
    const float scale = 1.0f + static_cast<float>(i / 128);
    for (int64_t j = 0; j < C; ++j) {
      double v = x[i * C + j];
      run += v;
      col[j] += v;
      worst_scaled = std::max(worst_scaled, std::fabs(scaled[i * C + j] - v * rowsum[i]));
      worst_cum = std::max(worst_cum, std::fabs(cums[i * C + j] - run));
      worst_pick = std::max(worst_pick, static_cast<double>(std::fabs(picked[i * C + j] - x[i * C + j] * scale)));
    }
  }
  for (int64_t j = 0; j < C; ++j) worst_col = std::max(worst_col, std::fabs(colsum[j] - col[j]));
  // fp32 accumulation over 1024 (rows) or R (columns) terms of magnitude ~1.
  EXPECT_LT(worst_row, 1e-3);
  EXPECT_LT(worst_scaled, 1e-3);
  EXPECT_LT(worst_cum, 1e-3);
  EXPECT_LT(worst_col, 1e-3);
  EXPECT_EQ(worst_pick, 0.0);  // one fp32 multiply, the same rounding on both sides
}

TEST(PrimerRules, TaughtPatternsComputeWhatThePrimerSays) { check_primer_kernel("primer_rules.py", 256); }

// prompts/nki-0.6/system.md, on a 300-row input so that the min()-sized last tile is exercised.
TEST(PrimerRules, CurrentDialectPatternsComputeWhatItsPrimerSays) {
  check_primer_kernel("primer_rules_nki06.py", 300);
}

std::string first_error_in(const std::string& source, const std::string& dialect,
                           std::vector<front::ArgSpec> args = {front::ArgSpec{{256, 1024}, DType::Float32}}) {
  auto file = std::make_shared<SourceFile>("k.py", source);
  front::TraceOptions opts;
  opts.args = std::move(args);
  opts.dialect = dialect;
  toolchain::CompileResult c = toolchain::compile(file, opts);
  for (const Diagnostic& d : c.diagnostics)
    if (d.severity == Severity::Error) return d.code;
  return "(compiles)";
}

// Detected from the imports, as `nkiagent check` does.
std::string first_error(const std::string& source) { return first_error_in(source, ""); }

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

constexpr const char* kHeader06 =
    "import nki\nimport nki.language as nl\nimport nki.isa as nisa\n\n@nki.jit\ndef kernel(x):\n"
    "    out = nl.ndarray((256, 512), dtype=x.dtype, buffer=nl.shared_hbm)\n";

// What prompts/nki-0.6/system.md says is not 0.6: masks, 2.24-style ISA calls that return a
// tile, the legacy imports. And what it says is: a tile used after the loop that made it.
TEST(PrimerRules, CurrentDialectForbiddenPatternsAreCompileErrors) {
  EXPECT_EQ(first_error_in(std::string(kHeader06) +
                               "    t = nl.load(x[0:128, 0:512], mask=None)\n"
                               "    nl.store(out[0:128, :], value=t)\n    return out\n",
                           "0.6"),
            "unknown_argument");
  EXPECT_EQ(first_error_in(std::string(kHeader06) +
                               "    t = nl.load(x[0:128, 0:512])\n"
                               "    e = nl.ndarray((128, 512), dtype=x.dtype, buffer=nl.sbuf)\n"
                               "    r = nisa.activation(dst=e, op=nl.exp, data=t)\n"
                               "    nl.store(out[0:128, :], value=r)\n    return out\n",
                           "0.6"),
            "isa_result_is_not_a_tile");
  EXPECT_EQ(first_error_in(std::string(kHeader) + "    t = nl.load(x[0:128, 0:512])\n"
                                                  "    nl.store(out[0:128, :], value=t)\n    return out\n",
                           "0.6"),
            "legacy_namespace_in_current_dialect");
  EXPECT_EQ(first_error_in(std::string(kHeader06) +
                               "    for j in range(2):\n"
                               "        t = nl.load(x[0:128, j * 512:(j + 1) * 512])\n"
                               "    nl.store(out[0:128, :], value=t)\n    return out\n",
                           "0.6"),
            "(compiles)");
}

// The example kernel of every rank guide, in both dialects, compiles on a ragged shape of its
// rank (the guides are what the model copies first).
TEST(PrimerRules, RankGuideExamplesCompile) {
  const std::vector<std::pair<std::string, std::vector<int64_t>>> guides = {
      {"rank_2d.md", {300, 256}}, {"rank_3d.md", {2, 300, 64}}, {"rank_4d.md", {2, 256, 4, 4}}};
  const std::string legacy_imports = "import neuronxcc.nki as nki\nimport neuronxcc.nki.language as nl\n"
                                     "import neuronxcc.nki.isa as nisa\n\n";
  const std::string current_imports = "import nki\nimport nki.language as nl\nimport nki.isa as nisa\n\n";
  for (const std::string dialect : {"2.24", "0.6"}) {
    for (const auto& [file, shape] : guides) {
      SCOPED_TRACE(dialect + " " + file);
      std::string dir = std::string(NKI_SOURCE_DIR) + "/prompts";
      std::string text = agent::read_prompt_file(dialect == "0.6" ? dir + "/nki-0.6" : dir, file);
      size_t open = text.find("```python\n");
      ASSERT_NE(open, std::string::npos);
      size_t close = text.find("```", open + 10);
      std::string kernel = text.substr(open + 10, close - open - 10);
      ASSERT_NE(kernel.find("@nki.jit"), std::string::npos);
      // The 2.24 guides' examples need shapes that are multiples of 128 where they say so.
      std::vector<int64_t> s = shape;
      if (dialect == "2.24" && file != "rank_2d.md") s[1] = 256;
      std::string code = (dialect == "0.6" ? current_imports : legacy_imports) + kernel;
      EXPECT_EQ(first_error_in(code, dialect, {front::ArgSpec{s, DType::Float32}}), "(compiles)") << code;
    }
  }
}

}  // namespace
}  // namespace nki
