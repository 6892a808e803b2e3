#include "nki_current/api_versions.h"

namespace nki::current {

namespace {

std::string v(int minor) { return "0." + std::to_string(minor); }

}  // namespace

std::string ApiVersion::range() const {
  if (last == 0) return first == kLastMinor ? v(first) : v(first) + "+";
  return first == last ? v(first) : v(first) + "-" + v(last);
}

const std::vector<ApiVersion>& api_versions() {
  static const std::vector<ApiVersion> rows = {
#define NKI_API(api, kind, first, last, renamed, source) {api, kind, first, last, renamed, source},
#include "nki_current/api_versions.def"
#undef NKI_API
  };
  return rows;
}

const ApiVersion* find_api_version(const std::string& api) {
  for (const ApiVersion& r : api_versions())
    if (r.api == api) return &r;
  return nullptr;
}

std::string absent_message(const ApiVersion& row, int minor) {
  std::string api = row.api.rfind("nl.NkiTensor.", 0) == 0 ? row.api.substr(3) : row.api;
  std::string when = minor < row.first ? "added in " + v(row.first) : "removed after " + v(row.last);
  return api + " is not in NKI " + v(minor) + " (" + when + "; available in NKI " + row.range() + ")";
}

std::string absent_hint(const ApiVersion& row, int minor) {
  if (minor < row.first) {
    std::string h = "compile with --nki " + v(row.first) + " or later";
    if (!row.renamed_from.empty()) h += ", or use " + row.renamed_from + " in NKI " + v(minor);
    return h + " (source: " + row.source + ")";
  }
  return "NKI " + v(minor) + " no longer has it; compile with --nki " + v(row.last) + " or port the call (source: " +
         row.source + ")";
}

}  // namespace nki::current
