// numpy.ndarray <-> nki::HostTensor conversions for the _nkisim module.
//
// Native numpy dtypes (float32, float16, int8/16/32, uint8/16/32, bool) map one to one. NKI's
// custom float types have no numpy dtype without ml_dtypes, so the shim represents them as a
// float32 dtype tagged with metadata {"nki_dtype": "bfloat16"} (also float8_e4m3, float8_e5m2,
// tfloat32): the values live in fp32, as in the legacy simulator (spec §7.1). Arrays whose dtype
// is a real ml_dtypes type of the same name are accepted too (raw bits at the real width).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>

#include "base/host_tensor.h"

namespace nkisim {

namespace py = pybind11;

// The shim's stand-in dtype for a custom NKI float type: float32 + metadata.
py::dtype standin_dtype(nki::DType t);

// Converts an array (any layout) to a dense HostTensor. Throws py::type_error for dtypes the
// simulator has no equivalent of (float64 is narrowed to float32, int64 to int32, as the .npy
// reader does, because NumPy produces those by default).
nki::HostTensor to_host_tensor(const py::array& a, const std::string& what);

// Converts a HostTensor to a new array: native dtypes as themselves, custom floats as their
// exact fp32 values in the stand-in dtype.
py::array to_ndarray(const nki::HostTensor& t);

}  // namespace nkisim
