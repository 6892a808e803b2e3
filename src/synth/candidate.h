// Candidate tasks: one seed at one shape/hyper-parameter variant and one dtype, with a chain of
// fusion patterns, rendered as a normal benchmark task (task.json + reference.py, docs/tasks.md).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "synth/seed_set.h"

namespace nki::synth {

inline constexpr int kVariantsPerSeed = 5;  // shapes (and hyper-parameters) per seed
// Share of variants 2-4 drawn as awkward variants (variant 0 is nice, 1 awkward): tuned so the
// awkward share of the corpus is near the benchmark's (measured with perf/ngram_bench).
inline constexpr uint64_t kAwkwardVariantPercent = 30;

struct Candidate {
  std::string id;                       // also the task id and directory name
  const Seed* seed = nullptr;
  std::vector<const Pattern*> chain;    // applied in order (prologues on the first input)
  int variant = 0;                      // 0 .. kVariantsPerSeed-1
  std::string dtype;                    // float32 | bfloat16 | float16
  int level = 1;
  std::string category;
  std::string family;                   // seed name, plus the pattern names for a fused task
  std::string pattern;                  // "none" or the pattern names joined by '+'

  // Rendering (render_candidate).
  std::string manifest_json;            // task.json with "tolerance": null (the worker may tighten it)
  std::string reference_py;
  std::vector<std::vector<int64_t>> arg_shapes, output_shapes;  // kernel-argument order
  std::vector<std::string> arg_dtypes, output_dtypes;
  std::vector<std::string> tags;
  int64_t max_tensor_elements = 0;
  int64_t macs = 0;
  std::string graph_hash;               // canonical op graph + shapes + dtype (dedupe)
  std::string content_key;              // everything the worker's verdict depends on (journal)
  std::string render_error;             // non-empty: the variant cannot be rendered (bad extent, ...)
};

// The values a variant gives the seed's template: the chosen form, each shape symbol and each
// hyper-parameter. Deterministic in (rng_seed, seed name, variant).
struct Variant {
  size_t form = 0;
  std::map<std::string, int64_t> dims;
  std::map<std::string, std::string> hyper;
};
Variant make_variant(const SeedSet& set, const Seed& seed, int variant, uint64_t rng_seed);

// Fills the rendering fields of `c` (seed, chain, variant, dtype and level set). Sets
// c.render_error instead of throwing when the variant's shapes are invalid.
void render_candidate(const SeedSet& set, uint64_t rng_seed, Candidate& c);

// Final task.json text: the compact manifest with the worker's tolerance (JSON text or "null").
std::string final_manifest_text(const std::string& manifest_json, const std::string& tolerance_json);

// "float32" -> "fp32" (as in benchmark ids).
std::string dtype_short(const std::string& dtype);

// Stable 64-bit hash (FNV-1a) for seeding and ordering; the same on every platform.
uint64_t stable_hash(const std::string& s);

// splitmix64: a small deterministic generator (std:: distributions differ between libraries).
struct Rng {
  uint64_t state;
  explicit Rng(uint64_t s) : state(s) {}
  uint64_t next();
  size_t below(size_t n) { return n ? static_cast<size_t>(next() % n) : 0; }
};

}  // namespace nki::synth
