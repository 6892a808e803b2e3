#include "synth/balance.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "synth/candidate.h"

namespace nki::synth {

std::map<std::string, int64_t> water_fill(const std::map<std::string, int64_t>& capacity, int64_t target) {
  std::map<std::string, int64_t> seats;
  for (const auto& [k, c] : capacity) seats[k] = 0;
  int64_t left = target;
  for (;;) {
    std::vector<std::string> open;
    for (const auto& [k, c] : capacity)
      if (seats[k] < c) open.push_back(k);
    if (open.empty() || left <= 0) break;
    int64_t share = left / static_cast<int64_t>(open.size());
    if (share == 0) {
      // fewer seats than open buckets: the largest buckets (then by key) get one each
      std::stable_sort(open.begin(), open.end(), [&](const std::string& a, const std::string& b) {
        return capacity.at(a) - seats[a] > capacity.at(b) - seats[b];
      });
      for (size_t i = 0; i < open.size() && left > 0; ++i, --left) ++seats[open[i]];
      break;
    }
    for (const std::string& k : open) {
      int64_t give = std::min(share, capacity.at(k) - seats[k]);
      seats[k] += give;
      left -= give;
    }
  }
  return seats;
}

namespace {

using Hash = std::function<uint64_t(const std::string&)>;

// Appends n entries taken round-robin over families (each family's entries, and the families,
// in hash order).
void round_robin(const std::vector<const PoolEntry*>& entries, int64_t n, const Hash& hash_of, std::vector<std::string>& out) {
  std::map<std::string, std::vector<const PoolEntry*>> fam;
  for (const PoolEntry* e : entries) fam[e->family].push_back(e);
  std::vector<std::vector<const PoolEntry*>> lists;
  for (auto& [f, list] : fam) {
    std::sort(list.begin(), list.end(), [&](const PoolEntry* a, const PoolEntry* b) {
      uint64_t ha = hash_of(a->id), hb = hash_of(b->id);
      return ha != hb ? ha < hb : a->id < b->id;
    });
    lists.push_back(list);
  }
  std::sort(lists.begin(), lists.end(), [&](const auto& a, const auto& b) {
    uint64_t ha = hash_of(a[0]->family), hb = hash_of(b[0]->family);
    return ha != hb ? ha < hb : a[0]->family < b[0]->family;
  });
  int64_t taken = 0;
  for (size_t round = 0; taken < n; ++round) {
    bool any = false;
    for (const auto& list : lists) {
      if (taken >= n) break;
      if (round < list.size()) {
        out.push_back(list[round]->id);
        ++taken;
        any = true;
      }
    }
    if (!any) break;
  }
}

}  // namespace

std::vector<std::string> balance(const std::vector<PoolEntry>& pool, int64_t target, uint64_t seed, double awkward_share) {
  Hash hash_of = [&](const std::string& s) { return stable_hash(std::to_string(seed) + "/" + s); };
  std::map<std::string, std::map<std::string, std::vector<const PoolEntry*>>> by_level;  // level -> stratum -> entries
  std::map<std::string, int64_t> level_cap;
  for (const PoolEntry& e : pool) {
    std::string level = "L" + std::to_string(e.level);
    by_level[level][e.category + "/" + e.dtype].push_back(&e);
    ++level_cap[level];
  }
  std::vector<std::string> out;
  int64_t seats_done = 0, awkward_done = 0;  // over the strata so far, for the awkward split
  for (const auto& [level, seats] : water_fill(level_cap, target)) {
    std::map<std::string, int64_t> cap;
    for (const auto& [stratum, entries] : by_level[level]) cap[stratum] = static_cast<int64_t>(entries.size());
    for (const auto& [stratum, n] : water_fill(cap, seats)) {
      const std::vector<const PoolEntry*>& entries = by_level[level][stratum];
      if (awkward_share < 0) {
        round_robin(entries, n, hash_of, out);
        continue;
      }
      std::vector<const PoolEntry*> awk, nice;
      for (const PoolEntry* e : entries) (e->awkward ? awk : nice).push_back(e);
      int64_t want = std::llround(static_cast<double>(seats_done + n) * awkward_share) - awkward_done;
      int64_t a = std::clamp<int64_t>(want, 0, std::min<int64_t>(n, static_cast<int64_t>(awk.size())));
      int64_t b = std::min<int64_t>(n - a, static_cast<int64_t>(nice.size()));
      a = std::min<int64_t>(n - b, static_cast<int64_t>(awk.size()));  // the nice side ran short
      round_robin(awk, a, hash_of, out);
      round_robin(nice, b, hash_of, out);
      seats_done += a + b;
      awkward_done += a;
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace nki::synth
