#include "task/golden_cache_integrity.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/diagnostic.h"
#include "base/file_bytes.h"
#include "task/sha256.h"

namespace nki {

namespace fs = std::filesystem;

namespace {

constexpr mode_t kSharedDirMode = 0755;
constexpr mode_t kSharedFileMode = 0644;

std::vector<uint8_t> read_bytes(const std::string& path) { return read_file_bytes(path); }

std::string hex_of(const std::vector<uint8_t>& bytes) {
  Sha256 h;
  h.update(bytes.data(), bytes.size());
  return h.hex_digest();
}

void set_mode(const std::string& path, mode_t mode) {
  if (::chmod(path.c_str(), mode) != 0)
    throw IoError(path + ": cannot set permissions: " + std::strerror(errno));
}

// Writes `text` to `path` with mode 0644 whatever the umask.
void write_shared_file(const std::string& path, const std::string& text) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, kSharedFileMode);
  if (fd < 0) throw IoError(path + ": cannot create: " + std::strerror(errno));
  size_t off = 0;
  while (off < text.size()) {
    ssize_t n = ::write(fd, text.data() + off, text.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int err = errno;
      ::close(fd);
      throw IoError(path + ": write failed: " + std::strerror(err));
    }
    off += static_cast<size_t>(n);
  }
  if (::fchmod(fd, kSharedFileMode) != 0 || ::close(fd) != 0)
    throw IoError(path + ": cannot finish writing: " + std::strerror(errno));
}

bool is_hex_digest(const std::string& s) {
  return s.size() == 64 &&
         std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

}  // namespace

void seal_entry(const std::string& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file() && it->path().filename() != kEntryChecksumFile)
      names.push_back(it->path().filename().string());
  }
  if (ec) throw IoError(dir + ": cannot list the new cache entry: " + ec.message());
  if (names.empty()) throw IoError(dir + ": the new cache entry holds no files");
  std::sort(names.begin(), names.end());
  std::ostringstream sums;
  for (const auto& name : names) {
    std::string path = dir + "/" + name;
    sums << hex_of(read_bytes(path)) << "  " << name << "\n";
    set_mode(path, kSharedFileMode);
  }
  write_shared_file(dir + "/" + kEntryChecksumFile, sums.str());
  set_mode(dir, kSharedDirMode);  // mkdtemp made it 0700
}

bool entry_sealed(const std::string& dir) {
  struct stat st {};
  return ::stat((dir + "/" + kEntryChecksumFile).c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

void make_shared_dir(const std::string& dir) { ::chmod(dir.c_str(), kSharedDirMode); }

SealedEntry::SealedEntry(std::string dir) : dir_(std::move(dir)) {
  const std::string path = dir_ + "/" + kEntryChecksumFile;
  std::vector<uint8_t> bytes = read_bytes(path);
  std::istringstream in(std::string(bytes.begin(), bytes.end()));
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    size_t sep = line.find("  ");
    std::string digest = line.substr(0, sep);
    std::string name = sep == std::string::npos ? "" : line.substr(sep + 2);
    if (!is_hex_digest(digest) || name.empty() || name.find('/') != std::string::npos)
      throw IoError(path + ":" + std::to_string(lineno) + ": malformed checksum line");
    sums_[name] = digest;
  }
  if (sums_.empty()) throw IoError(path + ": lists no files");
}

std::vector<uint8_t> SealedEntry::read(const std::string& name) const {
  const std::string path = dir_ + "/" + name;
  auto it = sums_.find(name);
  if (it == sums_.end()) throw IoError(path + ": not listed in " + kEntryChecksumFile);
  std::vector<uint8_t> bytes = read_bytes(path);
  if (hex_of(bytes) != it->second)
    throw IoError(path + ": contents do not match " + kEntryChecksumFile + " (" + std::to_string(bytes.size()) +
                  " bytes; the file was modified or truncated after it was cached)");
  return bytes;
}

}  // namespace nki
