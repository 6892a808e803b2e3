#include "eval/cli_args.h"

#include <algorithm>
#include <sstream>

namespace nki::eval {

std::optional<std::string> ParsedArgs::get(const std::string& name) const {
  auto it = values.find(name);
  if (it == values.end()) return std::nullopt;
  return it->second;
}

std::string ParsedArgs::get_or(const std::string& name, const std::string& fallback) const {
  return get(name).value_or(fallback);
}

int ParsedArgs::get_int(const std::string& name, int fallback, int min_value) const {
  auto v = get(name);
  if (!v) return fallback;
  try {
    size_t used = 0;
    int n = std::stoi(*v, &used);
    if (used == v->size() && n >= min_value) return n;
  } catch (const std::logic_error&) {
  }
  throw UsageError(name + " expects an integer >= " + std::to_string(min_value) + ", got '" + *v + "'");
}

ParsedArgs parse_args(int argc, char** argv, const std::vector<OptionSpec>& specs) {
  ParsedArgs out;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      out.help = true;
      continue;
    }
    if (arg.rfind("--", 0) != 0 || arg == "--") {
      out.positional.push_back(arg);
      continue;
    }
    std::string name = arg, value;
    bool inline_value = false;
    if (auto eq = arg.find('='); eq != std::string::npos) {
      name = arg.substr(0, eq);
      value = arg.substr(eq + 1);
      inline_value = true;
    }
    auto spec = std::find_if(specs.begin(), specs.end(), [&](const OptionSpec& s) { return s.name == name; });
    if (spec == specs.end()) throw UsageError("unknown option " + name);
    if (spec->value_hint.empty()) {
      if (inline_value) throw UsageError(name + " takes no value");
    } else if (!inline_value) {
      if (i + 1 >= argc) throw UsageError(name + " needs a value (" + spec->value_hint + ")");
      value = argv[++i];
    }
    out.values[name] = value;
  }
  return out;
}

std::string format_usage(const std::string& synopsis, const std::string& description,
                         const std::vector<OptionSpec>& specs) {
  std::ostringstream s;
  s << "usage: " << synopsis << "\n\n" << description << "\n\noptions:\n";
  size_t width = 0;
  for (const auto& o : specs) width = std::max(width, o.name.size() + 1 + o.value_hint.size());
  for (const auto& o : specs) {
    std::string head = o.name + (o.value_hint.empty() ? "" : " " + o.value_hint);
    s << "  " << head << std::string(width - head.size() + 3, ' ') << o.help << "\n";
  }
  s << "  -h, --help" << std::string(width + 3 > 10 ? width + 3 - 10 : 1, ' ') << "show this help\n";
  return s.str();
}

}  // namespace nki::eval
