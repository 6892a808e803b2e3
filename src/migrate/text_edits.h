// Source-to-source edits over one file's text: byte ranges replaced by new text, applied in one
// pass so that every untouched byte (comments, blank lines, formatting) is kept as it was.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "base/source.h"

namespace nki::migrate {

struct TextEdit {
  size_t begin = 0;  // byte offsets into the original text, half-open
  size_t end = 0;
  std::string text;
};

class EditableText {
 public:
  explicit EditableText(std::string text);
  const std::string& original() const { return text_; }
  // Byte offset of a 1-based (line, byte column) position.
  size_t offset(SourceLoc loc) const;
  size_t offset(int line, int col) const { return offset(SourceLoc{line, col}); }
  size_t line_begin(int line) const;
  size_t line_end_with_newline(int line) const;  // one past the line's '\n' (or the text end)
  std::string indent_of(int line) const;         // the line's leading spaces/tabs
  std::string_view slice(size_t b, size_t e) const { return std::string_view(text_).substr(b, e - b); }

  // Adds an edit; false when it overlaps one already added (the caller reports a conflict).
  bool add(TextEdit e);
  // Replaces [b, e) by `text`, dropping the edits that lie inside it (the caller rendered them
  // into `text` with render()). False when an edit straddles the range.
  bool replace_range(size_t b, size_t e, std::string text);
  // The original text of [b, e) with the edits inside it applied.
  std::string render(size_t b, size_t e) const;
  std::string result() const { return render(0, text_.size()); }

 private:
  std::string text_;
  std::vector<size_t> line_starts_;
  std::vector<TextEdit> edits_;  // sorted by begin, non-overlapping
};

}  // namespace nki::migrate
