// Source files and positions shared by every layer (parser, tracer, checker, executor).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace nki {

// A position in a source file. Lines are 1-based, columns are 1-based (as in clang diagnostics;
// CPython's ast uses 0-based col_offset, converted where the AST is dumped).
struct SourceLoc {
  int line = 0;
  int col = 0;
  bool valid() const { return line > 0; }
};

// A half-open range [begin, end) of source positions.
struct SourceSpan {
  SourceLoc begin;
  SourceLoc end;
};

// An immutable loaded source file. Owned through shared_ptr so AST nodes, IR and diagnostics
// can refer to it after the loader is gone.
class SourceFile {
 public:
  SourceFile(std::string path, std::string text);

  const std::string& path() const { return path_; }
  const std::string& text() const { return text_; }
  // Text of line `line` (1-based) without its newline; empty when out of range.
  std::string_view line_text(int line) const;
  int line_count() const { return static_cast<int>(line_starts_.size()); }

 private:
  std::string path_;
  std::string text_;
  std::vector<size_t> line_starts_;
};

using SourceFilePtr = std::shared_ptr<const SourceFile>;

// Reads a file; throws nki::IoError with a readable message when it cannot.
SourceFilePtr load_source_file(const std::string& path);

}  // namespace nki
