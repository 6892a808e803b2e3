#include "synth/pipeline.h"

#include <signal.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "base/diagnostic.h"
#include "synth/balance.h"
#include "synth/decontaminate.h"
#include "synth/expand.h"
#include "synth/funnel.h"
#include "synth/journal.h"
#include "synth/python_worker.h"
#include "task/golden_cache.h"
#include "task/python_env.h"
#include "task/sha256.h"
#include "task/task_spec.h"

namespace nki::synth {

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

namespace {

void write_file_atomically(const std::string& path, const std::string& text) {
  std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) throw IoError("cannot write " + tmp);
  }
  fs::rename(tmp, path);
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError("cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string duration_text(double s) {
  char buf[32];
  long t = static_cast<long>(s + 0.5);
  std::snprintf(buf, sizeof buf, "%ldm%02lds", t / 60, t % 60);
  return buf;
}

// Per-candidate record of the run, in id order.
struct Record {
  const Candidate* c;
  std::string verdict;          // "ok" or the reason that removed it
  Contamination contamination;
  Verdict worker;               // set when the worker evaluated it
  bool evaluated = false;
};

bool tagged_awkward(const std::vector<std::string>& tags) {
  return std::find(tags.begin(), tags.end(), "awkward") != tags.end();
}

// The awkward share of the benchmark tasks, which the balance follows (issue 13 point d).
double awkward_share_of(const std::string& tasks_root) {
  int64_t all = 0, awkward = 0;
  for (const auto& e : fs::directory_iterator(tasks_root)) {
    if (!e.is_directory() || !fs::exists(e.path() / "task.json")) continue;
    ++all;
    awkward += tagged_awkward(load_task(e.path().string()).tags);
  }
  return all ? static_cast<double>(awkward) / static_cast<double>(all) : -1.0;
}

}  // namespace

