// The resume journal of `export episodes` (JOURNAL.jsonl beside --out): one JSON line per
// finished task with the records it produced and its share of the funnel, appended with a
// single write(2) as soon as the task is done, so a run killed with -9 loses only the tasks in
// flight. An entry is reused only while its content key (export settings, task files,
// candidate kernels) is unchanged; a torn last line is ignored. Same design as the synth
// journal (src/synth/journal.h).
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "train/funnel.h"

namespace nki::train {

// What one task contributed: its JSONL lines (in order) and its funnel counts.
struct TaskOutcome {
  std::vector<std::string> lines;
  Funnel funnel;
};

// Adds the counts of `part` to `total` (first examples: the earlier one stays).
void merge_funnel(Funnel& total, const Funnel& part);
Funnel funnel_from_json(const nlohmann::json& j);

class EpisodeJournal {
 public:
  explicit EpisodeJournal(std::string path);
  ~EpisodeJournal();
  EpisodeJournal(const EpisodeJournal&) = delete;
  EpisodeJournal& operator=(const EpisodeJournal&) = delete;

  // The outcome recorded for task `id` under `key`, if any.
  std::optional<TaskOutcome> find(const std::string& id, const std::string& key) const;
  void append(const std::string& id, const std::string& key, const TaskOutcome& o);
  size_t size() const { return entries_.size(); }

 private:
  std::string path_;
  int fd_ = -1;
  mutable std::mutex mu_;
  std::map<std::string, std::pair<std::string, nlohmann::json>> entries_;  // id -> (key, outcome)
};

}  // namespace nki::train
