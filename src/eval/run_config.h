// The identity of a benchmark run: everything that changes what the numbers mean.
//
// Stored in the run database; resuming with a different config into the same directory is
// refused, and merge refuses shards whose configs differ (apart from the shard itself).
// Parallelism (--jobs) is deliberately not part of it: it never changes results.
#pragma once

#include <cstdint>
#include <string>

#include "eval/episode.h"
#include "target/target.h"

namespace nki::eval {

// A deterministic slice of the work list: item j belongs to shard (j mod count) == index.
struct ShardSpec {
  int index = 0;  // 0-based, so SLURM_ARRAY_TASK_ID / JOB_COMPLETION_INDEX can be passed as-is
  int count = 1;

  bool whole() const { return count == 1; }
  bool operator==(const ShardSpec&) const = default;
};

// Parses "I/N" with 0 <= I < N; throws std::invalid_argument with a readable message.
ShardSpec parse_shard(const std::string& text);
std::string shard_text(const ShardSpec& s);  // "I/N"

struct RunConfig {
  std::string model;
  Mode mode = Mode::Agent;
  std::string subset;     // ablation60 | balanced150 | all
  int samples = 1;        // independent episodes per task
  int max_turns = 10;
  std::string tools = "compile,verify";  // the tools offered in agent and optimize mode (--tools)
  std::string target = target_name(Target::Trn1);  // --target (a target_name): NeuronCore, cost model, speed baselines
  std::string nki = "2.24";     // --nki: the episodes' dialect (prompts and every kernel check)
  std::string task_list_fingerprint;  // hash of the ordered (id, level) list the subset expanded to
  int task_count = 0;
  ShardSpec shard;
  // Seeds the held-out trials of every final verdict in this run (task/verify.h). Drawn once
  // when the run starts and kept on resume; not part of the run's identity (ignored by ==,
  // describe_config_difference and merge), never shown to a model.
  uint64_t held_out_secret = 0;

  bool operator==(const RunConfig& o) const {
    return model == o.model && mode == o.mode && subset == o.subset && samples == o.samples &&
           max_turns == o.max_turns && tools == o.tools && target == o.target && nki == o.nki && task_list_fingerprint == o.task_list_fingerprint &&
           task_count == o.task_count && shard == o.shard;
  }
};

// "mode · model", with " · NKI 0.6" and " · trn2" when the run is not in the legacy dialect on
// trn1: reports compare runs that differ only there.
std::string run_label(const RunConfig& c);

std::string config_to_json(const RunConfig& c);
RunConfig config_from_json(const std::string& json);  // throws std::runtime_error on bad input

// Human-readable list of the fields that differ ("model: a vs b; samples: 1 vs 3"); empty if
// equal. `ignore_shard` is used by merge, where shards differ by design.
std::string describe_config_difference(const RunConfig& stored, const RunConfig& wanted,
                                       bool ignore_shard = false);

}  // namespace nki::eval
