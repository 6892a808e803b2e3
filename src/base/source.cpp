#include "base/source.h"

#include <fstream>
#include <sstream>

#include "base/diagnostic.h"

namespace nki {

SourceFile::SourceFile(std::string path, std::string text)
    : path_(std::move(path)), text_(std::move(text)) {
  line_starts_.push_back(0);
  for (size_t i = 0; i < text_.size(); ++i) {
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
  }
}

std::string_view SourceFile::line_text(int line) const {
  if (line < 1 || line > line_count()) return {};
  size_t begin = line_starts_[line - 1];
  size_t end = line < line_count() ? line_starts_[line] : text_.size();
  std::string_view s(text_);
  s = s.substr(begin, end - begin);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

SourceFilePtr load_source_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError("cannot open '" + path + "'");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw IoError("cannot read '" + path + "'");
  return std::make_shared<SourceFile>(path, ss.str());
}

}  // namespace nki
