// .npy reader/writer. Format: magic "\x93NUMPY", major/minor version bytes, a little-endian
// header length (uint16 for 1.0, uint32 for 2.0/3.0), then an ASCII (3.0: UTF-8) Python dict
// literal {'descr': ..., 'fortran_order': ..., 'shape': (...), } padded with spaces and a
// newline, then the raw array data.
#include "base/npy.h"

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>
#include <sstream>

#include "base/diagnostic.h"
#include "base/dtype_convert.h"
#include "base/file_bytes.h"

namespace nki {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicLen = 6;

[[noreturn]] void fail(const std::string& name, const std::string& problem) {
  throw IoError(name + ": invalid .npy file: " + problem);
}

// How the stored elements map onto a HostTensor.
enum class StoredKind { Native, Float64, Int64, UInt64 };

struct Descr {
  DType dtype = DType::Float32;  // resulting HostTensor dtype
  StoredKind kind = StoredKind::Native;
  size_t item_size = 4;          // bytes per stored element
};

struct Header {
  Descr descr;
  std::vector<int64_t> shape;
};

Descr parse_descr(const std::string& s, const std::string& name) {
  if (s.size() < 2) fail(name, "unsupported dtype '" + s + "'");
  const char order = s[0];
  const std::string code = s.substr(1);
  if (code == "O") fail(name, "object arrays are not supported (dtype '" + s + "')");
  struct Row {
    const char* code;
    DType dtype;
    StoredKind kind;
    size_t size;
  };
  static const Row kRows[] = {
      {"f2", DType::Float16, StoredKind::Native, 2},  {"f4", DType::Float32, StoredKind::Native, 4},
      {"f8", DType::Float32, StoredKind::Float64, 8}, {"i1", DType::Int8, StoredKind::Native, 1},
      {"i2", DType::Int16, StoredKind::Native, 2},    {"i4", DType::Int32, StoredKind::Native, 4},
      {"i8", DType::Int32, StoredKind::Int64, 8},     {"u1", DType::UInt8, StoredKind::Native, 1},
      {"u2", DType::UInt16, StoredKind::Native, 2},   {"u4", DType::UInt32, StoredKind::Native, 4},
      {"u8", DType::UInt32, StoredKind::UInt64, 8},   {"b1", DType::Bool, StoredKind::Native, 1},
  };
  for (const auto& r : kRows) {
    if (code != r.code) continue;
    if (order == '>' && r.size > 1) fail(name, "big-endian data is not supported (dtype '" + s + "')");
    if (order != '<' && order != '|' && order != '=' && order != '>') break;
    return Descr{r.dtype, r.kind, r.size};
  }
  fail(name, "unsupported dtype '" + s + "'");
}

// A tiny parser for the header dict literal. It accepts exactly what NumPy writes (any key
// order, either quote style, optional trailing commas) and nothing else.
class HeaderParser {
 public:
  HeaderParser(std::string_view text, const std::string& name) : t_(text), name_(name) {}

  Header parse() {
    std::optional<std::string> descr;
    std::optional<bool> fortran;
    std::optional<std::vector<int64_t>> shape;
    skip_ws();
    expect('{');
    while (true) {
      skip_ws();
      if (peek() == '}') { ++i_; break; }
      std::string key = parse_string();
      skip_ws();
      expect(':');
      skip_ws();
      if (key == "descr") {
        if (peek() == '[') fail(name_, "structured arrays are not supported");
        descr = parse_string();
      } else if (key == "fortran_order") {
        fortran = parse_bool();
      } else if (key == "shape") {
        shape = parse_shape();
      } else {
        fail(name_, "unexpected key '" + key + "' in header");
      }
      skip_ws();
      if (peek() == ',') { ++i_; continue; }
      if (peek() == '}') { ++i_; break; }
      error("expected ',' or '}'");
    }
    skip_ws();
    if (i_ != t_.size()) error("unexpected text after the header dict");
    if (!descr) fail(name_, "header has no 'descr'");
    if (!fortran) fail(name_, "header has no 'fortran_order'");
    if (!shape) fail(name_, "header has no 'shape'");
    if (*fortran) fail(name_, "fortran_order=True arrays are not supported (save a C-ordered array)");
    return Header{parse_descr(*descr, name_), *shape};
  }

