// The funnel report of a synth run (DIR/funnel.json and DIR/funnel.md): counts per stage and
// per reason code, and per level, category and dtype, like the paper's 15K -> 6K funnel.
// Only deterministic facts go in (no timings), so a re-run with the same seed writes the same
// bytes.
#pragma once

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "synth/expand.h"

namespace nki::synth {

struct FunnelRow {
  const Candidate* c;
  std::string verdict;  // "ok" or the reason that removed it
  bool evaluated;       // reached the Python worker
  bool selected;
  double max_jaccard;
  bool tolerance_tightened;
};

struct FunnelInput {
  const SeedSet* set = nullptr;
  const ExpandResult* expand = nullptr;
  uint64_t options_seed = 0;
  int64_t target = 0;
  size_t benchmark_tasks = 0;
  double benchmark_awkward_share = -1.0;  // the balance's target awkward share (< 0: none)
  std::map<std::string, int64_t> flags;  // both contamination tests over every candidate
  std::vector<FunnelRow> rows;
};

nlohmann::ordered_json funnel_json(const FunnelInput& in);
std::string funnel_markdown(const nlohmann::ordered_json& funnel);

}  // namespace nki::synth
