#include "eval/runner.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <random>
#include <thread>
#include <vector>

#include "eval/progress.h"
#include "eval/results_db.h"
#include "eval/task_list.h"

namespace nki::eval {

namespace fs = std::filesystem;

std::string safe_file_name(const std::string& id) {
  std::string out = id;
  for (char& c : out) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
              c == '_' || c == '-';
    if (!ok) c = '_';
  }
  if (out.empty() || out == "." || out == "..") out = "_" + out;
  return out;
}

namespace {

// Paths inside the run directory are stored relative to it, so a run directory can be moved
// or copied (e.g. off a cluster) and its reports still link to the transcripts.
std::string relative_to(const fs::path& run_dir, const std::string& path) {
  if (path.empty()) return path;
  fs::path p = fs::path(path).lexically_normal();
  fs::path rel = p.lexically_relative(run_dir);
  if (rel.empty() || *rel.begin() == "..") return path;
  return rel.string();
}

// Holds an exclusive flock on RUN_DIR/bench.lock for the lifetime of a bench, so two processes
// never run the same episodes into one directory. The kernel drops the lock when the holder
// dies, so a killed run never leaves a stale lock behind.
class RunDirLock {
 public:
  explicit RunDirLock(const fs::path& run_dir) {
    std::string path = (run_dir / "bench.lock").string();
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) throw std::runtime_error("cannot create " + path);
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      ::close(fd_);
      throw std::runtime_error("another bench is running in " + run_dir.string() +
                               " (it holds bench.lock); wait for it or use another --run-dir");
    }
  }
  ~RunDirLock() { ::close(fd_); }
  RunDirLock(const RunDirLock&) = delete;
  RunDirLock& operator=(const RunDirLock&) = delete;

 private:
  int fd_ = -1;
};

// Makes the redundant fields of an outcome agree with its verdict, so the metrics never see a
// "pass" without a pass turn or a tolerance pass on a failed episode.
void normalise(EpisodeOutcome& o) {
  o.tolerance_pass = o.verdict.passed();
  if (!o.verdict.passed()) o.pass_turn.reset();
  else if (!o.pass_turn) o.pass_turn = std::max(1, o.turns_used);
  if (o.verdict.kind != VerdictKind::CompileError) o.verdict.code.clear();
}

EpisodeRequest make_request(const RunConfig& c, const fs::path& run_dir, const WorkItem& item) {
  std::string sample_name = "s" + std::to_string(item.sample);
  std::string task_dir = safe_file_name(item.task.id);
  EpisodeRequest r;
  r.task_id = item.task.id;
  r.level = item.task.level;
  r.sample = item.sample;
  r.mode = c.mode;
  r.model = c.model;
  r.max_turns = c.max_turns;
  r.transcript_path = (run_dir / "transcripts" / task_dir / (sample_name + ".jsonl")).string();
  r.work_dir = (run_dir / "work" / task_dir / sample_name).string();
  r.held_out_secret = c.held_out_secret;
  return r;
}

}  // namespace

BenchSummary run_bench(BenchOptions options, const EpisodeFn& fn) {
  auto tasks = load_subset(options.tasks_dir, options.config.subset);
  RunConfig& config = options.config;
  config.task_list_fingerprint = fingerprint(tasks);
  config.task_count = static_cast<int>(tasks.size());

  fs::path run_dir = fs::absolute(options.run_dir).lexically_normal();
  fs::create_directories(run_dir);
  RunDirLock lock(run_dir);
  ResultsDb db(results_db_path(run_dir.string()));
  if (config.held_out_secret == 0) {
    std::random_device rd;
    config.held_out_secret = ((static_cast<uint64_t>(rd()) << 32) ^ rd()) & 0x7fffffffffffffffULL;  // 63 bits
  }
  db.init_run(config);
  // A resumed run keeps the secret it started with, so its verdicts stay comparable.
  if (auto stored = db.stored_config()) config.held_out_secret = stored->held_out_secret;

  auto items = expand_work(tasks, config.samples, config.shard);
  auto finished = db.finished_keys();
  BenchSummary summary;
  summary.total = static_cast<int>(items.size());
  summary.restarted = db.count_interrupted();

  Progress progress(options.progress, options.progress_tty, summary.total);
  for (const auto& e : db.load_episodes()) {
    if (!e.finished) continue;
    if (options.retry_api_errors && e.outcome.verdict.kind == VerdictKind::ApiError) {
      finished.erase({e.task.id, e.sample});
      ++summary.retried_api_errors;
      continue;
    }
    progress.add_previous(e.outcome);
  }

  std::vector<WorkItem> pending;
  for (const auto& item : items) {
    if (finished.count({item.task.id, item.sample})) ++summary.already_finished;
    else pending.push_back(item);
  }

  std::atomic<size_t> next{0};
  std::atomic<int> ran{0}, crashed{0}, not_started{0};
  auto worker = [&] {
    for (size_t i = next++; i < pending.size(); i = next++) {
      if (options.stop && options.stop->load()) {
        ++not_started;
        continue;
      }
      const WorkItem& item = pending[i];
      std::string what = item.task.id + "#" + std::to_string(item.sample);
      try {
        EpisodeRequest req = make_request(config, run_dir, item);
        fs::create_directories(fs::path(req.transcript_path).parent_path());
        fs::create_directories(req.work_dir);
        db.mark_started(item.task, item.sample);
        auto t0 = std::chrono::steady_clock::now();
        EpisodeOutcome out = fn(req);
        normalise(out);
        if (out.wall_seconds <= 0)
          out.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (out.transcript_path.empty()) out.transcript_path = req.transcript_path;
        out.transcript_path = relative_to(run_dir, out.transcript_path);
        out.final_kernel_path = relative_to(run_dir, out.final_kernel_path);
        db.record_finished(item.task, item.sample, config.model, out);
        ++ran;
        progress.episode_finished(out, what);
      } catch (const std::exception& e) {
        ++crashed;
        progress.episode_crashed(what, e.what());
      } catch (...) {
        ++crashed;
        progress.episode_crashed(what, "unknown exception");
      }
    }
  };
  int jobs = std::max(1, std::min<int>(options.jobs, static_cast<int>(pending.size())));
  std::vector<std::thread> threads;
  for (int j = 0; j < jobs; ++j) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  progress.finish();

  summary.ran = ran;
  summary.crashed = crashed;
  summary.not_started = not_started;
  for (const auto& e : db.load_episodes()) {
    if (!e.finished) continue;
    ++summary.finished_total;
    if (e.outcome.verdict.passed()) ++summary.passed_total;
  }
  return summary;
}

}  // namespace nki::eval
