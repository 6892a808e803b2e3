#include "machine/transfer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "base/dtype_convert.h"

namespace nki::machine {

namespace {

constexpr int64_t kChunk = 1024;

// Copies len elements of `es` bytes from a strided source to a dense destination.
void strided_to_dense(const uint8_t* src, int64_t stride, size_t es, int64_t len, uint8_t* dst) {
  switch (es) {
    case 4: {
      auto* s = reinterpret_cast<const uint32_t*>(src);
      auto* d = reinterpret_cast<uint32_t*>(dst);
      for (int64_t i = 0; i < len; ++i) d[i] = s[i * stride];
      break;
    }
    case 2: {
      auto* s = reinterpret_cast<const uint16_t*>(src);
      auto* d = reinterpret_cast<uint16_t*>(dst);
      for (int64_t i = 0; i < len; ++i) d[i] = s[i * stride];
      break;
    }
    default:
      for (int64_t i = 0; i < len; ++i)
        std::memcpy(dst + i * static_cast<int64_t>(es), src + i * stride * static_cast<int64_t>(es),
                    es);
  }
}

void dense_to_strided(const uint8_t* src, size_t es, int64_t len, uint8_t* dst, int64_t stride) {
  switch (es) {
    case 4: {
      auto* s = reinterpret_cast<const uint32_t*>(src);
      auto* d = reinterpret_cast<uint32_t*>(dst);
      for (int64_t i = 0; i < len; ++i) d[i * stride] = s[i];
      break;
    }
    case 2: {
      auto* s = reinterpret_cast<const uint16_t*>(src);
      auto* d = reinterpret_cast<uint16_t*>(dst);
      for (int64_t i = 0; i < len; ++i) d[i * stride] = s[i];
      break;
    }
    default:
      for (int64_t i = 0; i < len; ++i)
        std::memcpy(dst + i * stride * static_cast<int64_t>(es), src + i * static_cast<int64_t>(es),
                    es);
  }
}

void zero_inactive(const View& v, const uint8_t* mask, size_t width, void* out) {
  if (mask == nullptr && v.dropped.empty()) return;
  auto* o = static_cast<uint8_t*>(out);
  int64_t n = v.count();
  for (int64_t f = 0; f < n; ++f) {
    bool active = (mask == nullptr || mask[f]) &&
                  (v.dropped.empty() || !v.dropped[static_cast<size_t>(f)]);
    if (!active) std::memset(o + f * static_cast<int64_t>(width), 0, width);
  }
}

bool check_shadow(const View& v, int64_t off, int64_t stride, int64_t len) {
  if (v.shadow == nullptr) return false;
  for (int64_t i = 0; i < len; ++i)
    if (!v.shadow[off + i * stride]) return true;
  return false;
}

void mark_shadow(const View& v, int64_t off, int64_t stride, int64_t len) {
  if (v.shadow == nullptr) return;
  for (int64_t i = 0; i < len; ++i) v.shadow[off + i * stride] = 1;
}

int64_t f32_to_i64(float x) {
  if (std::isnan(x)) return 0;
  double r = std::nearbyint(static_cast<double>(x));
  if (r >= 9.2233720368547758e18) return std::numeric_limits<int64_t>::max();
  if (r <= -9.2233720368547758e18) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(r);
}

int64_t load_int(DType t, const uint8_t* p) {
  switch (t) {
    case DType::Bool:
    case DType::UInt8: return *p;
    case DType::Int8: return *reinterpret_cast<const int8_t*>(p);
    case DType::Int16: { int16_t x; std::memcpy(&x, p, 2); return x; }
    case DType::UInt16: { uint16_t x; std::memcpy(&x, p, 2); return x; }
    case DType::Int32: { int32_t x; std::memcpy(&x, p, 4); return x; }
    case DType::UInt32: { uint32_t x; std::memcpy(&x, p, 4); return x; }
    default: return 0;
  }
}

void store_int(DType t, uint8_t* p, int64_t v) {
  switch (t) {
    case DType::Bool:
    case DType::UInt8: *p = static_cast<uint8_t>(v); break;
    case DType::Int8: *reinterpret_cast<int8_t*>(p) = static_cast<int8_t>(v); break;
    case DType::Int16: { auto x = static_cast<int16_t>(v); std::memcpy(p, &x, 2); break; }
    case DType::UInt16: { auto x = static_cast<uint16_t>(v); std::memcpy(p, &x, 2); break; }
    case DType::Int32: { auto x = static_cast<int32_t>(v); std::memcpy(p, &x, 4); break; }
    case DType::UInt32: { auto x = static_cast<uint32_t>(v); std::memcpy(p, &x, 4); break; }
    default: break;
  }
}

int64_t ir_count(const std::vector<int64_t>& s) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return n;
}

}  // namespace

