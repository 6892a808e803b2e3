#include "eval/merge.h"

#include <filesystem>
#include <map>
#include <set>

#include "eval/metrics.h"
#include "eval/results_db.h"

namespace nki::eval {

namespace fs = std::filesystem;

namespace {

struct Input {
  std::string dir;
  RunConfig config;
  std::vector<StoredEpisode> episodes;
};

Input read_input(const std::string& dir) {
  std::string path = results_db_path(dir);
  if (!fs::exists(path)) throw std::runtime_error("merge: no results database at " + path);
  ResultsDb db(path, OpenMode::ReadOnly);  // inputs may be read-only: nothing is written next to them
  auto config = db.stored_config();
  if (!config) throw std::runtime_error("merge: " + path + " has no run configuration");
  return {dir, *config, db.load_episodes(/*with_turns=*/true)};
}

std::string rebase(const std::string& path, const fs::path& from_dir, const fs::path& to_dir) {
  if (path.empty()) return path;
  fs::path p(path);
  if (p.is_relative()) p = from_dir / p;
  return p.lexically_normal().lexically_relative(to_dir).string();
}

void check_shard_coverage(const std::vector<Input>& inputs, MergeSummary& summary) {
  std::map<int, std::set<int>> seen;  // shard count -> indices present
  for (const auto& in : inputs) seen[in.config.shard.count].insert(in.config.shard.index);
  for (const auto& [count, indices] : seen) {
    if (count == 1) continue;
    for (int i = 0; i < count; ++i)
      if (!indices.count(i))
        summary.warnings.push_back("shard " + std::to_string(i) + "/" + std::to_string(count) +
                                   " is not among the inputs");
  }
}

}  // namespace

MergeSummary merge_runs(const std::string& out_dir, const std::vector<std::string>& input_dirs,
                        const MergeOptions& options) {
  if (input_dirs.empty()) throw std::runtime_error("merge: no input run directories");
  std::vector<Input> inputs;
  for (const auto& dir : input_dirs) inputs.push_back(read_input(dir));

  const RunConfig& first = inputs.front().config;
  for (size_t i = 1; i < inputs.size(); ++i) {
    std::string diff = describe_config_difference(first, inputs[i].config, /*ignore_shard=*/true);
    if (!diff.empty())
      throw ConfigMismatch("merge: " + inputs[i].dir + " was run with a different configuration than " +
                           inputs.front().dir + " (" + diff + ")");
  }

  MergeSummary summary;
  check_shard_coverage(inputs, summary);
  RunConfig merged_config = first;
  merged_config.shard = ShardSpec{};
  summary.expected = merged_config.task_count * merged_config.samples;

  fs::path out = fs::absolute(out_dir).lexically_normal();
  fs::create_directories(out);
  ResultsDb db(results_db_path(out.string()));
  db.init_run(merged_config);

  // Where each episode came from, to name both sides of a duplicate. The output's own
  // episodes count too, so merging the same shard twice into one output is caught.
  std::map<EpisodeKey, std::string> origin;
  for (const auto& key : db.finished_keys()) origin[key] = out.string() + " (already merged)";

  for (const auto& in : inputs) {
    fs::path in_dir = fs::absolute(in.dir).lexically_normal();
    for (const auto& e : in.episodes) {
      if (!e.finished) {
        ++summary.unfinished_skipped;
        continue;
      }
      EpisodeKey key{e.task.id, e.sample};
      auto [it, inserted] = origin.try_emplace(key, in.dir);
      if (!inserted) {
        if (options.keep_first) {
          ++summary.duplicates_skipped;
          continue;
        }
        throw std::runtime_error("merge: episode " + e.task.id + " sample " + std::to_string(e.sample) +
                                 " is in both " + it->second + " and " + in.dir +
                                 " (pass --keep-first to keep the first copy)");
      }
      EpisodeOutcome o = e.outcome;
      o.transcript_path = rebase(o.transcript_path, in_dir, out);
      o.final_kernel_path = rebase(o.final_kernel_path, in_dir, out);
      db.record_finished(e.task, e.sample, e.model.empty() ? first.model : e.model, o);
      ++summary.merged;
    }
  }
  int have = static_cast<int>(db.finished_keys().size());
  if (have < summary.expected)
    summary.warnings.push_back("the merged run has " + std::to_string(have) + " of " +
                               std::to_string(summary.expected) + " episodes");
  return summary;
}

}  // namespace nki::eval
