#include "base/diagnostic.h"

#include "base/source_registry.h"

#include <cstdio>
#include <sstream>

namespace nki {

const char* severity_name(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "error";
}

Diagnostic make_diagnostic(Severity sev, std::string code, std::string message,
                           const SourceFilePtr& file, SourceLoc loc, std::string hint) {
  Diagnostic d;
  d.severity = sev;
  d.code = std::move(code);
  d.message = std::move(message);
  d.hint = std::move(hint);
  d.line = loc.line;
  d.col = loc.col;
  // A location inside a module the kernel imported names that module's file
  // (base/source_registry.h).
  SourceFilePtr at = registered_file_of(loc) > 0 ? registered_source_file(registered_file_of(loc)) : nullptr;
  if (at) {
    d.line = line_in_file(loc);
    d.file = at->path();
    d.source_line = std::string(at->line_text(d.line));
  } else if (file) {
    d.file = file->path();
    d.source_line = std::string(file->line_text(loc.line));
  }
  return d;
}

std::string render_text(const Diagnostic& d) {
  std::ostringstream out;
  if (!d.file.empty()) {
    out << d.file << ":";
    if (d.line > 0) out << d.line << ":" << (d.col > 0 ? d.col : 1) << ":";
    out << " ";
  }
  out << severity_name(d.severity) << "[" << d.code << "]: " << d.message << "\n";
  if (d.line > 0 && !d.source_line.empty()) {
    out << "    " << d.source_line << "\n";
    out << "    ";
    // Keep tabs so the caret lines up under the same column in a terminal.
    for (int i = 1; i < d.col && i <= static_cast<int>(d.source_line.size()); ++i) {
      out << (d.source_line[i - 1] == '\t' ? '\t' : ' ');
    }
    out << "^\n";
  }
  if (!d.hint.empty()) out << "hint: " << d.hint << "\n";
  return out.str();
}

std::string json_escape(const std::string& s) {
  std::string out;
  out.reserve(s.size() + 2);
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out;
}

std::string render_json(const std::vector<Diagnostic>& diags, bool ok) {
  std::ostringstream out;
  out << "{\"ok\": " << (ok ? "true" : "false") << ", \"diagnostics\": [";
  for (size_t i = 0; i < diags.size(); ++i) {
    const Diagnostic& d = diags[i];
    if (i) out << ", ";
    out << "{\"severity\": \"" << severity_name(d.severity) << "\", \"code\": \""
        << json_escape(d.code) << "\", \"message\": \"" << json_escape(d.message)
        << "\", \"file\": \"" << json_escape(d.file) << "\", \"line\": " << d.line
        << ", \"col\": " << d.col << ", \"hint\": \"" << json_escape(d.hint) << "\"}";
  }
  out << "]}";
  return out.str();
}

}  // namespace nki
