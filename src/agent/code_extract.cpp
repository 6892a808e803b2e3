#include "agent/code_extract.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <sstream>
#include <vector>


namespace nki::agent {
namespace {

struct Block {
  std::string lang;
  std::string body;
};

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Splits on lines that start with ``` (after indentation); the opening line's rest is the tag.
std::vector<Block> fenced_blocks(const std::string& text) {
  std::vector<Block> blocks;
  std::istringstream in(text);
  std::string line;
  bool inside = false;
  Block cur;
  while (std::getline(in, line)) {
    std::string t = trim(line);
    if (t.rfind("```", 0) == 0) {
      if (!inside) {
        inside = true;
        cur = Block{lower(trim(t.substr(3))), ""};
      } else {
        inside = false;
        blocks.push_back(cur);
      }
      continue;
    }
    if (inside) cur.body += line + "\n";
  }
  if (inside && !trim(cur.body).empty()) blocks.push_back(cur);  // cut-off reply
  return blocks;
}

bool is_python_tag(const std::string& tag) {
  return tag.empty() || tag == "python" || tag == "py" || tag == "python3";
}

int score(const Block& b) {
  int s = 0;
  if (is_python_tag(b.lang)) s += 4;
  if (b.body.find("def ") != std::string::npos) s += 2;
  if (b.body.find("nki") != std::string::npos || b.body.find("nl.") != std::string::npos) s += 1;
  return s;
}

// Unfenced fallback: only when the reply unmistakably is code.
std::string unfenced_code(const std::string& text) {
  if (text.find("def ") == std::string::npos || text.find("nl.") == std::string::npos) return "";
  std::istringstream in(text);
  std::string line, out;
  bool started = false;
  while (std::getline(in, line)) {
    if (!started) {
      for (const char* p : {"import ", "from ", "@", "def "})
        if (line.rfind(p, 0) == 0) started = true;
    }
    if (started) out += line + "\n";
  }
  return trim(out).empty() ? "" : out;
}

}  // namespace

std::string extract_code_from_text(const std::string& text) {
  auto blocks = fenced_blocks(text);
  const Block* best = nullptr;
  int best_score = -1;
  for (const auto& b : blocks) {
    if (trim(b.body).empty()) continue;
    int s = score(b);
    if (s >= best_score) {  // >=: later blocks win ties
      best = &b;
      best_score = s;
    }
  }
  if (best) return best->body;
  return unfenced_code(text);
}

ArgumentsCode extract_code_from_arguments(const std::string& arguments_json) {
  auto j = nlohmann::json::parse(arguments_json, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return {"", "tool arguments are not a JSON object; call the tool with {\"code\": \"<kernel source>\"}"};
  if (!j.contains("code") || !j["code"].is_string())
    return {"", "tool arguments lack a string field \"code\" holding the kernel source"};
  std::string code = j["code"].get<std::string>();
  if (code.find("```") != std::string::npos) {
    std::string inner = extract_code_from_text(code);
    if (!inner.empty()) code = inner;
  }
  if (trim(code).empty()) return {"", "the \"code\" argument is empty"};
  return {code, ""};
}

}  // namespace nki::agent
