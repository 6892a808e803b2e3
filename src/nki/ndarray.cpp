#include "nki/ndarray.h"

#include <cmath>

#include "base/diag_codes.h"
#include "nki/api_common.h"

namespace nki::front {

using py::CallArgs;
using py::Interp;
using py::Ref;

namespace {

std::shared_ptr<NdArrayObj> make_array(std::vector<int64_t> shape, DType dt) {
  auto a = std::make_shared<NdArrayObj>();
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  if (n > (int64_t{1} << 26)) nki_error(diag::Code::constant_too_large, "compile-time numpy arrays are limited to 64M elements");
  a->shape = std::move(shape);
  a->dtype = dt;
  a->data.assign(static_cast<size_t>(n), 0.0);
  return a;
}

DType np_dtype(const Ref& r, DType dflt) {
  if (!r || py::is_none(r)) return dflt;
  if (auto* s = py::as_string(r); s && (*s == "float64" || *s == "double")) return DType::Float32;
  if (auto* p = dynamic_cast<py::PlaceholderObj*>(r.get()); p && (p->name == "numpy.float64" || p->name == "numpy.int64"))
    return p->name == "numpy.float64" ? DType::Float32 : DType::Int32;
  return need_dtype(r, "numpy", "dtype");
}

std::vector<int64_t> np_shape(Interp& in, const Ref& r) {
  if (auto v = static_int(r)) return {*v};
  std::vector<int64_t> s;
  for (const Ref& x : r->iterate(in)) {
    auto v = static_int(x);
    if (!v || *v < 0) nki_error(diag::Code::invalid_arguments, "numpy shapes must be non-negative integers");
    s.push_back(*v);
  }
  return s;
}

void flatten(Interp& in, const Ref& r, std::vector<int64_t>& shape, std::vector<double>& out, size_t depth) {
  if (auto n = py::as_number(r)) {
    if (depth != shape.size()) nki_error(diag::Code::invalid_arguments, "np.array: ragged nested sequence");
    out.push_back(*n);
    return;
  }
  std::vector<Ref> items = r->iterate(in);
  if (depth == shape.size()) shape.push_back(static_cast<int64_t>(items.size()));
  else if (shape[depth] != static_cast<int64_t>(items.size())) nki_error(diag::Code::invalid_arguments, "np.array: ragged nested sequence");
  for (const Ref& x : items) flatten(in, x, shape, out, depth + 1);
}

}  // namespace

std::string NdArrayObj::repr() const { return "array(shape=" + shape_str(shape) + ", dtype=" + dtype_name(dtype) + ")"; }

Ref NdArrayObj::getattr(Interp& in, const std::string& name) {
  auto self = std::static_pointer_cast<NdArrayObj>(shared_from_this());
  if (name == "shape") {
    std::vector<Ref> d;
    for (int64_t s : shape) d.push_back(py::make_int(s));
    return py::make_tuple(d);
  }
  if (name == "ndim") return py::make_int(static_cast<int64_t>(shape.size()));
  if (name == "size") return py::make_int(static_cast<int64_t>(data.size()));
  if (name == "dtype") return std::make_shared<DTypeObj>(dtype);
  if (name == "T") {
    if (shape.size() != 2) return self;
    auto t = make_array({shape[1], shape[0]}, dtype);
    for (int64_t i = 0; i < shape[0]; ++i)
      for (int64_t j = 0; j < shape[1]; ++j) t->data[j * shape[0] + i] = data[i * shape[1] + j];
    return t;
  }
  if (name == "max" || name == "min" || name == "sum") {
    return make_fn(name, [self, name](Interp&, CallArgs& a) -> Ref {
      if (!a.pos.empty() || !a.kw.empty())
        nki_error(diag::Code::unsupported_numpy, "compile-time numpy ." + name + "() takes no axis or options here");
      if (self->data.empty() && name != "sum") py::raise("ValueError", "zero-size array to reduction operation");
      double r = name == "sum" ? 0.0 : self->data[0];
      for (double x : self->data)
        r = name == "sum" ? r + x : (name == "max" ? std::max(r, x) : std::min(r, x));
      return dtype_is_int(self->dtype) ? py::make_int(static_cast<int64_t>(r)) : py::make_float(r);
    });
  }
  if (name == "astype")
    return make_fn("astype", [self](Interp&, CallArgs& a) -> Ref {
      auto c = std::make_shared<NdArrayObj>(*self);
      c->dtype = np_dtype(a.pos.empty() ? nullptr : a.pos[0], self->dtype);
      return c;
    });
  if (name == "reshape")
    return make_fn("reshape", [self](Interp& in, CallArgs& a) -> Ref {
      std::vector<int64_t> s = a.pos.size() == 1 ? np_shape(in, a.pos[0]) : np_shape(in, py::make_tuple(a.pos));
      int64_t n = 1, neg = -1;
      for (size_t i = 0; i < s.size(); ++i) (void)neg, n *= s[i];
      if (n != static_cast<int64_t>(self->data.size())) nki_error(diag::Code::invalid_arguments, "cannot reshape array of size " + std::to_string(self->data.size()));
      auto c = std::make_shared<NdArrayObj>(*self);
      c->shape = s;
      return c;
    });
  return py::Obj::getattr(in, name);
}

std::vector<Ref> NdArrayObj::iterate(Interp& in) {
  std::vector<Ref> out;
  for (int64_t i = 0; i < len(in); ++i) out.push_back(getitem(in, py::make_int(i)));
  return out;
}

Ref NdArrayObj::getitem(Interp&, const Ref& key) {
  auto i = py::as_int(key);
  if (!i || shape.empty()) nki_error(diag::Code::unsupported_numpy, "compile-time numpy arrays support integer indexing only");
  int64_t n = shape[0], k = *i < 0 ? *i + n : *i;
  if (k < 0 || k >= n) py::raise("IndexError", "index out of range");
  int64_t inner = static_cast<int64_t>(data.size()) / std::max<int64_t>(n, 1);
  if (shape.size() == 1) return dtype_is_int(dtype) ? py::make_int(static_cast<int64_t>(data[k])) : py::make_float(data[k]);
  auto r = make_array(std::vector<int64_t>(shape.begin() + 1, shape.end()), dtype);
  std::copy(data.begin() + k * inner, data.begin() + (k + 1) * inner, r->data.begin());
  return r;
}

Ref NdArrayObj::binop(Interp&, py::Operator op, const Ref& other, bool reflected) {
  // Element-wise arithmetic with a number or an array of the same shape (or a one-element
  // array), as host-side NumPy computes index tables at trace time (nki-samples
  // adaptive_avg_pool2d: (np.arange(OH, dtype=np.int32) * H) // OH).
  auto* arr = dynamic_cast<NdArrayObj*>(other.get());
  auto v = arr ? std::nullopt : py::as_number(other);
  if (!arr && !v) return nullptr;
  if (arr && arr->data.size() != data.size() && arr->data.size() != 1 && data.size() != 1)
    nki_error(diag::Code::unsupported_numpy, "compile-time numpy arrays of shapes " + shape_str(shape) + " and " +
                                       shape_str(arr->shape) + " cannot be combined element-wise here");
  const NdArrayObj& big = arr && data.size() == 1 && arr->data.size() > 1 ? *arr : *this;
  auto r = std::make_shared<NdArrayObj>(big);
  bool ints = dtype_is_int(dtype) && (arr ? dtype_is_int(arr->dtype) : py::as_int(other).has_value());
  // int op int stays int (true division excepted); otherwise the float operand's dtype.
  DType float_type = !dtype_is_int(dtype) ? dtype : (arr && !dtype_is_int(arr->dtype) ? arr->dtype : DType::Float32);
  r->dtype = ints && op != py::Operator::Div ? dtype : float_type;
  for (size_t i = 0; i < r->data.size(); ++i) {
    double x = data.size() == 1 ? data[0] : data[i];
    double y = arr ? (arr->data.size() == 1 ? arr->data[0] : arr->data[i]) : *v;
    double a = reflected ? y : x, b = reflected ? x : y;
    double& out = r->data[i];
    switch (op) {
      case py::Operator::Add: out = a + b; break;
      case py::Operator::Sub: out = a - b; break;
      case py::Operator::Mult: out = a * b; break;
      case py::Operator::Div: out = a / b; break;
      case py::Operator::FloorDiv:
        if (ints && b == 0) py::raise("ZeroDivisionError", "integer division by zero");
        out = std::floor(a / b);
        break;
      case py::Operator::Mod:
        if (ints && b == 0) py::raise("ZeroDivisionError", "integer modulo by zero");
        out = a - std::floor(a / b) * b;
        break;
      case py::Operator::Pow: out = std::pow(a, b); break;
      default: return nullptr;
    }
  }
  return r;
}

void add_numpy_arrays(py::ModuleObj& np) {
  auto eye = [](const std::string& name) {
    return make_fn(name, [name](Interp&, CallArgs& a) -> Ref {
      Ref dt = a.take("dtype");
      Ref mref = name == "eye" ? a.take("M", 1) : nullptr;
      Ref nref = a.take(name == "eye" ? "N" : "n", 0);
      auto n = nref ? static_int(nref) : std::nullopt;
      if (!n || *n <= 0) nki_error(diag::Code::invalid_arguments, "np." + name + " needs a positive size");
      int64_t m = mref && !py::is_none(mref) ? static_int(mref).value_or(*n) : *n;
      auto r = make_array({*n, m}, np_dtype(dt, DType::Float32));
      for (int64_t i = 0; i < std::min(*n, m); ++i) r->data[i * m + i] = 1.0;
      return r;
    });
  };
  np.set("eye", eye("eye"));
  np.set("identity", eye("identity"));
  auto filled = [](const std::string& name, std::optional<double> value) {
    return make_fn(name, [name, value](Interp& in, CallArgs& a) -> Ref {
      Ref dt = a.take("dtype", value ? 1 : 2);
      Ref shape = a.take("shape", 0);
      if (!shape) nki_error(diag::Code::invalid_arguments, "np." + name + " needs a shape");
      double v = 0.0;
      if (value) v = *value;
      else {
        Ref f = a.take("fill_value", 1);
        auto fv = f ? py::as_number(f) : std::nullopt;
        if (!fv) nki_error(diag::Code::invalid_arguments, "np.full needs a numeric fill_value");
        v = *fv;
      }
      auto r = make_array(np_shape(in, shape), np_dtype(dt, DType::Float32));
      std::fill(r->data.begin(), r->data.end(), v);
      return r;
    });
  };
  np.set("zeros", filled("zeros", 0.0));
  np.set("ones", filled("ones", 1.0));
  np.set("full", filled("full", std::nullopt));
  np.set("arange", make_fn("arange", [](Interp&, CallArgs& a) -> Ref {
    Ref dt = a.take("dtype");
    std::vector<double> v;
    for (const Ref& r : a.pos) {
      auto x = py::as_number(r);
      if (!x) nki_error(diag::Code::invalid_arguments, "np.arange needs numbers");
      v.push_back(*x);
    }
    double start = v.size() > 1 ? v[0] : 0, stop = v.size() > 1 ? v[1] : (v.empty() ? 0 : v[0]), step = v.size() > 2 ? v[2] : 1;
    if (step == 0) nki_error(diag::Code::invalid_arguments, "np.arange step must not be zero");
    int64_t n = std::max<int64_t>(0, static_cast<int64_t>(std::ceil((stop - start) / step)));
    bool all_int = true;
    for (const Ref& r : a.pos) all_int = all_int && py::as_int(r).has_value();
    auto r = make_array({n}, np_dtype(dt, all_int ? DType::Int32 : DType::Float32));
    for (int64_t i = 0; i < n; ++i) r->data[i] = start + static_cast<double>(i) * step;
    return r;
  }));
  np.set("array", make_fn("array", [](Interp& in, CallArgs& a) -> Ref {
    Ref dt = a.take("dtype", 1);
    if (a.pos.empty()) nki_error(diag::Code::invalid_arguments, "np.array needs a sequence");
    if (auto* src = dynamic_cast<NdArrayObj*>(a.pos[0].get())) {
      auto c = std::make_shared<NdArrayObj>(*src);
      c->dtype = np_dtype(dt, src->dtype);
      return c;
    }
    std::vector<int64_t> shape;
    std::vector<double> data;
    flatten(in, a.pos[0], shape, data, 0);
    auto r = make_array(shape, np_dtype(dt, DType::Float32));
    r->data = data;
    return r;
  }));
  np.set("asarray", np.find("array"));
}

}  // namespace nki::front
