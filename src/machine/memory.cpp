#include "machine/memory.h"

#include <sys/mman.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "base/diag_codes.h"
#include "base/dtype_convert.h"
#include "machine/sim_error.h"

namespace nki::machine {

namespace {

bool widened_in_legacy(DType t) {
  return t == DType::BFloat16 || t == DType::TFloat32 || t == DType::Float8E4M3 ||
         t == DType::Float8E5M2;
}

// Writes `v` (already in range and rounded) into n elements of an integer dtype.
// Large buffers (>= 4 MiB) are reserved first and advised to use transparent huge pages before
// the one pass that fills them: on kernels with THP in "madvise" mode this replaces thousands of
// 4 KiB page faults by a few 2 MiB ones (NumPy does the same for its large arrays). The contents
// are unchanged; the advice is a hint and its failure is ignored.
void reserve_large(std::vector<uint8_t>& v, size_t bytes) {
  constexpr size_t kHuge = size_t{2} << 20;
  if (bytes < 2 * kHuge) return;
  v.clear();
  v.reserve(bytes);
#ifdef MADV_HUGEPAGE
  auto begin = reinterpret_cast<uintptr_t>(v.data());
  uintptr_t first = (begin + kHuge - 1) & ~(uintptr_t{kHuge} - 1);
  uintptr_t last = (begin + bytes) & ~(uintptr_t{kHuge} - 1);
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#endif
}

void fill_int(DType t, uint8_t* p, int64_t n, int64_t v) {
  for (int64_t i = 0; i < n; ++i) {
    switch (t) {
      case DType::Bool:
      case DType::UInt8: p[i] = static_cast<uint8_t>(v); break;
      case DType::Int8: reinterpret_cast<int8_t*>(p)[i] = static_cast<int8_t>(v); break;
      case DType::Int16: reinterpret_cast<int16_t*>(p)[i] = static_cast<int16_t>(v); break;
      case DType::UInt16: reinterpret_cast<uint16_t*>(p)[i] = static_cast<uint16_t>(v); break;
      case DType::Int32: reinterpret_cast<int32_t*>(p)[i] = static_cast<int32_t>(v); break;
      case DType::UInt32: reinterpret_cast<uint32_t*>(p)[i] = static_cast<uint32_t>(v); break;
      default: break;
    }
  }
}

// Fills n elements of a float dtype with one fp32 value (converted once, then replicated).
void fill_float(DType t, uint8_t* p, int64_t n, float v) {
  size_t w = dtype_size(t);
  uint8_t one[8];
  convert_f32_to(t, &v, one, 1);
  if (n == 0) return;
  std::memcpy(p, one, w);
  // Doubling copies: O(log n) memcpy calls.
  int64_t done = 1;
  while (done < n) {
    int64_t chunk = std::min(done, n - done);
    std::memcpy(p + done * w, p, static_cast<size_t>(chunk) * w);
    done += chunk;
  }
}

}  // namespace

Memory::Memory(const ir::Kernel& k, const RunOptions& opt)
    : k_(k),
      numerics_(opt.numerics),
      track_(opt.warn_uninit),
      elide_(opt.elide_copies),
      max_bytes_(opt.max_bytes) {
  size_t n = k.tensors.size();
  root_.assign(n, -1);
  view_dtype_.assign(n, DType::Float32);
  store_.resize(n);
  allocated_.assign(n, false);
  deferred_.assign(n, Deferred{});
  for (size_t t = 0; t < n; ++t) {
    int r = static_cast<int>(t);
    int hops = 0;
    while (k.tensors[r].alias_of >= 0) {
      r = k.tensors[r].alias_of;
      if (r < 0 || r >= static_cast<int>(n) || ++hops > static_cast<int>(n))
        throw_sim_error(k, k.tensors[t].loc, diag::Code::sim_bad_ir,
                        "tensor '" + k.tensors[t].name + "' has an invalid alias chain");
    }
    root_[t] = r;
  }
  // A root keeps its real layout in LegacySim mode when some view reinterprets its bits.
  std::vector<bool> reinterpreted(n, false);
  for (size_t t = 0; t < n; ++t)
    if (k.tensors[t].dtype != k.tensors[root_[t]].dtype) reinterpreted[root_[t]] = true;
  for (size_t t = 0; t < n; ++t) {
    int r = root_[t];
    DType rd = k.tensors[r].dtype;
    DType sd = rd;
    if (numerics_ == Numerics::LegacySim && widened_in_legacy(rd) && !reinterpreted[r])
      sd = DType::Float32;
    view_dtype_[t] = (k.tensors[t].dtype == rd) ? sd : k.tensors[t].dtype;
    int64_t bytes = ir::element_count(k.tensors[t].shape) *
                    static_cast<int64_t>(dtype_size(k.tensors[t].dtype));
    int64_t root_bytes = ir::element_count(k.tensors[r].shape) *
                         static_cast<int64_t>(dtype_size(rd));
    if (bytes > root_bytes)
      throw_sim_error(k, k.tensors[t].loc, diag::Code::sim_bad_ir,
                      "view '" + k.tensors[t].name + "' is larger than its base tensor '" +
                          k.tensors[r].name + "'");
  }
}

bool Memory::is_persistent(int t) const {
  const ir::TensorDecl& d = k_.tensors[root_[t]];
  return d.role == ir::TensorRole::Parameter || d.role == ir::TensorRole::Output ||
         d.role == ir::TensorRole::Constant || d.buffer == ir::Buffer::SharedHbm;
}

void Memory::allocate(int t) {
  if (allocated_[t]) return;
  const ir::TensorDecl& d = k_.tensors[t];
  Storage& s = store_[t];
  s.dtype = view_dtype_[t];
  s.elements = ir::element_count(d.shape);
  int64_t bytes = s.elements * static_cast<int64_t>(dtype_size(s.dtype));
  if (track_) bytes += s.elements;
  if (in_use_ + bytes > max_bytes_)
    throw_sim_error(k_, d.loc, kMemoryLimitCode,
                    "simulating tensor '" + d.name + "' needs " + std::to_string(bytes) +
                        " bytes; with the " + std::to_string(in_use_) +
                        " bytes already held by the kernel's other tensors, that is over the "
                        "simulator memory limit of " + std::to_string(max_bytes_) + " bytes",
                    "shrink the problem, or raise the limit (--sim-memory MIB)");
  in_use_ += bytes;
  // Float storage starts as all-ones bytes, a NaN in every float format (the uninitialised
  // pattern), so a fresh tensor needs no second pass.
  s.fresh_nan = dtype_is_float(s.dtype);
  reserve_large(s.bytes, static_cast<size_t>(s.elements * dtype_size(s.dtype)));
  s.bytes.assign(static_cast<size_t>(s.elements * dtype_size(s.dtype)), s.fresh_nan ? 0xFF : 0);
  s.ptr = s.bytes.data();
  if (track_) s.written.assign(static_cast<size_t>(s.elements), 0);
  allocated_[t] = true;
}

void Memory::borrow(int t, const uint8_t* data) {
  Storage& s = store_[t];
  s.dtype = view_dtype_[t];
  s.elements = ir::element_count(k_.tensors[t].shape);
  s.ptr = const_cast<uint8_t*>(data);  // never written: the kernel has no store into it
  s.borrowed = true;
  if (track_) s.written.assign(static_cast<size_t>(s.elements), 1);
  allocated_[t] = true;
}

std::vector<uint8_t> Memory::take_bytes(int t) {
  Storage& s = store_[t];
  if (s.borrowed || root_[t] != t) return {};
  s.ptr = nullptr;
  return std::move(s.bytes);
}

void Memory::fill_uninit(Storage& s) {
  if (dtype_is_float(s.dtype)) {
    if (!s.fresh_nan)
      std::memset(s.ptr, 0xFF, static_cast<size_t>(s.elements) * dtype_size(s.dtype));
  } else {
    fill_int(s.dtype, s.ptr, s.elements, kUninitIntSentinel);
  }
  s.fresh_nan = false;
  if (track_) std::fill(s.written.begin(), s.written.end(), 0);
}

void Memory::initialise(int t) {
  if (root_[t] != t) return;  // views never initialise their base
  Storage& s = store_[t];
  if (s.borrowed) return;
  if (!deferred_roots_.empty()) {  // overwritten entirely: drop its deferred copy
    if (deferred_[t].src >= 0) {
      deferred_[t] = Deferred{};
      deferred_roots_.erase(std::find(deferred_roots_.begin(), deferred_roots_.end(), t));
    }
    materialize_readers_of(t);
  }
  const ir::TensorDecl& d = k_.tensors[t];
  if (d.role == ir::TensorRole::Constant && !d.const_data.empty()) {
    int64_t want = s.elements * static_cast<int64_t>(dtype_size(d.dtype));
    if (static_cast<int64_t>(d.const_data.size()) != want)
      throw_sim_error(k_, d.loc, diag::Code::sim_bad_ir,
                      "constant '" + d.name + "' has " + std::to_string(d.const_data.size()) +
                          " bytes of data, expected " + std::to_string(want));
    s.fresh_nan = false;
    convert(d.dtype, d.const_data.data(), s.dtype, s.ptr,
            static_cast<size_t>(s.elements));
    if (track_) std::fill(s.written.begin(), s.written.end(), 1);
    return;
  }
  if (d.init == ir::TensorInit::Uninitialized) {
    fill_uninit(s);
    return;
  }
  s.fresh_nan = false;
  double v = d.init == ir::TensorInit::Zeros ? 0.0 : d.fill_value;
  if (dtype_is_float(s.dtype)) {
    fill_float(s.dtype, s.ptr, s.elements, static_cast<float>(v));
  } else {
    // Integers: round half to even, then saturate (spec §7.3).
    double r = std::nearbyint(v);
    double lo = 0, hi = 1;
    switch (s.dtype) {
      case DType::Bool: r = (v != 0.0) ? 1 : 0; break;
      case DType::Int8: lo = -128; hi = 127; break;
      case DType::Int16: lo = -32768; hi = 32767; break;
      case DType::Int32: lo = -2147483648.0; hi = 2147483647.0; break;
      case DType::UInt8: lo = 0; hi = 255; break;
      case DType::UInt16: lo = 0; hi = 65535; break;
      case DType::UInt32: lo = 0; hi = 4294967295.0; break;
      default: break;
    }
    if (s.dtype != DType::Bool) r = std::isnan(r) ? 0 : std::min(std::max(r, lo), hi);
    fill_int(s.dtype, s.ptr, s.elements, static_cast<int64_t>(r));
  }
  if (track_) std::fill(s.written.begin(), s.written.end(), 1);
}

void Memory::allocate_persistent() {
  for (size_t t = 0; t < k_.tensors.size(); ++t) {
    int id = static_cast<int>(t);
    if (root_[t] != id || !is_persistent(id) || allocated_[t]) continue;
    allocate(id);
    initialise(id);
  }
}

void Memory::begin_instance() {
  // Every deferred copy targets an on-chip (per-instance) root, which is re-initialised below.
  for (int r : deferred_roots_) deferred_[r] = Deferred{};
  deferred_roots_.clear();
  for (size_t t = 0; t < k_.tensors.size(); ++t) {
    int id = static_cast<int>(t);
    if (root_[t] != id || is_persistent(id)) continue;
    allocate(id);
    initialise(id);
  }
}

void Memory::alias_to(int dst_root, int src_root, int64_t src_base) {
  materialize_readers_of(dst_root);  // they still need the old contents
  if (deferred_[dst_root].src < 0) deferred_roots_.push_back(dst_root);
  deferred_[dst_root] = Deferred{src_root, src_base};
  store_[dst_root].fresh_nan = false;
}

void Memory::materialize(int r) {
  Deferred d = deferred_[r];
  if (d.src < 0) return;
  deferred_[r] = Deferred{};
  deferred_roots_.erase(std::find(deferred_roots_.begin(), deferred_roots_.end(), r));
  const Storage& from = store_[d.src];
  Storage& to = store_[r];
  const size_t es = dtype_size(to.dtype);
  std::memcpy(to.ptr, from.ptr + d.base * static_cast<int64_t>(es),
              static_cast<size_t>(to.elements) * es);
}

void Memory::materialize_readers_of(int r) {
  for (size_t i = 0; i < deferred_roots_.size();) {
    int d = deferred_roots_[i];
    if (deferred_[d].src == r)
      materialize(d);  // removes d from the list
    else
      ++i;
  }
}

void Memory::prepare_write(int t) {
  if (deferred_roots_.empty()) return;
  int r = root_[t];
  materialize(r);
  materialize_readers_of(r);
}

uint8_t* Memory::read_data(int t, int64_t* shift, int* store_root) {
  int r = root_[t];
  const Deferred& d = deferred_[r];
  if (d.src >= 0) {
    if (view_dtype_[t] == store_[r].dtype) {
      *shift = d.base;
      *store_root = d.src;
      return store_[d.src].ptr;
    }
    materialize(r);  // a view reinterpreting the bits addresses another element width
  }
  *shift = 0;
  *store_root = r;
  return store_[r].ptr;
}

void Memory::materialize_all() {
  while (!deferred_roots_.empty()) materialize(deferred_roots_.back());
}

uint8_t* Memory::shadow(int t) {
  if (!track_) return nullptr;
  if (dtype_size(view_dtype_[t]) != dtype_size(store_[root_[t]].dtype)) return nullptr;
  return store_[root_[t]].written.data();
}

void Memory::check_scratch(int64_t bytes, const std::string& what) const {
  if (in_use_ + bytes > max_bytes_)
    throw_sim_error(k_, SourceLoc{}, kMemoryLimitCode,
                    what + " needs " + std::to_string(bytes) + " bytes of scratch; with the " +
                        std::to_string(in_use_) + " bytes held by the kernel's tensors, that is "
                        "over the simulator memory limit of " + std::to_string(max_bytes_) + " bytes");
}

}  // namespace nki::machine
