// `tasks baselines`: every task's reference solution estimated by the cost model, recorded in
// TASKS_DIR/baselines.json with the cost model's id, so that speedups (docs/evaluation.md,
// "Speed") divide by a committed number and a stale file is caught by --check (a ctest).
#include "cli/task_baselines.h"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>

#include "base/diagnostic.h"
#include "task/task_spec.h"
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

namespace {

// One target's file: written, or with --check compared (returns 1 when stale).
int baselines_for(const ParsedOptions& o, const std::string& root, const std::vector<std::string>& ids,
                  const std::string& solutions_dir, nki::Target target, bool current) {
  size_t done = 0;
  const std::string label = std::string(current ? "nki 0.6 " : "") + nki::target_name(target);
  toolchain::BaselineFile fresh = toolchain::compute_baselines(
      root, solutions_dir, ids,
      [&](const std::string& id, const toolchain::Baseline&) {
        std::cerr << "\r[" << label << " " << ++done << "/" << ids.size() << "] " << id << "                    "
                  << std::flush;
      },
      target);
  std::cerr << "\n";
  const std::string path = toolchain::baselines_path(root, target, current);
  report_missing(fresh);
  if (o.flag("check")) {
    std::optional<toolchain::BaselineFile> committed;
    try {
      committed = toolchain::load_baselines(root, target, current);
    } catch (const std::runtime_error& e) {
      throw IoError(e.what());
    }
    if (!committed) {
      std::cout << "STALE " << path << ": missing; run nkiagent tasks baselines\n";
      return 1;
    }
    std::vector<std::string> diffs = toolchain::compare_baselines(*committed, fresh);
    for (const std::string& d : diffs) std::cout << "STALE " << label << " " << d << "\n";
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

}  // namespace

int task_baselines(const ParsedOptions& o, const std::string& root, const std::vector<std::string>& ids) {
  // Both targets' files unless --target names one (bench reads the file of its --target), for
  // both dialects unless --nki names one: 2.24 estimates solutions/, 0.6 solutions_nki06/.
  std::vector<nki::Target> targets = {nki::Target::Trn1, nki::Target::Trn2};
  if (o.has("target")) targets = {*parse_target(o.text("target"))};
  std::vector<bool> dialects = {false, true};
  if (o.has("nki")) dialects = {o.text("nki") != "2.24"};
  if (o.has("solutions-dir") && dialects.size() > 1)
    throw UsageError("tasks baselines --solutions-dir needs --nki: the directory holds one dialect's solutions");
  int rc = 0;
  for (bool current : dialects) {
    const std::string solutions = o.has("solutions-dir") ? o.text("solutions-dir") : default_solutions_dir(root, current);
    for (nki::Target t : targets) rc = std::max(rc, baselines_for(o, root, ids, solutions, t, current));
  }
  return rc;
}

}  // namespace nki::cli
