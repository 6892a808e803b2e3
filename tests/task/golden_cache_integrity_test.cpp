// Sealing a golden cache entry (SHA256SUMS + shared modes) and reading it back through the
// checksums, without torch: every kind of damage is an IoError naming the file.
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "base/diagnostic.h"
#include "task/golden_cache_integrity.h"
#include "task/sha256.h"

namespace nki {
namespace {

namespace fs = std::filesystem;

class SealedEntryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/nki_seal_test_XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);  // mode 0700, like a fresh cache temporary
    dir_ = tmpl;
    write("out0.npy", std::string("\x93NUMPY payload\x00\x01", 16));
    write("meta.json", "{}");
  }
  void TearDown() override { fs::remove_all(dir_); }

  void write(const std::string& name, const std::string& bytes) {
    std::ofstream(dir_ + "/" + name, std::ios::binary) << bytes;
  }
  std::string read_error(const std::string& name) {
    try {
      SealedEntry(dir_).read(name);
    } catch (const IoError& e) {
      return e.what();
    }
    return "(no error)";
  }

  std::string dir_;
};

mode_t mode_of(const std::string& p) {
  struct stat st {};
  ::stat(p.c_str(), &st);
  return st.st_mode & 07777;
}

TEST_F(SealedEntryTest, SealWritesSha256sumLinesAndSharedModes) {
  mode_t old_mask = ::umask(077);
  seal_entry(dir_);
  ::umask(old_mask);
  std::ifstream in(dir_ + "/SHA256SUMS");
  std::string sums((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(sums, sha256_hex("{}") + "  meta.json\n" +
                      sha256_hex(std::string("\x93NUMPY payload\x00\x01", 16)) + "  out0.npy\n");
  EXPECT_TRUE(entry_sealed(dir_));
  EXPECT_EQ(mode_of(dir_), 0755u);
  for (const char* f : {"out0.npy", "meta.json", "SHA256SUMS"}) EXPECT_EQ(mode_of(dir_ + "/" + f), 0644u) << f;
  EXPECT_EQ(SealedEntry(dir_).read("meta.json"), (std::vector<uint8_t>{'{', '}'}));
}

TEST_F(SealedEntryTest, EveryKindOfDamageIsAnIoErrorNamingTheFile) {
  EXPECT_FALSE(entry_sealed(dir_));
  EXPECT_THROW(SealedEntry{dir_}, IoError);  // no SHA256SUMS yet
  seal_entry(dir_);

  write("out0.npy", std::string("\x93NUMPY payload\x00\x02", 16));  // one byte differs
  EXPECT_NE(read_error("out0.npy").find(dir_ + "/out0.npy: contents do not match SHA256SUMS (16 bytes"),
            std::string::npos)
      << read_error("out0.npy");
  write("out0.npy", std::string("\x93NUMPY", 6));  // truncated
  EXPECT_NE(read_error("out0.npy").find("contents do not match"), std::string::npos);
  fs::remove(dir_ + "/out0.npy");
  EXPECT_NE(read_error("out0.npy").find(dir_ + "/out0.npy: cannot read file"), std::string::npos);
  write("arg9.npy", "x");
  EXPECT_NE(read_error("arg9.npy").find("arg9.npy: not listed in SHA256SUMS"), std::string::npos);

  write("SHA256SUMS", "not a checksum line\n");
  EXPECT_NE(read_error("meta.json").find("SHA256SUMS:1: malformed checksum line"), std::string::npos);
  write("SHA256SUMS", "");
  EXPECT_NE(read_error("meta.json").find("SHA256SUMS: lists no files"), std::string::npos);
}

}  // namespace
}  // namespace nki
