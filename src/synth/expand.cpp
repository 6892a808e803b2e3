#include "synth/expand.h"

#include <algorithm>
#include <set>

namespace nki::synth {

bool chain_allowed(const Seed& seed, const std::vector<const Pattern*>& chain) {
  int contractions = seed.contract ? 1 : 0, reductions = seed.reduce ? 1 : 0;
  for (const Pattern* p : chain) {
    contractions += p->contract ? 1 : 0;
    reductions += p->reduce ? 1 : 0;
    if (p->at == "epilogue" && !seed.fusable) return false;
  }
  if (seed.level == 1) return chain.size() <= 3 && contractions <= 1 && reductions <= 1;
  // native L2 chains and L3 blocks: at most one extra elementwise epilogue
  if (chain.size() > 1) return false;
  for (const Pattern* p : chain)
    if (p->reduce || p->contract || p->at != "epilogue") return false;
  return seed.level == 3 || (contractions <= 1 && reductions <= 1);
}

namespace {

std::string make_id(const Candidate& c) {
  std::string id = "l" + std::to_string(c.level) + "_" + c.seed->name;
  for (const Pattern* p : c.chain) id += "_" + p->name;
  return id + "_v" + std::to_string(c.variant) + "_" + dtype_short(c.dtype);
}

Candidate make(const Seed& s, std::vector<const Pattern*> chain, int variant, const std::string& dtype) {
  Candidate c;
  c.seed = &s;
  c.chain = std::move(chain);
  c.variant = variant;
  c.dtype = dtype;
  c.level = s.level == 1 && !c.chain.empty() ? 2 : s.level;
  c.category = s.category;
  c.family = s.name;
  c.pattern = c.chain.empty() ? "none" : "";
  for (size_t i = 0; i < c.chain.size(); ++i) {
    c.family += "_" + c.chain[i]->name;
    c.pattern += (i ? "+" : "") + c.chain[i]->name;
  }
  c.id = make_id(c);
  return c;
}

}  // namespace

ExpandResult expand(const SeedSet& set, const ExpandOptions& o) {
  ExpandResult r;
  std::vector<const Seed*> l1, fused_l2, l3;
  for (const Seed& s : set.seeds) (s.level == 1 ? l1 : s.level == 2 ? fused_l2 : l3).push_back(&s);
  std::vector<const Pattern*> pro, epi, epi_elementwise;
  for (const Pattern& p : set.patterns) {
    (p.at == "prologue" ? pro : epi).push_back(&p);
    if (p.at == "epilogue" && !p.reduce && !p.contract) epi_elementwise.push_back(&p);
  }
  std::set<std::string> ids;
  auto add = [&](Candidate c) {
    if (!ids.insert(c.id).second) return false;  // the same draw again: not a new candidate
    render_candidate(set, o.seed, c);
    if (!c.render_error.empty()) {
      ++r.render_failures;
      ++r.render_failures_by_seed[c.seed->name];
      return false;
    }
    r.candidates.push_back(std::move(c));
    return true;
  };

  // Quotas: a third of the draw per level; level 1 takes at most its whole space and hands the
  // rest to level 2 (the only level whose space is practically unbounded).
  int64_t total = std::max<int64_t>(o.candidates, 0);
  int64_t q3 = total / 3, q1 = total / 3;
  for (const Seed* s : l1) r.l1_space += kVariantsPerSeed * static_cast<int64_t>(s->dtypes.size());
  q1 = std::min(q1, r.l1_space);

  // Level 1: every combination, in an order fixed by the seed.
  std::vector<std::pair<uint64_t, Candidate>> all1;
  for (const Seed* s : l1)
    for (int k = 0; k < kVariantsPerSeed; ++k)
      for (const std::string& d : s->dtypes) {
        Candidate c = make(*s, {}, k, d);
        all1.emplace_back(stable_hash(std::to_string(o.seed) + "/" + c.id), std::move(c));
      }
  std::sort(all1.begin(), all1.end(), [](const auto& a, const auto& b) { return a.first != b.first ? a.first < b.first : a.second.id < b.second.id; });
  int64_t got1 = 0;
  for (auto& [h, c] : all1) {
    if (got1 >= q1) break;
    if (add(std::move(c))) ++got1;
  }

  Rng rng(stable_hash("synth-expand/" + std::to_string(o.seed)));
  auto draw_level = [&](int level, int64_t quota) {
    int64_t got = 0, attempts = 0;
    const int64_t max_attempts = 50 * quota + 1000;
    while (got < quota && attempts++ < max_attempts) {
      const Seed* s = nullptr;
      std::vector<const Pattern*> chain;
      if (level == 3) {
        if (l3.empty()) return got;
        s = l3[rng.below(l3.size())];
        if (rng.below(3) != 0 && !epi_elementwise.empty()) chain.push_back(epi_elementwise[rng.below(epi_elementwise.size())]);
      } else if (!fused_l2.empty() && (l1.empty() || rng.below(5) == 0)) {
        s = fused_l2[rng.below(fused_l2.size())];
        if (rng.below(2) == 0 && !epi_elementwise.empty()) chain.push_back(epi_elementwise[rng.below(epi_elementwise.size())]);
      } else {
        if (l1.empty()) return got;
        s = l1[rng.below(l1.size())];
        size_t len = 1 + (rng.below(20) < 10 ? 0 : rng.below(20) < 14 ? 1 : 2);
        if (!pro.empty() && rng.below(4) == 0) chain.push_back(pro[rng.below(pro.size())]);
        while (chain.size() < len && !epi.empty()) chain.push_back(epi[rng.below(epi.size())]);
      }
      int variant = static_cast<int>(rng.below(kVariantsPerSeed));
      const std::string& dtype = s->dtypes[rng.below(s->dtypes.size())];
      if (!chain_allowed(*s, chain)) {
        ++r.rule_rejections;
        continue;
      }
      if (add(make(*s, chain, variant, dtype))) ++got;
    }
    return got;
  };
  int64_t got3 = draw_level(3, q3);
  draw_level(2, total - got1 - got3);
  std::sort(r.candidates.begin(), r.candidates.end(), [](const Candidate& a, const Candidate& b) { return a.id < b.id; });
  return r;
}

}  // namespace nki::synth
