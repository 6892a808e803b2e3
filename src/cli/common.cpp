#include "cli/common.h"

#include <iostream>

namespace nki::cli {

front::TraceOptions trace_options(const Options& o) {
  front::TraceOptions t;
  t.kernel_name = o.get("kernel");
  for (const std::string& s : o.all("arg")) {
    std::string err;
    auto spec = front::parse_arg_spec(s, &err);
    if (!spec) throw UsageError("--arg " + err);
    t.args.push_back(*spec);
  }
  if (o.has("grid")) {
    std::string g = o.get("grid"), cur;
    g += ",";
    for (char c : g) {
      if (c == ',' || c == 'x') {
        if (cur.empty() || cur.size() > 9 || cur.find_first_not_of("0123456789") != std::string::npos)
          throw UsageError("--grid expects positive integers like 2,2");
        int64_t v = std::stoll(cur);
        if (v <= 0) throw UsageError("--grid entries must be positive");
        t.grid.push_back(v);
        cur.clear();
      } else {
        cur += c;
      }
    }
    int64_t total = 1;
    for (int64_t v : t.grid) total *= v;
    if (total > 65536) throw UsageError("--grid has more than 65536 instances");
  }
  std::string target = o.get("target", "trn1");
  if (target == "trn1" || target == "inf2" || target == "gen2") t.target = front::Target::Trn1;
  else if (target == "trn2" || target == "gen3") t.target = front::Target::Trn2;
  else throw UsageError("--target must be trn1 or trn2, got '" + target + "'");
  for (const std::string& c : o.all("const")) {
    auto eq = c.find('=');
    if (eq == std::string::npos || eq == 0) throw UsageError("--const expects NAME=LITERAL, got '" + c + "'");
    t.consts.emplace_back(c.substr(0, eq), c.substr(eq + 1));
  }
  return t;
}

void print_diagnostics(const std::vector<Diagnostic>& diags) {
  for (const Diagnostic& d : diags) std::cerr << render_text(d);
}

}  // namespace nki::cli
