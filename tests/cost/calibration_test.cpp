// Calibration of the cost model against the published Trainium measurements collected in
// shared/docs/trainium-perf.md §3.9 (and §5.1 for the NKIBench baselines). Each point is a
// kernel with the structure of the measured one (tests/cost/kernels) and the published figure.
// The test prints predicted vs published for every point and fails when
//   - fewer than 80 % of the points are within +-25 % (issue 12's target; docs/cost-model.md
//     lists the points that miss and why),
//   - any point is off by more than 2x (a gross regression),
//   - an "at most" point (a published upper bound: the nki-samples perf-test thresholds) is
//     predicted above its bound, or
//   - a multi-version case (the four matmul tutorial versions, mamba v1/v2, LayerNorm v1/v2 — the
//     last ranking only) is ranked wrongly, or
//     one kernel's points over a growing size (mamba_v3 over seq_len) are out of order.
// No coefficient is set per point: all points share the trn1 / trn2 tables of cost_table.def.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>

#include "kernel_fixture.h"

namespace nki::cost {
namespace {

enum class Measure { Kernel, FirstLoad, FirstLoadData };

// Issue 12's target: at least 80 % of the points within +-25 %.

struct Point {
  const char* name;
  const char* kernel;   // file in tests/cost/kernels
  std::vector<std::string> args;
  Target target;
  double published_ns;
  Measure measure;
  const char* group;    // versions of one kernel, expected in this order (slowest first)
  const char* source;
  bool at_most = false;    // published figure is an upper bound (test threshold), not a measurement
  bool rank_only = false;  // only the order within `group` is checked (absolute value not comparable)
};

std::vector<Point> points() {
  const std::vector<std::string> mm = {"8192x4096:bfloat16", "8192x8192:bfloat16"};
  const std::vector<std::string> mamba4k = {"1x4096x512:float32", "1x4096x512:float32", "4096x16:float32",
                                            "1x16x512:float32", "1x16x512:float32"};
  const std::vector<std::string> mamba256 = {"1x256x512:float32", "1x256x512:float32", "256x16:float32",
                                             "1x16x512:float32", "1x16x512:float32"};
  // mamba_v3 at [batch 1, channels 4096, state 16] over seq_len (the tutorial's scaling table).
  auto mamba_seq = [](int seq) {
    const std::string l = std::to_string(seq);
    return std::vector<std::string>{"1x4096x" + l + ":float32", "1x4096x" + l + ":float32", "4096x16:float32",
                                    "1x16x" + l + ":float32", "1x16x" + l + ":float32"};
  };
  return {
      {"matmul tutorial v1 (tiled)", "mm_v1_tiled.py", mm, Target::Trn1, 51.80e6, Measure::Kernel, "matmul", "TP §3.9-1 [MM-old]"},
      {"matmul tutorial v2 (hoisted loads)", "mm_v2_hoisted.py", mm, Target::Trn1, 42.96e6, Measure::Kernel, "matmul", "TP §3.9-1"},
      {"matmul tutorial v3 (blocked free dims)", "mm_v3_block_free.py", mm, Target::Trn1, 22.07e6, Measure::Kernel, "matmul", "TP §3.9-1"},
      {"matmul tutorial v4 (fully blocked)", "mm_v4_blocked.py", mm, Target::Trn1, 6.97e6, Measure::Kernel, "matmul", "TP §3.9-1"},
      {"mamba_v1 C=4096 L=512", "mamba_v1.py", mamba4k, Target::Trn1, 2.34e6, Measure::Kernel, "mamba", "TP §3.9-2 [MAMBA]"},
      {"mamba_v2 C=4096 L=512", "mamba_v2.py", mamba4k, Target::Trn1, 1.61e6, Measure::Kernel, "mamba", "TP §3.9-2 [MAMBA]"},
      // Same kernel at growing seq_len: the published order (slowest first) is checked like versions.
      {"mamba_v3 C=4096 L=8192", "mamba_v3.py", mamba_seq(8192), Target::Trn1, 27.8e6, Measure::Kernel, "mamba_v3 seq_len",
       "TP §3.9-2 [MAMBA] scaling table"},
      {"mamba_v3 C=4096 L=2048", "mamba_v3.py", mamba_seq(2048), Target::Trn1, 6.6e6, Measure::Kernel, "mamba_v3 seq_len",
       "TP §3.9-2 [MAMBA] scaling table"},
      {"mamba_v3 C=4096 L=512", "mamba_v3.py", mamba_seq(512), Target::Trn1, 1.6e6, Measure::Kernel, "mamba_v3 seq_len",
       "TP §3.9-2 [MAMBA] scaling table"},
      {"mamba_v1 C=256 L=512 (toy)", "mamba_v1.py", mamba256, Target::Trn1, 172.93e3, Measure::Kernel, "", "TP §3.9-2 [MAMBA]"},
      {"NKIBench silu baseline", "silu_baseline.py", {"4096x7168:float32"}, Target::Trn1, 1.333e6, Measure::Kernel, "", "TP §3.9-4 [AO-base]"},
      {"NKIBench adamw baseline", "adamw_baseline.py",
       {"10944x2048:float32", "10944x2048:float32", "10944x2048:float32", "10944x2048:float32"}, Target::Trn1, 2.000e6,
       Measure::Kernel, "", "TP §5.1 [AO-base]"},
      {"NKIBench fp32 matmul baseline", "matmul_fp32_baseline.py", {"32x128x5120:float32", "40x128x12288:float32"},
       Target::Trn1, 35.2e6, Measure::Kernel, "", "TP §3.9-5 [AO-base]"},
      // The NKIBench mamba baseline is mamba_v1 (TP §5.1, AccelOpt README) at seq 7168, channels 256;
      // its profile shows 55 MB of spills, which the model does not do (docs/cost-model.md).
      {"NKIBench mamba baseline (mamba_v1 C=256 L=7168)", "mamba_v1.py",
       {"1x256x7168:float32", "1x256x7168:float32", "256x16:float32", "1x16x7168:float32", "1x16x7168:float32"},
       Target::Trn1, 2.889e6, Measure::Kernel, "", "TP §3.9-3, §5.1 [AO-base]"},
      {"trn2 DMA [4,4096] bf16 load, trigger->done", "dma_4x4096_bf16.py", {"4x4096:bfloat16"}, Target::Trn2, 2.46e3,
       Measure::FirstLoad, "", "TP §2.10, §3.9-6 [DMA]"},
      {"trn2 DMA [4,4096] bf16 load, data phase", "dma_4x4096_bf16.py", {"4x4096:bfloat16"}, Target::Trn2, 1.416e3,
       Measure::FirstLoadData, "", "TP §2.10, §3.9-6 [DMA]"},
      {"trn2 DMA [128,128] bf16 load, trigger->done", "dma_128x128_bf16.py", {"128x128:bfloat16"}, Target::Trn2, 1.28e3,
       Measure::FirstLoad, "", "TP §2.10, §3.9-6 [DMA]"},
      // LayerNorm tutorial v1/v2 at [300, 1000] fp32 (general/nki/tutorials/layernorm.rst at 86051b85,
      // NCLatency p50): ~70x the kernel's modelled DMA and engine work, i.e. mostly a fixed cost the
      // tutorial does not explain, so only the ranking (v1 slower, 14.9 %) is checked.
      {"LayerNorm tutorial v1 [300,1000] fp32 (rank)", "layernorm_v1.py", {"300x1000:float32", "1000:float32", "1000:float32"},
       Target::Trn1, 2311e3, Measure::Kernel, "layernorm", "SDK 2.24 layernorm.rst", false, true},
      {"LayerNorm tutorial v2 bn_stats/bn_aggr (rank)", "layernorm_v2.py", {"300x1000:float32", "1000:float32", "1000:float32"},
       Target::Trn1, 1969e3, Measure::Kernel, "layernorm", "SDK 2.24 layernorm.rst", false, true},
      // Upper bounds: nki-samples perf-test nc_latency thresholds (they include the ~14-25 us launch
      // floor of nki.benchmark, TP §2.7, which the model leaves out, so these are weak checks).
      {"nki-samples rmsnorm_qkv [128,512]x[512,512] fp16", "rmsnorm_qkv_small.py", {"128x512:float16", "512x512:float16"},
       Target::Trn1, 25e3, Measure::Kernel, "", "TP §2.7, §3.9-8 [SMP-t]", true},
      {"nki-samples global avg-pool [1,512,7,7] fp32", "global_avg_pool.py", {"1x512x7x7:float32"}, Target::Trn1,
       14 * 1.05e3, Measure::Kernel, "", "TP §2.7, §3.9-8 [SMP-t]", true},
  };
}

double measure(const CostReport& r, Measure m) {
  if (m == Measure::Kernel) return r.latency_ns;
  for (const TraceEvent& e : r.events)
    if (e.unit == Unit::DmaLoad) return m == Measure::FirstLoad ? e.dur_ns : e.data_ns;
  return 0;
}

TEST(CostCalibration, PublishedMeasurements) {
  const std::string dir = testing::source_dir() + "/tests/cost/kernels/";
  struct Row {
    Point p;
    double predicted;
    double dve_ns, act_ns, pe_ns;  // engine busy time (sum of initiation intervals)
  };
  std::vector<Row> rows;
  for (const Point& p : points()) {
    auto file = load_source_file(dir + p.kernel);
    auto k = testing::compile_file(file, p.args, p.target);
    ASSERT_TRUE(k) << p.name;
    CostReport r = estimate(*k, default_table(p.target));
    rows.push_back({p, measure(r, p.measure), r.stats(Unit::DVE).busy_ns, r.stats(Unit::ACT).busy_ns,
                    r.stats(Unit::PE).busy_ns});
  }
  int within = 0, points_n = 0, bounds_ok = 0, bounds_n = 0;
  std::printf("\n%-48s %6s %14s %14s %8s %27s  %s\n", "calibration point", "target", "published", "predicted", "error",
              "busy us: DVE / ACT / PE", "source");
  for (const Row& r : rows) {
    if (r.p.at_most) {
      bool ok = r.predicted <= r.p.published_ns;
      ++bounds_n;
      bounds_ok += ok;
      std::printf("%-48s %6s <=%9.3f us %11.3f us %8s %27s  %s%s\n", r.p.name, target_name(r.p.target),
                  r.p.published_ns / 1e3, r.predicted / 1e3, ok ? "ok" : "ABOVE", "", r.p.source,
                  ok ? "" : "  [above the published bound]");
      EXPECT_LE(r.predicted, r.p.published_ns) << r.p.name << ": predicted above the published upper bound";
      continue;
    }
    if (r.p.rank_only) {
      std::printf("%-48s %6s %11.3f us %11.3f us %8s %27s  %s\n", r.p.name, target_name(r.p.target),
                  r.p.published_ns / 1e3, r.predicted / 1e3, "rank", "", r.p.source);
      continue;
    }
    ++points_n;
    double err = r.predicted / r.p.published_ns - 1;
    bool ok = std::fabs(err) <= 0.25;
    within += ok;
    char busy[64];
    std::snprintf(busy, sizeof busy, "%.0f / %.0f / %.0f", r.dve_ns / 1e3, r.act_ns / 1e3, r.pe_ns / 1e3);
    std::printf("%-48s %6s %11.3f us %11.3f us %+7.1f%% %27s  %s%s\n", r.p.name, target_name(r.p.target),
                r.p.published_ns / 1e3, r.predicted / 1e3, 100 * err, busy, r.p.source, ok ? "" : "  [outside +-25%]");
    EXPECT_GT(r.predicted, r.p.published_ns / 2) << r.p.name << ": more than 2x too fast";
    EXPECT_LT(r.predicted, r.p.published_ns * 2) << r.p.name << ": more than 2x too slow";
  }
  std::printf("within +-25%%: %d of %d points (%.0f%%; target 80%%: %s); upper bounds held: %d of %d\n", within,
              points_n, 100.0 * within / points_n, within * 5 >= points_n * 4 ? "met" : "NOT met", bounds_ok, bounds_n);
  EXPECT_GE(within * 5, points_n * 4) << "fewer than 80 % of the points are within +-25 %";

  // Ranking of the versions of one kernel (published order = slowest first).
  std::map<std::string, std::vector<const Row*>> groups;
  for (const Row& r : rows)
    if (*r.p.group) groups[r.p.group].push_back(&r);
  for (const auto& [g, members] : groups) {
    for (size_t i = 0; i + 1 < members.size(); ++i) {
      ASSERT_GT(members[i]->p.published_ns, members[i + 1]->p.published_ns);
      EXPECT_GT(members[i]->predicted, members[i + 1]->predicted)
          << g << ": '" << members[i]->p.name << "' should be slower than '" << members[i + 1]->p.name << "'";
    }
    std::printf("ranking %-8s %s\n", g.c_str(), "checked");
  }
}

}  // namespace
}  // namespace nki::cost
