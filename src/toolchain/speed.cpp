#include "toolchain/speed.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "task/sha256.h"

namespace nki::toolchain {

namespace {

std::string first_error(const std::vector<Diagnostic>& diags) {
  for (const Diagnostic& d : diags)
    if (d.severity == Severity::Error) return d.code + ": " + d.message;
  return "compile failed";
}

// 7 significant digits: enough to tell any two kernels apart, stable across rebuilds.
double rounded(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.7g", v);
  return std::strtod(buf, nullptr);
}

}  // namespace

std::string cost_model_id(nki::Target t) {
  cost::CostTable table = cost::default_table(t);
  // table_json lists every row by name with its value; hashing it covers every coefficient.
  std::string digest = sha256_hex(cost::table_json(table));
  return std::string(nki::target_name(t)) + ":" + digest.substr(0, 16);
}

EstimateOutcome estimate_for_task(const TaskSpec& task, const SourceFilePtr& file, const Isolation& iso,
                                  nki::Target target) {
  ProfileSettings s;
  s.isolation = iso;
  s.trace.target = target;
  for (const TensorSpec& t : task.kernel_args()) s.trace.args.push_back(front::ArgSpec{t.shape, t.dtype});
  s.cost.keep_events = false;
  EstimateOutcome out;
  ProfileOutcome p;
  try {
    p = profile(file, s);
  } catch (const std::exception& e) {
    out.error = e.what();
    return out;
  }
  if (!p.report) {
    out.error = p.compiled.ok() ? "cost model: " + p.error : first_error(p.compiled.diagnostics);
    return out;
  }
  out.estimate = KernelEstimate{p.report->latency_ns, p.report->pct_of_peak, p.report->bound, p.report->bottleneck};
  return out;
}

std::string baselines_path(const std::string& tasks_root, nki::Target target, bool current_dialect) {
  // trn1 keeps the original name, so runs and tools that predate trn2 baselines still find theirs.
  std::string name = std::string("baselines") + (current_dialect ? ".nki06" : "") +
                     (target == nki::Target::Trn2 ? ".trn2" : "") + ".json";
  return (std::filesystem::path(tasks_root) / name).string();
}

BaselineFile compute_baselines(const std::string& tasks_root, const std::string& solutions_dir,
                               const std::vector<std::string>& ids,
                               const std::function<void(const std::string&, const Baseline&)>& progress,
                               nki::Target target) {
  BaselineFile f;
  f.cost_model = cost_model_id(target);
  f.target = nki::target_name(target);
  Isolation in_process;
  in_process.enabled = false;
  for (const std::string& id : ids) {
    Baseline b;
    std::string path = solutions_dir + "/" + id + ".py";
    if (!std::filesystem::exists(path)) {
      b.error = "no reference solution " + path;
    } else {
      try {
        TaskSpec task = load_task(resolve_task_dir(id, tasks_root));
        EstimateOutcome e = estimate_for_task(task, load_source_file(path), in_process, target);
        if (e.estimate) {
          b.latency_ns = rounded(e.estimate->latency_ns);
          b.pct_of_peak = rounded(e.estimate->pct_of_peak);
          b.bound = e.estimate->bound;
        } else {
          b.error = e.error;
        }
      } catch (const std::exception& e) {
        b.error = e.what();
      }
    }
    f.tasks[id] = b;
    if (progress) progress(id, b);
  }
  return f;
}

std::string render_baselines_json(const BaselineFile& f) {
  nlohmann::ordered_json j;
  j["generated_by"] = "nkiagent tasks baselines (do not edit; re-run it after changing tasks, solutions or src/cost)";
  j["what"] = "estimated latency of each task's reference solution (solutions/<id>.py) on one NeuronCore, by the cost model";
  j["cost_model"] = f.cost_model;
  j["target"] = f.target;
  nlohmann::ordered_json tasks = nlohmann::ordered_json::object();
  for (const auto& [id, b] : f.tasks) {
    nlohmann::ordered_json e;
    if (b.latency_ns) {
      e["latency_ns"] = *b.latency_ns;
      e["pct_of_peak"] = b.pct_of_peak;
      e["bound"] = b.bound;
    } else {
      e["error"] = b.error;
    }
    tasks[id] = e;
  }
  j["tasks"] = tasks;
  return j.dump(1) + "\n";
}

BaselineFile parse_baselines_json(const std::string& text) {
  BaselineFile f;
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
    f.cost_model = j.at("cost_model").get<std::string>();
    f.target = j.at("target").get<std::string>();
    for (const auto& [id, e] : j.at("tasks").items()) {
      Baseline b;
      if (e.contains("latency_ns")) {
        b.latency_ns = e.at("latency_ns").get<double>();
        b.pct_of_peak = e.value("pct_of_peak", 0.0);
        b.bound = e.value("bound", "");
        if (!(*b.latency_ns > 0) || !std::isfinite(*b.latency_ns))
          throw std::runtime_error("task '" + id + "': latency_ns must be a positive number");
      } else {
        b.error = e.value("error", "no latency");
      }
      f.tasks[id] = b;
    }
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("bad baselines file: ") + e.what());
  }
  return f;
}