 private:
  [[noreturn]] void error(const std::string& what) {
    fail(name_, "malformed header (" + what + " at offset " + std::to_string(i_) + ")");
  }
  char peek() const { return i_ < t_.size() ? t_[i_] : '\0'; }
  void skip_ws() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t' || t_[i_] == '\n' || t_[i_] == '\r')) ++i_;
  }
  void expect(char c) {
    if (peek() != c) error(std::string("expected '") + c + "'");
    ++i_;
  }
  std::string parse_string() {
    const char q = peek();
    if (q != '\'' && q != '"') error("expected a quoted string");
    ++i_;
    const size_t start = i_;
    while (i_ < t_.size() && t_[i_] != q) ++i_;
    if (i_ >= t_.size()) error("unterminated string");
    return std::string(t_.substr(start, i_++ - start));
  }
  bool parse_bool() {
    if (t_.substr(i_, 4) == "True") { i_ += 4; return true; }
    if (t_.substr(i_, 5) == "False") { i_ += 5; return false; }
    error("expected True or False");
  }
  std::vector<int64_t> parse_shape() {
    std::vector<int64_t> dims;
    expect('(');
    while (true) {
      skip_ws();
      if (peek() == ')') { ++i_; break; }
      if (peek() < '0' || peek() > '9') error("expected a non-negative integer dimension");
      int64_t v = 0;
      while (peek() >= '0' && peek() <= '9') {
        if (v > (std::numeric_limits<int64_t>::max() - 9) / 10) error("dimension too large");
        v = v * 10 + (t_[i_++] - '0');
      }
      if (peek() == 'L') ++i_;  // Python 2 long suffix, written by very old NumPy
      dims.push_back(v);
      skip_ws();
      if (peek() == ',') { ++i_; continue; }
      if (peek() == ')') { ++i_; break; }
      error("expected ',' or ')' in shape");
    }
    return dims;
  }

  std::string_view t_;
  const std::string& name_;
  size_t i_ = 0;
};

uint32_t read_le(const uint8_t* p, size_t n) {
  uint32_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= static_cast<uint32_t>(p[i]) << (8 * i);
  return v;
}

template <typename Wide, typename Narrow>
void narrow_ints(const uint8_t* src, Narrow* dst, size_t n, const std::string& name) {
  for (size_t i = 0; i < n; ++i) {
    Wide v;
    std::memcpy(&v, src + i * sizeof(Wide), sizeof(Wide));
    if (v < static_cast<Wide>(std::numeric_limits<Narrow>::min()) ||
        v > static_cast<Wide>(std::numeric_limits<Narrow>::max())) {
      fail(name, "64-bit integer value " + std::to_string(v) + " at flat index " + std::to_string(i) +
                     " does not fit in " + (std::is_signed_v<Narrow> ? "int32" : "uint32"));
    }
    dst[i] = static_cast<Narrow>(v);
  }
}

const char* descr_for(DType t) {
  switch (t) {
    case DType::Bool: return "|b1";
    case DType::Int8: return "|i1";
    case DType::Int16: return "<i2";
    case DType::Int32: return "<i4";
    case DType::UInt8: return "|u1";
    case DType::UInt16: return "<u2";
    case DType::UInt32: return "<u4";
    case DType::Float16: return "<f2";
    default: return "<f4";  // float32, and the float32 image of bf16 / tf32 / fp8
  }
}

std::string shape_literal(const std::vector<int64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

}  // namespace

namespace {

// Where the elements of a .npy image are and how they are stored, after every header check.
struct NpyLayout {
  Header header;
  size_t data_off = 0;
  size_t count = 0;
};

NpyLayout parse_layout(const std::vector<uint8_t>& bytes, const std::string& name) {
  if (bytes.size() < kMagicLen + 2 || std::memcmp(bytes.data(), kMagic, kMagicLen) != 0) {
    fail(name, "bad magic (not a NumPy .npy file)");
  }
  const int major = bytes[6], minor = bytes[7];
  if (major < 1 || major > 3) {
    fail(name, "unsupported format version " + std::to_string(major) + "." + std::to_string(minor));
  }
  const size_t len_bytes = major == 1 ? 2 : 4;
  const size_t prefix = kMagicLen + 2 + len_bytes;
  if (bytes.size() < prefix) fail(name, "file ends inside the header length field");
  const size_t header_len = read_le(bytes.data() + kMagicLen + 2, len_bytes);
  if (bytes.size() - prefix < header_len) {
    fail(name, "header length " + std::to_string(header_len) + " runs past the end of the file");
  }
  std::string_view text(reinterpret_cast<const char*>(bytes.data() + prefix), header_len);
  Header h = HeaderParser(text, name).parse();

  // Element count with overflow checking; the data must then fit in the file anyway.
  uint64_t count = 1;
  const uint64_t limit = (bytes.size() - prefix - header_len) / h.descr.item_size;
  bool too_big = false;
  for (int64_t d : h.shape) {
    if (d != 0 && count > std::numeric_limits<uint64_t>::max() / static_cast<uint64_t>(d)) too_big = true;
    count *= static_cast<uint64_t>(d);
  }
  const size_t data_off = prefix + header_len;
  const size_t available = bytes.size() - data_off;
  if (too_big || count > limit) {
    fail(name, "truncated data: shape " + shape_literal(h.shape) + " needs " +
                   (too_big ? std::string("more") : std::to_string(count * h.descr.item_size)) +
                   " bytes after the header, the file has " + std::to_string(available));
  }
  return NpyLayout{h, data_off, static_cast<size_t>(count)};
}

HostTensor decode_copy(const std::vector<uint8_t>& bytes, const NpyLayout& layout, const std::string& name) {
  const Header& h = layout.header;
  HostTensor t;
  t.dtype = h.descr.dtype;
  t.shape = h.shape;
  const size_t n = layout.count;
  const uint8_t* src = bytes.data() + layout.data_off;
  t.data.resize(n * dtype_size(t.dtype));
  switch (h.descr.kind) {
    case StoredKind::Native:
      if (n) std::memcpy(t.data.data(), src, n * h.descr.item_size);
      if (t.dtype == DType::Bool) {
        for (auto& b : t.data) b = b != 0;
      }
      break;
    case StoredKind::Float64: {
      float* dst = reinterpret_cast<float*>(t.data.data());
      for (size_t i = 0; i < n; ++i) {
        double v;
        std::memcpy(&v, src + i * 8, 8);
        dst[i] = static_cast<float>(v);  // RNE; out of range -> +-inf
      }
      break;
    }
    case StoredKind::Int64:
      narrow_ints<int64_t>(src, reinterpret_cast<int32_t*>(t.data.data()), n, name);
      break;
    case StoredKind::UInt64:
      narrow_ints<uint64_t>(src, reinterpret_cast<uint32_t*>(t.data.data()), n, name);
      break;
  }
  return t;
}

}  // namespace