int64_t saturate_int(DType t, int64_t v) {
  switch (t) {
    case DType::Bool: return v != 0 ? 1 : 0;
    case DType::Int8: return std::clamp<int64_t>(v, -128, 127);
    case DType::Int16: return std::clamp<int64_t>(v, -32768, 32767);
    case DType::Int32: return std::clamp<int64_t>(v, INT32_MIN, INT32_MAX);
    case DType::UInt8: return std::clamp<int64_t>(v, 0, 255);
    case DType::UInt16: return std::clamp<int64_t>(v, 0, 65535);
    case DType::UInt32: return std::clamp<int64_t>(v, 0, UINT32_MAX);
    default: return v;
  }
}

bool gather_f32(const View& v, const uint8_t* mask, float* out) {
  bool uninit = false;
  const int64_t es = static_cast<int64_t>(v.elem_size);
  for_each_run(v, mask, [&](int64_t flat, int64_t off, int64_t stride, int64_t len) {
    if (v.shadow) uninit |= check_shadow(v, off, stride, len);
    const uint8_t* src = v.data + off * es;
    if (stride == 1 || len == 1) {
      convert_to_f32(v.dtype, src, out + flat, static_cast<size_t>(len));
      return;
    }
    uint8_t tmp[kChunk * 4];
    for (int64_t i = 0; i < len; i += kChunk) {
      int64_t n = std::min(kChunk, len - i);
      strided_to_dense(src + i * stride * es, stride, v.elem_size, n, tmp);
      convert_to_f32(v.dtype, tmp, out + flat + i, static_cast<size_t>(n));
    }
  });
  zero_inactive(v, mask, sizeof(float), out);
  return uninit;
}

void scatter_f32(const View& v, const uint8_t* mask, const float* in) {
  const int64_t es = static_cast<int64_t>(v.elem_size);
  for_each_run(v, mask, [&](int64_t flat, int64_t off, int64_t stride, int64_t len) {
    mark_shadow(v, off, stride, len);
    uint8_t* dst = v.data + off * es;
    if (stride == 1 || len == 1) {
      convert_f32_to(v.dtype, in + flat, dst, static_cast<size_t>(len));
      return;
    }
    uint8_t tmp[kChunk * 4];
    for (int64_t i = 0; i < len; i += kChunk) {
      int64_t n = std::min(kChunk, len - i);
      convert_f32_to(v.dtype, in + flat + i, tmp, static_cast<size_t>(n));
      dense_to_strided(tmp, v.elem_size, n, dst + i * stride * es, stride);
    }
  });
}

bool gather_i64(const View& v, const uint8_t* mask, int64_t* out) {
  bool uninit = false;
  const int64_t es = static_cast<int64_t>(v.elem_size);
  const bool is_float = dtype_is_float(v.dtype);
  for_each_run(v, mask, [&](int64_t flat, int64_t off, int64_t stride, int64_t len) {
    if (v.shadow) uninit |= check_shadow(v, off, stride, len);
    for (int64_t i = 0; i < len; ++i) {
      const uint8_t* p = v.data + (off + i * stride) * es;
      if (is_float) {
        float x;
        convert_to_f32(v.dtype, p, &x, 1);
        out[flat + i] = f32_to_i64(x);
      } else {
        out[flat + i] = load_int(v.dtype, p);
      }
    }
  });
  zero_inactive(v, mask, sizeof(int64_t), out);
  return uninit;
}

