#include "agent/tools.h"

#include <cctype>
#include <set>
#include <stdexcept>
#include <utility>

namespace nki::agent {

const char* failure_kind_name(FailureKind k) {
  switch (k) {
    case FailureKind::Unspecified: return "unspecified";
    case FailureKind::CompileError: return "compile_error";
    case FailureKind::RuntimeError: return "runtime_error";
    case FailureKind::Mismatch: return "mismatch";
  }
  return "unspecified";
}

ToolOffer parse_tool_offer(const std::string& text) {
  ToolOffer o{false, false, false};
  size_t pos = 0;
  while (true) {
    size_t comma = text.find(',', pos);
    std::string item = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    bool* slot = item == "compile" ? &o.compile : item == "verify" ? &o.verify : item == "profile" ? &o.profile : nullptr;
    if (!slot) {
      if (item.empty()) throw std::invalid_argument("--tools: empty tool name in '" + text + "' (compile, verify, profile)");
      throw std::invalid_argument("--tools: unknown tool '" + item + "' (compile, verify, profile)");
    }
    if (*slot) throw std::invalid_argument("--tools: '" + item + "' is listed twice");
    *slot = true;
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return o;
}

std::string tool_offer_text(const ToolOffer& o) {
  std::string s;
  for (auto [on, name] : {std::pair<bool, const char*>{o.compile, "compile"}, {o.verify, "verify"}, {o.profile, "profile"}})
    if (on) s += (s.empty() ? "" : ",") + std::string(name);
  return s;
}

std::string validate_tool_offer(const ToolOffer& o, Mode mode) {
  if (mode == Mode::SingleShot || mode == Mode::MultiTurn)
    return std::string("--tools: ") + mode_name(mode) + " mode offers no tools (agent or optimize mode do)";
  if (mode == Mode::Optimize && !o.verify)
    return "--tools: optimize mode needs verify (only kernels that passed verify_kernel count)";
  return {};
}

namespace {

bool reserved_name(const std::string& n) {
  // Python 3.11 hard keywords, plus the module aliases every kernel imports (prompts/system.md):
  // a parameter named `nl` would shadow neuronxcc.nki.language inside the kernel.
  static const std::set<std::string> kReserved = {
      "False", "None",   "True",    "and",      "as",   "assert", "async", "await",  "break",
      "class", "continue", "def",   "del",      "elif", "else",   "except", "finally", "for",
      "from",  "global", "if",      "import",   "in",   "is",     "lambda", "nonlocal", "not",
      "or",    "pass",   "raise",   "return",   "try",  "while",  "with",  "yield",
      "nki",   "nl",     "nisa",    "np",       "nt",   "ncc",    "math"};
  return kReserved.count(n) > 0;
}

std::vector<std::string> all_arg_tensors(const TaskInfo& task) {
  std::vector<std::string> names;
  for (const auto* group : {&task.inputs, &task.params, &task.buffers})
    for (const auto& t : *group) names.push_back(t.name);
  return names;
}

}  // namespace

std::vector<std::string> kernel_arg_names(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  std::set<std::string> used;
  for (const std::string& raw : names) {
    std::string n;
    for (unsigned char c : raw) n += (std::isalnum(c) || c == '_') && c < 0x80 ? static_cast<char>(c) : '_';
    if (n.empty() || std::isdigit(static_cast<unsigned char>(n[0]))) n = "_" + n;
    while (reserved_name(n) || used.count(n)) n += "_";
    used.insert(n);
    out.push_back(n);
  }
  return out;
}

std::vector<std::string> task_arg_names(const TaskInfo& task) {
  return kernel_arg_names(all_arg_tensors(task));
}

std::string required_signature(const TaskInfo& task) {
  std::string sig = "def " + task.kernel_name + "(";
  std::vector<std::string> ids = task_arg_names(task);
  for (size_t k = 0; k < ids.size(); ++k) sig += (k ? ", " : "") + ids[k];
  return sig + "):";
}

}  // namespace nki::agent
