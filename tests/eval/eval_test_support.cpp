#include "eval_test_support.h"

#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace nki::eval::testing {

namespace fs = std::filesystem;

std::string make_temp_dir(const std::string& tag) {
  static std::atomic<int> counter{0};
  fs::path dir = fs::temp_directory_path() /
                 ("nki_eval_" + tag + "_" + std::to_string(getpid()) + "_" + std::to_string(counter++));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

std::vector<std::string> write_fake_tasks(const std::string& tasks_dir, int per_level, const std::string& subset) {
  std::vector<std::string> ids;
  fs::create_directories(fs::path(tasks_dir) / "subsets");
  std::ofstream list(fs::path(tasks_dir) / "subsets" / (subset + ".txt"));
  list << "# fake subset for tests\n";
  for (int level = 1; level <= 3; ++level) {
    for (int i = 0; i < per_level; ++i) {
      std::string id = "l" + std::to_string(level) + "_t" + std::to_string(i);
      fs::create_directories(fs::path(tasks_dir) / id);
      std::ofstream(fs::path(tasks_dir) / id / "task.json")
          << "{\"id\": \"" << id << "\", \"level\": " << level << ", \"category\": \"fake\"}\n";
      list << id << "\n";
      ids.push_back(id);
    }
  }
  return ids;
}

EpisodeOutcome fake_outcome(const EpisodeRequest& req, int pass_bias) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : req.task_id + "#" + std::to_string(req.sample) + "#" + mode_name(req.mode))
    h = (h ^ c) * 1099511628211ull;
  h ^= h >> 29;
  EpisodeOutcome o;
  bool pass = static_cast<int>(h % 10) + pass_bias >= 5;
  int turns = 1 + static_cast<int>((h >> 8) % static_cast<std::uint64_t>(req.max_turns));
  if (pass) {
    o.verdict = Verdict::pass();
    o.pass_turn = turns;
    o.tolerance_pass = true;
    o.strict_pass = (h >> 16) % 4 != 0;
  } else {
    static const VerdictKind kinds[] = {VerdictKind::CompileError, VerdictKind::RuntimeError,
                                        VerdictKind::Mismatch,     VerdictKind::NoCode,
                                        VerdictKind::ApiError,     VerdictKind::BudgetExhausted};
    VerdictKind k = kinds[(h >> 20) % 6];
    o.verdict = k == VerdictKind::CompileError ? Verdict::compile_error("err_fake_" + std::to_string((h >> 24) % 3))
                                               : Verdict::of(k);
    if (k == VerdictKind::BudgetExhausted) turns = req.max_turns;
  }
  o.turns_used = turns;
  for (int t = 1; t <= turns; ++t) {
    TurnRecord r;
    r.turn = t;
    r.action = t == turns ? "verify" : "compile";
    r.result = t == turns ? verdict_kind_name(o.verdict.kind) : "compile_error";
    r.tokens_in = 1000 + static_cast<std::int64_t>((h >> 32) % 500);
    r.tokens_out = 100 + static_cast<std::int64_t>((h >> 40) % 100);
    r.tokens_cached = r.tokens_in / 2;
    r.cost_usd = r.tokens_in * 3e-6 + r.tokens_out * 15e-6;
    r.wall_seconds = 0.5;
    o.tokens_in += r.tokens_in;
    o.tokens_out += r.tokens_out;
    o.tokens_cached += r.tokens_cached;
    o.cost_usd += r.cost_usd;
    o.turns.push_back(r);
  }
  o.wall_seconds = 0.5 * turns;
  o.transcript_path = req.transcript_path;
  if (o.verdict.kind != VerdictKind::NoCode) o.final_kernel_path = req.work_dir + "/kernel.py";
  return o;
}

BenchOptions quiet_options(const std::string& tasks_dir, const std::string& run_dir, const std::string& subset) {
  BenchOptions o;
  o.config.model = "fake-model";
  o.config.mode = Mode::Agent;
  o.config.subset = subset;
  o.tasks_dir = tasks_dir;
  o.run_dir = run_dir;
  static std::FILE* devnull = std::fopen("/dev/null", "w");
  o.progress = devnull;
  return o;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace nki::eval::testing
