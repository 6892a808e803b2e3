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
  int cur = frontier_rec_;
  int64_t guard = 0;
  while (cur >= 0 && guard++ < static_cast<int64_t>(recs_.size()) + 1) {
    const Rec& x = recs_[static_cast<size_t>(cur)];
    double before = x.pred >= 0 ? std::min(recs_[static_cast<size_t>(x.pred)].done, x.done) : x.start;
    double add = std::max(0.0, x.done - before);
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
    // The part of `add` the record spent occupying its engine (DMA: its data phase); the rest
    // is latency it waited for. An extrapolated loop's summary counts as busy.
    const double busy = x.instr ? std::clamp(x.end - std::max(x.start, before), 0.0, add) : add;
    it.busy_ns += busy;
    it.wait_ns += add - busy;
    if (x.pred >= cur) break;  // records only point backwards
    cur = x.pred;
  }
  for (auto& [k, v] : items) r.critical.push_back(v);
  std::map<int, LineGap> by_line;
  for (const CriticalItem& c : r.critical) {
    LineGap& g = by_line[c.line];
    g.line = c.line;
    g.path_ns += c.ns;
    g.busy_ns += c.busy_ns;
    g.wait_ns += c.wait_ns;
  }
  for (auto& [line, g] : by_line) r.gap_by_line.push_back(g);
  std::sort(r.gap_by_line.begin(), r.gap_by_line.end(),
            [](const LineGap& a, const LineGap& b) { return a.wait_ns > b.wait_ns; });
  std::sort(r.critical.begin(), r.critical.end(), [](const CriticalItem& a, const CriticalItem& b) { return a.ns > b.ns; });
  // The bottleneck is the resource whose busy time bounds the estimate from below: an engine or
  // DMA queue, the 16 DMA engines together, or HBM.
  r.bottleneck = unit_name(Unit::PE);
  double most = -1;
  auto consider = [&](const std::string& name, double busy) {
    if (busy > most) {
      most = busy;
      r.bottleneck = name;
    }
  };
  for (int u = 0; u < kNumUnits; ++u) consider(unit_name(static_cast<Unit>(u)), tot_.busy[u]);
  consider("DMA engines", tot_.dma_engine_busy / std::max(1.0, t_.dma_engines));
  consider("HBM", tot_.hbm_busy);
  // (Extrapolated queue intervals can overshoot the latency slightly; a bound never exceeds it.)
  r.bottleneck_busy_ns = std::min(most, r.latency_ns);
  // When no resource is busy for half the estimate, none bounds it: the time goes to waiting on
  // results (dependency chains, DMA and semaphore latencies), and the critical path says where.
  if (r.bottleneck_busy_ns < 0.5 * r.latency_ns) r.bottleneck = "dependency latency (busiest: " + r.bottleneck + ")";

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

  // The three lower bounds (memory, compute, pipeline) and the gap above them.
  r.bounds.memory_ns = r.t_mem_ns;
  for (const ir::TensorDecl& d : k_.tensors)
    if ((d.role == ir::TensorRole::Parameter || d.role == ir::TensorRole::Output) && d.alias_of < 0)
      r.bounds.needed_bytes += std::max<int64_t>(ir::element_count(d.shape), 0) * static_cast<int64_t>(dtype_size(d.dtype));
  r.bounds.memory_needed_ns = static_cast<double>(r.bounds.needed_bytes) / t_.hbm_gb_per_s;
  r.bounds.compute_ns = std::max(r.t_mm_ns, r.t_vec_ns);
  r.bounds.pipeline_ns = r.bottleneck_busy_ns;
  r.bounds.gap_ns = std::max(
      0.0, r.latency_ns - std::max({r.bounds.memory_needed_ns, r.bounds.compute_ns, r.bounds.pipeline_ns}));

  // Lints whose hint only pays off when their resource bounds the kernel: their premise is
  // checked against the finished schedule, so a hint is not given where following it cannot
  // lower the estimate (issue 26: advice that holds).
  const double dma_side = std::max({tot_.busy[static_cast<int>(Unit::DmaLoad)], tot_.busy[static_cast<int>(Unit::DmaStore)],
                                    tot_.busy[static_cast<int>(Unit::DmaOther)],
                                    tot_.dma_engine_busy / std::max(1.0, t_.dma_engines), tot_.hbm_busy});
  const double compute = std::max({tot_.busy[0], tot_.busy[1], tot_.busy[2], tot_.busy[3]});
  const double pe = tot_.busy[static_cast<int>(Unit::PE)];
  const bool dma_bound = dma_side >= 0.5 * r.latency_ns && dma_side >= compute;
  // Engines idle: a partition-starved DMA matters only when no other DMA uses the other engines.
  const bool engines_idle = tot_.dma_engine_busy / std::max(1.0, t_.dma_engines) < 0.5 * r.latency_ns;
  const bool pe_bound = pe >= 0.5 * r.latency_ns && pe >= dma_side;
  // DMA time of each source line on the critical path: a DMA whose cost does not hold the kernel
  // up cannot shorten it by being cheaper.
  std::map<int, double> dma_on_path;
  for (const CriticalItem& c : r.critical)
    if (c.what.find("(DMA queue") != std::string::npos) dma_on_path[c.line] += c.ns;
  auto dma_holds_up = [&](const Lint& l) { return dma_on_path[l.line] >= 0.25 * r.latency_ns; };
  std::erase_if(lints_, [&](const Lint& l) {
    if (l.code == "perf_small_dma") return !dma_bound && !dma_holds_up(l);
    if (l.code == "perf_partitions") return !engines_idle || !(dma_bound || dma_holds_up(l));
    if (l.code == "perf_fp32_matmul") return !pe_bound;
    return false;
  });
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
