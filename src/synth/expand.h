// Expansion: seeds x variants x dtypes x fusion chains -> candidate tasks, under the level rules
// (docs/synthesis.md): L1 one operator (a level-1 seed alone); L2 a chain (a level-1 seed with 1-3
// prologue/epilogue patterns, or a native level-2 seed with at most one epilogue) with at most
// one contraction and one reduction in total; L3 a block seed, alone or with one elementwise
// epilogue.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "synth/candidate.h"

namespace nki::synth {

struct ExpandOptions {
  uint64_t seed = 1;        // --seed: every draw derives from it
  int64_t candidates = 0;   // how many candidates to draw (spread over the three levels)
};

struct ExpandResult {
  std::vector<Candidate> candidates;   // sorted by id; ids are unique
  int64_t l1_space = 0;                // every level-1 (seed, variant, dtype) combination
  int64_t rule_rejections = 0;         // draws that broke a level rule and were redrawn
  int64_t render_failures = 0;         // draws whose shapes could not be rendered (bad extent)
  std::map<std::string, int64_t> render_failures_by_seed;
};

// Deterministic in (set, options): the same candidates, ids and bytes every time.
ExpandResult expand(const SeedSet& set, const ExpandOptions& options);

// Whether a chain of patterns may follow `seed` under the level rules.
bool chain_allowed(const Seed& seed, const std::vector<const Pattern*>& chain);

}  // namespace nki::synth
