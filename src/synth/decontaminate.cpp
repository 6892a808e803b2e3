#include "synth/decontaminate.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "task/task_spec.h"

namespace nki::synth {

Decontaminator::Decontaminator(const std::string& root) {
  std::vector<std::string> ids;
  for (const auto& e : std::filesystem::directory_iterator(root))
    if (e.is_directory() && std::filesystem::exists(e.path() / "task.json")) ids.push_back(e.path().filename().string());
  std::sort(ids.begin(), ids.end());
  for (const std::string& id : ids) {
    TaskSpec t = load_task(root + "/" + id);
    BenchmarkTask b;
    b.id = t.id;
    b.family = t.family;
    for (const TensorSpec& a : t.kernel_args()) b.arg_shapes.push_back(a.shape);
    std::ifstream in(root + "/" + id + "/reference.py", std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    b.grams = reference_ngrams(ss.str());
    tasks_.push_back(std::move(b));
  }
}

Contamination Decontaminator::check(const Candidate& c) const {
  Contamination r;
  std::vector<std::string> families = {c.family};
  if (c.chain.empty()) families.insert(families.end(), c.seed->aliases.begin(), c.seed->aliases.end());
  NgramSet grams = reference_ngrams(c.reference_py);
  for (const BenchmarkTask& b : tasks_) {
    if (!r.family_shape && b.arg_shapes == c.arg_shapes &&
        std::find(families.begin(), families.end(), b.family) != families.end()) {
      r.family_shape = true;
      r.family_shape_task = b.id;
    }
    double j = jaccard(grams, b.grams);
    if (j > r.max_jaccard) {
      r.max_jaccard = j;
      r.nearest_task = b.id;
    }
  }
  return r;
}

}  // namespace nki::synth
