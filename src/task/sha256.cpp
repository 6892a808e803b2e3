#include "task/sha256.h"

#include <openssl/evp.h>

#include <stdexcept>

namespace nki {

namespace {

void require(int ok, const char* what) {
  if (ok != 1) throw std::runtime_error(std::string("OpenSSL SHA-256: ") + what + " failed");
}

}  // namespace

Sha256::Sha256() : ctx_(EVP_MD_CTX_new()) {
  if (!ctx_) throw std::runtime_error("OpenSSL SHA-256: out of memory");
  require(EVP_DigestInit_ex(ctx_, EVP_sha256(), nullptr), "init");
}

Sha256::~Sha256() { EVP_MD_CTX_free(ctx_); }

void Sha256::update(const void* data, size_t n) {
  if (n) require(EVP_DigestUpdate(ctx_, data, n), "update");
}

void Sha256::update_field(std::string_view s) {
  std::string len = std::to_string(s.size()) + ":";
  update(len);
  update(s);
}

std::array<uint8_t, 32> Sha256::digest() {
  std::array<uint8_t, 32> out{};
  unsigned int len = 0;
  require(EVP_DigestFinal_ex(ctx_, out.data(), &len), "final");
  if (len != out.size()) throw std::runtime_error("OpenSSL SHA-256: unexpected digest length");
  return out;
}

std::string Sha256::hex_digest() {
  static const char* kHex = "0123456789abcdef";
  std::string s;
  for (uint8_t b : digest()) {
    s += kHex[b >> 4];
    s += kHex[b & 15];
  }
  return s;
}

std::string sha256_hex(std::string_view data) {
  Sha256 h;
  h.update(data);
  return h.hex_digest();
}

}  // namespace nki