SynthSummary run_synth(const SynthOptions& o) {
  auto t0 = std::chrono::steady_clock::now();
  signal(SIGPIPE, SIG_IGN);  // a dead worker must not kill us through its pipe
  SeedSet set = load_seed_set(o.seeds_dir);
  int64_t draw = o.candidates > 0 ? o.candidates : (o.target * 5 + 1) / 2;
  ExpandResult ex = expand(set, ExpandOptions{o.seed, draw});
  Decontaminator decon(o.benchmark_tasks);
  fs::create_directories(o.out_dir);

  // Static filters, in id order (the first reason that applies removes the candidate).
  std::vector<Record> records;
  std::set<std::string> graphs;
  std::map<std::string, int64_t> flags;
  for (const Candidate& c : ex.candidates) {
    Record r{&c, "ok", decon.check(c), {}, false};
    if (r.contamination.family_shape) ++flags["contaminated_family_shape"];
    if (r.contamination.ngram()) ++flags["contaminated_ngram"];
    if (c.max_tensor_elements > kMaxTensorElements) r.verdict = "budget_elements";
    else if (c.macs > kMaxMacs) r.verdict = "budget_macs";
    else if (!graphs.insert(c.graph_hash).second) r.verdict = "duplicate";
    else if (r.contamination.family_shape) r.verdict = "contaminated_family_shape";
    else if (r.contamination.ngram()) r.verdict = "contaminated_ngram";
    records.push_back(r);
  }

  // Worker evaluation of the survivors; verdicts from the journal are reused while the
  // candidate's content and the checking code (worker + golden.py) are unchanged.
  const std::string python = find_torch_python().path, script = synth_worker_path(), golden = golden_script_path();
  const std::string tools_hash = sha256_hex(read_text(script) + "\n" + read_text(golden));
  auto journal_key = [&](const Candidate& c) { return sha256_hex(c.content_key + tools_hash); };
  Journal journal(o.out_dir + "/journal.jsonl");
  std::map<std::string, std::pair<std::string, Verdict>> known = journal.entries();
  std::vector<Record*> todo;
  SynthSummary sum;
  sum.drawn = static_cast<int64_t>(records.size());
  for (Record& r : records) {
    if (r.verdict != "ok") continue;
    auto it = known.find(r.c->id);
    if (it != known.end() && it->second.first == journal_key(*r.c)) {
      r.worker = it->second.second;
      r.evaluated = true;
      ++sum.from_journal;
    } else {
      todo.push_back(&r);
    }
  }
  std::atomic<size_t> next{0};
  std::atomic<int64_t> done{0}, accepted_now{0};
  std::atomic<bool> stop{false};
  std::mutex progress_mu;
  auto last_print = std::chrono::steady_clock::now() - std::chrono::seconds(10);
  std::optional<std::chrono::steady_clock::time_point> first_answer;
  std::exception_ptr failure;
  std::mutex failure_mu;
  auto progress = [&](bool final_line) {
    if (!o.progress) return;
    std::lock_guard<std::mutex> lock(progress_mu);
    auto now = std::chrono::steady_clock::now();
    if (!final_line && now - last_print < std::chrono::seconds(1)) return;
    last_print = now;
    double el = std::chrono::duration<double>(now - t0).count();
    int64_t d = done.load();
    // The rate counts from the first answer, so the workers' torch start-up does not inflate
    // the ETA of the remaining candidates.
    if (d > 0 && !first_answer) first_answer = now;
    double since = first_answer ? std::chrono::duration<double>(now - *first_answer).count() : 0.0;
    double rate = since > 0 && d > 1 ? static_cast<double>(d - 1) / since : 0.0;
    double eta = rate > 0 ? static_cast<double>(static_cast<int64_t>(todo.size()) - d) / rate : 0.0;
    std::fprintf(stderr, "\rsynth: %lld/%zu evaluated (+%lld from the journal), %lld ok, %.1f/s, elapsed %s, ETA %s   %s",
                 static_cast<long long>(d), todo.size(), static_cast<long long>(sum.from_journal),
                 static_cast<long long>(accepted_now.load()), rate, duration_text(el).c_str(), duration_text(eta).c_str(),
                 final_line ? "\n" : "");
    std::fflush(stderr);
  };
  auto work = [&](int job) {
    try {
      PythonWorker worker(python, script, golden, o.out_dir + "/worker-" + std::to_string(job) + ".log");
      for (;;) {
        if (stop.load()) return;
        size_t i = next.fetch_add(1);
        if (i >= todo.size()) return;
        if (o.stop_after >= 0 && static_cast<int64_t>(i) >= o.stop_after) {
          stop = true;
          return;
        }
        Record& r = *todo[i];
        std::string req = "{\"id\":" + nlohmann::json(r.c->id).dump() + ",\"task\":" + r.c->manifest_json +
                          ",\"source\":" + nlohmann::json(r.c->reference_py).dump() + "}";
        std::string answer = worker.evaluate(r.c->id, req, o.worker_timeout);
        Verdict v;
        try {
          nlohmann::json a = nlohmann::json::parse(answer);
          v.verdict = a.at("verdict").get<std::string>();
          v.detail = a.value("detail", "");
          v.cpu_ms = a.value("cpu_ms", 0.0);
          v.tolerance_json = a.contains("tolerance") ? a["tolerance"].dump() : "null";
        } catch (const std::exception&) {
          v.verdict = "worker_crash";
          v.detail = "unreadable answer";
        }
        journal.append(r.c->id, journal_key(*r.c), v);
        r.worker = v;
        r.evaluated = true;
        ++done;
        if (v.verdict == "ok") ++accepted_now;
        progress(false);
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(failure_mu);
      if (!failure) failure = std::current_exception();
      stop = true;
    }
  };
  std::vector<std::thread> threads;
  int jobs = std::max(1, std::min<int>(o.jobs, static_cast<int>(std::max<size_t>(todo.size(), 1))));
  if (!todo.empty())
    for (int j = 0; j < jobs; ++j) threads.emplace_back(work, j);
  for (std::thread& t : threads) t.join();
  if (!todo.empty()) progress(true);
  if (failure) std::rethrow_exception(failure);
  sum.evaluated_now = done.load();
  sum.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (stop.load() && o.stop_after >= 0) return sum;  // interrupted on purpose (tests)

  // Verdicts and the balanced selection.
  std::vector<PoolEntry> pool;
  for (Record& r : records) {
    if (r.verdict == "ok") r.verdict = r.worker.verdict;
    if (r.verdict == "ok")
      pool.push_back(PoolEntry{r.c->id, r.c->level, r.c->category, r.c->dtype, r.c->family, tagged_awkward(r.c->tags)});
  }
  sum.accepted = static_cast<int64_t>(pool.size());
  const double awkward_share = awkward_share_of(o.benchmark_tasks);
  std::vector<std::string> chosen = balance(pool, o.target, o.seed, awkward_share);
  std::set<std::string> selected(chosen.begin(), chosen.end());
  sum.selected = static_cast<int64_t>(selected.size());

  // Outputs: tasks/ (replaced as a whole), manifest.jsonl, funnel.json, funnel.md.
  const std::string tasks_dir = o.out_dir + "/tasks", staging = o.out_dir + "/tasks.partial";
  fs::remove_all(staging);
  fs::create_directories(staging);
  std::string manifest;
  std::vector<const Record*> chosen_records;
  for (const Record& r : records) {
    if (!selected.count(r.c->id)) continue;
    chosen_records.push_back(&r);
    const Candidate& c = *r.c;
    fs::create_directories(staging + "/" + c.id);
    write_file_atomically(staging + "/" + c.id + "/task.json", final_manifest_text(c.manifest_json, r.worker.tolerance_json));
    write_file_atomically(staging + "/" + c.id + "/reference.py", c.reference_py);
    std::set<std::string> dts(c.arg_dtypes.begin(), c.arg_dtypes.end());
    dts.insert(c.output_dtypes.begin(), c.output_dtypes.end());
    ojson line;
    line["id"] = c.id;
    line["seed"] = c.seed->name;
    line["pattern"] = c.pattern;
    line["level"] = c.level;
    line["category"] = c.category;
    line["dtypes"] = std::vector<std::string>(dts.begin(), dts.end());
    line["shapes"] = {{"args", c.arg_shapes}, {"outputs", c.output_shapes}};
    line["provenance"] = c.seed->provenance;
    line["family"] = c.family;
    line["max_jaccard"] = std::round(r.contamination.max_jaccard * 1000.0) / 1000.0;
    line["nearest_benchmark"] = r.contamination.nearest_task;
    manifest += line.dump() + "\n";
  }
  fs::remove_all(tasks_dir);
  fs::rename(staging, tasks_dir);
  write_file_atomically(o.out_dir + "/manifest.jsonl", manifest);

  FunnelInput fi;
  fi.set = &set;
  fi.expand = &ex;
  fi.options_seed = o.seed;
  fi.target = o.target;
  fi.benchmark_tasks = decon.size();
  fi.benchmark_awkward_share = awkward_share;
  fi.flags = flags;
  for (const Record& r : records) fi.rows.push_back(FunnelRow{r.c, r.verdict, r.evaluated, selected.count(r.c->id) > 0,
                                                              r.contamination.max_jaccard, r.worker.tolerance_json != "null"});
  ojson funnel = funnel_json(fi);
  write_file_atomically(o.out_dir + "/funnel.json", funnel.dump(1) + "\n");
  write_file_atomically(o.out_dir + "/funnel.md", funnel_markdown(funnel));
  sum.complete = true;
  sum.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return sum;
}

}  // namespace nki::synth
