// The diagnostic catalogue: every code a Diagnostic carries is a row of base/diag_codes.def
// (code, kind, severity, message format, hint, since, doc source). Emission sites name a row,
// `nki_error(diag::Code::psum_fmax, ...)`, instead of spelling the code; a diag::CodeRef turns
// into the code's text, so the rendered diagnostic is the same as with a literal.
// docs/error-codes.md is checked against the table by tools/diag_codes.py (ctest diag_catalogue).
#pragma once

#include <string>
#include <string_view>

#include "base/diagnostic.h"

namespace nki::diag {

enum class Id : int {
#define DIAG(code, kind, severity, message, hint, since, source) code,
#include "base/diag_codes.def"
#undef DIAG
  kCount
};

struct CodeInfo {
  const char* name;      // the code as reported, e.g. "err_tensor_access_out_of_bound"
  const char* kind;      // official, rule, current, runtime, limit, tool, python
  Severity severity;     // the severity its sites report
  const char* message;   // message format; {field}s are filled at the site
  const char* hint;      // hint format (may be empty)
  const char* since;     // first release documenting it (err_* and rule codes)
  const char* source;    // the doc page stating the rule
};

inline constexpr CodeInfo kCatalogue[] = {
#define DIAG(code, kind, severity, message, hint, since, source) \
  {#code, #kind, Severity::severity, message, hint, since, source},
#include "base/diag_codes.def"
#undef DIAG
};
static_assert(sizeof(kCatalogue) / sizeof(kCatalogue[0]) == static_cast<size_t>(Id::kCount));

constexpr const CodeInfo& info(Id id) { return kCatalogue[static_cast<int>(id)]; }

// A catalogue row, as passed to the diagnostic helpers (nki_error, current_error, fail, ...).
class CodeRef {
 public:
  constexpr explicit CodeRef(Id id) : id_(id) {}
  constexpr Id id() const { return id_; }
  constexpr const CodeInfo& info() const { return diag::info(id_); }
  constexpr const char* name() const { return info().name; }
  operator std::string() const { return name(); }  // NOLINT: the helpers take the code as text

 private:
  Id id_;
};

constexpr const char* name(CodeRef c) { return c.name(); }
inline bool operator==(std::string_view s, CodeRef c) { return s == c.name(); }

// One constant per row: diag::Code::psum_fmax.
namespace Code {
#define DIAG(code, kind, severity, message, hint, since, source) inline constexpr CodeRef code{Id::code};
#include "base/diag_codes.def"
#undef DIAG
}  // namespace Code

// The row of a code's text, or nullptr when the catalogue has none.
inline const CodeInfo* find(std::string_view code) {
  for (const CodeInfo& r : kCatalogue) {
    if (code == r.name) return &r;
  }
  return nullptr;
}

}  // namespace nki::diag
