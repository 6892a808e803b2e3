#include "cost/cost_model.h"

#include "ir/walk.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "cost/scheduler.h"

namespace nki::cost {

const char* unit_name(Unit u) {
  switch (u) {
    case Unit::PE: return "PE (tensor)";
    case Unit::DVE: return "DVE (vector)";
    case Unit::ACT: return "ACT (scalar)";
    case Unit::POOL: return "POOL (gpsimd)";
    case Unit::DmaLoad: return "DMA queue: loads";
    case Unit::DmaStore: return "DMA queue: stores";
    case Unit::DmaOther: return "DMA queue: other";
  }
  return "?";
}

CostReport Scheduler::report() {
  CostReport r;
  r.target = t_.target;
  double first = 0;
  bool any = false;
  for (const Rec& x : recs_) {
    if (!any || x.start < first) first = x.start;
    any = true;
  }
  r.latency_ns = (any ? frontier_ - first : 0) + t_.launch_overhead_ns;
  for (int u = 0; u < kNumUnits; ++u) r.units.push_back(UnitStats{static_cast<Unit>(u), tot_.busy[u], tot_.count[u]});
  r.dma_engine_busy_ns = tot_.dma_engine_busy;
  r.hbm_busy_ns = tot_.hbm_busy;
  r.mm_flops = tot_.mm_flops;
  r.transpose_flops = tot_.transpose_flops;
  r.vector_flops = tot_.vector_flops;
  r.hbm_read_bytes = tot_.hbm_read;
  r.hbm_write_bytes = tot_.hbm_write;
  r.dma_bytes = tot_.dma_bytes;
  r.dma_count = tot_.dma_count;
  r.instructions = tot_.instructions;
  r.scheduled = scheduled_;
  r.extrapolated_loops = extrapolated_;

  // Roofline from this kernel's own work (TP §3.8, trace-based variant): matmul FLOPs at the
  // PE peak of their dtype are approximated by the busy PE time at the ideal rate.
  // The 128x128 PE array (TP §1): a row per partition, a column per stationary free element.
  const double pe_peak_bf16 = static_cast<double>(hw_.partitions) * static_cast<double>(hw_.gemm_stationary_fmax) * 2.0 * t_.pe_ghz;  // FLOP per ns
  double fp32_share = 0;
  (void)fp32_share;
  r.t_mm_ns = tot_.mm_flops / pe_peak_bf16;
  // fp32 matmuls: the peak is 1/pe_fp32_factor of bf16 (TP §1: 92 vs 23 TFLOPS on trn1).
  bool fp32 = false;
  for (const Lint& l : lints_) fp32 |= l.code == "perf_fp32_matmul";
  if (fp32) r.t_mm_ns *= t_.pe_fp32_factor;
  r.t_vec_ns = tot_.vector_flops / (static_cast<double>(hw_.partitions) * (t_.dve_ghz + t_.act_ghz));
  r.t_mem_ns = static_cast<double>(tot_.hbm_read + tot_.hbm_write) / t_.hbm_gb_per_s;
  r.t_peak_ns = std::max({r.t_mm_ns, r.t_vec_ns, r.t_mem_ns});
  r.bound = r.t_peak_ns == r.t_mm_ns && r.t_mm_ns > 0 ? "matmul" : r.t_peak_ns == r.t_vec_ns && r.t_vec_ns > 0 ? "vector" : "memory";
  r.pct_of_peak = r.latency_ns > 0 ? 100.0 * r.t_peak_ns / r.latency_ns : 0;

  // Critical path: from the last completion back through the records that set each start.
  std::map<std::pair<const void*, int>, CriticalItem> items;
  std::array<double, kNumUnits> on_path{};
  int cur = frontier_rec_;
  int64_t guard = 0;
  while (cur >= 0 && guard++ < static_cast<int64_t>(recs_.size()) + 1) {
    const Rec& x = recs_[static_cast<size_t>(cur)];
    double before = x.pred >= 0 ? std::min(recs_[static_cast<size_t>(x.pred)].done, x.done) : x.start;
    double add = std::max(0.0, x.done - before);
    on_path[static_cast<int>(x.unit)] += add;
    const void* key = x.instr ? static_cast<const void*>(x.instr) : static_cast<const void*>(x.loop);
    CriticalItem& it = items[{key, x.instr ? 0 : 1}];
    if (it.count == 0) {
      if (x.instr) {
        it.what = x.instr->name + " (" + unit_name(x.unit) + ")";
        it.line = x.instr->loc.line;
      } else {
        it.what = "rest of " + std::string(x.loop ? "loop" : "SPMD grid") + " (" +
                  std::to_string(x.loop_iterations) + " iterations extrapolated, mostly " + unit_name(x.unit) + ")";
        it.line = x.loop ? x.loop->loc.line : 0;
      }
    }
    it.ns += add;
    ++it.count;
    if (x.pred >= cur) break;  // records only point backwards
    cur = x.pred;
  }
  for (auto& [k, v] : items) r.critical.push_back(v);
  std::sort(r.critical.begin(), r.critical.end(), [](const CriticalItem& a, const CriticalItem& b) { return a.ns > b.ns; });
  int best = 0;
  for (int u = 1; u < kNumUnits; ++u)
    if (on_path[u] > on_path[best]) best = u;
  r.bottleneck = unit_name(static_cast<Unit>(best));

  if (o_.keep_events) {
    for (const Rec& x : recs_) {
      if (static_cast<int64_t>(r.events.size()) >= o_.max_trace_events) {
        ++r.dropped_events;
        continue;
      }
      TraceEvent e;
      e.unit = x.unit;
      e.start_ns = x.start - first;
      e.dur_ns = std::max(0.0, (is_dma(x.unit) ? x.done : x.end) - x.start);
      if (is_dma(x.unit)) e.data_ns = std::max(0.0, x.end - x.start);
      if (x.instr) {
        e.name = x.instr->name;
        e.line = x.instr->loc.line;
      } else {
        e.name = "loop x" + std::to_string(x.loop_iterations) + " (extrapolated)";
        e.line = x.loop ? x.loop->loc.line : 0;
      }
      r.events.push_back(std::move(e));
    }
  }

  // No overlap of loads and compute: the kernel takes about as long as its DMA time plus its
  // busiest engine's time (TP §4 D6).
  double compute = std::max({tot_.busy[0], tot_.busy[1], tot_.busy[2], tot_.busy[3]});
  double load = tot_.busy[static_cast<int>(Unit::DmaLoad)];
  if (tot_.count[static_cast<int>(Unit::DmaLoad)] >= 4 && compute > 0.2 * r.latency_ns && load > 0.2 * r.latency_ns &&
      r.latency_ns > 0.9 * (compute + load)) {
    // Located at the first load: where double buffering would start.
    int line = 0, col = 0;
    for (const Rec& x : recs_)
      if (x.unit == Unit::DmaLoad && x.instr) {
        line = x.instr->loc.line;
        col = x.instr->loc.col;
        break;
      }
    lints_.push_back(Lint{"perf_no_overlap",
                          "loads and compute barely overlap: the estimate is close to DMA time plus compute time",
                          "allocate tiles inside the loop body so the next iteration's load can run during this "
                          "iteration's compute (double buffering), and issue loads early",
                          line, col});
  }
  r.lints = lints_;
  return r;
}

CostReport estimate(const ir::Kernel& k, const CostTable& table, const CostOptions& options) {
  ir::WalkCallbacks cb;
  cb.enter_loop = [](const ir::Loop& lp, int) {
    if (!lp.has_static_trip_count())
      throw CostUnsupportedConstruct("cannot estimate the cost: the " + std::string(ir::loop_kind_name(lp.kind)) +
                                 " loop at line " + std::to_string(lp.loc.line) +
                                 " has a register-driven trip count, unknown at compile time");
    return true;
  };
  cb.instr = [](const ir::Instr& in, int) {
    if (in.op == ir::Opcode::Register)
      throw CostUnsupportedConstruct("cannot estimate the cost: " + in.name + " at line " + std::to_string(in.loc.line) +
                                     " is a sequencer register operation, which the cost table does not model");
  };
  ir::walk(k, cb);
  Scheduler s(k, table, options);
  s.run();
  CostReport r = s.report();
  // Every estimate a caller ranks or rewards is finite and positive: a kernel that issues no
  // instruction (or a degenerate table) gets an error, never a free 0 ns.
  if (!std::isfinite(r.latency_ns) || r.latency_ns <= 0)
    throw CostUnsupportedConstruct("cannot estimate the cost: the kernel issues no instruction that takes time");
  return r;
}

}  // namespace nki::cost
