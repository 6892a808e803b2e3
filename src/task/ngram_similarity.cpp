#include "task/ngram_similarity.h"

#include <algorithm>
#include <cctype>

namespace nki {

namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// FNV-1a over the n tokens, with a separator so that ("ab","c") and ("a","bc") differ.
uint64_t hash_window(const std::vector<std::string>& t, size_t begin, size_t end) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = begin; i < end; ++i) {
    for (unsigned char c : t[i]) h = (h ^ c) * 1099511628211ull;
    h = (h ^ 0x1f) * 1099511628211ull;
  }
  return h;
}

}  // namespace

std::vector<std::string> code_tokens(std::string_view s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) { ++i; continue; }
    if (c == '#') {
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    size_t b = i;
    if (ident_start(c)) {
      while (i < s.size() && ident_char(s[i])) ++i;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      while (i < s.size() && (ident_char(s[i]) || s[i] == '.')) ++i;
    } else if (c == '"' || c == '\'') {
      // A string literal (triple-quoted or not) is one token; an unterminated one runs to the end.
      bool triple = s.substr(i, 3) == std::string(3, c);
      std::string_view close = triple ? s.substr(i, 3) : s.substr(i, 1);
      i += close.size();
      while (i < s.size() && s.substr(i, close.size()) != close) i += s[i] == '\\' ? 2 : 1;
      i = std::min(s.size(), i + close.size());
    } else {
      ++i;
    }
    out.emplace_back(s.substr(b, i - b));
  }
  return out;
}

std::unordered_set<uint64_t> token_ngrams(const std::vector<std::string>& tokens, int n) {
  std::unordered_set<uint64_t> out;
  if (tokens.empty()) return out;
  size_t w = static_cast<size_t>(n < 1 ? 1 : n);
  if (tokens.size() <= w) {
    out.insert(hash_window(tokens, 0, tokens.size()));
    return out;
  }
  for (size_t i = 0; i + w <= tokens.size(); ++i) out.insert(hash_window(tokens, i, i + w));
  return out;
}

double jaccard(const std::unordered_set<uint64_t>& a, const std::unordered_set<uint64_t>& b) {
  if (a.empty() && b.empty()) return 0.0;
  const auto& small = a.size() <= b.size() ? a : b;
  const auto& large = a.size() <= b.size() ? b : a;
  size_t common = 0;
  for (uint64_t h : small) common += large.count(h);
  return static_cast<double>(common) / static_cast<double>(a.size() + b.size() - common);
}

double ngram_jaccard(std::string_view a, std::string_view b, int n) {
  return jaccard(token_ngrams(code_tokens(a), n), token_ngrams(code_tokens(b), n));
}

}  // namespace nki
