// Decontamination against the benchmark (issue 13: the 250 benchmark tasks are held out).
// Two independent tests, both reported: (1) same family and same kernel-argument shapes as a
// benchmark task (the family of a candidate is its seed name or one of the seed's aliases, for
// unfused candidates); (2) token 5-gram Jaccard similarity of the references' computation >= 0.6
// (the shared rule of task/ngram_similarity.h, also used by the train layer's validator).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "synth/candidate.h"
#include "task/ngram_similarity.h"

namespace nki::synth {

inline constexpr double kJaccardThreshold = kNearDuplicateJaccard;

struct BenchmarkTask {
  std::string id, family;
  std::vector<std::vector<int64_t>> arg_shapes;
  NgramSet grams;  // reference_ngrams(reference.py)
};

struct Contamination {
  bool family_shape = false;
  std::string family_shape_task;  // the benchmark task it matches
  double max_jaccard = 0.0;
  std::string nearest_task;       // benchmark task with the largest Jaccard
  bool ngram() const { return max_jaccard >= kJaccardThreshold; }
};

class Decontaminator {
 public:
  // Reads every tasks/<id>/ (task.json + reference.py) under `tasks_root`.
  explicit Decontaminator(const std::string& tasks_root);
  explicit Decontaminator(std::vector<BenchmarkTask> tasks) : tasks_(std::move(tasks)) {}
  Contamination check(const Candidate& c) const;
  size_t size() const { return tasks_.size(); }

 private:
  std::vector<BenchmarkTask> tasks_;
};

}  // namespace nki::synth
