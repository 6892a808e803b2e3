// Unit tests of the cost model (src/cost): per-instruction formulas, DMA packet effects,
// dependencies, loop extrapolation, the coefficient table and the Chrome trace format.
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "kernel_fixture.h"
#include "task/task_spec.h"

namespace nki::cost {
namespace {

using testing::compile_file;
using testing::compile_text;

const char* kMatmul = R"(
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa

@nki.jit
def mm(lhsT, rhs):
    K, M = lhsT.shape
    _, N = rhs.shape
    out = nl.ndarray((M, N), dtype=nl.float32, buffer=nl.shared_hbm)
    acc = nl.zeros((M, N), nl.float32, buffer=nl.psum)
    for k in nl.affine_range(K // 128):
        a = nl.load(lhsT[k * 128:(k + 1) * 128, :])
        b = nl.load(rhs[k * 128:(k + 1) * 128, :])
        acc += nisa.nc_matmul(a, b)
    nl.store(out, value=nl.copy(acc))
    return out
)";

CostReport estimate_text(const std::string& text, const std::vector<std::string>& args, Target t = Target::Trn1,
                         CostOptions o = {}) {
  auto k = compile_text(text, args, t);
  if (!k) throw std::runtime_error("compile failed");
  return estimate(*k, default_table(t), o);
}

TEST(CostModel, Fp32MatmulCostsFourTimesBf16OnTensorEngine) {
  CostReport bf = estimate_text(kMatmul, {"1024x128:bfloat16", "1024x512:bfloat16"});
  CostReport fp = estimate_text(kMatmul, {"1024x128:float32", "1024x512:float32"});
  ASSERT_EQ(bf.stats(Unit::PE).instructions, 8);
  EXPECT_NEAR(fp.stats(Unit::PE).busy_ns / bf.stats(Unit::PE).busy_ns, 4.0, 1e-9);
  // 8 matmuls of 128x128x512, 512 PE cycles each at 2.8 GHz [ISA26].
  EXPECT_NEAR(bf.stats(Unit::PE).busy_ns, 8 * 512 / 2.8, 1e-6);
  EXPECT_DOUBLE_EQ(bf.mm_flops, 2.0 * 1024 * 128 * 512);
  EXPECT_EQ(bf.hbm_read_bytes, (1024 * 128 + 1024 * 512) * 2);
  EXPECT_EQ(bf.hbm_write_bytes, 128 * 512 * 4);
  // trn2's slower PE clock makes the same PE work take longer.
  CostReport bf2 = estimate_text(kMatmul, {"1024x128:bfloat16", "1024x512:bfloat16"}, Target::Trn2);
  EXPECT_NEAR(bf2.stats(Unit::PE).busy_ns / bf.stats(Unit::PE).busy_ns, 2.8 / 2.4, 1e-9);
}

const char* kCopyTiles = R"(
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl

@nki.jit
def copy_tiles(x):
    P, F = x.shape
    out = nl.ndarray((P, F), dtype=x.dtype, buffer=nl.shared_hbm)
    W = TILE
    for i in nl.affine_range(F // W):
        t = nl.load(x[:, i * W:(i + 1) * W])
        nl.store(out[:, i * W:(i + 1) * W], value=t)
    return out
)";

std::string with_tile(int w) {
  std::string s = kCopyTiles;
  s.replace(s.find("TILE"), 4, std::to_string(w));
  return s;
}

TEST(CostModel, SmallDmasArePacketBound) {
  // The same 1 MiB moved as [128, 64] fp32 tiles (256 B per partition) and as [128, 2048] tiles.
  CostReport small = estimate_text(with_tile(64), {"128x2048:float32"});
  CostReport large = estimate_text(with_tile(2048), {"128x2048:float32"});
  EXPECT_EQ(small.dma_bytes, large.dma_bytes);
  EXPECT_EQ(small.dma_count, 64);
  EXPECT_EQ(large.dma_count, 2);
  // Packets of 256 B cost the packet floor, 8 KiB packets their bytes [DBW].
  EXPECT_GT(small.dma_engine_busy_ns, 3 * large.dma_engine_busy_ns);
  EXPECT_GT(small.latency_ns, 2 * large.latency_ns);
  bool lint = false;
  for (const Lint& l : small.lints) lint |= l.code == "perf_small_dma";
  EXPECT_TRUE(lint);
  for (const Lint& l : large.lints) EXPECT_NE(l.code, "perf_small_dma");
}

TEST(CostModel, ExtrapolatedLoopMatchesFullSchedule) {
  CostOptions full;
  full.extrapolate = false;
  for (int w : {64, 256, 512}) {
    auto k = compile_text(with_tile(w), {"128x65536:float32"});
    ASSERT_TRUE(k);
    CostReport fast = estimate(*k, default_table(Target::Trn1));
    CostReport slow = estimate(*k, default_table(Target::Trn1), full);
    EXPECT_GT(fast.extrapolated_loops, 0);
    EXPECT_EQ(slow.extrapolated_loops, 0);
    EXPECT_LT(fast.scheduled, slow.scheduled / 4);
    EXPECT_EQ(fast.dma_count, slow.dma_count);
    EXPECT_EQ(fast.dma_bytes, slow.dma_bytes);
    EXPECT_NEAR(fast.latency_ns, slow.latency_ns, 0.01 * slow.latency_ns) << "tile " << w;
  }
}

const char* kChain = R"(
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa

@nki.jit
def chain(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.load(x)
    a = nisa.tensor_tensor(t, t, op=np.multiply)
    b = nisa.tensor_tensor(SRC_B, t, op=np.multiply)
    c = nisa.tensor_tensor(SRC_C, t, op=np.multiply)
    d = nisa.tensor_tensor(SRC_D, t, op=np.multiply)
    nl.store(out, value=d)
    return out
)";

TEST(CostModel, DependentChainsWaitForResults) {
  std::string dep = kChain, indep = kChain;
  for (auto [from, to] : {std::pair{"SRC_B", "a"}, {"SRC_C", "b"}, {"SRC_D", "c"}}) dep.replace(dep.find(from), 5, to);
  for (const char* from : {"SRC_B", "SRC_C", "SRC_D"}) indep.replace(indep.find(from), 5, "t");
  CostReport rd = estimate_text(dep, {"128x32:float32"});
  CostReport ri = estimate_text(indep, {"128x32:float32"});
  EXPECT_EQ(rd.stats(Unit::DVE).instructions, 4);
  EXPECT_EQ(ri.stats(Unit::DVE).instructions, 4);
  EXPECT_DOUBLE_EQ(rd.stats(Unit::DVE).busy_ns, ri.stats(Unit::DVE).busy_ns);
  // Three dependent hops, each paying the DVE static overhead of 100 cycles [A1].
  EXPECT_NEAR(rd.latency_ns - ri.latency_ns, 3 * 100 / 1.12, 1e-6);
}

const char* kInvariant = R"(
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa

@nki.jit
def inv(x, y):
    out = nl.ndarray((8, 128, 512), dtype=x.dtype, buffer=nl.shared_hbm)
    a = nl.load(x)
    b = nl.load(y)
    for s in nl.affine_range(8):
        p = nisa.tensor_tensor(a, b, op=np.multiply)
        q = nisa.tensor_scalar(p, np.multiply, 2.0)
        nl.store(out[s], value=q)
    return out
)";

TEST(CostModel, LoopInvariantComputeIsHoisted) {
  CostReport r = estimate_text(kInvariant, {"128x512:float32", "128x512:float32"});
  // tensor_tensor(a, b) does not change across s: it runs once. The tensor_scalar reads p, which
  // the loop writes, so one pass of the analysis leaves it in the loop (8 times).
  int64_t dve_act_pool = r.stats(Unit::DVE).instructions + r.stats(Unit::ACT).instructions +
                         r.stats(Unit::POOL).instructions;
  EXPECT_EQ(dve_act_pool, 9);
  CostTable off = default_table(Target::Trn1);
  off.hoist_invariant_compute = 0;
  auto k = compile_text(kInvariant, {"128x512:float32", "128x512:float32"});
  CostReport r2 = estimate(*k, off);
  EXPECT_EQ(r2.stats(Unit::DVE).instructions + r2.stats(Unit::ACT).instructions + r2.stats(Unit::POOL).instructions, 16);
}

TEST(CostModel, TableRowsCiteSourcesAndOverridesApply) {
  std::set<std::string> names;
  for (const CostRow& r : cost_rows()) {
    EXPECT_TRUE(names.insert(r.name).second) << r.name;
    EXPECT_GT(std::string(r.source).size(), 10u) << r.name;
    EXPECT_NE(std::string(r.source).find("TP §"), std::string::npos) << r.name << " names no trainium-perf.md section";
  }
  CostTable t = default_table(Target::Trn1);
  EXPECT_THROW(apply_overrides(t, R"({"no_such_row": 1})"), std::invalid_argument);
  EXPECT_THROW(apply_overrides(t, R"({"dma_latency_ns": "x"})"), std::invalid_argument);
  EXPECT_THROW(apply_overrides(t, R"({"pe_ghz": 0})"), std::invalid_argument);
  EXPECT_THROW(apply_overrides(t, "[1]"), std::invalid_argument);
  auto k = compile_text(with_tile(512), {"128x512:float32"});
  ASSERT_TRUE(k);
  CostTable base = default_table(Target::Trn1), slower = base;
  apply_overrides(slower, R"({"dma_latency_ns": 5000})");
  EXPECT_EQ(slower.dma_latency_ns, 5000);
  // One load then one dependent store: both pay the extra 4 us.
  EXPECT_NEAR(estimate(*k, slower).latency_ns - estimate(*k, base).latency_ns, 2 * 4000, 1.0);
  nlohmann::json j = nlohmann::json::parse(table_json(base));
  EXPECT_EQ(j.size(), cost_rows().size());
}

TEST(CostModel, BudgetStopsRunawayScheduling) {
  auto k = compile_text(with_tile(64), {"128x65536:float32"});
  ASSERT_TRUE(k);
  CostOptions o;
  o.max_scheduled_ops = 5;
  EXPECT_THROW(estimate(*k, default_table(Target::Trn1), o), CostBudgetError);
}

// Untrusted kernels: a loop of 2^36 iterations must neither hang the model when its body holds no
// instruction (nothing to schedule: skipped) nor when it holds one (the replay of extrapolated
// iterations is charged against the budget and ends in CostBudgetError).
constexpr const char* kHugeLoop = R"(
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl

@nki.jit
def huge_loop(x):
    out = nl.ndarray((128, 64), dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.load(x)
    for i in nl.sequential_range(1 << 36):
        BODY
    nl.store(out, value=t)
    return out
)";

std::string huge_loop(const std::string& body) {
  std::string s = kHugeLoop;
  s.replace(s.find("BODY"), 4, body);
  return s;
}

TEST(CostModel, HugeLoopsEndQuickly) {
  auto empty = compile_text(huge_loop("pass"), {"128x64:float32"});
  ASSERT_TRUE(empty);
  CostOptions o;
  o.max_scheduled_ops = 1000;
  CostReport r = estimate(*empty, default_table(Target::Trn1), o);  // returns: the loop costs nothing
  EXPECT_GT(r.latency_ns, 0);
  auto busy = compile_text(huge_loop("nl.store(out, value=t)"), {"128x64:float32"});
  ASSERT_TRUE(busy);
  EXPECT_THROW(estimate(*busy, default_table(Target::Trn1), o), CostBudgetError);
}

// The trace is Chrome trace-event JSON: an object with "traceEvents"; metadata events (ph "M")
// name the process and one thread per track; complete events (ph "X") carry name, pid, tid,
// ts and dur in microseconds (Trace Event Format, "Complete Events" and "Metadata Events").
void validate_trace(const std::string& text, const CostReport& r) {
  nlohmann::json j = nlohmann::json::parse(text);
  ASSERT_TRUE(j.is_object());
  ASSERT_TRUE(j.contains("traceEvents") && j["traceEvents"].is_array());
  std::set<int> named_threads;
  bool process_named = false;
  size_t complete = 0;
  std::set<int> used;
  for (const auto& e : j["traceEvents"]) {
    ASSERT_TRUE(e.is_object());
    ASSERT_TRUE(e.contains("ph") && e["ph"].is_string());
    ASSERT_TRUE(e.contains("pid") && e["pid"].is_number_integer());
    ASSERT_TRUE(e.contains("name") && e["name"].is_string());
    std::string ph = e["ph"];
    if (ph == "M") {
      ASSERT_TRUE(e.contains("args") && e["args"].is_object());
      if (e["name"] == "thread_name") {
        ASSERT_TRUE(e["args"]["name"].is_string());
        named_threads.insert(e["tid"].get<int>());
      }
      if (e["name"] == "process_name") process_named = true;
    } else {
      ASSERT_EQ(ph, "X");
      ASSERT_TRUE(e["tid"].is_number_integer());
      ASSERT_TRUE(e["ts"].is_number() && e["dur"].is_number());
      EXPECT_GE(e["ts"].get<double>(), 0);
      EXPECT_GE(e["dur"].get<double>(), 0);
      EXPECT_LE(e["ts"].get<double>() + e["dur"].get<double>(), r.latency_ns / 1000.0 + 1e-6);
      used.insert(e["tid"].get<int>());
      ++complete;
    }
  }
  EXPECT_TRUE(process_named);
  EXPECT_EQ(complete, r.events.size());
  for (int tid : used) EXPECT_TRUE(named_threads.count(tid)) << "track " << tid << " has no thread_name";
}

TEST(CostModel, ChromeTraceOfTheMatmulExampleIsWellFormed) {
  auto file = load_source_file(testing::source_dir() + "/docs/examples/04_matmul_psum.py");
  auto k = compile_file(file, {"256x512:bfloat16", "512x256:bfloat16"});
  ASSERT_TRUE(k);
  CostReport r = estimate(*k, default_table(Target::Trn1));
  EXPECT_GT(r.stats(Unit::PE).instructions, 0);
  EXPECT_GT(r.stats(Unit::DmaLoad).instructions, 0);
  EXPECT_GT(r.latency_ns, 0);
  validate_trace(render_trace(r, k->name), r);
  // The JSON summary parses and names the bottleneck.
  nlohmann::json s = nlohmann::json::parse(render_json(r));
  EXPECT_EQ(s["latency_ns"].get<double>(), r.latency_ns);
  EXPECT_FALSE(s["bottleneck"].get<std::string>().empty());
  EXPECT_FALSE(s["critical_path"].empty());
  EXPECT_GT(s["critical_path"][0]["line"].get<int>(), 0);
}



// The perf lints: tests/cost/lint_advice_test.cpp.

}  // namespace
}  // namespace nki::cost