std::optional<BaselineFile> load_baselines(const std::string& tasks_root, nki::Target target, bool current_dialect) {
  std::string path = baselines_path(tasks_root, target, current_dialect);
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  try {
    return parse_baselines_json(s.str());
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
}

std::vector<std::string> compare_baselines(const BaselineFile& committed, const BaselineFile& fresh, double rel_tol) {
  std::vector<std::string> out;
  if (committed.cost_model != fresh.cost_model)
    out.push_back("cost model: file has " + committed.cost_model + ", this build has " + fresh.cost_model);
  for (const auto& [id, b] : fresh.tasks) {
    auto it = committed.tasks.find(id);
    if (it == committed.tasks.end()) {
      out.push_back(id + ": no baseline recorded");
      continue;
    }
    const Baseline& c = it->second;
    if (b.latency_ns.has_value() != c.latency_ns.has_value()) {
      out.push_back(id + ": " + (b.latency_ns ? "now estimates, file records error '" + c.error + "'"
                                              : "file records a latency, now fails: " + b.error));
    } else if (b.latency_ns && std::abs(*b.latency_ns - *c.latency_ns) > rel_tol * *b.latency_ns) {
      char buf[160];
      std::snprintf(buf, sizeof buf, ": latency %.7g ns in the file, %.7g ns now", *c.latency_ns, *b.latency_ns);
      out.push_back(id + buf);
    }
  }
  for (const auto& [id, c] : committed.tasks)
    if (!fresh.tasks.count(id)) out.push_back(id + ": recorded but not a task of this set");
  return out;
}

BaselineLookup::BaselineLookup(const std::string& tasks_root, nki::Target target, bool current_dialect) {
  const std::string path = baselines_path(tasks_root, target, current_dialect);
  std::optional<BaselineFile> f;
  try {
    f = load_baselines(tasks_root, target, current_dialect);
  } catch (const std::runtime_error& e) {
    problem_ = e.what();
    return;
  }
  if (!f) {
    problem_ = "no " + path + " (run nkiagent tasks baselines)";
    return;
  }
  std::string current = cost_model_id(target);
  if (f->cost_model != current) {
    problem_ = path + " came from cost model " + f->cost_model + ", this build is " + current +
               " (run nkiagent tasks baselines)";
    return;
  }
  for (const auto& [id, b] : f->tasks)
    if (b.latency_ns) latency_[id] = *b.latency_ns;
}

std::optional<double> BaselineLookup::latency_ns(const std::string& task_id) const {
  auto it = latency_.find(task_id);
  if (it == latency_.end()) return std::nullopt;
  return it->second;
}

}  // namespace nki::toolchain
