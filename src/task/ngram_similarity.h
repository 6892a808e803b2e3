// Token n-gram similarity of source texts: the one near-duplicate rule of decontamination
// against the benchmark, shared by the synthesis of training tasks (src/synth) and the training
// data validators (src/train).
//
// Tokens are Python-ish and whitespace-insensitive: identifiers/keywords, numbers, string
// literals (one token each, prefix included: an einsum spec is computation), and operator
// characters; `#` comments are dropped, so reformatting or re-commenting a text does not hide it.
// Two texts are near duplicates when the Jaccard index of their token 5-gram sets is at least 0.6
// (kNearDuplicateJaccard).
//
// Reference sources (PyTorch `nn.Module` files) are compared on their computation only
// (computation_tokens, docs/synthesis.md "Decontamination"): every reference shares the imports,
// the class header, `super().__init__()`, the method headers and often KernelBench-style
// scaffolding (module constants, get_inputs/get_init_inputs); on a one-line operator these
// dominate the 5-grams and make unrelated operators look like copies of each other.
//
// N-gram sets are sorted vectors of unique hashes: building and intersecting them (a linear
// merge) was measured faster than hash sets on the real workload (perf/ngram_bench.cpp,
// docs/performance.md).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace nki {

inline constexpr int kNearDuplicateNgram = 5;
inline constexpr double kNearDuplicateJaccard = 0.6;

// Sorted, unique n-gram hashes.
using NgramSet = std::vector<uint64_t>;

std::vector<std::string> code_tokens(std::string_view text);

// The tokens of a reference's computation: the bodies of the methods of its classes and of its
// top-level functions, without imports, class and def header lines, decorators,
// `super().__init__()`, docstrings, module-level statements (constants, `if __name__`) and the
// get_inputs / get_init_inputs scaffolding functions.
std::vector<std::string> computation_tokens(std::string_view reference_source);

// Hashes of every n consecutive tokens (a text shorter than n tokens gives one n-gram of all of
// them, so tiny texts still compare; no tokens give the empty set).
NgramSet token_ngrams(const std::vector<std::string>& tokens, int n = kNearDuplicateNgram);

// token_ngrams(computation_tokens(source)): the set a reference is compared by.
NgramSet reference_ngrams(std::string_view reference_source);

// |a ∩ b| / |a ∪ b|; 0 when both are empty.
double jaccard(const NgramSet& a, const NgramSet& b);

// jaccard(token_ngrams(code_tokens(a)), token_ngrams(code_tokens(b))): whole texts (kernels).
double ngram_jaccard(std::string_view a, std::string_view b, int n = kNearDuplicateNgram);

// jaccard(reference_ngrams(a), reference_ngrams(b)).
double reference_jaccard(std::string_view a, std::string_view b);

}  // namespace nki
