// A tiny declarative option parser for the eval subcommands: each command lists its options
// as data (name, value hint, help), and usage text is generated from the same list.
#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace nki::eval {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct OptionSpec {
  std::string name;        // "--model"
  std::string value_hint;  // "M"; empty for a flag
  std::string help;
};

struct ParsedArgs {
  std::map<std::string, std::string> values;  // option name -> value ("" for flags)
  std::vector<std::string> positional;
  bool help = false;  // -h or --help was given

  bool has(const std::string& name) const { return values.count(name) > 0; }
  std::optional<std::string> get(const std::string& name) const;
  std::string get_or(const std::string& name, const std::string& fallback) const;
  // Integer option with a lower bound; throws UsageError naming the option on bad input.
  int get_int(const std::string& name, int fallback, int min_value) const;
};

// Accepts "--opt value" and "--opt=value"; argv[0] is skipped. Throws UsageError on an unknown
// option or a missing value.
ParsedArgs parse_args(int argc, char** argv, const std::vector<OptionSpec>& specs);

// "usage line\n\ndescription\n\noptions:\n  --name HINT   help\n..."
std::string format_usage(const std::string& synopsis, const std::string& description,
                         const std::vector<OptionSpec>& specs);

}  // namespace nki::eval
