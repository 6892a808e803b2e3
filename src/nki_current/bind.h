// Strict argument binding for the current dialect: positional-or-keyword parameters, unknown
// keywords rejected (release-notes/components/nki.rst, NKI 0.2.0 [2.28]: invalid keyword arguments
// raise an `unexpected keyword argument` error instead of being silently ignored), and
// migration hints for the 2.24 habits (mask=, dtype= on ISA calls, functional ISA results).
#pragma once

#include <string>
#include <vector>

#include "lang/value.h"
#include "nki/api_table.h"

namespace nki::current {

using py::Ref;

class Bound {
 public:
  // `params` in signature order; the first `required` must be given. `isa`: a destination-
  // passing nki.isa call (its hints talk about dst).
  Bound(py::CallArgs& call, std::string api, std::vector<std::string> params, size_t required, bool isa);
  const Ref& operator[](size_t i) const { return values_[i]; }
  // Given and not None.
  bool has(size_t i) const;
  const std::string& api() const { return api_; }
  const std::string& name(size_t i) const { return params_[i]; }

 private:
  std::string api_;
  std::vector<std::string> params_;
  std::vector<Ref> values_;
};

// A call of a function of the 2.24 module `module` with keyword arguments (null values skipped).
Ref call_legacy(py::Interp& in, const std::shared_ptr<py::ModuleObj>& module, const std::string& name,
                const std::vector<std::pair<std::string, Ref>>& kwargs, const py::CallArgs& site);
// The same for a row of a 2.24 API table: its binder and emitter run on `kwargs`, bound to the
// row's 2.24 signature.
Ref call_row(py::Interp& in, front::Tracer& t, const front::ApiRow& row,
             const std::vector<std::pair<std::string, Ref>>& kwargs, const py::CallArgs& site);

// The destination (first) argument of a destination-passing ISA call; a non-tensor there is
// the 2.24 functional form (dst_not_a_tensor, with the migration hint).
front::TensorObj* need_dst(const Bound& b);

// What a current ISA call returns: an instruction handle, not a tile. Any use as a tile is the
// 2.24 functional style and gets the destination-passing hint.
struct InstrHandleObj : py::Obj {
  std::string api;
  std::string type_name() const override { return "NkiInstruction"; }
  std::string repr() const override { return "<NkiInstruction " + api + ">"; }
  Ref getattr(py::Interp& in, const std::string& name) override;
  Ref getitem(py::Interp& in, const Ref& key) override;
  Ref binop(py::Interp& in, py::Operator op, const Ref& other, bool reflected) override;
  [[noreturn]] void misuse() const;
};

}  // namespace nki::current
