// Decontamination against the benchmark: a training record must not teach a benchmark task.
// The rule (shared with the synthesis of training tasks, which uses the same helper in
// task/ngram_similarity.h):
//   - its task is a benchmark task (same id), or has the same family and the same input shapes
//     and dtypes as one ("family+shape");
//   - or the token 5-gram Jaccard index of its kernel with a benchmark reference solution (whole
//     texts), or of the computation of its task's reference.py with that of a benchmark
//     reference.py (reference_ngrams: the boilerplate every reference shares is left out, the
//     same rule as `nkiagent synth`, docs/synthesis.md "Decontamination"), is >= 0.6.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "task/ngram_similarity.h"
#include "task/task_spec.h"

namespace nki::train {

struct BenchmarkEntry {
  std::string id;
  std::string family;
  std::string shape_key;  // input shapes and dtypes, e.g. "256x1024:float32,256x1024:float32"
  NgramSet reference_ngrams;  // of the computation (nki::reference_ngrams)
  NgramSet solution_ngrams;   // empty when there is no solution file
};

struct Contamination {
  std::string benchmark_task;
  std::string rule;  // "same_task", "family_shape", "kernel_jaccard", "reference_jaccard"
  double score = 0;  // the Jaccard index for the n-gram rules
};

class BenchmarkIndex {
 public:
  // Every task directory under `tasks_dir` (and `solutions_dir`/<id>.py when it exists).
  // Throws nki::IoError when tasks_dir is not a directory.
  static BenchmarkIndex load(const std::string& tasks_dir, const std::string& solutions_dir);
  void add(BenchmarkEntry e) { entries_.push_back(std::move(e)); }

  std::optional<Contamination> check(const TaskSpec& task, const std::string& reference_source,
                                     const std::string& kernel) const;
  size_t size() const { return entries_.size(); }

 private:
  std::vector<BenchmarkEntry> entries_;
};

std::string shape_key(const TaskSpec& task);

}  // namespace nki::train
