#include "task/compare.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "base/dtype_convert.h"

namespace nki {

std::string format_index(const std::vector<int64_t>& index) {
  std::string s = "[";
  for (size_t i = 0; i < index.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(index[i]);
  }
  return s + "]";
}

std::string format_shape(const std::vector<int64_t>& shape) { return format_index(shape); }

namespace {

std::vector<int64_t> unravel(int64_t flat, const std::vector<int64_t>& shape) {
  std::vector<int64_t> idx(shape.size(), 0);
  for (size_t d = shape.size(); d-- > 0;) {
    if (shape[d] == 0) break;
    idx[d] = flat % shape[d];
    flat /= shape[d];
  }
  return idx;
}

// Elements are compared a block at a time, so a large output costs no full-size copies
// (fresh pages are what a warm verify mostly paid for, docs/performance.md).
constexpr size_t kBlock = 4096;

// Reads elements [begin, begin + n) as double: floats via their exact fp32 value, integers
// exactly. The caller has checked that the buffer holds the declared shape.
void read_doubles(const HostTensor& t, size_t begin, size_t n, double* out) {
  const uint8_t* p = t.data.data() + begin * dtype_size(t.dtype);
  auto read_int = [&](auto tag) {
    using T = decltype(tag);
    for (size_t i = 0; i < n; ++i) {
      T v;
      std::memcpy(&v, p + i * sizeof(T), sizeof(T));
      out[i] = static_cast<double>(v);
    }
  };
  switch (t.dtype) {
    case DType::Int8: read_int(int8_t{}); break;
    case DType::Int16: read_int(int16_t{}); break;
    case DType::Int32: read_int(int32_t{}); break;
    case DType::UInt8:
    case DType::Bool: read_int(uint8_t{}); break;
    case DType::UInt16: read_int(uint16_t{}); break;
    case DType::UInt32: read_int(uint32_t{}); break;
    default: {
      float f[kBlock];
      convert_to_f32(t.dtype, p, f, n);
      for (size_t i = 0; i < n; ++i) out[i] = f[i];
    }
  }
}

bool holds_shape(const HostTensor& t) {
  return t.data.size() >= static_cast<size_t>(t.element_count()) * dtype_size(t.dtype);
}

}  // namespace

bool element_passes(double actual, double expected, Tolerance tol) {
  if (std::isnan(actual)) return false;
  if (std::isinf(actual) || !std::isfinite(expected)) return actual == expected;
  return std::fabs(actual - expected) <= tol.atol + tol.rtol * std::fabs(expected);
}

std::vector<double> element_values(const HostTensor& t) {
  if (!holds_shape(t)) return {};
  const size_t total = static_cast<size_t>(t.element_count());
  std::vector<double> out(total);
  for (size_t base = 0; base < total; base += kBlock) read_doubles(t, base, std::min(kBlock, total - base), out.data() + base);
  return out;
}

OutputComparison compare_output(const HostTensor& expected, DType expected_dtype,
                                const HostTensor& actual, Tolerance tol, int max_examples) {
  OutputComparison c;
  c.expected_shape = expected.shape;
  c.actual_shape = actual.shape;
  c.expected_dtype = expected_dtype;
  c.actual_dtype = actual.dtype;
  c.tol = tol;
  c.shape_ok = expected.shape == actual.shape;
  c.dtype_ok = expected_dtype == actual.dtype;
  c.elements = expected.element_count();
  if (!c.shape_ok || !c.dtype_ok) return c;  // values are not comparable

  if (!holds_shape(expected) || !holds_shape(actual)) {
    c.shape_ok = false;  // data buffer does not match the declared shape
    return c;
  }
  double err_sq = 0.0, ref_sq = 0.0;
  double e[kBlock], a[kBlock];
  const size_t total = static_cast<size_t>(c.elements);
  for (size_t base = 0; base < total; base += kBlock) {
    const size_t len = std::min(kBlock, total - base);
    read_doubles(expected, base, len, e);
    read_doubles(actual, base, len, a);
    for (size_t k = 0; k < len; ++k) {
      const size_t i = base + k;
      const double ev = e[k], av = a[k];
      bool bad = false;
      bool unwritten = false;
      if (std::isnan(av)) {
        ++c.nan_count;
        bad = true;
        unwritten = std::isfinite(ev);
        if (unwritten && c.never_written++ == 0) {
          c.first_never_written = unravel(static_cast<int64_t>(i), expected.shape);
        }
      } else if (std::isinf(av) || !std::isfinite(ev)) {
        if (std::isinf(av)) ++c.inf_count;
        bad = av != ev;  // +-Inf passes only where the reference has the same infinity
      } else {
        double diff = std::fabs(av - ev);
        err_sq += diff * diff;
        ref_sq += ev * ev;
        if (diff > c.max_abs_err) {
          c.max_abs_err = diff;
          c.max_abs_index = unravel(static_cast<int64_t>(i), expected.shape);
        }
        if (ev != 0.0) c.max_rel_err = std::max(c.max_rel_err, diff / std::fabs(ev));
        double allowed = tol.atol + tol.rtol * std::fabs(ev);
        bad = diff > allowed;
        const double used = allowed > 0 ? diff / allowed : diff > 0 ? HUGE_VAL : 0.0;
        if (used > c.tolerance_used) {
          c.tolerance_used = used;
          c.tolerance_used_index = unravel(static_cast<int64_t>(i), expected.shape);
        }
      }
      if (bad) {
        ++c.mismatches;
        // Unwritten elements are summarised separately; the examples show wrong values.
        if (!unwritten && static_cast<int>(c.examples.size()) < max_examples) {
          c.examples.push_back({unravel(static_cast<int64_t>(i), expected.shape), ev, av});
        }
      }
    }
  }
  c.rel_l2 = ref_sq > 0 ? std::sqrt(err_sq / ref_sq) : std::sqrt(err_sq);
  c.mismatch_fraction = c.elements ? static_cast<double>(c.mismatches) / c.elements : 0.0;
  c.passed = c.mismatches == 0;
  return c;
}

std::optional<InputChange> compare_input(int arg_index, const std::string& name,
                                         const HostTensor& before, const HostTensor& after) {
  InputChange ch;
  ch.arg_index = arg_index;
  ch.name = name;
  if (before.shape != after.shape || before.dtype != after.dtype ||
      before.data.size() != after.data.size()) {
    ch.layout_changed = true;
    return ch;
  }
  size_t width = dtype_size(before.dtype);
  size_t n = width ? before.data.size() / width : 0;
  for (size_t i = 0; i < n; ++i) {
    if (std::memcmp(before.data.data() + i * width, after.data.data() + i * width, width) != 0) {
      ++ch.changed_elements;
    }
  }
  if (ch.changed_elements == 0) return std::nullopt;
  return ch;
}

}  // namespace nki
