// Cost of the cost model: for every benchmark reference solution, the time of
// nki::cost::estimate against one nki::machine::execute of the same compiled kernel (zero-filled
// inputs of the task's shapes; simulation speed does not depend on the values). Issue 12 asks
// profiling to cost at most 10 % of simulating.
// Run: build/perf/cost_bench [--runs N] [solutions-dir tasks-dir]
// --runs N: estimates per solution, median reported (default 5; a large N makes `perf record`
// see the model rather than the simulation).
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "cost/cost_model.h"
#include "machine/executor.h"
#include "task/task_spec.h"
#include "toolchain/toolchain.h"

namespace {
double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  const std::string root = NKI_SOURCE_DIR;
  int runs_per_solution = 5;
  std::vector<std::string> pos;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--runs" && i + 1 < argc) runs_per_solution = std::max(1, std::atoi(argv[++i]));
    else pos.push_back(argv[i]);
  }
  const std::string sol_dir = pos.size() > 0 ? pos[0] : root + "/solutions";
  const std::string task_dir = pos.size() > 1 ? pos[1] : root + "/tasks";
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(sol_dir))
    if (e.path().extension() == ".py") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  double total_cost = 0, total_sim = 0, worst = 0;
  std::string worst_id;
  std::printf("%-36s %12s %12s %8s\n", "solution", "simulate ms", "estimate ms", "ratio");
  for (const fs::path& f : files) {
    const std::string id = f.stem().string();
    nki::TaskSpec task = nki::load_task(task_dir + "/" + id);
    nki::front::TraceOptions o;
    std::vector<nki::HostTensor> args;
    for (const nki::TensorSpec& t : task.kernel_args()) {
      o.args.push_back(nki::front::ArgSpec{t.shape, t.dtype});
      nki::HostTensor h;
      h.dtype = t.dtype;
      h.shape = t.shape;
      h.data.assign(static_cast<size_t>(t.element_count()) * nki::dtype_size(t.dtype), 0);
      args.push_back(std::move(h));
    }
    nki::toolchain::CompileResult c = nki::toolchain::compile(nki::load_source_file(f.string()), o);
    if (!c.ok()) {
      std::printf("%-36s compile failed\n", id.c_str());
      continue;
    }
    auto t0 = std::chrono::steady_clock::now();
    try {
      nki::machine::execute(*c.kernel, args);
    } catch (const std::exception& e) {
      std::printf("%-36s simulate failed: %s\n", id.c_str(), e.what());
      continue;
    }
    const double sim = seconds_since(t0);
    const nki::cost::CostTable table = nki::cost::default_table(nki::Target::Trn1);
    nki::cost::CostOptions opt;
    opt.keep_events = false;  // what `profile` does without --trace
    std::vector<double> runs;
    for (int r = 0; r < runs_per_solution; ++r) {
      auto t1 = std::chrono::steady_clock::now();
      nki::cost::estimate(*c.kernel, table, opt);
      runs.push_back(seconds_since(t1));
    }
    std::sort(runs.begin(), runs.end());
    const double est = runs[runs.size() / 2];
    total_cost += est;
    total_sim += sim;
    if (est / sim > worst) {
      worst = est / sim;
      worst_id = id;
    }
    std::printf("%-36s %12.3f %12.3f %7.1f%%\n", id.c_str(), sim * 1e3, est * 1e3, 100 * est / sim);
  }
  std::printf("total: simulate %.3f s, estimate %.3f s (%.2f%%); worst single ratio %.1f%% (%s)\n", total_sim, total_cost,
              100 * total_cost / std::max(total_sim, 1e-12), 100 * worst, worst_id.c_str());
  return 0;
}
