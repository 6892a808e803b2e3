#include "cli/option_table.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "cli/numbers.h"

namespace nki::cli {

namespace {

// Integers print without a fractional part; table bounds are whole numbers for Integer options.
std::string number_text(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<int64_t>(v));
  std::ostringstream s;
  s << v;
  return s.str();
}

std::string join(const std::vector<std::string>& items, const char* sep) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : sep) + s;
  return out;
}

bool in_range(const OptionSpec& o, double v) { return v >= o.min && v <= o.max; }

bool is_help(const char* arg) {
  std::string_view a = arg;
  return a == "-h" || a == "--help";
}

}  // namespace

OptionSpec flag_option(std::string name, std::string help) {
  OptionSpec o;
  o.name = std::move(name);
  o.help = std::move(help);
  o.type = ValueType::Flag;
  return o;
}

OptionSpec text_option(std::string name, std::string hint, std::string help, std::string default_value) {
  OptionSpec o;
  o.name = std::move(name);
  o.hint = std::move(hint);
  o.help = std::move(help);
  o.default_value = std::move(default_value);
  return o;
}

OptionSpec choice_option(std::string name, std::string hint, std::vector<std::string> choices, std::string help,
                         std::string default_value) {
  OptionSpec o = text_option(std::move(name), std::move(hint), std::move(help), std::move(default_value));
  o.type = ValueType::Choice;
  o.choices = std::move(choices);
  return o;
}

OptionSpec integer_option(std::string name, std::string hint, int64_t min, int64_t max, std::string help,
                          std::string default_value) {
  OptionSpec o = text_option(std::move(name), std::move(hint), std::move(help), std::move(default_value));
  o.type = ValueType::Integer;
  o.min = static_cast<double>(min);
  o.max = static_cast<double>(max);
  return o;
}

OptionSpec real_option(std::string name, std::string hint, double min, double max, std::string help,
                       std::string default_value) {
  OptionSpec o = text_option(std::move(name), std::move(hint), std::move(help), std::move(default_value));
  o.type = ValueType::Real;
  o.min = min;
  o.max = max;
  return o;
}

const OptionSpec* CommandSpec::find(std::string_view option_name) const {
  for (const OptionSpec& o : options)
    if (o.name == option_name) return &o;
  return nullptr;
}

std::string range_text(const OptionSpec& o) {
  if (o.type == ValueType::Integer) return number_text(o.min) + " to " + number_text(o.max);
  if (o.type == ValueType::Real) return "a number from " + number_text(o.min) + " to " + number_text(o.max);
  return "";
}

std::string validate_value(const OptionSpec& o, const std::string& value) {
  const std::string got = ", got '" + value + "'";
  switch (o.type) {
    case ValueType::Flag:
    case ValueType::Text:
      return "";
    case ValueType::Choice:
      if (std::find(o.choices.begin(), o.choices.end(), value) != o.choices.end()) return "";
      return "--" + o.name + " must be " + o.hint + got;
    case ValueType::Integer: {
      auto v = to_integer(value);
      if (v && in_range(o, static_cast<double>(*v))) return "";
      return "--" + o.name + " expects an integer from " + range_text(o) + got;
    }
    case ValueType::Real: {
      auto v = to_real(value);
      if (v && in_range(o, *v)) return "";
      return "--" + o.name + " expects " + range_text(o) + got;
    }
  }
  return "";
}

bool ParsedOptions::flag(std::string_view name) const {
  declared(name);
  return values_.count(name) > 0;
}

bool ParsedOptions::has(std::string_view name) const {
  declared(name);
  return values_.count(name) > 0;
}

std::string ParsedOptions::text(std::string_view name) const {
  const OptionSpec& o = declared(name);
  auto it = values_.find(name);
  return it == values_.end() ? o.default_value : it->second.back();
}

const std::vector<std::string>& ParsedOptions::all(std::string_view name) const {
  static const std::vector<std::string> none;
  declared(name);
  auto it = values_.find(name);
  return it == values_.end() ? none : it->second;
}

std::optional<int64_t> ParsedOptions::integer(std::string_view name) const {
  const OptionSpec& o = declared(name);
  if (o.type != ValueType::Integer) throw std::logic_error("--" + o.name + " is not an integer option");
  std::string v = text(name);
  if (v.empty()) return std::nullopt;
  return to_integer(v);
}

