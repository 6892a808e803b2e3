// Text, JSON and Chrome trace-event renderings of a CostReport.
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cost/cost_model.h"

namespace nki::cost {

namespace {
std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}
std::string time_str(double ns) {
  if (ns >= 1e6) return fmt("%.3f ms", ns / 1e6);
  if (ns >= 1e3) return fmt("%.2f us", ns / 1e3);
  return fmt("%.0f ns", ns);
}
std::string bytes_str(double b) {
  if (b >= 1 << 30) return fmt("%.2f GiB", b / (1 << 30));
  if (b >= 1 << 20) return fmt("%.2f MiB", b / (1 << 20));
  if (b >= 1 << 10) return fmt("%.1f KiB", b / (1 << 10));
  return fmt("%.0f B", b);
}
}  // namespace

std::string render_summary(const CostReport& r, const ir::Kernel& k, int top) {
  std::ostringstream o;
  const double lat = r.latency_ns > 0 ? r.latency_ns : 1;
  o << "kernel '" << k.name << "' on " << target_name(r.target) << " (estimate, one NeuronCore)\n";
  o << "  estimated latency   " << time_str(r.latency_ns) << "\n";
  o << "  bottleneck          " << r.bottleneck << fmt(" (busy %.1f %% of the estimate)", 100.0 * r.bottleneck_busy_ns / lat)
    << "\n";
  o << "  engine busy:\n";
  for (const UnitStats& u : r.units) {
    if (u.instructions == 0) continue;
    o << "    " << unit_name(u.unit) << std::string(20 - std::min<size_t>(19, std::string(unit_name(u.unit)).size()), ' ')
      << fmt("%5.1f %%", 100.0 * u.busy_ns / lat) << "  " << u.instructions << " instructions\n";
  }
  const double hbm = static_cast<double>(r.hbm_read_bytes + r.hbm_write_bytes);
  o << "  DMA                 " << r.dma_count << " transfers, " << bytes_str(static_cast<double>(r.dma_bytes))
    << " (HBM read " << bytes_str(static_cast<double>(r.hbm_read_bytes)) << ", write "
    << bytes_str(static_cast<double>(r.hbm_write_bytes)) << "), achieved HBM bandwidth "
    << fmt("%.1f GB/s", hbm / lat) << "\n";
  o << "  FLOPs               matmul " << fmt("%.3g", r.mm_flops) << ", transpose " << fmt("%.3g", r.transpose_flops)
    << ", vector " << fmt("%.3g", r.vector_flops) << "\n";
  o << "  roofline            " << r.bound << "-bound, T_peak " << time_str(r.t_peak_ns) << " (matmul "
    << time_str(r.t_mm_ns) << ", vector " << time_str(r.t_vec_ns) << ", memory " << time_str(r.t_mem_ns) << "), "
    << fmt("%.1f %% of peak", r.pct_of_peak) << "\n";
  o << "  bounds              memory " << time_str(r.bounds.memory_ns) << " (needed " << time_str(r.bounds.memory_needed_ns)
    << "), compute " << time_str(r.bounds.compute_ns) << ", pipeline " << time_str(r.bounds.pipeline_ns) << "; gap "
    << time_str(r.bounds.gap_ns) << "\n";
  o << "  critical path (top " << top << "):\n";
  for (int i = 0; i < top && i < static_cast<int>(r.critical.size()); ++i) {
    const CriticalItem& c = r.critical[static_cast<size_t>(i)];
    o << "    " << fmt("%5.1f %%", 100.0 * c.ns / lat) << "  " << k.file->path() << ":" << c.line << "  " << c.what;
    if (c.count > 1) o << " x" << c.count;
    o << "\n";
  }
  o << "  model: " << r.instructions << " instructions, " << r.scheduled << " scheduled one by one, "
    << r.extrapolated_loops << " loop tails extrapolated (docs/cost-model.md)\n";
  return o.str();
}

