#include "cli/options.h"

namespace nki::cli {

Options::Options(int argc, char** argv, std::set<std::string> valued, std::set<std::string> flags) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.size() > 2 && a.rfind("--", 0) == 0) {
      std::string name = a.substr(2), value;
      bool inline_value = false;
      if (auto eq = name.find('='); eq != std::string::npos) {
        value = name.substr(eq + 1);
        name = name.substr(0, eq);
        inline_value = true;
      }
      if (flags.count(name)) {
        if (inline_value) throw UsageError("option --" + name + " takes no value");
        flags_.insert(name);
      } else if (valued.count(name)) {
        if (!inline_value) {
          if (i + 1 >= argc) throw UsageError("option --" + name + " needs a value");
          value = argv[++i];
        }
        values_[name].push_back(value);
      } else {
        throw UsageError("unknown option --" + name);
      }
    } else if (a == "-h") {
      flags_.insert("help");
    } else {
      positionals_.push_back(a);
    }
  }
}

const std::vector<std::string>& Options::all(const std::string& name) const {
  static const std::vector<std::string> empty;
  auto it = values_.find(name);
  return it == values_.end() ? empty : it->second;
}

std::string Options::get(const std::string& name, const std::string& dflt) const {
  auto it = values_.find(name);
  return it == values_.end() || it->second.empty() ? dflt : it->second.back();
}

}  // namespace nki::cli