std::optional<double> ParsedOptions::real(std::string_view name) const {
  const OptionSpec& o = declared(name);
  if (o.type != ValueType::Real) throw std::logic_error("--" + o.name + " is not a number option");
  std::string v = text(name);
  if (v.empty()) return std::nullopt;
  return to_real(v);
}

const OptionSpec& ParsedOptions::declared(std::string_view name) const {
  const OptionSpec* o = spec_ ? spec_->find(name) : nullptr;
  if (!o) throw std::logic_error("option --" + std::string(name) + " is not in the table of '" +
                                 (spec_ ? spec_->name : std::string("?")) + "'");
  return *o;
}

ParsedOptions parse_command_line(const CommandSpec& spec, int argc, char** argv) {
  ParsedOptions out(&spec);
  // Help wins over any other problem on the line, so `CMD --bogus --help` still explains CMD.
  for (int i = 1; i < argc && std::string_view(argv[i]) != "--"; ++i)
    if (is_help(argv[i])) out.help_ = true;
  if (out.help_) return out;
  bool options_ended = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (options_ended || arg.rfind("--", 0) != 0) {
      out.positionals_.push_back(arg);
      continue;
    }
    if (arg == "--") {
      options_ended = true;
      continue;
    }
    std::string name = arg.substr(2), value;
    bool inline_value = false;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name.resize(eq);
      inline_value = true;
    }
    const OptionSpec* o = spec.find(name);
    if (!o) throw UsageError("unknown option --" + name);
    if (o->type == ValueType::Flag) {
      if (inline_value) throw UsageError("--" + name + " takes no value");
    } else if (!inline_value) {
      if (i + 1 >= argc) throw UsageError("--" + name + " needs a value (" + o->hint + ")");
      value = argv[++i];
    }
    if (std::string problem = validate_value(*o, value); !problem.empty()) throw UsageError(problem);
    auto& slot = out.values_[name];
    if (!o->repeatable) slot.clear();
    slot.push_back(value);
  }
  return out;
}

// Help text longer than this (after the option column) moves its range/default note to a
// line of its own, so that --help stays readable in a 100-column terminal.
constexpr size_t kHelpTextWidth = 72;

std::string format_help(const CommandSpec& spec) {
  std::ostringstream s;
  s << "usage: " << spec.synopsis << "\n";
  if (!spec.description.empty()) s << "\n" << spec.description << "\n";
  // Entries longer than this put their help on the next line instead of widening the column.
  const size_t max_column = 26;
  std::vector<std::pair<std::string, std::string>> rows;
  for (const OptionSpec& o : spec.options) {
    std::string head = "--" + o.name + (o.hint.empty() ? "" : " " + o.hint);
    std::string help = o.help;
    std::vector<std::string> notes;
    if (!range_text(o).empty()) notes.push_back(range_text(o));
    if (o.repeatable) notes.push_back("repeatable");
    if (!o.default_help.empty()) notes.push_back("default: " + o.default_help);
    else if (!o.default_value.empty()) notes.push_back("default: " + o.default_value);
    if (!notes.empty()) {
      std::string note = "(" + join(notes, "; ") + ")";
      size_t last_line = help.size() - (help.rfind('\n') == std::string::npos ? 0 : help.rfind('\n') + 1);
      help += (last_line + note.size() + 1 > kHelpTextWidth ? "\n" : " ") + note;
    }
    rows.emplace_back(head, help);
  }
  rows.emplace_back("-h, --help", "show this help");
  size_t width = 0;
  for (const auto& [head, help] : rows)
    if (head.size() <= max_column) width = std::max(width, head.size());
  s << "\noptions:\n";
  const std::string indent(2 + width + 2, ' ');
  for (const auto& [head, help] : rows) {
    s << "  " << head;
    if (head.size() <= width) s << std::string(width - head.size() + 2, ' ');
    else s << "\n" << indent;
    for (char c : help) {
      s << c;
      if (c == '\n') s << indent;
    }
    s << "\n";
  }
  if (!spec.epilog.empty()) s << "\n" << spec.epilog << (spec.epilog.back() == '\n' ? "" : "\n");
  return s.str();
}

}  // namespace nki::cli
