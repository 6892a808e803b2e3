// A small host-side NumPy array stand-in for compile-time constants inside kernels
// (np.eye / np.identity / np.zeros / np.ones / np.full / np.arange / np.array, feeding
// nl.shared_constant). Values are held as doubles; `dtype` records the requested element type
// (float64 requests are narrowed to float32, the widest NKI float).
#pragma once

#include <vector>

#include "base/dtype.h"
#include "lang/value.h"

namespace nki::front {

struct NdArrayObj : py::Obj {
  std::vector<int64_t> shape;
  std::vector<double> data;  // row-major
  DType dtype = DType::Float32;

  std::string type_name() const override { return "numpy.ndarray"; }
  std::string repr() const override;
  py::Ref getattr(py::Interp& in, const std::string& name) override;
  py::Ref getitem(py::Interp& in, const py::Ref& key) override;
  py::Ref binop(py::Interp& in, py::Operator op, const py::Ref& other, bool reflected) override;
  int64_t len(py::Interp& in) override { return shape.empty() ? 0 : shape[0]; }
  std::vector<py::Ref> iterate(py::Interp& in) override;
};

// Adds the array constructors to the numpy stand-in module.
void add_numpy_arrays(py::ModuleObj& np);

}  // namespace nki::front
