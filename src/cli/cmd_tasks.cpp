// nkiagent tasks list | show ID | stats | verify-solutions | audit  (issue 4, docs/tasks.md)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/task_baselines.h"
#include "eval/task_list.h"
#include "task/task_spec.h"
#include "task/task_stats.h"
#include "task/trivial_kernels.h"
#include "task/balanced_subset.h"
#include "toolchain/toolchain.h"

namespace nki::cli {

namespace {

std::string shape_text(const std::vector<int64_t>& s) {
  if (s.empty()) return "scalar";  // a 0-d tensor, e.g. a mean loss
  std::string t;
  for (size_t i = 0; i < s.size(); ++i) t += (i ? "x" : "") + std::to_string(s[i]);
  return t;
}

// The ids of --subset, through the one loader `bench` uses too (eval/task_list.h), so the two
// commands agree on what every subset, `all` included, contains.
std::vector<std::string> subset_ids(const std::string& root, const std::string& subset) {
  std::vector<eval::TaskRef> refs;
  try {
    refs = eval::load_subset(root, subset);
  } catch (const std::runtime_error& e) {
    throw IoError(e.what());
  }
  std::vector<std::string> ids;
  ids.reserve(refs.size());
  for (const eval::TaskRef& r : refs) ids.push_back(r.id);
  return ids;
}

// --task ID[,ID...] when given (each must name a task directory), else the ids of --subset.
std::vector<std::string> selected_ids(const ParsedOptions& o, const std::string& root) {
  if (!o.has("task")) return subset_ids(root, o.text("subset"));
  std::vector<std::string> ids;
  std::string list = o.text("task");
  for (size_t start = 0; start <= list.size();) {
    size_t comma = list.find(',', start);
    std::string id = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (id.empty()) throw UsageError("--task: empty task id in '" + list + "'");
    resolve_task_dir(id, root);  // an unknown id is an I/O error naming the missing task.json
    ids.push_back(id);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return ids;
}

int list_tasks(const ParsedOptions& o, const std::string& root) {
  for (const std::string& id : selected_ids(o, root)) {
    TaskSpec t = load_task(resolve_task_dir(id, root));
    std::string args;
    for (const TensorSpec& a : t.kernel_args()) args += (args.empty() ? "" : " ") + a.name + ":" + shape_text(a.shape) + ":" + dtype_name(a.dtype);
    std::cout << t.id << "  L" << t.level << "  " << t.category << "  " << args << "\n";
  }
  return 0;
}

int show_task(const ParsedOptions& o, const std::string& root) {
  if (o.positionals().size() != 2) throw UsageError("tasks show takes exactly one task id");
  TaskSpec t = load_task(resolve_task_dir(o.positionals()[1], root));
  std::cout << "id: " << t.id << "\nlevel: " << t.level << "\ncategory: " << t.category << "\ndescription: " << t.description
            << "\nseed: " << t.seed << "  trials: " << t.trials << "\nkernel arguments:\n";
  for (const TensorSpec& a : t.kernel_args()) std::cout << "  " << a.name << " " << shape_text(a.shape) << " " << dtype_name(a.dtype) << "\n";
  std::cout << "outputs:\n";
  for (const TensorSpec& a : t.outputs) {
    Tolerance tol = t.tolerance_for(a.dtype, false);
    std::cout << "  " << shape_text(a.shape) << " " << dtype_name(a.dtype) << " (atol " << tol.atol << ", rtol " << tol.rtol << ")\n";
  }
  std::ifstream ref(t.dir + "/reference.py");
  std::cout << "reference.py:\n" << ref.rdbuf();
  return 0;
}

int verify_solutions(const ParsedOptions& o, const std::string& root) {
  std::vector<std::string> ids = selected_ids(o, root);
  // --nki 0.6: the current-dialect solutions (solutions_nki06/<id>.py, made by nkiagent migrate;
  // docs/nki-current.md), read as that dialect; tasks without one are counted, not failed.
  std::string dialect = o.has("nki") ? o.text("nki") : "";
  bool current = !dialect.empty() && dialect != "2.24";
  std::string solutions = o.has("solutions-dir") ? o.text("solutions-dir") : default_solutions_dir(root, current);
  if (current) {
    std::vector<std::string> present;
    for (const std::string& id : ids)
      if (std::ifstream(solutions + "/" + id + ".py").good()) present.push_back(id);
    std::cout << "verify-solutions --nki " << dialect << ": " << present.size() << " of " << ids.size()
              << " tasks have a solution in " << solutions << "\n";
    ids = present;
  }
  toolchain::RunSettings run_settings;
  run_settings.trace.dialect = dialect;
  VerifyOptions vo;
  vo.trials = static_cast<int>(o.integer("trials").value_or(0));  // 0: each task's own count
  std::vector<std::pair<double, std::string>> times, margins;
  int passed = 0, failed = 0;
  auto start = std::chrono::steady_clock::now();
  for (const std::string& id : ids) {
    auto t0 = std::chrono::steady_clock::now();
    TaskSpec task = load_task(resolve_task_dir(id, root));
    VerifyReport rep = verify_task(task, vo, toolchain::make_runner(load_source_file(solutions + "/" + id + ".py"), run_settings));
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    times.emplace_back(secs, id);
    if (rep.status == VerifyStatus::Pass) {
      ++passed;
      // Low-precision tasks: how much of the tolerance the reference solution (fp32 statistics,
      // one final rounding) uses; a thin margin means the tolerance is too tight for the dtype.
      double used = 0.0;
      bool low_precision = false;
      for (const TrialReport& tr : rep.trials)
        for (const OutputComparison& c : tr.outputs)
          if (c.expected_dtype == DType::BFloat16 || c.expected_dtype == DType::Float16) {
            low_precision = true;
            used = std::max(used, c.tolerance_used);
          }
      if (low_precision) margins.emplace_back(used, id);
    } else {
      ++failed;
      std::cout << "FAIL " << id << ": " << render_verify_text(rep);
    }
    std::cerr << "\r[" << passed + failed << "/" << ids.size() << "] " << id << "            " << std::flush;
  }
  std::cerr << "\n";
  double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::sort(times.rbegin(), times.rend());
  std::cout << "verify-solutions: " << ids.size() << " tasks in " << total << " s (golden data included); slowest:";
  for (size_t i = 0; i < std::min<size_t>(5, times.size()); ++i) std::cout << " " << times[i].second << " " << times[i].first << "s";
  std::cout << "\n";
  if (!margins.empty()) {
    std::sort(margins.rbegin(), margins.rend());
    std::cout << "bf16/fp16 margins (max |a-e| / (atol + rtol|e|) of the reference solution; 1 fails):\n";
    for (const auto& [used, id] : margins) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.3f (margin %.0f %%)", used, 100.0 * (1.0 - used));
      std::cout << "  margin " << id << " " << buf << "\n";
    }
  }
  std::cout << passed << " passed, " << failed << " failed\n";
  return failed ? 1 : 0;
}

int audit(const ParsedOptions& o, const std::string& root) {
  std::vector<std::string> ids = selected_ids(o, root);
  VerifyOptions vo;
  vo.trials = static_cast<int>(o.integer("trials").value_or(0));  // 0: each task's own count
  int passed = 0, failed = 0;
  for (const std::string& id : ids) {
    TaskSpec task = load_task(resolve_task_dir(id, root));
    for (const std::string& kind : trivial_kinds()) {
      VerifyReport rep = verify_task(task, vo, trivial_runner(task, kind));
      if (rep.status == VerifyStatus::Pass) {
        ++failed;
        std::cout << "FAIL " << id << ": a trivial kernel (" << kind << ") passes verification\n";
      } else {
        ++passed;
      }
    }
  }
  std::cout << passed << " passed, " << failed << " failed\n";
  return failed ? 1 : 0;
}

int stats(const ParsedOptions& o, const std::string& root) {
  std::string title = o.has("task") ? "tasks " + o.text("task") : "subset " + o.text("subset");
  std::vector<TaskProfile> profiles;
  for (const std::string& id : selected_ids(o, root)) profiles.push_back(profile_task(load_task(resolve_task_dir(id, root))));
  std::cout << render_composition(profiles, title, o.has("cross"));
  return 0;
}

// balanced150 from every task directory (the rule is in task/balanced_subset.h, docs/tasks.md).
int select_balanced_subset(const ParsedOptions& o, const std::string& root) {
  int per_level = static_cast<int>(o.integer("per-level").value_or(50));
  std::vector<TaskProfile> pool;
  for (const std::string& id : subset_ids(root, "all")) pool.push_back(profile_task(load_task(resolve_task_dir(id, root))));
  std::vector<std::string> ids;
  try {
    ids = select_balanced(pool, per_level);
  } catch (const std::invalid_argument& e) {
    throw IoError(std::string("cannot select a balanced subset: ") + e.what());
  }
  std::string text = render_balanced_list(ids, per_level);
  if (!o.has("out")) {
    std::cout << text;
    return 0;
  }
  std::ofstream out(o.text("out"), std::ios::binary);
  out << text;
  out.close();
  if (!out) throw IoError("cannot write " + o.text("out"));
  std::cerr << "wrote " << ids.size() << " task ids to " << o.text("out") << "\n";
  return 0;
}

int tasks(const ParsedOptions& o) {
  if (o.positionals().empty()) throw UsageError("tasks needs a command: list, show, stats, select-balanced, verify-solutions, audit or baselines");
  std::string root = tasks_root_from(o);
  const std::string& sub = o.positionals()[0];
  if (sub != "show" && o.positionals().size() > 1)
    throw UsageError("unexpected argument '" + o.positionals()[1] + "' after tasks " + sub);
  if (sub == "list") return list_tasks(o, root);
  if (sub == "show") return show_task(o, root);
  if (sub == "stats") return stats(o, root);
  if (sub == "select-balanced") return select_balanced_subset(o, root);
  if (sub == "verify-solutions") return verify_solutions(o, root);
  if (sub == "audit") return audit(o, root);
  if (sub == "baselines")  // always every task directory: the file covers the whole benchmark
    return task_baselines(o, root, subset_ids(root, "all"));
  throw UsageError("unknown tasks command '" + sub + "'");
}

}  // namespace

Command make_tasks_command() {
  Command c;
  c.spec.name = "tasks";
  c.spec.synopsis = "nkiagent tasks list|show ID|stats|select-balanced|verify-solutions|audit|baselines [options]";
  c.spec.description =
      "commands:\n"
      "  list                one line per task: id, level, category, kernel arguments\n"
      "  show ID             the task's manifest summary and reference source\n"
      "  stats               composition of the subset as Markdown tables: tasks per level,\n"
      "                      dtype, input rank, category; awkward, multi-output and integer-input\n"
      "                      counts (--cross adds level x category x dtype x rank)\n"
      "  select-balanced     the balanced subset (--per-level N of each level, stratified by\n"
      "                      category and dtype, from every task directory; rule in\n"
      "                      docs/tasks.md) to --out FILE or stdout\n"
      "  verify-solutions    verify every reference solution (solutions/<id>.py) on the simulator\n"
      "                      against PyTorch; prints a summary and the slowest tasks (--nki 0.6:\n"
      "                      the current-dialect ones, solutions_nki06/<id>.py)\n"
      "  audit               prove that trivial kernels fail every task: outputs of all zeros, a\n"
      "                      constant, a copy of an input, NaN, and the inputs modified in place\n"
      "                      must all be rejected by verify";
  OptionSpec trials = trials_option();
  trials.help += ", for verify-solutions and audit";
  OptionSpec solutions = text_option("solutions-dir", "DIR", "reference solutions for verify-solutions");
  solutions.default_help = "TASKS_DIR/../solutions, or solutions_nki06 for --nki 0.6";
  solutions.help += " and baselines\n(baselines: needs --nki)";
  OptionSpec baselines_target = choice_option("target", chip_targets_hint(), {target_name(Target::Trn1), target_name(Target::Trn2)},
                                              "for baselines: only this target's files (trn1: baselines.json,\n"
                                              "trn2: baselines.trn2.json; baselines.nki06[.trn2].json for\n"
                                              "the current dialect's solutions; --nki picks one dialect)");
  baselines_target.default_help = "both";
  c.spec.options = {
      text_option("subset", "NAME",
                  "the tasks listed in TASKS_DIR/subsets/NAME.txt; all: every task directory",
                  "ablation60"),
      text_option("task", "ID[,ID...]", "only these tasks (in place of --subset), for list, stats,\n"
                  "verify-solutions and audit"),
      tasks_dir_option(),
      trials,
      solutions,
      flag_option("check", "for baselines: compare TASKS_DIR/baselines.json with a fresh estimate\n"
                  "instead of writing it (exit 1 when stale)"),
      baselines_target,
      flag_option("cross", "for stats: also the level x category x dtype x rank table"),
      nki_option(),
      integer_option("per-level", "N", 1, 1000, "for select-balanced: tasks per level", "50"),
      text_option("out", "FILE", "for select-balanced: write the list here (e.g.\n"
                  "TASKS_DIR/subsets/balanced150.txt)"),
  };
  c.spec.epilog = "exit status: 0 success, 1 a check failed, 2 usage or I/O error";
  c.run = tasks;
  return c;
}

}  // namespace nki::cli
