#include "eval/run_config.h"

#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace nki::eval {

ShardSpec parse_shard(const std::string& text) {
  auto slash = text.find('/');
  auto fail = [&]() -> ShardSpec {
    throw std::invalid_argument("--shard expects I/N with 0 <= I < N (e.g. 0/4), got '" + text + "'");
  };
  if (slash == std::string::npos || slash == 0 || slash + 1 == text.size()) return fail();
  ShardSpec s;
  try {
    size_t used = 0;
    s.index = std::stoi(text.substr(0, slash), &used);
    if (used != slash) return fail();
    std::string rest = text.substr(slash + 1);
    s.count = std::stoi(rest, &used);
    if (used != rest.size()) return fail();
  } catch (const std::logic_error&) {
    return fail();
  }
  if (s.count < 1 || s.index < 0 || s.index >= s.count) return fail();
  return s;
}

std::string shard_text(const ShardSpec& s) {
  return std::to_string(s.index) + "/" + std::to_string(s.count);
}

std::string run_label(const RunConfig& c) {
  std::string label = std::string(mode_name(c.mode)) + " \u00b7 " + c.model;
  if (c.nki != "2.24") label += " \u00b7 NKI " + c.nki;
  if (c.target != "trn1") label += " \u00b7 " + c.target;
  return label;
}

std::string config_to_json(const RunConfig& c) {
  nlohmann::json j = {
      {"model", c.model},
      {"mode", mode_name(c.mode)},
      {"subset", c.subset},
      {"samples", c.samples},
      {"max_turns", c.max_turns},
      {"tools", c.tools},
      {"target", c.target},
      {"nki", c.nki},
      {"task_list_fingerprint", c.task_list_fingerprint},
      {"task_count", c.task_count},
      {"shard", shard_text(c.shard)},
      {"held_out_secret", std::to_string(c.held_out_secret)},
  };
  return j.dump();
}

RunConfig config_from_json(const std::string& text) {
  try {
    auto j = nlohmann::json::parse(text);
    RunConfig c;
    c.model = j.at("model").get<std::string>();
    auto mode = parse_mode(j.at("mode").get<std::string>());
    if (!mode) throw std::runtime_error("unknown mode");
    c.mode = *mode;
    c.subset = j.at("subset").get<std::string>();
    c.samples = j.at("samples").get<int>();
    c.max_turns = j.at("max_turns").get<int>();
    // Absent in runs started before --tools existed: they offered compile and verify.
    if (j.contains("tools")) c.tools = j.at("tools").get<std::string>();
    // Absent in runs started before bench had --target: they ran on trn1.
    if (j.contains("target")) c.target = j.at("target").get<std::string>();
    // Absent in runs started before bench had --nki: they ran in the legacy dialect.
    if (j.contains("nki")) c.nki = j.at("nki").get<std::string>();
    c.task_list_fingerprint = j.at("task_list_fingerprint").get<std::string>();
    c.task_count = j.at("task_count").get<int>();
    c.shard = parse_shard(j.at("shard").get<std::string>());
    // Absent in runs started before held-out trials existed: their final verdicts used none.
    if (j.contains("held_out_secret")) c.held_out_secret = std::stoull(j.at("held_out_secret").get<std::string>());
    return c;
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("stored run config is unreadable: ") + e.what());
  }
}

std::string describe_config_difference(const RunConfig& a, const RunConfig& b, bool ignore_shard) {
  std::ostringstream out;
  auto field = [&](const char* name, const auto& x, const auto& y) {
    if (x == y) return;
    if (out.tellp() > 0) out << "; ";
    out << name << ": " << x << " vs " << y;
  };
  field("model", a.model, b.model);
  field("mode", std::string(mode_name(a.mode)), std::string(mode_name(b.mode)));
  field("subset", a.subset, b.subset);
  field("samples", a.samples, b.samples);
  field("max_turns", a.max_turns, b.max_turns);
  field("tools", a.tools, b.tools);
  field("target", a.target, b.target);
  field("nki", a.nki, b.nki);
  field("task list", a.task_list_fingerprint, b.task_list_fingerprint);
  if (!ignore_shard) field("shard", shard_text(a.shard), shard_text(b.shard));
  return out.str();
}

}  // namespace nki::eval
