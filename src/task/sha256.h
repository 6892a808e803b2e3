// SHA-256, used for content-addressed cache keys (golden data). Not for security.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace nki {

class Sha256 {
 public:
  Sha256();
  void update(const void* data, size_t n);
  void update(std::string_view s) { update(s.data(), s.size()); }
  // Adds `s` preceded by its length, so that concatenations of fields cannot collide.
  void update_field(std::string_view s);
  std::array<uint8_t, 32> digest();
  std::string hex_digest();

 private:
  void block(const uint8_t* p);
  uint32_t h_[8];
  uint8_t buf_[64];
  size_t buf_len_ = 0;
  uint64_t total_ = 0;
};

std::string sha256_hex(std::string_view data);

}  // namespace nki
