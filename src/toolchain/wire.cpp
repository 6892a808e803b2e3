#include "toolchain/wire.h"

#include <cstring>

namespace nki::toolchain::wire {

void Writer::u64(uint64_t v) {
  char b[8];
  for (int i = 0; i < 8; ++i) b[i] = static_cast<char>((v >> (8 * i)) & 0xff);
  out_.append(b, 8);
}

void Writer::str(const std::string& s) {
  u64(s.size());
  out_ += s;
}

void Writer::bytes(const std::vector<uint8_t>& b) {
  u64(b.size());
  out_.append(reinterpret_cast<const char*>(b.data()), b.size());
}

void Writer::diagnostics(const std::vector<Diagnostic>& ds) {
  u64(ds.size());
  for (const Diagnostic& d : ds) {
    u64(static_cast<uint64_t>(d.severity));
    str(d.code);
    str(d.message);
    str(d.file);
    i64(d.line);
    i64(d.col);
    str(d.hint);
    str(d.source_line);
  }
}

void Writer::tensors(const std::vector<HostTensor>& ts) {
  size_t need = 8;
  for (const HostTensor& t : ts) need += 8 * (3 + t.shape.size()) + t.data.size();
  out_.reserve(out_.size() + need);  // one allocation for MB-sized outputs, not a doubling series
  u64(ts.size());
  for (const HostTensor& t : ts) {
    u64(static_cast<uint64_t>(t.dtype));
    u64(t.shape.size());
    for (int64_t d : t.shape) i64(d);
    bytes(t.data);
  }
}

namespace {

constexpr uint64_t kSentInFull = 0;
constexpr uint64_t kSameAsBase = 1;

bool same_tensor(const HostTensor& a, const HostTensor& b) {
  return a.dtype == b.dtype && a.shape == b.shape && a.data == b.data;
}

}  // namespace

void Writer::tensors_against(const std::vector<HostTensor>& ts, const std::vector<HostTensor>& base) {
  u64(ts.size());
  for (size_t i = 0; i < ts.size(); ++i) {
    if (i < base.size() && same_tensor(ts[i], base[i])) {
      u64(kSameAsBase);
      continue;
    }
    u64(kSentInFull);
    tensors({ts[i]});
  }
}

const char* Reader::take(size_t n) {
  if (n > in_.size() - pos_) throw DecodeError("truncated isolated-process message");
  const char* p = in_.data() + pos_;
  pos_ += n;
  return p;
}

uint64_t Reader::u64() {
  const char* p = take(8);
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= static_cast<uint64_t>(static_cast<unsigned char>(p[i])) << (8 * i);
  return v;
}

std::string Reader::str() {
  uint64_t n = u64();
  if (n > in_.size()) throw DecodeError("bad string length in isolated-process message");
  const char* p = take(static_cast<size_t>(n));
  return std::string(p, static_cast<size_t>(n));
}

std::vector<uint8_t> Reader::bytes() {
  uint64_t n = u64();
  if (n > in_.size()) throw DecodeError("bad byte count in isolated-process message");
  const char* p = take(static_cast<size_t>(n));
  std::vector<uint8_t> b(static_cast<size_t>(n));
  if (n) std::memcpy(b.data(), p, static_cast<size_t>(n));
  return b;
}

std::vector<Diagnostic> Reader::diagnostics() {
  uint64_t n = u64();
  if (n > in_.size()) throw DecodeError("bad diagnostic count in isolated-process message");
  std::vector<Diagnostic> ds(static_cast<size_t>(n));
  for (Diagnostic& d : ds) {
    uint64_t sev = u64();
    if (sev > static_cast<uint64_t>(Severity::Note)) throw DecodeError("bad severity");
    d.severity = static_cast<Severity>(sev);
    d.code = str();
    d.message = str();
    d.file = str();
    d.line = static_cast<int>(i64());
    d.col = static_cast<int>(i64());
    d.hint = str();
    d.source_line = str();
  }
  return ds;
}

std::vector<HostTensor> Reader::tensors() {
  uint64_t n = u64();
  if (n > in_.size()) throw DecodeError("bad tensor count in isolated-process message");
  std::vector<HostTensor> ts(static_cast<size_t>(n));
  for (HostTensor& t : ts) {
    t.dtype = static_cast<DType>(u64());
    uint64_t rank = u64();
    if (rank > 64) throw DecodeError("bad tensor rank in isolated-process message");
    t.shape.resize(static_cast<size_t>(rank));
    for (int64_t& d : t.shape) d = i64();
    t.data = bytes();
  }
  return ts;
}

std::vector<HostTensor> Reader::tensors_against(const std::vector<HostTensor>& base) {
  uint64_t n = u64();
  if (n > in_.size()) throw DecodeError("bad tensor count in isolated-process message");
  std::vector<HostTensor> ts;
  ts.reserve(static_cast<size_t>(n));
  for (uint64_t i = 0; i < n; ++i) {
    uint64_t how = u64();
    if (how == kSameAsBase) {
      if (i >= base.size()) throw DecodeError("tensor reference past the end of the base list");
      ts.push_back(base[static_cast<size_t>(i)]);
    } else if (how == kSentInFull) {
      std::vector<HostTensor> one = tensors();
      if (one.size() != 1) throw DecodeError("bad inline tensor in isolated-process message");
      ts.push_back(std::move(one.front()));
    } else {
      throw DecodeError("bad tensor marker in isolated-process message");
    }
  }
  return ts;
}

}  // namespace nki::toolchain::wire
