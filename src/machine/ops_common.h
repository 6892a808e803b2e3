// Helpers shared by the instruction implementations: loading operands into fp32 / int64
// scratch (or using tensor storage in place when it is already dense fp32), and writing results.
#pragma once

#include <cmath>
#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "ir/ir.h"
#include "machine/access.h"
#include "machine/exec_context.h"
#include "machine/transfer.h"
#include "machine/view.h"

namespace nki::machine {

// An uninitialised scratch array (no zero-fill: gathers overwrite every element).
template <class T>
class Scratch {
 public:
  Scratch() = default;
  explicit Scratch(int64_t n) : p_(new T[static_cast<size_t>(n)]), n_(n) {}
  T* data() { return p_.get(); }
  const T* data() const { return p_.get(); }
  T* begin() { return p_.get(); }
  T* end() { return p_.get() + n_; }
  T& operator[](size_t i) { return p_[i]; }
  const T& operator[](size_t i) const { return p_[i]; }
  int64_t size() const { return n_; }
  void assign(int64_t n, T v) {
    *this = Scratch(n);
    std::fill(begin(), end(), v);
  }

 private:
  std::unique_ptr<T[]> p_;
  int64_t n_ = 0;
};

// Allocates scratch of n elements of T after checking the memory limit.
template <class T>
Scratch<T> scratch(ExecContext& cx, int64_t n) {
  cx.mem.check_scratch(n * static_cast<int64_t>(sizeof(T)), "instruction '" + cx.instr->name + "'");
  return Scratch<T>(n);
}

// Resolves a tensor operand whose iteration space must match `shape` element for element;
// a smaller operand is broadcast NumPy-style.
inline View operand_view(ExecContext& cx, const ir::Access& a, const std::vector<int64_t>& shape,
                         const uint8_t* mask, bool oob_skip = false) {
  // Equal element counts: flat (row-major) indices coincide even if the factorisations differ.
  if (ir::element_count(a.shape) == ir::element_count(shape))
    return resolve(cx, a, mask, oob_skip, Use::Read);
  View v = resolve(cx, a, nullptr, oob_skip, Use::Read);
  return broadcast_view(cx, v, shape);
}

// An fp32 input: a broadcast scalar, tensor storage used in place, or a gathered copy.
struct F32In {
  Scratch<float> buf;
  const float* p = nullptr;
  bool scalar = false;
  int tensor = -1;
};

inline bool same_layout(const View& a, const View& b) {
  return a.base == b.base && a.cshape == b.cshape && a.cstrides == b.cstrides &&
         a.indirect.empty() && b.indirect.empty();
}

// Loads operand `o` over `shape`. `dst` (nullable) is the destination view: storage is only used
// in place when it cannot be overwritten out of order by the result.
inline F32In load_f32(ExecContext& cx, const ir::Operand& o, const std::vector<int64_t>& shape,
                      const uint8_t* mask, const View* dst, bool allow_same_layout = true) {
  F32In in;
  if (o.is_imm) {
    in.buf.assign(1, static_cast<float>(o.imm));
    in.p = in.buf.data();
    in.scalar = true;
    return in;
  }
  View v = operand_view(cx, o.access, shape, mask);
  in.tensor = v.tensor;
  float* direct = mask == nullptr && v.shadow == nullptr ? contiguous_f32(v) : nullptr;
  if (direct && dst && cx.mem.root(dst->tensor) == cx.mem.root(v.tensor) &&
      (!allow_same_layout || !same_layout(v, *dst)))
    direct = nullptr;
  if (direct) {
    in.p = direct;
    return in;
  }
  in.buf = scratch<float>(cx, v.count());
  cx.note_uninit(gather_f32(v, mask, in.buf.data()), v.tensor);
  in.p = in.buf.data();
  return in;
}

struct I64In {
  Scratch<int64_t> buf;
  bool scalar = false;
};

inline I64In load_i64(ExecContext& cx, const ir::Operand& o, const std::vector<int64_t>& shape,
                      const uint8_t* mask) {
  I64In in;
  if (o.is_imm) {
    double r = std::nearbyint(o.imm);
    in.buf.assign(1, static_cast<int64_t>(r));
    in.scalar = true;
    return in;
  }
  View v = operand_view(cx, o.access, shape, mask);
  in.buf = scratch<int64_t>(cx, v.count());
  cx.note_uninit(gather_i64(v, mask, in.buf.data()), v.tensor);
  return in;
}

// Destination for fp32 results: dense fp32 storage written in place, or scratch scattered (with
// the dst dtype cast) by finish().
struct F32Out {
  Scratch<float> buf;
  float* p = nullptr;
  bool direct = false;
};

inline F32Out prepare_out(ExecContext& cx, const View& dst, const uint8_t* mask) {
  F32Out o;
  if (mask == nullptr && dst.shadow == nullptr) {
    if (float* d = contiguous_f32(dst)) {
      o.p = d;
      o.direct = true;
      return o;
    }
  }
  o.buf = scratch<float>(cx, dst.count());
  o.p = o.buf.data();
  return o;
}

inline void finish(const View& dst, const uint8_t* mask, F32Out& o) {
  if (!o.direct) scatter_f32(dst, mask, o.p);
}

inline bool is_int(DType t) { return !dtype_is_float(t); }

// Declared dtype of an operand's tensor (imm operands: nullopt-like Float32 with is_imm set).
inline DType decl_dtype(const ExecContext& cx, const ir::Operand& o) {
  return o.is_imm ? DType::Float32 : cx.k.tensors[static_cast<size_t>(o.access.tensor)].dtype;
}

}  // namespace nki::machine
