// Integrity and sharing of golden cache entries.
//
// Every entry carries SHA256SUMS, one "<sha256 hex>  <file name>" line per file (the format of
// `sha256sum`, so `cd ENTRY && sha256sum -c SHA256SUMS` checks it by hand). It is written last,
// inside the temporary directory, before the entry is renamed into place; its presence marks a
// complete entry. Readers check each file against it, so a flipped byte or a truncated file is
// detected instead of being trusted as reference data.
//
// Entries are made readable by everyone (directories 0755, files 0644, set explicitly so a
// restrictive umask cannot make a shared cache unreadable for other users).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace nki {

constexpr const char* kEntryChecksumFile = "SHA256SUMS";

// Hashes every regular file in `dir` (a finished, unpublished entry), writes SHA256SUMS and sets
// the modes above on the directory and its files. Throws nki::IoError on any failure.
void seal_entry(const std::string& dir);

// True when `dir` holds SHA256SUMS (a complete entry; its contents are checked on read).
bool entry_sealed(const std::string& dir);

// Sets mode 0755 on a directory of the cache created by this process (a shared cache needs other
// users to traverse it). Failure is ignored: the directory may belong to someone else.
void make_shared_dir(const std::string& dir);

// A sealed entry whose files are read through their checksums.
class SealedEntry {
 public:
  // Reads SHA256SUMS; throws nki::IoError when it is missing or malformed.
  explicit SealedEntry(std::string dir);

  // The bytes of `name`, after checking them against SHA256SUMS. Throws nki::IoError naming the
  // file when it is missing, unlisted, or its contents differ.
  std::vector<uint8_t> read(const std::string& name) const;

  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
  std::map<std::string, std::string> sums_;  // file name -> lower-case hex digest
};

}  // namespace nki
