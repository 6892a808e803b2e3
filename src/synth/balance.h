// Balancing the accepted pool to exactly --target tasks (docs/synthesis.md, "Balance").
//   1. Levels get equal seats; a level with fewer accepted tasks than its share keeps them all
//      and its unused seats go to the other levels (water-filling), so the result is exactly
//      the target whenever the pool is large enough.
//   2. Within a level the same water-filling over (category, dtype) strata.
//   3. Within a stratum tasks are taken round-robin over families (seed + patterns), each
//      family's tasks and the families themselves in an order fixed by hash(seed, id), so
//      variants of one op come last.
//   4. Optionally, within each stratum the seats are split between tasks tagged "awkward" and
//      the others so that the awkward share of the selection follows `awkward_share` (the
//      benchmark's, issue 13 point d); the rounding error is carried from stratum to stratum so
//      the overall share is met, and a side without enough tasks gives its seats to the other.
// Ties (seats left after the equal split) go to the buckets with the most tasks, then by key.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace nki::synth {

struct PoolEntry {
  std::string id;
  int level = 1;
  std::string category, dtype, family;
  bool awkward = false;  // tagged "awkward" (docs/synthesis.md, "Expansion")
};

// Seats per bucket: sum = min(target, sum of capacities), each <= its capacity.
std::map<std::string, int64_t> water_fill(const std::map<std::string, int64_t>& capacity, int64_t target);

// Ids of the selected entries, sorted. Fewer than `target` only when the pool is smaller.
// awkward_share < 0: no awkward/nice split.
std::vector<std::string> balance(const std::vector<PoolEntry>& pool, int64_t target, uint64_t seed,
                                 double awkward_share = -1.0);

}  // namespace nki::synth
