#include "base/file_bytes.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "base/diagnostic.h"

namespace nki {

namespace {

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

std::vector<uint8_t> read_file_bytes(const std::string& path) {
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) throw IoError(path + ": cannot read file: " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) throw IoError(path + ": cannot stat file: " + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw IoError(path + ": is a directory");
  std::vector<uint8_t> bytes(st.st_size > 0 ? static_cast<size_t>(st.st_size) : 0);
  size_t off = 0;
  for (;;) {
    if (off == bytes.size()) {
      // The size was a hint (a file that grows, or /proc): keep reading until end of file.
      uint8_t probe[4096];
      ssize_t n = ::read(fd.get(), probe, sizeof probe);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw IoError(path + ": read error: " + std::strerror(errno));
      if (n == 0) break;
      bytes.insert(bytes.end(), probe, probe + n);
      off = bytes.size();
      continue;
    }
    ssize_t n = ::read(fd.get(), bytes.data() + off, bytes.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw IoError(path + ": read error: " + std::strerror(errno));
    if (n == 0) {  // shrank since fstat
      bytes.resize(off);
      break;
    }
    off += static_cast<size_t>(n);
  }
  return bytes;
}

}  // namespace nki
