#include "agent/transcript.h"

#include <chrono>
#include <cmath>
#include <fstream>
#include <stdexcept>
#include <type_traits>

#include "base/diagnostic.h"

namespace nki::agent {

TranscriptWriter::TranscriptWriter(const std::string& path) : path_(path) {
  file_ = std::fopen(path.c_str(), "w");
  if (!file_) throw IoError("cannot create transcript '" + path + "'");
}

TranscriptWriter::~TranscriptWriter() {
  if (file_) std::fclose(file_);
}

void TranscriptWriter::write(const std::string& type, nlohmann::ordered_json fields) {
  nlohmann::ordered_json line;
  line["v"] = kTranscriptVersion;
  line["seq"] = seq_++;
  line["t"] = std::chrono::duration<double>(
                  std::chrono::system_clock::now().time_since_epoch()).count();
  line["type"] = type;
  for (auto& [k, v] : fields.items()) line[k] = v;
  // Invalid UTF-8 from a model must not make the line unwritable.
  std::string text = line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  std::fwrite(text.data(), 1, text.size(), file_);
  std::fflush(file_);  // reaches the kernel page cache: survives SIGKILL of this process
}

nlohmann::ordered_json message_to_json(const Message& m) {
  nlohmann::ordered_json j;
  j["role"] = role_name(m.role);
  j["content"] = m.content;
  if (!m.tool_calls.empty()) {
    auto calls = nlohmann::ordered_json::array();
    for (const auto& c : m.tool_calls)
      calls.push_back({{"id", c.id}, {"name", c.name}, {"arguments", c.arguments}});
    j["tool_calls"] = calls;
  }
  if (m.role == Role::Tool) {
    j["tool_call_id"] = m.tool_call_id;
    j["tool_name"] = m.tool_name;
    j["is_error"] = m.is_error;
  }
  return j;
}

Message message_from_json(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("role") || !j["role"].is_string())
    throw std::invalid_argument("message without a role");
  Message m;
  m.role = role_from_name(j["role"].get<std::string>());
  m.content = j.value("content", "");
  if (j.contains("tool_calls")) {
    if (!j["tool_calls"].is_array()) throw std::invalid_argument("tool_calls is not an array");
    for (const auto& c : j["tool_calls"])
      m.tool_calls.push_back({c.value("id", ""), c.value("name", ""), c.value("arguments", "")});
  }
  m.tool_call_id = j.value("tool_call_id", "");
  m.tool_name = j.value("tool_name", "");
  m.is_error = j.value("is_error", false);
  return m;
}

nlohmann::ordered_json usage_to_json(const Usage& u) {
  nlohmann::ordered_json j = {{"input_tokens", u.input_tokens}, {"output_tokens", u.output_tokens},
                              {"cached_tokens", u.cached_tokens}, {"cache_write_tokens", u.cache_write_tokens},
                              {"latency_s", u.latency_s},
                              {"cost_usd", u.cost_usd},           {"price_known", u.price_known},
                              {"calls", u.calls},                 {"retries", u.retries}};
  // Only when something was corrected, so ordinary transcripts keep their exact shape.
  if (!u.warnings.empty()) j["warnings"] = u.warnings;
  return j;
}

namespace {

// A recorded count or cost below zero (a hand-edited or foreign transcript) would lower the
// replayed episode's cost; it is read as 0 with a warning, like a bad count from a server.
template <typename T>
T non_negative(const nlohmann::json& j, const char* key, T fallback, std::vector<std::string>& warnings) {
  T v = j.value(key, fallback);
  if constexpr (std::is_floating_point_v<T>) {
    if (!std::isfinite(v)) {
      warnings.push_back(std::string("recorded usage.") + key + " is not finite; read as 0");
      return 0;
    }
  }
  if (v < 0) {
    warnings.push_back(std::string("recorded usage.") + key + " = " + j[key].dump() + " is negative; read as 0");
    return 0;
  }
  return v;
}

}  // namespace

Usage usage_from_json(const nlohmann::json& j) {
  Usage u;
  if (!j.is_object()) return u;
  if (j.contains("warnings") && j["warnings"].is_array())
    for (const auto& w : j["warnings"])
      if (w.is_string()) u.warnings.push_back(w.get<std::string>());
  u.input_tokens = non_negative(j, "input_tokens", 0LL, u.warnings);
  u.output_tokens = non_negative(j, "output_tokens", 0LL, u.warnings);
  u.cached_tokens = non_negative(j, "cached_tokens", 0LL, u.warnings);
  u.cache_write_tokens = non_negative(j, "cache_write_tokens", 0LL, u.warnings);
  u.latency_s = non_negative(j, "latency_s", 0.0, u.warnings);
  u.cost_usd = non_negative(j, "cost_usd", 0.0, u.warnings);
  u.price_known = j.value("price_known", true);
  u.calls = j.value("calls", 0);
  u.retries = j.value("retries", 0);
  return u;
}

nlohmann::ordered_json tool_result_to_json(const ToolResult& r) {
  return {{"passed", r.passed}, {"failure", r.passed ? "none" : failure_kind_name(r.failure)}, {"code", r.code},
          {"text", r.text}};
}

TranscriptFile read_transcript(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw IoError("cannot read transcript '" + path + "'");
  TranscriptFile out;
  std::string line;
  std::string pending_bad;
  long lineno = 0, bad_lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty()) continue;
    if (!pending_bad.empty())
      throw IoError(path + ":" + std::to_string(bad_lineno) + ": not a JSON object");
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
      pending_bad = line;  // fatal only if more lines follow
      bad_lineno = lineno;
      continue;
    }
    out.events.push_back(std::move(j));
  }
  out.torn_tail = !pending_bad.empty();
  return out;
}

}  // namespace nki::agent
