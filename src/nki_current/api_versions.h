// In which NKI versions (0.2 .. 0.6) each public name of the current dialect exists: the table
// api_versions.def, derived from the API stubs of each SDK release and the release notes
// (tools/api_coverage/derive_api_versions.py cites every source). The tracer uses it to make a
// name that is absent in the chosen --nki version fail loudly, naming the versions that have it;
// nki-api-coverage prints it into docs/api-coverage.md.
#pragma once

#include <string>
#include <vector>

namespace nki::current {

struct ApiVersion {
  std::string api;           // "nl.load", "nisa.topk", "nl.NkiTensor.slice", "nisa.nc_matmul(accumulate=)"
  std::string kind;          // function, class, constant, method, module, argument
  int first = 2;             // first NKI 0.x minor that has it
  int last = 0;              // last minor that has it; 0 = still in 0.6
  std::string renamed_from;  // earlier name (or the API it replaces), "" if none
  std::string source;        // where the versions come from
  bool in(int minor) const { return minor >= first && (last == 0 || minor <= last); }
  // "0.3+", "0.2-0.3", "0.6".
  std::string range() const;
};

constexpr int kFirstMinor = 2, kLastMinor = 6;

const std::vector<ApiVersion>& api_versions();
// nullptr when the table has no row for `api`.
const ApiVersion* find_api_version(const std::string& api);

// The message and hint of a use of `row` in NKI 0.<minor>, where it does not exist.
std::string absent_message(const ApiVersion& row, int minor);
std::string absent_hint(const ApiVersion& row, int minor);

}  // namespace nki::current
