// Diagnostics: the one format every user-facing error uses (CLI text, --json, agent tool output).
//
// Text form (docs/cli-contract.md, shared/docs/cli-contract.md):
//   FILE:LINE:COL: error[CODE]: MESSAGE
//     <source line>
//     ^
//   hint: HINT
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "base/source.h"

namespace nki {

enum class Severity { Error, Warning, Note };

struct Diagnostic {
  Severity severity = Severity::Error;
  std::string code;     // documented err_* code, or a stable project code (e.g. "syntax")
  std::string message;
  std::string file;
  int line = 0;         // 1-based; 0 when the diagnostic has no location
  int col = 0;          // 1-based
  std::string hint;     // may be empty
  std::string source_line;  // the text of `line`, filled from the SourceFile when known
};

const char* severity_name(Severity s);

// Builds a diagnostic located at `loc` in `file` (source_line filled in).
Diagnostic make_diagnostic(Severity sev, std::string code, std::string message,
                           const SourceFilePtr& file, SourceLoc loc, std::string hint = {});

// Renders one diagnostic: the first line exactly `FILE:LINE:COL: error[CODE]: MESSAGE`, then the
// source line with a caret, then `hint: ...` when there is a hint.
std::string render_text(const Diagnostic& d);
// Renders {"ok": ok, "diagnostics": [...]} as compact JSON.
std::string render_json(const std::vector<Diagnostic>& diags, bool ok);

// Thrown by any layer for a user-facing compile/runtime error; carries the diagnostic.
class DiagnosticError : public std::runtime_error {
 public:
  explicit DiagnosticError(Diagnostic d) : std::runtime_error(d.message), diag_(std::move(d)) {}
  const Diagnostic& diagnostic() const { return diag_; }
  Diagnostic& diagnostic() { return diag_; }

 private:
  Diagnostic diag_;
};

// Usage or I/O problem (CLI exit code 2).
class IoError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Escapes a string for inclusion in JSON.
std::string json_escape(const std::string& s);

}  // namespace nki
