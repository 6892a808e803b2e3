// Token n-gram similarity of source texts: the near-duplicate rule shared by corpus
// decontamination (src/train, and the synthesis of training tasks) against the benchmark.
//
// Tokens are Python-ish and whitespace-insensitive: identifiers/keywords, numbers, string
// literals (one token each), and operator characters; `#` comments are dropped, so reformatting
// or re-commenting a kernel does not hide it. Two texts are near duplicates when the Jaccard
// index of their token 5-gram sets is at least 0.6 (kNearDuplicateJaccard).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace nki {

inline constexpr int kNearDuplicateNgram = 5;
inline constexpr double kNearDuplicateJaccard = 0.6;

std::vector<std::string> code_tokens(std::string_view text);

// Hashes of every n consecutive tokens (a text shorter than n tokens gives one n-gram of all of
// them, so tiny texts still compare).
std::unordered_set<uint64_t> token_ngrams(const std::vector<std::string>& tokens, int n = kNearDuplicateNgram);

// |a ∩ b| / |a ∪ b|; 0 when both are empty.
double jaccard(const std::unordered_set<uint64_t>& a, const std::unordered_set<uint64_t>& b);

// jaccard(token_ngrams(code_tokens(a)), token_ngrams(code_tokens(b))).
double ngram_jaccard(std::string_view a, std::string_view b, int n = kNearDuplicateNgram);

}  // namespace nki
