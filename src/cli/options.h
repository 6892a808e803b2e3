// A small command-line reader shared by the subcommands: `--name value`, `--name=value`,
// repeated options, boolean flags and positionals, with clear usage errors.
#pragma once

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace nki::cli {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Options {
 public:
  // `valued` lists options that take a value, `flags` boolean options.
  Options(int argc, char** argv, std::set<std::string> valued, std::set<std::string> flags);
  bool flag(const std::string& name) const { return flags_.count(name) > 0; }
  const std::vector<std::string>& all(const std::string& name) const;
  std::string get(const std::string& name, const std::string& dflt = "") const;
  bool has(const std::string& name) const { return values_.count(name) > 0; }
  const std::vector<std::string>& positionals() const { return positionals_; }

 private:
  std::map<std::string, std::vector<std::string>> values_;
  std::set<std::string> flags_;
  std::vector<std::string> positionals_;
};

}  // namespace nki::cli
