// The current-dialect (`import nki`, NKI 0.2-0.6) front end: a Tracer subclass that binds the
// `nki`, `nki.language` and `nki.isa` modules of this folder instead of the 2.24 ones, and runs
// every Python loop concretely (the NKI compiler specializes the kernel: loops unrolled, calls
// inlined, shared/docs/nki-spec.md §1.2 and §3.2). ISA calls are destination-passing adapters
// over the 2.24 builders of src/nki (api_isa.cpp), so there is one argument check and one IR
// emission per instruction for both dialects.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "nki/tensor_attr_hook.h"
#include "nki/tracer.h"

namespace nki::current {

using py::Ref;

class CurrentTracer : public front::Tracer, public front::TensorAttrProvider {
 public:
  CurrentTracer(SourceFilePtr file, const front::TraceOptions& opts, std::string version);

  const std::string& version() const { return version_; }
  // "0.3" <= version() (versions compare as minor numbers of 0.x).
  bool at_least(int minor) const;
  // Tile-size limits apply to what each instruction accesses, not to nl.ndarray (tracer.h).
  bool allocations_are_tiles() const override { return false; }
  // The current docs state no annotation check (NKI 0.2 dropped the error catalogue with
  // err_annotation_shape_mismatch): local annotations are not evaluated, as in Python.
  bool checks_local_annotations() const override { return false; }

  Ref import_module(const std::string& dotted) override;
  // Loops are unrolled: no symbolic loop drivers, the evaluator iterates the range.
  Ref adapt_for_iterable(const py::For& stmt, const Ref& iterable) override;
  // NkiTensor attributes of the current dialect (tensor_views.cpp): strides, offset, .ap().
  Ref tensor_attr(front::TensorObj& t, py::Interp& in, const std::string& name) override;

  // nc_matmul(accumulate=None): "auto-detect based on whether this PSUM location was previously
  // written" (nki/api/nki/isa/__init__.py, nc_matmul). Records the PSUM elements every
  // current-dialect instruction writes; the state of a view is None, All or Some of its elements.
  enum class Written { None, All, Some };
  Written psum_written(const ir::Access& view);
  void mark_written(const ir::Access& view);

 private:
  std::string version_;
  std::map<int, std::vector<bool>> psum_written_;  // storage tensor -> element written
  std::shared_ptr<py::ModuleObj> nki_, nl_, nisa_, nt_, constants_;
};

// Module builders (api_*.cpp).
std::shared_ptr<py::ModuleObj> make_language_module(CurrentTracer& t);
std::shared_ptr<py::ModuleObj> make_isa_module(CurrentTracer& t);
std::shared_ptr<py::ModuleObj> make_isa_constants_module(CurrentTracer& t);

// "implemented", "unsupported" (fails with unsupported_api) or "" (not bound) for an NkiTensor
// attribute of the current dialect (tensor_views.cpp); for docs/api-coverage.md.
std::string tensor_attr_status(const std::string& name);

// Raises `code` with the message and hint (a py::PyError the tracer turns into a diagnostic).
[[noreturn]] void current_error(const std::string& code, const std::string& message,
                                const std::string& hint = {});

}  // namespace nki::current
