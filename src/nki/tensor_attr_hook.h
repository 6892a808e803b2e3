// A seam for another NKI dialect's tensor attributes: when the evaluator is also a
// TensorAttrProvider (the current-dialect tracer, src/nki_current), TensorObj::getattr asks it
// first, so `t.ap(...)`, `t.strides` and the NkiTensor view methods live with that front end and
// the 2.24 attributes stay unchanged.
#pragma once

#include <string>

#include "lang/value.h"

namespace nki::front {

struct TensorObj;

struct TensorAttrProvider {
  virtual ~TensorAttrProvider() = default;
  // The attribute, or null to fall back to the 2.24 attributes.
  virtual py::Ref tensor_attr(TensorObj& t, py::Interp& in, const std::string& name) = 0;
};

}  // namespace nki::front