HostTensor decode_npy(const std::vector<uint8_t>& bytes, const std::string& name) {
  return decode_copy(bytes, parse_layout(bytes, name), name);
}

HostTensor decode_npy(std::vector<uint8_t>&& bytes, const std::string& name) {
  NpyLayout layout = parse_layout(bytes, name);
  const Header& h = layout.header;
  if (h.descr.kind != StoredKind::Native || h.descr.dtype == DType::Bool) return decode_copy(bytes, layout, name);
  // Native elements: slide them to the front of the file image and keep its buffer.
  const size_t size = layout.count * h.descr.item_size;
  if (size) std::memmove(bytes.data(), bytes.data() + layout.data_off, size);
  bytes.resize(size);
  HostTensor t;
  t.dtype = h.descr.dtype;
  t.shape = h.shape;
  t.data = std::move(bytes);
  return t;
}

HostTensor read_npy(const std::string& path) {
  return decode_npy(read_file_bytes(path), path);
}

std::vector<uint8_t> encode_npy(const HostTensor& t, const NpyWriteOptions& opts) {
  for (int64_t d : t.shape) {
    if (d < 0) throw IoError("cannot write .npy: negative dimension in shape " + shape_literal(t.shape));
  }
  const size_t n = static_cast<size_t>(t.element_count());
  if (t.data.size() != n * dtype_size(t.dtype)) {
    throw IoError("cannot write .npy: tensor of shape " + shape_literal(t.shape) + " and dtype " +
                  dtype_name(t.dtype) + " holds " + std::to_string(t.data.size()) +
                  " bytes, expected " + std::to_string(n * dtype_size(t.dtype)));
  }
  const bool raw_bf16 = opts.bf16_as_raw_bits && t.dtype == DType::BFloat16;
  const char* descr = raw_bf16 ? "<u2" : descr_for(t.dtype);
  std::string header = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': " +
                       shape_literal(t.shape) + ", }";
  // Pad with spaces so that the data starts on a 64-byte boundary; the header ends in '\n'.
  size_t prefix = kMagicLen + 2 + 2;
  int major = 1;
  if (header.size() + 1 + 64 > 0xffff) {
    major = 2;
    prefix = kMagicLen + 2 + 4;
  }
  const size_t total = (prefix + header.size() + 1 + 63) / 64 * 64;
  header.append(total - prefix - header.size() - 1, ' ');
  header.push_back('\n');

  std::vector<uint8_t> out(kMagic, kMagic + kMagicLen);
  out.push_back(static_cast<uint8_t>(major));
  out.push_back(0);
  const size_t hl = header.size();
  for (size_t i = 0; i < (major == 1 ? 2u : 4u); ++i) out.push_back(static_cast<uint8_t>(hl >> (8 * i)));
  out.insert(out.end(), header.begin(), header.end());

  const bool as_f32 = !raw_bf16 && dtype_is_float(t.dtype) && t.dtype != DType::Float16 &&
                      t.dtype != DType::Float32;
  if (as_f32) {
    const size_t off = out.size();
    out.resize(off + n * 4);
    std::vector<float> tmp(n);
    convert_to_f32(t.dtype, t.data.data(), tmp.data(), n);
    if (n) std::memcpy(out.data() + off, tmp.data(), n * 4);
  } else {
    out.insert(out.end(), t.data.begin(), t.data.end());
  }
  return out;
}

void write_npy(const std::string& path, const HostTensor& t, const NpyWriteOptions& opts) {
  std::vector<uint8_t> bytes = encode_npy(t, opts);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw IoError(path + ": cannot open .npy file for writing");
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  out.flush();
  if (!out) throw IoError(path + ": write error");
}

}  // namespace nki
