// Combines the databases of shard runs (--shard I/N, e.g. one per Slurm array task) into one run.
#pragma once

#include <string>
#include <vector>

namespace nki::eval {

struct MergeOptions {
  bool keep_first = false;  // on a duplicate episode keep the first input's copy instead of failing
};

struct MergeSummary {
  int merged = 0;               // finished episodes written to the output
  int duplicates_skipped = 0;   // only with keep_first
  int unfinished_skipped = 0;   // 'started' rows in the inputs (their shard needs a resume)
  int expected = 0;             // episodes the (unsharded) config asks for
  std::vector<std::string> warnings;  // missing shards, incomplete coverage
};

// Throws std::runtime_error when an input is missing or unreadable, ConfigMismatch when the
// inputs (or an existing output) disagree on anything but the shard, and std::runtime_error
// naming both inputs when an episode appears twice (unless keep_first).
// Transcript and kernel paths are rewritten relative to `out_dir`; the files are not copied.
MergeSummary merge_runs(const std::string& out_dir, const std::vector<std::string>& inputs,
                        const MergeOptions& options = {});

}  // namespace nki::eval
