// Golden data of the tasks the RL server judges, kept in memory: every reward of a task reads
// the same trials, so reading and checksumming them from the on-disk cache once per reward
// (what verify does) was a large share of a reward's time. Bounded by bytes, least recently
// used first out; entries are shared and immutable, so a reader never copies or locks them.
#pragma once

#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "task/golden_cache.h"
#include "task/task_spec.h"

namespace nki::serve {

class GoldenStore {
 public:
  explicit GoldenStore(int64_t max_bytes) : max_bytes_(max_bytes) {}

  // The trials of `task`, in the order asked, generated (one golden.py run for all missing
  // ones) and loaded on a miss. Throws nki::IoError like load_golden.
  std::vector<std::shared_ptr<const GoldenTrial>> get(const TaskSpec& task, const std::vector<int>& trials);

  int64_t bytes() const;
  size_t entries() const;

 private:
  using Key = std::pair<std::string, int>;
  struct Entry {
    std::shared_ptr<const GoldenTrial> data;
    int64_t bytes = 0;
    std::list<Key>::iterator lru;
  };
  void insert(const Key& k, std::shared_ptr<const GoldenTrial> g);

  const int64_t max_bytes_;
  mutable std::mutex mutex_;
  std::map<Key, Entry> entries_;
  std::list<Key> lru_;  // front: most recently used
  int64_t bytes_ = 0;
};

}  // namespace nki::serve
