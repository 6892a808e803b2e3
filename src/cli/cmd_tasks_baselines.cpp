// `tasks baselines`: every task's reference solution estimated by the cost model, recorded in
// TASKS_DIR/baselines.json with the cost model's id, so that speedups (docs/evaluation.md,
// "Speed") divide by a committed number and a stale file is caught by --check (a ctest).
#include "cli/task_baselines.h"

#include <fstream>
#include <iostream>
#include <sstream>

#include "base/diagnostic.h"
#include "toolchain/speed.h"

namespace nki::cli {

namespace {

void report_missing(const toolchain::BaselineFile& f) {
  int missing = 0;
  for (const auto& [id, b] : f.tasks)
    if (!b.latency_ns) {
      ++missing;
      std::cout << "no baseline: " << id << ": " << b.error << "\n";
    }
  std::cout << f.tasks.size() - missing << " of " << f.tasks.size() << " tasks have a baseline (cost model "
            << f.cost_model << ")\n";
}

}  // namespace

int task_baselines(const ParsedOptions& o, const std::string& root, const std::vector<std::string>& ids,
                   const std::string& solutions_dir) {
  size_t done = 0;
  toolchain::BaselineFile fresh = toolchain::compute_baselines(
      root, solutions_dir, ids, [&](const std::string& id, const toolchain::Baseline&) {
        std::cerr << "\r[" << ++done << "/" << ids.size() << "] " << id << "                    " << std::flush;
      });
  std::cerr << "\n";
  const std::string path = toolchain::baselines_path(root);
  report_missing(fresh);
  if (o.flag("check")) {
    std::optional<toolchain::BaselineFile> committed;
    try {
      committed = toolchain::load_baselines(root);
    } catch (const std::runtime_error& e) {
      throw IoError(e.what());
    }
    if (!committed) {
      std::cout << "STALE " << path << ": missing; run nkiagent tasks baselines\n";
      return 1;
    }
    std::vector<std::string> diffs = toolchain::compare_baselines(*committed, fresh);
    for (const std::string& d : diffs) std::cout << "STALE " << d << "\n";
    if (!diffs.empty()) {
      std::cout << path << " is stale (" << diffs.size() << " difference(s)); run nkiagent tasks baselines\n";
      return 1;
    }
    std::cout << path << " is up to date\n";
    return 0;
  }
  std::ofstream out(path, std::ios::binary);
  out << toolchain::render_baselines_json(fresh);
  out.close();
  if (!out) throw IoError("cannot write " + path);
  std::cout << "wrote " << path << "\n";
  return 0;
}

}  // namespace nki::cli
