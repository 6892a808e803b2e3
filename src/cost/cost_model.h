// The Trainium cost model: a pass over the kernel IR (no numerics) that schedules every
// instruction on per-engine in-order timelines (PE, DVE, ACT, POOL) and DMA queues/engines with
// dependency tracking on memory regions, and reports latency, engine busy time, critical path,
// FLOPs, HBM bytes and the roofline (shared/docs/trainium-perf.md §3; docs/cost-model.md).
//
//   auto table = nki::cost::default_table(nki::Target::Trn1);
//   nki::cost::CostReport r = nki::cost::estimate(kernel, table);
//   r.latency_ns, r.units[...].busy_ns, r.critical ...
//
// Loops run with concrete induction values until the per-iteration advance of every timeline
// repeats (steady state), then the remaining iterations are added in one step; a kernel with
// 10^5 matmuls costs a few dozen loop iterations, not 10^5.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cost/cost_table.h"
#include "ir/ir.h"

namespace nki::cost {

// Timelines reported (and drawn as trace tracks).
enum class Unit : uint8_t { PE, DVE, ACT, POOL, DmaLoad, DmaStore, DmaOther };
inline constexpr int kNumUnits = 7;
const char* unit_name(Unit u);
inline bool is_dma(Unit u) { return u >= Unit::DmaLoad; }

struct UnitStats {
  Unit unit = Unit::PE;
  double busy_ns = 0;      // sum of initiation intervals (DMA: queue-to-completion of data phase)
  int64_t instructions = 0;
};

// One instruction (or loop summary) on the critical path, by source line.
struct CriticalItem {
  std::string what;   // "nisa.nc_matmul (tensor)" or "loop @12 (x61 iterations, extrapolated)"
  int line = 0;
  double ns = 0;      // time this item added to the path
  int64_t count = 0;  // path records merged into this item
  // Of `ns`: the time its instructions occupied their engine or DMA engines, and the rest, spent
  // waiting on results (dependency and trigger latencies, semaphores). An extrapolated loop
  // counts as busy.
  double busy_ns = 0;
  double wait_ns = 0;
};

// Lower bounds on the latency and what the estimate spends above them (docs/cost-model.md,
// "Bounds and the gap").
struct Bounds {
  double memory_ns = 0;         // the HBM bytes the kernel moves, at peak HBM bandwidth
  int64_t needed_bytes = 0;     // the bytes the computation needs: each input read once, each output written once
  double memory_needed_ns = 0;  // needed_bytes at peak HBM bandwidth
  double compute_ns = 0;        // useful FLOPs at peak (matmul on TensorE, element-wise on Vector+Scalar), transposes excluded
  double pipeline_ns = 0;       // the busiest resource's busy time
  double gap_ns = 0;            // latency - max(memory_needed, compute, pipeline)
};

// Where the critical path's time goes, by source line.
struct LineGap {
  int line = 0;
  double path_ns = 0, busy_ns = 0, wait_ns = 0;
};

// A timeline event for the Chrome trace (simulated iterations only; extrapolated spans appear
// as one "loop" event per track).
struct TraceEvent {
  Unit unit = Unit::PE;
  double start_ns = 0, dur_ns = 0;
  double data_ns = 0;  // DMA: trigger -> last byte moved (dur_ns adds the completion latency)
  std::string name;
  int line = 0;
};

struct Lint {
  std::string code;     // perf_small_dma, perf_partitions, perf_fp32_matmul, perf_no_overlap
  std::string message;
  std::string hint;
  int line = 0, col = 0;
};

struct CostOptions {
  int64_t max_trace_events = 200000;   // events kept for the trace (the rest are counted)
  int64_t max_scheduled_ops = 20000000;  // untrusted kernels: beyond it, CostBudgetError
  int max_warmup_iterations = 12;      // iterations simulated before extrapolating a loop
  bool extrapolate = true;             // false: schedule every iteration (slow; for checking)
  bool keep_events = true;
};

struct CostBudgetError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// The kernel uses a construct the model has no figures for: a loop whose trip count is a register
// value (nl.fori_loop with register bounds, nl.while_loop) or a sequencer register operation
// (nisa.register_*). The model does not guess; profile reports this error instead.
struct CostUnsupportedConstruct : CostBudgetError {
  using CostBudgetError::CostBudgetError;
};

struct CostReport {
  Target target = Target::Trn1;
  double latency_ns = 0;        // first instruction start -> last completion (+ launch overhead)
  std::vector<UnitStats> units; // kNumUnits entries, Unit order
  double dma_engine_busy_ns = 0;  // summed over the DMA engines
  double hbm_busy_ns = 0;
  double mm_flops = 0, transpose_flops = 0, vector_flops = 0;
  int64_t hbm_read_bytes = 0, hbm_write_bytes = 0, dma_bytes = 0, dma_count = 0;
  int64_t instructions = 0;     // modelled dynamic instructions (extrapolated ones included)
  int64_t scheduled = 0;        // instructions actually scheduled one by one
  int extrapolated_loops = 0;
  // Roofline (trace-based: this kernel's own matmul FLOPs, vector FLOPs and HBM bytes).
  double t_mm_ns = 0, t_vec_ns = 0, t_mem_ns = 0, t_peak_ns = 0;
  std::string bound;            // "matmul", "vector", "memory"
  double pct_of_peak = 0;       // t_peak / latency, in %
  Bounds bounds;
  std::vector<LineGap> gap_by_line;  // lines on the critical path, most waiting first
  // The resource with the most busy time (it bounds the latency from below), or "dependency
  // latency (busiest: ...)" when no resource is busy for half the estimate.
  std::string bottleneck;
  double bottleneck_busy_ns = 0;
  std::vector<CriticalItem> critical;  // sorted by ns, descending
  std::vector<TraceEvent> events;
  int64_t dropped_events = 0;
  std::vector<Lint> lints;

  const UnitStats& stats(Unit u) const { return units[static_cast<size_t>(u)]; }
};

// Estimates one launch of `k` (every SPMD instance of its grid, one after another on one
// NeuronCore). Throws CostBudgetError when the kernel needs more scheduling work than
// options.max_scheduled_ops.
CostReport estimate(const ir::Kernel& k, const CostTable& table, const CostOptions& options = {});

// Text summary (top `top` critical-path items) and JSON summary.
std::string render_summary(const CostReport& r, const ir::Kernel& k, int top = 8);
std::string render_json(const CostReport& r, int top = 8);
// Chrome trace-event JSON ({"traceEvents": [...]}), one thread (track) per engine / DMA queue.
std::string render_trace(const CostReport& r, const std::string& kernel_name);

}  // namespace nki::cost
