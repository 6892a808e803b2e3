#include "base/episode_vocab.h"

#include <array>
#include <stdexcept>
#include <utility>

namespace nki {

namespace {
constexpr std::array<std::pair<Mode, const char*>, 4> kModes{{
    {Mode::Agent, "agent"}, {Mode::MultiTurn, "multi-turn"}, {Mode::SingleShot, "single-shot"},
    {Mode::Optimize, "optimize"}}};

constexpr std::array<std::pair<VerdictKind, const char*>, 7> kVerdicts{{
    {VerdictKind::Pass, "pass"},
    {VerdictKind::CompileError, "compile_error"},
    {VerdictKind::RuntimeError, "runtime_error"},
    {VerdictKind::Mismatch, "mismatch"},
    {VerdictKind::NoCode, "no_code"},
    {VerdictKind::ApiError, "api_error"},
    {VerdictKind::BudgetExhausted, "budget_exhausted"},
}};
}  // namespace

const char* mode_name(Mode m) {
  for (const auto& [mode, name] : kModes)
    if (mode == m) return name;
  return "?";
}

std::optional<Mode> parse_mode(const std::string& s) {
  for (const auto& [mode, name] : kModes)
    if (s == name) return mode;
  return std::nullopt;
}

Mode mode_from_name(const std::string& s) {
  if (std::optional<Mode> m = parse_mode(s)) return *m;
  throw std::invalid_argument("unknown mode '" + s + "' (expected agent, multi-turn, single-shot or optimize)");
}

const char* verdict_kind_name(VerdictKind k) {
  for (const auto& [kind, name] : kVerdicts)
    if (kind == k) return name;
  return "?";
}

std::optional<VerdictKind> parse_verdict_kind(const std::string& s) {
  for (const auto& [kind, name] : kVerdicts)
    if (s == name) return kind;
  return std::nullopt;
}

}  // namespace nki
