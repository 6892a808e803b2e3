#include "nki_current/bind.h"

#include <algorithm>

#include "base/diag_codes.h"
#include "nki/lowering.h"
#include "nki_current/current_tracer.h"

namespace nki::current {

Bound::Bound(py::CallArgs& call, std::string api, std::vector<std::string> params, size_t required, bool isa)
    : api_(std::move(api)), params_(std::move(params)), values_(params_.size()) {
  const std::string dest_hint =
      isa ? "NKI 0.2+ ISA calls are destination-passing: allocate the result with nl.ndarray(shape, dtype, "
            "buffer=...) and pass it as the first argument (dst)"
          : "";
  if (call.pos.size() > params_.size())
    current_error(diag::Code::too_many_arguments, api_ + "() takes at most " + std::to_string(params_.size()) +
                                            " arguments, got " + std::to_string(call.pos.size()),
                  dest_hint);
  for (size_t i = 0; i < call.pos.size(); ++i) values_[i] = call.pos[i];
  for (auto& [k, v] : call.kw) {
    auto it = std::find(params_.begin(), params_.end(), k);
    if (it == params_.end()) {
      std::string hint;
      if (k == "mask")
        hint = "masks were removed in NKI 0.2: clip the tile with a slice instead (e.g. x[0:min(P, n - i * P), :])";
      else if (k == "dtype" && isa)
        hint = "the output dtype of an NKI 0.2+ ISA call is dst.dtype: allocate dst with the dtype you want";
      else
        hint = "the signature is " + api_ + "(" + [&] {
          std::string s;
          for (const auto& p : params_) s += (s.empty() ? "" : ", ") + p;
          return s;
        }() + ")";
      current_error(diag::Code::unknown_argument, api_ + "() got an unexpected keyword argument '" + k + "'", hint);
    }
    size_t i = static_cast<size_t>(it - params_.begin());
    if (values_[i]) current_error(diag::Code::duplicate_argument, api_ + "() got multiple values for argument '" + k + "'");
    values_[i] = v;
  }
  for (size_t i = 0; i < required; ++i) {
    if (!values_[i])
      current_error(diag::Code::missing_argument, api_ + "() missing required argument '" + params_[i] + "'",
                    isa && i == 0 ? dest_hint : (isa ? dest_hint + "; the 2.24 form `out = " + api_ +
                                                              "(inputs...)` returned a new tile"
                                                      : std::string()));
  }
  for (const Ref& v : values_)
    if (auto* h = dynamic_cast<InstrHandleObj*>(v.get())) h->misuse();
}

bool Bound::has(size_t i) const { return values_[i] && !py::is_none(values_[i]); }

Ref call_legacy(py::Interp& in, const std::shared_ptr<py::ModuleObj>& module, const std::string& name,
                const std::vector<std::pair<std::string, Ref>>& kwargs, const py::CallArgs& site) {
  Ref fn = module->find(name);
  if (!fn) current_error(diag::Code::internal_error, "no 2.24 builder named " + module->name + "." + name);
  py::CallArgs call;
  call.loc = site.loc;
  for (const auto& [k, v] : kwargs)
    if (v) call.kw.emplace_back(k, v);
  return fn->call(in, call);
}

front::TensorObj* need_dst(const Bound& b) {
  front::TensorObj* dst = front::as_tensor(b[0]);
  if (!dst)
    current_error(diag::Code::dst_not_a_tensor, "the first argument of " + b.api() + " is its destination '" + b.name(0) +
                                          "', which must be a tensor, got " + b[0]->type_name(),
                  "NKI 0.2+ ISA calls are destination-passing: allocate the result with nl.ndarray(shape, dtype, "
                  "buffer=...) and pass it first; the 2.24 form `out = " + b.api() + "(...)` returned a new tile");
  return dst;
}

Ref call_row(py::Interp& in, front::Tracer& t, const front::ApiRow& row,
             const std::vector<std::pair<std::string, Ref>>& kwargs, const py::CallArgs& site) {
  py::CallArgs call;
  call.loc = site.loc;
  for (const auto& [k, v] : kwargs)
    if (v) call.kw.emplace_back(k, v);
  return front::run_api(row, t, in, call);
}

void InstrHandleObj::misuse() const {
  current_error(diag::Code::isa_result_is_not_a_tile,
                api + " returns an instruction handle, not a tile, in NKI 0.2+",
                "ISA calls are destination-passing: allocate the result with nl.ndarray(...) and pass it as "
                "dst (" + api + "(dst, ...)); in 2.24 `out = " + api + "(...)` returned a new tile");
}
Ref InstrHandleObj::getattr(py::Interp& in, const std::string& name) {
  if (name == "depends_on" || name == "add_dep_helper") return py::Obj::getattr(in, name);
  misuse();
}
Ref InstrHandleObj::getitem(py::Interp&, const Ref&) { misuse(); }
Ref InstrHandleObj::binop(py::Interp&, py::Operator, const Ref&, bool) { misuse(); }

}  // namespace nki::current
