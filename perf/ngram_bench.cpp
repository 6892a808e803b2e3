// Decontamination on the real synthesis workload: the candidates `nkiagent synth --target 6000`
// draws (15,000 by default) against every benchmark reference in tasks/ (issue 13, point a).
// In one run it times the two n-gram set techniques the project had (hash sets, as src/train
// used; sorted unique vectors with a linear merge, as src/synth used) on the same token streams,
// and reports what the rule change of point b does (whole files vs the computation only), plus
// the awkward share of the drawn candidates (point d). No worker runs; a few seconds.
// Run: build/perf/ngram_bench [--candidates N] [--seed S] [--shares-only]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <unordered_set>
#include <vector>

#include "synth/expand.h"
#include "task/ngram_similarity.h"

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// The replaced technique (src/train before the merge): windows hashed into an unordered_set,
// intersection by lookups. Same FNV-1a window hash as task/ngram_similarity.cpp.
uint64_t window_hash(const std::vector<std::string>& t, size_t b, size_t e) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = b; i < e; ++i) {
    for (unsigned char c : t[i]) h = (h ^ c) * 1099511628211ull;
    h = (h ^ 0x1f) * 1099511628211ull;
  }
  return h;
}
std::unordered_set<uint64_t> hash_set_ngrams(const std::vector<std::string>& t) {
  std::unordered_set<uint64_t> out;
  if (t.empty()) return out;
  if (t.size() <= 5) return {window_hash(t, 0, t.size())};
  for (size_t i = 0; i + 5 <= t.size(); ++i) out.insert(window_hash(t, i, i + 5));
  return out;
}
double hash_set_jaccard(const std::unordered_set<uint64_t>& a, const std::unordered_set<uint64_t>& b) {
  if (a.empty() && b.empty()) return 0.0;
  const auto& small = a.size() <= b.size() ? a : b;
  const auto& large = a.size() <= b.size() ? b : a;
  size_t common = 0;
  for (uint64_t h : small) common += large.count(h);
  return static_cast<double>(common) / static_cast<double>(a.size() + b.size() - common);
}

struct Timing {
  double build = 0, compare = 0, max_j = 0;
  int64_t flagged = 0;
  std::map<int, int64_t> flagged_by_level;
};

// Builds the sets of every benchmark reference and candidate from `tokens`, compares all pairs.
template <class Set, class Build, class Jac>
Timing run(const std::vector<std::vector<std::string>>& bench, const std::vector<std::vector<std::string>>& cand,
           const std::vector<int>& level, Build build, Jac jac) {
  Timing t;
  auto t0 = Clock::now();
  std::vector<Set> b, c;
  for (const auto& x : bench) b.push_back(build(x));
  for (const auto& x : cand) c.push_back(build(x));
  t.build = since(t0);
  t0 = Clock::now();
  for (size_t i = 0; i < c.size(); ++i) {
    double m = 0;
    for (const Set& s : b) m = std::max(m, jac(c[i], s));
    if (m >= nki::kNearDuplicateJaccard) {
      ++t.flagged;
      ++t.flagged_by_level[level[i]];
    }
    t.max_j = std::max(t.max_j, m);
  }
  t.compare = since(t0);
  return t;
}

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  int64_t draw = 15000;
  uint64_t seed = 1;
  bool shares_only = false;  // --shares-only: the awkward shares, no timing
  for (int i = 1; i < argc; ++i)
    if (!std::strcmp(argv[i], "--shares-only")) shares_only = true;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--candidates")) draw = std::stoll(argv[i + 1]);
    if (!std::strcmp(argv[i], "--seed")) seed = std::stoull(argv[i + 1]);
  }
  const std::string root = NKI_SOURCE_DIR;
  auto t0 = Clock::now();
  nki::synth::SeedSet set = nki::synth::load_seed_set(root + "/synth/seeds");
  nki::synth::ExpandResult ex = nki::synth::expand(set, {seed, draw});
  std::printf("expanded %zu candidates from %zu seeds in %.2f s\n", ex.candidates.size(), set.seeds.size(), since(t0));

  std::vector<std::string> bench_src;
  for (const auto& e : fs::directory_iterator(root + "/tasks"))
    if (fs::exists(e.path() / "reference.py")) bench_src.push_back(read(e.path() / "reference.py"));
  std::vector<int> level;
  std::map<int, std::pair<int64_t, int64_t>> awkward;  // level -> (awkward, all)
  for (const auto& c : ex.candidates) {
    level.push_back(c.level);
    bool a = std::find(c.tags.begin(), c.tags.end(), "awkward") != c.tags.end();
    awkward[c.level].first += a;
    ++awkward[c.level].second;
  }
  int64_t aw = 0, all = 0;
  for (const auto& [l, p] : awkward) {
    std::printf("L%d: %lld candidates, awkward %.1f %%\n", l, static_cast<long long>(p.second), 100.0 * p.first / p.second);
    aw += p.first;
    all += p.second;
  }
  std::printf("awkward share of all candidates: %.1f %%\n", 100.0 * aw / std::max<int64_t>(all, 1));
  if (shares_only) return 0;

  for (bool computation : {false, true}) {
    t0 = Clock::now();
    std::vector<std::vector<std::string>> bt, ct;
    for (const auto& s : bench_src) bt.push_back(computation ? nki::computation_tokens(s) : nki::code_tokens(s));
    for (const auto& c : ex.candidates) ct.push_back(computation ? nki::computation_tokens(c.reference_py) : nki::code_tokens(c.reference_py));
    double tok = since(t0);
    Timing h = run<std::unordered_set<uint64_t>>(bt, ct, level, hash_set_ngrams, hash_set_jaccard);
    Timing v = run<nki::NgramSet>(bt, ct, level, [](const auto& t) { return nki::token_ngrams(t); },
                                  [](const auto& a, const auto& b) { return nki::jaccard(a, b); });
    std::printf("\n%s: %zu candidates x %zu benchmark references, tokenising %.3f s\n",
                computation ? "computation only (the rule now)" : "whole files (the rule before)", ct.size(), bt.size(), tok);
    std::printf("  hash sets      : build %.3f s, compare %.3f s, total %.3f s\n", h.build, h.compare, h.build + h.compare);
    std::printf("  sorted vectors : build %.3f s, compare %.3f s, total %.3f s\n", v.build, v.compare, v.build + v.compare);
    std::printf("  flagged (Jaccard >= 0.6): %lld (same with both techniques: %s), largest %.3f;",
                static_cast<long long>(v.flagged), h.flagged == v.flagged ? "yes" : "NO", v.max_j);
    for (const auto& [l, n] : v.flagged_by_level) std::printf(" L%d %lld", l, static_cast<long long>(n));
    std::printf("\n");
  }
  return 0;
}
