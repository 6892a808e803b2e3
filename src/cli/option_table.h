// The one option parser of nkiagent. Every command describes its options as data (name, value
// hint, type, range or choices, default, help); the same table parses the command line,
// validates every value before the command runs, and prints `--help`.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace nki::cli {

// A bad command line (exit code 2). The message names the option and the value it rejects.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class ValueType {
  Flag,     // no value: present or absent
  Text,     // any string (paths, ids, specs parsed by the command)
  Choice,   // one of `choices`
  Integer,  // decimal integer in [min, max]
  Real,     // finite decimal number in [min, max]
};

struct OptionSpec {
  std::string name;                  // without the leading "--"
  std::string hint;                  // value placeholder in help, e.g. "N"; empty for a flag
  std::string help;                  // may span lines ('\n'); range and default are appended
  ValueType type = ValueType::Text;
  double min = 0;                    // Integer / Real range, inclusive; every numeric option
  double max = 0;                    // has a finite one, so values fit the field they land in
  std::vector<std::string> choices;  // Choice: accepted spellings (aliases included)
  std::string default_value;         // the value an absent option takes; validated like input
  std::string default_help;          // how help describes a computed default ("the task's")
  bool repeatable = false;           // keep every occurrence (else the last one wins)
};

// Convenience constructors so that command tables read as one line per option.
OptionSpec flag_option(std::string name, std::string help);
OptionSpec text_option(std::string name, std::string hint, std::string help, std::string default_value = {});
OptionSpec choice_option(std::string name, std::string hint, std::vector<std::string> choices, std::string help,
                         std::string default_value = {});
OptionSpec integer_option(std::string name, std::string hint, int64_t min, int64_t max, std::string help,
                          std::string default_value = {});
OptionSpec real_option(std::string name, std::string hint, double min, double max, std::string help,
                       std::string default_value = {});

struct CommandSpec {
  std::string name;         // "verify", or "tasks" for the tasks family
  std::string synopsis;     // "nkiagent verify FILE.py --task ID [options]"
  std::string description;  // what the command does, a few lines
  std::vector<OptionSpec> options;
  std::string epilog;       // after the option list: notes and "exit status: ..."

  const OptionSpec* find(std::string_view option_name) const;
};

// The validated result of parsing one command line against a CommandSpec. Values were checked
// when parsed, so the typed getters cannot fail on user input; asking for an option the table
// does not declare is a programming error (std::logic_error).
class ParsedOptions {
 public:
  ParsedOptions() = default;
  explicit ParsedOptions(const CommandSpec* spec) : spec_(spec) {}

  bool help() const { return help_; }
  bool flag(std::string_view name) const;
  // True when the option was given on the command line (defaults do not count).
  bool has(std::string_view name) const;
  // The last value given, else the table's default, else "".
  std::string text(std::string_view name) const;
  // Every value of a repeatable option, in command-line order.
  const std::vector<std::string>& all(std::string_view name) const;
  // Integer / Real options: the value given, else the default; nullopt when neither exists.
  std::optional<int64_t> integer(std::string_view name) const;
  std::optional<double> real(std::string_view name) const;
  const std::vector<std::string>& positionals() const { return positionals_; }
  const CommandSpec& spec() const { return *spec_; }

 private:
  friend ParsedOptions parse_command_line(const CommandSpec&, int, char**);
  const OptionSpec& declared(std::string_view name) const;

  const CommandSpec* spec_ = nullptr;
  std::map<std::string, std::vector<std::string>, std::less<>> values_;
  std::vector<std::string> positionals_;
  bool help_ = false;
};

// Parses argv[1..argc) (argv[0] is the command name): `--name value`, `--name=value`, flags,
// positionals, `--` ending the options, `-h`/`--help` anywhere. Throws UsageError for an
// unknown option, a missing value, a value given to a flag, or a value the table rejects.
ParsedOptions parse_command_line(const CommandSpec& spec, int argc, char** argv);

// Checks one value against its spec; returns the UsageError message, or "" when it is valid.
std::string validate_value(const OptionSpec& spec, const std::string& value);

// `--help` text: usage line, description, one entry per option (with range, choices and
// default), -h/--help, epilog.
std::string format_help(const CommandSpec& spec);

// "1 to 1000", "a number > 0", ... : the range phrase used by help and error messages.
std::string range_text(const OptionSpec& spec);

}  // namespace nki::cli
