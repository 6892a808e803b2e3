// A compact binary encoding of what an isolated compile or run sends back to its parent
// (sandbox/isolate.h): diagnostics and host tensors. Both ends are the same binary, so the format
// only needs to be unambiguous, not stable; the reader still checks every length, so a truncated
// message is an error, never an out-of-bounds read.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "base/host_tensor.h"

namespace nki::toolchain::wire {

struct DecodeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Writer {
 public:
  void u64(uint64_t v);
  void i64(int64_t v) { u64(static_cast<uint64_t>(v)); }
  void str(const std::string& s);
  void bytes(const std::vector<uint8_t>& b);
  void diagnostics(const std::vector<Diagnostic>& ds);
  void tensors(const std::vector<HostTensor>& ts);
  // Like tensors(), but a tensor identical to base[i] is sent as a one-word reference to it:
  // the kernel's arguments after a run are nearly always unchanged and the parent holds them.
  void tensors_against(const std::vector<HostTensor>& ts, const std::vector<HostTensor>& base);
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(const std::string& in) : in_(in) {}
  uint64_t u64();
  int64_t i64() { return static_cast<int64_t>(u64()); }
  std::string str();
  std::vector<uint8_t> bytes();
  std::vector<Diagnostic> diagnostics();
  std::vector<HostTensor> tensors();
  // Reads what Writer::tensors_against wrote, copying referenced tensors from `base`.
  std::vector<HostTensor> tensors_against(const std::vector<HostTensor>& base);
  bool at_end() const { return pos_ == in_.size(); }

 private:
  const char* take(size_t n);
  const std::string& in_;
  size_t pos_ = 0;
};

}  // namespace nki::toolchain::wire