void scatter_i64(const View& v, const uint8_t* mask, const int64_t* in) {
  const int64_t es = static_cast<int64_t>(v.elem_size);
  const bool is_float = dtype_is_float(v.dtype);
  for_each_run(v, mask, [&](int64_t flat, int64_t off, int64_t stride, int64_t len) {
    mark_shadow(v, off, stride, len);
    for (int64_t i = 0; i < len; ++i) {
      uint8_t* p = v.data + (off + i * stride) * es;
      if (is_float) {
        float x = static_cast<float>(in[flat + i]);
        convert_f32_to(v.dtype, &x, p, 1);
      } else {
        store_int(v.dtype, p, saturate_int(v.dtype, in[flat + i]));
      }
    }
  });
}

bool copy_raw_direct(const View& src, const View& dst) {
  if (!src.indirect.empty() || !dst.indirect.empty() || !src.dropped.empty() ||
      !dst.dropped.empty() || src.shadow || dst.shadow || src.data == dst.data ||
      src.shape != dst.shape || src.elem_size != dst.elem_size)
    return false;
  // Joint collapse: drop size-1 dims, merge a dim into the previous one when both views allow.
  std::vector<int64_t> shape, ss, ds;
  for (size_t j = 0; j < src.shape.size(); ++j) {
    const int64_t n = src.shape[j];
    if (n == 0) return true;
    if (n == 1) continue;
    if (!shape.empty() && ss.back() == src.strides[j] * n && ds.back() == dst.strides[j] * n) {
      shape.back() *= n;
      ss.back() = src.strides[j];
      ds.back() = dst.strides[j];
    } else {
      shape.push_back(n);
      ss.push_back(src.strides[j]);
      ds.push_back(dst.strides[j]);
    }
  }
  if (shape.empty()) {
    shape = {1};
    ss = {1};
    ds = {1};
  }
  const size_t outer = shape.size() - 1;
  const int64_t len = shape[outer], sst = ss[outer], dst_st = ds[outer];
  const int64_t es = static_cast<int64_t>(src.elem_size);
  std::vector<int64_t> idx(outer, 0);
  int64_t so = src.base, d_o = dst.base;
  const int64_t total = ir_count(shape);
  for (int64_t done = 0; done < total; done += len) {
    const uint8_t* sp = src.data + so * es;
    uint8_t* dp = dst.data + d_o * es;
    if (sst == 1 && dst_st == 1) {
      std::memcpy(dp, sp, static_cast<size_t>(len * es));
    } else if (sst == 1) {
      dense_to_strided(sp, src.elem_size, len, dp, dst_st);
    } else if (dst_st == 1) {
      strided_to_dense(sp, sst, src.elem_size, len, dp);
    } else {
      for (int64_t i = 0; i < len; ++i)
        std::memcpy(dp + i * dst_st * es, sp + i * sst * es, src.elem_size);
    }
    for (size_t d = outer; d-- > 0;) {
      so += ss[d];
      d_o += ds[d];
      if (++idx[d] < shape[d]) break;
      so -= ss[d] * shape[d];
      d_o -= ds[d] * shape[d];
      idx[d] = 0;
    }
  }
  return true;
}

bool gather_raw(const View& v, const uint8_t* mask, uint8_t* out) {
  bool uninit = false;
  const int64_t es = static_cast<int64_t>(v.elem_size);
  for_each_run(v, mask, [&](int64_t flat, int64_t off, int64_t stride, int64_t len) {
    if (v.shadow) uninit |= check_shadow(v, off, stride, len);
    const uint8_t* src = v.data + off * es;
    if (stride == 1 || len == 1)
      std::memcpy(out + flat * es, src, static_cast<size_t>(len * es));
    else
      strided_to_dense(src, stride, v.elem_size, len, out + flat * es);
  });
  zero_inactive(v, mask, v.elem_size, out);
  return uninit;
}

void scatter_raw(const View& v, const uint8_t* mask, const uint8_t* in) {
  const int64_t es = static_cast<int64_t>(v.elem_size);
  for_each_run(v, mask, [&](int64_t flat, int64_t off, int64_t stride, int64_t len) {
    mark_shadow(v, off, stride, len);
    uint8_t* dst = v.data + off * es;
    if (stride == 1 || len == 1)
      std::memcpy(dst, in + flat * es, static_cast<size_t>(len * es));
    else
      dense_to_strided(in + flat * es, v.elem_size, len, dst, stride);
  });
}

}  // namespace nki::machine
