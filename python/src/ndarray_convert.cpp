#include "ndarray_convert.h"

#include <cstring>
#include <optional>
#include <vector>

#include "base/dtype_convert.h"

namespace nkisim {

namespace {

// The NKI custom float named by a dtype's metadata tag or by its ml_dtypes name.
std::optional<nki::DType> custom_float(const py::dtype& dt, bool* tagged) {
  *tagged = false;
  py::object meta = dt.attr("metadata");
  if (!meta.is_none()) {
    py::dict m = meta.cast<py::dict>();
    if (m.contains("nki_dtype")) {
      *tagged = true;
      return nki::parse_dtype(m["nki_dtype"].cast<std::string>());
    }
  }
  std::string name = py::str(dt.attr("name"));
  if (name == "bfloat16" || name == "float8_e4m3" || name == "float8_e5m2")
    return nki::parse_dtype(name);
  return std::nullopt;
}

std::optional<nki::DType> native_dtype(char kind, size_t size) {
  switch (kind) {
    case 'b': return nki::DType::Bool;
    case 'f':
      if (size == 2) return nki::DType::Float16;
      if (size == 4 || size == 8) return nki::DType::Float32;
      break;
    case 'i':
      if (size == 1) return nki::DType::Int8;
      if (size == 2) return nki::DType::Int16;
      if (size == 4 || size == 8) return nki::DType::Int32;
      break;
    case 'u':
      if (size == 1) return nki::DType::UInt8;
      if (size == 2) return nki::DType::UInt16;
      if (size == 4 || size == 8) return nki::DType::UInt32;
      break;
  }
  return std::nullopt;
}

}  // namespace

py::dtype standin_dtype(nki::DType t) {
  py::dict meta;
  meta["nki_dtype"] = nki::dtype_name(t);
  return py::module_::import("numpy").attr("dtype")("float32", py::arg("metadata") = meta);
}

nki::HostTensor to_host_tensor(const py::array& input, const std::string& what) {
  py::dtype dt = input.dtype();
  nki::HostTensor t;
  for (py::ssize_t i = 0; i < input.ndim(); ++i) t.shape.push_back(input.shape(i));
  size_t n = static_cast<size_t>(t.element_count());

  bool tagged = false;
  if (std::optional<nki::DType> cf = custom_float(dt, &tagged)) {
    t.dtype = *cf;
    t.data.resize(n * nki::dtype_size(t.dtype));
    if (tagged) {  // fp32 values: round once into the real format
      auto f = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(input);
      nki::convert_f32_to(t.dtype, f.data(), t.data.data(), n);
    } else {       // ml_dtypes array: raw bits at the real width
      py::array c = py::module_::import("numpy").attr("ascontiguousarray")(input);
      std::memcpy(t.data.data(), c.data(), t.data.size());
    }
    return t;
  }

  char kind = dt.kind();
  size_t size = static_cast<size_t>(dt.itemsize());
  std::optional<nki::DType> nd = native_dtype(kind, size);
  if (!nd)
    throw py::type_error(what + ": numpy dtype '" + std::string(py::str(dt)) + "' has no NKI equivalent");
  t.dtype = *nd;
  t.data.resize(n * nki::dtype_size(t.dtype));
  py::module_ np = py::module_::import("numpy");
  if (size == 8) {  // float64/int64/uint64: narrow the way NumPy's astype does
    const char* target = kind == 'f' ? "float32" : kind == 'i' ? "int32" : "uint32";
    py::array c = np.attr("ascontiguousarray")(input, py::arg("dtype") = target);
    std::memcpy(t.data.data(), c.data(), t.data.size());
  } else {
    py::array c = np.attr("ascontiguousarray")(input);
    std::memcpy(t.data.data(), c.data(), t.data.size());
  }
  if (t.dtype == nki::DType::Bool)
    for (uint8_t& b : t.data) b = b ? 1 : 0;
  return t;
}

py::array to_ndarray(const nki::HostTensor& t) {
  std::vector<py::ssize_t> shape(t.shape.begin(), t.shape.end());
  size_t n = static_cast<size_t>(t.element_count());
  py::dtype dt;
  switch (t.dtype) {
    case nki::DType::Bool: dt = py::dtype("bool"); break;
    case nki::DType::Int8: dt = py::dtype("int8"); break;
    case nki::DType::Int16: dt = py::dtype("int16"); break;
    case nki::DType::Int32: dt = py::dtype("int32"); break;
    case nki::DType::UInt8: dt = py::dtype("uint8"); break;
    case nki::DType::UInt16: dt = py::dtype("uint16"); break;
    case nki::DType::UInt32: dt = py::dtype("uint32"); break;
    case nki::DType::Float16: dt = py::dtype("float16"); break;
    case nki::DType::Float32: dt = py::dtype("float32"); break;
    default: {  // custom floats: exact fp32 values in the stand-in dtype
      py::array out(standin_dtype(t.dtype), shape);
      nki::convert_to_f32(t.dtype, t.data.data(), static_cast<float*>(out.mutable_data()), n);
      return out;
    }
  }
  py::array out(dt, shape);
  std::memcpy(out.mutable_data(), t.data.data(), t.data.size());
  return out;
}

}  // namespace nkisim
