#include "base/source.h"

#include <atomic>
#include <fstream>
#include <mutex>
#include <sstream>
#include <vector>

#include "base/diagnostic.h"
#include "base/source_registry.h"

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

namespace {
// Ids are encoded in line numbers (source_registry.h): at most this many fit an int.
constexpr size_t kMaxRegistered = (static_cast<size_t>(1) << 31) / kRegisteredLineStride - 1;
std::atomic<size_t> g_registered{0};  // lets the common case (nothing registered) skip the lock
std::mutex g_registry_mutex;
std::vector<SourceFilePtr>& registry() {
  static std::vector<SourceFilePtr> files;  // id = index + 1
  return files;
}
}  // namespace

int register_source_file(const SourceFilePtr& file) {
  std::lock_guard<std::mutex> lock(g_registry_mutex);
  auto& files = registry();
  for (size_t i = 0; i < files.size(); ++i)
    if (files[i].get() == file.get() || (files[i]->path() == file->path() && files[i]->text() == file->text()))
      return static_cast<int>(i) + 1;
  if (files.size() >= kMaxRegistered) return 0;  // diagnostics then point at the main file
  files.push_back(file);
  g_registered.store(files.size());
  return static_cast<int>(files.size());
}

int registered_source_id(const SourceFile* file) {
  if (g_registered.load() == 0) return 0;
  std::lock_guard<std::mutex> lock(g_registry_mutex);
  auto& files = registry();
  for (size_t i = 0; i < files.size(); ++i)
    if (files[i].get() == file) return static_cast<int>(i) + 1;
  return 0;
}

SourceFilePtr registered_source_file(int id) {
  std::lock_guard<std::mutex> lock(g_registry_mutex);
  auto& files = registry();
  if (id < 1 || id > static_cast<int>(files.size())) return nullptr;
  return files[static_cast<size_t>(id) - 1];
}

}  // namespace nki