std::string render_json(const CostReport& r, int top) {
  using nlohmann::json;
  json j;
  j["target"] = target_name(r.target);
  j["latency_ns"] = r.latency_ns;
  j["bottleneck"] = r.bottleneck;
  j["bottleneck_busy_ns"] = r.bottleneck_busy_ns;
  json units = json::array();
  for (const UnitStats& u : r.units)
    units.push_back({{"unit", unit_name(u.unit)},
                     {"busy_ns", u.busy_ns},
                     {"busy_pct", r.latency_ns > 0 ? 100.0 * u.busy_ns / r.latency_ns : 0.0},
                     {"instructions", u.instructions}});
  j["units"] = units;
  j["dma"] = {{"count", r.dma_count},
              {"bytes", r.dma_bytes},
              {"hbm_read_bytes", r.hbm_read_bytes},
              {"hbm_write_bytes", r.hbm_write_bytes},
              {"achieved_hbm_gb_per_s",
               r.latency_ns > 0 ? static_cast<double>(r.hbm_read_bytes + r.hbm_write_bytes) / r.latency_ns : 0.0}};
  j["flops"] = {{"matmul", r.mm_flops}, {"transpose", r.transpose_flops}, {"vector", r.vector_flops}};
  j["roofline"] = {{"t_mm_ns", r.t_mm_ns},     {"t_vec_ns", r.t_vec_ns}, {"t_mem_ns", r.t_mem_ns},
                   {"t_peak_ns", r.t_peak_ns}, {"bound", r.bound},       {"pct_of_peak", r.pct_of_peak}};
  json crit = json::array();
  for (int i = 0; i < top && i < static_cast<int>(r.critical.size()); ++i) {
    const CriticalItem& c = r.critical[static_cast<size_t>(i)];
    crit.push_back({{"what", c.what}, {"line", c.line}, {"ns", c.ns}, {"count", c.count}});
  }
  j["critical_path"] = crit;
  j["bounds"] = {{"memory_ns", r.bounds.memory_ns},
                 {"needed_bytes", r.bounds.needed_bytes},
                 {"memory_needed_ns", r.bounds.memory_needed_ns},
                 {"compute_ns", r.bounds.compute_ns},
                 {"pipeline_ns", r.bounds.pipeline_ns},
                 {"gap_ns", r.bounds.gap_ns}};
  json gaps = json::array();
  for (const LineGap& g : r.gap_by_line)
    gaps.push_back({{"line", g.line}, {"path_ns", g.path_ns}, {"busy_ns", g.busy_ns}, {"wait_ns", g.wait_ns}});
  j["gap_by_line"] = gaps;
  json lints = json::array();
  for (const Lint& l : r.lints)
    lints.push_back({{"code", l.code}, {"message", l.message}, {"hint", l.hint}, {"line", l.line}, {"col", l.col}});
  j["lints"] = lints;
  j["model"] = {{"instructions", r.instructions}, {"scheduled", r.scheduled}, {"extrapolated_loops", r.extrapolated_loops}};
  return j.dump();
}

std::string render_trace(const CostReport& r, const std::string& kernel_name) {
  using nlohmann::json;
  json ev = json::array();
  // One process (the NeuronCore) with one named thread per engine / DMA queue.
  ev.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", 1}, {"tid", 0},
                {"args", {{"name", "NeuronCore (" + std::string(target_name(r.target)) + "): " + kernel_name}}}});
  for (int u = 0; u < kNumUnits; ++u) {
    ev.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", 1}, {"tid", u + 1},
                  {"args", {{"name", unit_name(static_cast<Unit>(u))}}}});
    ev.push_back({{"name", "thread_sort_index"}, {"ph", "M"}, {"pid", 1}, {"tid", u + 1}, {"args", {{"sort_index", u}}}});
  }
  for (const TraceEvent& e : r.events) {
    // Trace-event timestamps and durations are in microseconds.
    ev.push_back({{"name", e.name},
                  {"cat", is_dma(e.unit) ? "dma" : "compute"},
                  {"ph", "X"},
                  {"pid", 1},
                  {"tid", static_cast<int>(e.unit) + 1},
                  {"ts", e.start_ns / 1000.0},
                  {"dur", e.dur_ns / 1000.0},
                  {"args", {{"line", e.line}}}});
  }
  json j;
  j["traceEvents"] = ev;
  j["displayTimeUnit"] = "ns";
  j["otherData"] = {{"estimated_latency_ns", r.latency_ns}, {"dropped_events", r.dropped_events}};
  return j.dump();
}

}  // namespace nki::cost
