#include "migrate/text_edits.h"

#include <algorithm>

namespace nki::migrate {

EditableText::EditableText(std::string text) : text_(std::move(text)) {
  line_starts_.push_back(0);
  for (size_t i = 0; i < text_.size(); ++i)
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
}

size_t EditableText::line_begin(int line) const {
  if (line < 1) return 0;
  if (static_cast<size_t>(line) > line_starts_.size()) return text_.size();
  return line_starts_[static_cast<size_t>(line) - 1];
}

size_t EditableText::offset(SourceLoc loc) const {
  return std::min(text_.size(), line_begin(loc.line) + static_cast<size_t>(std::max(loc.col, 1) - 1));
}

size_t EditableText::line_end_with_newline(int line) const {
  if (static_cast<size_t>(line) >= line_starts_.size()) return text_.size();
  return line_starts_[static_cast<size_t>(line)];
}

std::string EditableText::indent_of(int line) const {
  size_t b = line_begin(line), e = b;
  while (e < text_.size() && (text_[e] == ' ' || text_[e] == '\t')) ++e;
  return text_.substr(b, e - b);
}

bool EditableText::add(TextEdit e) {
  auto it = std::lower_bound(edits_.begin(), edits_.end(), e.begin,
                             [](const TextEdit& x, size_t b) { return x.begin < b; });
  if (it != edits_.end() && it->begin < std::max(e.end, e.begin + 1)) return false;
  if (it != edits_.begin()) {
    auto prev = std::prev(it);
    if (prev->end > e.begin || (prev->begin == e.begin)) return false;
  }
  edits_.insert(it, std::move(e));
  return true;
}

bool EditableText::replace_range(size_t b, size_t e, std::string text) {
  for (const TextEdit& x : edits_)
    if ((x.begin < b && x.end > b) || (x.begin < e && x.end > e)) return false;
  edits_.erase(std::remove_if(edits_.begin(), edits_.end(),
                              [&](const TextEdit& x) { return x.begin >= b && x.end <= e && !(x.begin == e && x.end == e); }),
               edits_.end());
  return add(TextEdit{b, e, std::move(text)});
}

std::string EditableText::render(size_t b, size_t e) const {
  std::string out;
  size_t pos = b;
  for (const TextEdit& x : edits_) {
    if (x.begin < b || x.end > e) continue;
    if (x.begin == e && x.end == e && e != text_.size()) continue;  // an insertion at the end belongs after the range
    out.append(text_, pos, x.begin - pos);
    out += x.text;
    pos = x.end;
  }
  out.append(text_, pos, e - pos);
  return out;
}

}  // namespace nki::migrate
