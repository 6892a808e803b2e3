// What the agent's profile_kernel tool costs against what one simulated trial of verify costs,
// on the benchmark's reference solutions, in the same run: profile = compile (parse + trace +
// checks) + cost::estimate (no trace events), simulate = the same compile + machine::execute on
// zero-filled inputs of the task's shapes (simulation time does not depend on
// the values; golden data and comparison are left out, which favours simulate). Both in this
// process, no isolation. Issue 12 asks profiling to cost at most 10 % of simulating.
//   build/perf/profile_bench [--every N] [solutions-dir tasks-dir]
// --every N takes every N-th solution (sorted by name), for a quicker sample.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "machine/executor.h"
#include "task/task_spec.h"
#include "cost/cost_model.h"
#include "toolchain/profile.h"

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

template <typename F>
double median_seconds(int runs, F&& f) {
  std::vector<double> t;
  for (int r = 0; r < runs; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    t.push_back(seconds_since(t0));
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  const std::string root = NKI_SOURCE_DIR;
  int every = 1;
  std::vector<std::string> pos;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--every") == 0 && i + 1 < argc) every = std::max(1, std::atoi(argv[++i]));
    else pos.push_back(argv[i]);
  }
  const std::string sol_dir = pos.size() > 0 ? pos[0] : root + "/solutions";
  const std::string task_dir = pos.size() > 1 ? pos[1] : root + "/tasks";
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(sol_dir))
    if (e.path().extension() == ".py") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  nki::toolchain::Isolation in_process;
  in_process.enabled = false;
  double total_profile = 0, total_sim = 0, total_estimate = 0, total_execute = 0, total_tool = 0, total_first_tool = 0;
  int measured = 0, over_budget = 0, model_over_budget = 0;
  std::printf("%-40s %10s %10s %10s %10s %8s %8s\n", "solution", "compile ms", "simulate", "estimate", "tool ms",
              "prof/sim", "est/exe");
  for (size_t i = 0; i < files.size(); i += static_cast<size_t>(every)) {
    const fs::path& f = files[i];
    const std::string id = f.stem().string();
    if (!fs::exists(task_dir + "/" + id + "/task.json")) continue;
    nki::TaskSpec task = nki::load_task(task_dir + "/" + id);
    nki::toolchain::ProfileSettings ps;
    ps.isolation = in_process;
    ps.cost.keep_events = false;
    std::vector<nki::HostTensor> args;
    for (const nki::TensorSpec& t : task.kernel_args()) {
      ps.trace.args.push_back(nki::front::ArgSpec{t.shape, t.dtype});
      nki::HostTensor h;
      h.dtype = t.dtype;
      h.shape = t.shape;
      h.data.assign(static_cast<size_t>(t.element_count()) * nki::dtype_size(t.dtype), 0);
      args.push_back(std::move(h));
    }
    nki::SourceFilePtr file = nki::load_source_file(f.string());
    nki::toolchain::CompileResult c;
    double compile_s = median_seconds(3, [&] { c = nki::toolchain::compile(file, ps.trace); });
    if (!c.ok()) {
      std::printf("%-40s compile failed\n", id.c_str());
      continue;
    }
    const nki::cost::CostTable table = nki::cost::default_table(nki::Target::Trn1);
    double estimate_s = median_seconds(3, [&] { nki::cost::estimate(*c.kernel, table, ps.cost); });
    double execute_s = 0;
    try {
      execute_s = median_seconds(1, [&] { nki::machine::execute(*c.kernel, args); });
    } catch (const std::exception& e) {
      std::printf("%-40s simulate failed: %s\n", id.c_str(), e.what());
      continue;
    }
    // The tool's path as the agent calls it (toolchain::profile, in process), as a cross-check of
    // compile + estimate: its first call right after the simulation, then the median of 3.
    bool ok = true;
    auto t0 = std::chrono::steady_clock::now();
    ok = nki::toolchain::profile(file, ps).report.has_value();
    double first_tool_s = seconds_since(t0);
    double tool_s = median_seconds(3, [&] { ok = ok && nki::toolchain::profile(file, ps).report.has_value(); });
    total_first_tool += first_tool_s;
    total_tool += tool_s;
    if (!ok) {
      std::printf("%-40s profile failed\n", id.c_str());
      continue;
    }
    const double prof = compile_s + estimate_s, sim = compile_s + execute_s;
    total_profile += prof;
    total_sim += sim;
    total_estimate += estimate_s;
    total_execute += execute_s;
    ++measured;
    if (prof > 0.1 * sim) ++over_budget;
    if (estimate_s > 0.1 * execute_s) ++model_over_budget;
    std::printf("%-40s %10.3f %10.3f %10.3f %10.3f %7.1f%% %7.1f%%\n", id.c_str(), compile_s * 1e3, execute_s * 1e3,
                estimate_s * 1e3, tool_s * 1e3, 100 * prof / sim, 100 * estimate_s / execute_s);
  }
  std::printf("%d solutions: compile+simulate %.3f s, compile+estimate %.3f s (%.2f%%), %d above 10%%; "
              "estimate alone %.3f s vs simulate alone %.3f s (%.2f%%), %d above 10%%\n",
              measured, total_sim, total_profile, 100 * total_profile / std::max(total_sim, 1e-12), over_budget,
              total_estimate, total_execute, 100 * total_estimate / std::max(total_execute, 1e-12), model_over_budget);
  std::printf("toolchain::profile: median %.3f s in total (%.2f%% of compile+simulate), first call after the "
              "simulation %.3f s (%.2f%%)\n",
              total_tool, 100 * total_tool / std::max(total_sim, 1e-12), total_first_tool,
              100 * total_first_tool / std::max(total_sim, 1e-12));
  return 0;
}
