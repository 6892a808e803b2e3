#include "serve/golden_store.h"

namespace nki::serve {

namespace {

int64_t size_of(const GoldenTrial& g) {
  int64_t n = 0;
  for (const HostTensor& t : g.args) n += static_cast<int64_t>(t.data.size());
  for (const HostTensor& t : g.expected) n += static_cast<int64_t>(t.data.size());
  return n;
}

}  // namespace

std::vector<std::shared_ptr<const GoldenTrial>> GoldenStore::get(const TaskSpec& task, const std::vector<int>& trials) {
  std::vector<std::shared_ptr<const GoldenTrial>> out(trials.size());
  std::vector<int> missing;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (size_t i = 0; i < trials.size(); ++i) {
      auto it = entries_.find({task.id, trials[i]});
      if (it == entries_.end()) {
        missing.push_back(trials[i]);
        continue;
      }
      lru_.splice(lru_.begin(), lru_, it->second.lru);
      out[i] = it->second.data;
    }
  }
  if (missing.empty()) return out;
  // Outside the lock: generation can take seconds. Two requests missing the same trial both
  // load it; the second insert replaces the first (same content).
  prefetch_golden(task, missing, find_torch_python());
  for (size_t i = 0; i < trials.size(); ++i) {
    if (out[i]) continue;
    auto g = std::make_shared<const GoldenTrial>(load_golden(task, trials[i]));
    out[i] = g;
    std::lock_guard<std::mutex> lock(mutex_);
    insert({task.id, trials[i]}, std::move(g));
  }
  return out;
}

void GoldenStore::insert(const Key& k, std::shared_ptr<const GoldenTrial> g) {
  auto old = entries_.find(k);
  if (old != entries_.end()) {
    bytes_ -= old->second.bytes;
    lru_.erase(old->second.lru);
    entries_.erase(old);
  }
  int64_t n = size_of(*g);
  if (n > max_bytes_) return;  // larger than the whole store: served, never kept
  lru_.push_front(k);
  entries_[k] = Entry{std::move(g), n, lru_.begin()};
  bytes_ += n;
  while (bytes_ > max_bytes_ && !lru_.empty()) {
    auto victim = entries_.find(lru_.back());
    bytes_ -= victim->second.bytes;
    entries_.erase(victim);
    lru_.pop_back();
  }
}

int64_t GoldenStore::bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return bytes_;
}

size_t GoldenStore::entries() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.size();
}

}  // namespace nki::serve
