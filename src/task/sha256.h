// SHA-256, used for content-addressed cache keys and the golden cache's integrity sums. Not for
// security. Backed by OpenSSL's EVP digests, which use the CPU's SHA extensions where present
// (a warm verify hashes every cached input and output, several MB per task).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

struct evp_md_ctx_st;  // OpenSSL's EVP_MD_CTX, kept out of this header

namespace nki {

class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;

  void update(const void* data, size_t n);
  void update(std::string_view s) { update(s.data(), s.size()); }
  // Adds `s` preceded by its length, so that concatenations of fields cannot collide.
  void update_field(std::string_view s);
  // Finishes the digest; the object must not be updated afterwards.
  std::array<uint8_t, 32> digest();
  std::string hex_digest();

 private:
  evp_md_ctx_st* ctx_;
};

std::string sha256_hex(std::string_view data);

}  // namespace nki
