#include "train/decontam.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/diagnostic.h"

namespace nki::train {

namespace fs = std::filesystem;

namespace {

std::string read_file_or_empty(const fs::path& p) {
  std::ifstream in(p);
  if (!in) return {};
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

NgramSet kernel_ngrams(const std::string& text) { return token_ngrams(code_tokens(text)); }

}  // namespace

std::string shape_key(const TaskSpec& task) {
  std::string k;
  for (const TensorSpec& t : task.inputs) {
    if (!k.empty()) k += ',';
    for (size_t i = 0; i < t.shape.size(); ++i) k += (i ? "x" : "") + std::to_string(t.shape[i]);
    k += std::string(":") + dtype_name(t.dtype);
  }
  return k;
}

BenchmarkIndex BenchmarkIndex::load(const std::string& tasks_dir, const std::string& solutions_dir) {
  if (!fs::is_directory(tasks_dir)) throw IoError("benchmark tasks directory '" + tasks_dir + "' does not exist");
  BenchmarkIndex idx;
  std::vector<fs::path> dirs;
  for (const auto& e : fs::directory_iterator(tasks_dir))
    if (e.is_directory() && fs::exists(e.path() / "task.json")) dirs.push_back(e.path());
  std::sort(dirs.begin(), dirs.end());
  for (const fs::path& d : dirs) {
    TaskSpec t = load_task(d.string());
    BenchmarkEntry e;
    e.id = t.id;
    e.family = t.family;
    e.shape_key = shape_key(t);
    e.reference_ngrams = reference_ngrams(read_file_or_empty(d / "reference.py"));
    if (!solutions_dir.empty()) e.solution_ngrams = kernel_ngrams(read_file_or_empty(fs::path(solutions_dir) / (t.id + ".py")));
    idx.add(std::move(e));
  }
  return idx;
}

std::optional<Contamination> BenchmarkIndex::check(const TaskSpec& task, const std::string& reference_source,
                                                   const std::string& kernel) const {
  std::string key = shape_key(task);
  for (const BenchmarkEntry& e : entries_) {
    if (e.id == task.id) return Contamination{e.id, "same_task", 1.0};
    if (!e.family.empty() && e.family == task.family && e.shape_key == key)
      return Contamination{e.id, "family_shape", 1.0};
  }
  NgramSet k = kernel_ngrams(kernel), ref = reference_ngrams(reference_source);
  for (const BenchmarkEntry& e : entries_) {
    if (!k.empty() && !e.solution_ngrams.empty()) {
      double j = jaccard(k, e.solution_ngrams);
      if (j >= kNearDuplicateJaccard) return Contamination{e.id, "kernel_jaccard", j};
    }
    if (!ref.empty() && !e.reference_ngrams.empty()) {
      double j = jaccard(ref, e.reference_ngrams);
      if (j >= kNearDuplicateJaccard) return Contamination{e.id, "reference_jaccard", j};
    }
  }
  return std::nullopt;
}

}  // namespace nki::train
