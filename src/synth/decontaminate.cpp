#include "synth/decontaminate.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "task/task_spec.h"

namespace nki::synth {

std::vector<std::string> code_tokens(const std::string& s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    char ch = s[i];
    if (ch == '#') {
      while (i < s.size() && s[i] != '\n') ++i;
    } else if (ch == '"' || ch == '\'') {
      bool triple = s.compare(i, 3, std::string(3, ch)) == 0;
      size_t close = triple ? s.find(std::string(3, ch), i + 3) : s.find(ch, i + 1);
      i = close == std::string::npos ? s.size() : close + (triple ? 3 : 1);
    } else if (std::isspace(static_cast<unsigned char>(ch))) {
      ++i;
    } else if (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || (ch == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      size_t b = i;
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_' || s[i] == '.')) {
        // a '.' continues numbers only; attribute access is its own token
        if (s[i] == '.' && !std::isdigit(static_cast<unsigned char>(s[b]))) break;
        ++i;
      }
      out.push_back(s.substr(b, i - b));
    } else {
      static const char* two[] = {"**", "//", "==", "!=", "<=", ">=", "->", "+=", "-=", "*=", "/="};
      bool matched = false;
      for (const char* t : two)
        if (s.compare(i, 2, t) == 0) {
          out.emplace_back(t);
          i += 2;
          matched = true;
          break;
        }
      if (!matched) out.emplace_back(1, s[i++]);
    }
  }
  return out;
}

std::vector<uint64_t> token_grams(const std::vector<std::string>& t, int n) {
  std::vector<uint64_t> g;
  for (size_t i = 0; i + static_cast<size_t>(n) <= t.size(); ++i) {
    std::string key;
    for (int k = 0; k < n; ++k) key += t[i + static_cast<size_t>(k)] + '\x1f';
    g.push_back(stable_hash(key));
  }
  std::sort(g.begin(), g.end());
  g.erase(std::unique(g.begin(), g.end()), g.end());
  return g;
}

double jaccard(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b) {
  if (a.empty() && b.empty()) return 0.0;
  size_t i = 0, j = 0, both = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i] == b[j]) { ++both; ++i; ++j; }
    else if (a[i] < b[j]) ++i;
    else ++j;
  }
  return static_cast<double>(both) / static_cast<double>(a.size() + b.size() - both);
}

Decontaminator::Decontaminator(const std::string& root) {
  std::vector<std::string> ids;
  for (const auto& e : std::filesystem::directory_iterator(root))
    if (e.is_directory() && std::filesystem::exists(e.path() / "task.json")) ids.push_back(e.path().filename().string());
  std::sort(ids.begin(), ids.end());
  for (const std::string& id : ids) {
    TaskSpec t = load_task(root + "/" + id);
    BenchmarkTask b;
    b.id = t.id;
    b.family = t.family;
    for (const TensorSpec& a : t.kernel_args()) b.arg_shapes.push_back(a.shape);
    std::ifstream in(root + "/" + id + "/reference.py", std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    b.grams = token_grams(code_tokens(ss.str()));
    tasks_.push_back(std::move(b));
  }
}

Contamination Decontaminator::check(const Candidate& c) const {
  Contamination r;
  std::vector<std::string> families = {c.family};
  if (c.chain.empty()) families.insert(families.end(), c.seed->aliases.begin(), c.seed->aliases.end());
  std::vector<uint64_t> grams = token_grams(code_tokens(c.reference_py));
  for (const BenchmarkTask& b : tasks_) {
    if (!r.family_shape && b.arg_shapes == c.arg_shapes &&
        std::find(families.begin(), families.end(), b.family) != families.end()) {
      r.family_shape = true;
      r.family_shape_task = b.id;
    }
    double j = jaccard(grams, b.grams);
    if (j > r.max_jaccard) {
      r.max_jaccard = j;
      r.nearest_task = b.id;
    }
  }
  return r;
}

}  // namespace nki::synth
