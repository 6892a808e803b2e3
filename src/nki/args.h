// Binds a Python call's arguments to an NKI API signature.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "lang/value.h"

namespace nki::front {

// Binds `call` to parameters `names`: the first `max_positional` may be passed positionally, the
// rest are keyword-only; the first `required` must be present. Unknown keywords are ignored,
// as the SDK 2.24 stubs accept **kwargs (shared/docs/nki-spec.md §2.9).
class Args {
 public:
  Args(py::CallArgs& call, std::string api, std::initializer_list<const char*> names,
       size_t max_positional, size_t required)
      : Args(call, std::move(api), std::vector<const char*>(names), max_positional, required) {}
  Args(py::CallArgs& call, std::string api, const std::vector<const char*>& names, size_t max_positional,
       size_t required);
  const py::Ref& operator[](size_t i) const { return values_[i]; }
  bool has(size_t i) const { return values_[i] && !py::is_none(values_[i]); }
  const std::string& api() const { return api_; }

 private:
  std::string api_;
  std::vector<py::Ref> values_;
};

}  // namespace nki::front
