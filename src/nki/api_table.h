// API modules as tables. Each row of a module names one API, its 2.24 signature and how it runs:
// a binder (argument binding + checking, producing a small typed argument struct) followed by an
// emitter (IR emission from that struct). A module is built by registering its rows; a second
// dialect (src/nki_current) looks a row up by name and runs the same binder and emitter, so the
// checking rules and the lowering exist once.
//
// The binder runs to completion before the emitter starts, so an API's checks and side effects
// (tensors created, instructions emitted) happen in one fixed order. Error recovery
// (tracer_recovery.cpp) keeps whatever a failing statement emitted before its error, so that
// order is observable and splitting an API into binder and emitter must not reorder it.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "nki/args.h"
#include "nki/tracer.h"

namespace nki::front {

// Parameters of an API as Args binds them (args.h): names in order, how many may be positional,
// how many are required.
struct ApiSignature {
  std::vector<const char*> params;
  size_t max_positional;
  size_t required;
};

using ApiRun = std::function<Ref(Tracer&, py::Interp&, const Args&)>;

// Where a row may be called: run before its arguments are bound (e.g. reject a call outside a
// kernel); empty = anywhere.
using ApiAvailability = std::function<void(Tracer&)>;

struct ApiRow {
  const char* name;  // unqualified, as the module exposes it and as its messages spell it
  ApiSignature signature;
  ApiRun run;
  ApiAvailability availability = {};
};

// Availability of an API that exists only while a kernel is traced (`qualified` names it in the
// err_nki_api_outside_of_nki_kernel diagnostic).
ApiAvailability in_kernel_only(std::string qualified);

// The binder and emitter of one API as a row's `run`.
template <class Bound>
ApiRun bind_then_emit(Bound (*bind)(Tracer&, py::Interp&, const Args&), Ref (*emit)(Tracer&, const Bound&)) {
  return [bind, emit](Tracer& t, py::Interp& in, const Args& a) { return emit(t, bind(t, in, a)); };
}

// The same for an emitter that calls back into the interpreter.
template <class Bound>
ApiRun bind_then_emit(Bound (*bind)(Tracer&, py::Interp&, const Args&),
                      Ref (*emit)(Tracer&, py::Interp&, const Bound&)) {
  return [bind, emit](Tracer& t, py::Interp& in, const Args& a) { return emit(t, in, bind(t, in, a)); };
}

// Binds `call` to the row's signature and runs it.
Ref run_api(const ApiRow& row, Tracer& t, py::Interp& in, py::CallArgs& call);

// Sets one builtin per row on `m` (in row order).
void add_apis(Tracer& t, py::ModuleObj& m, const std::vector<ApiRow>& rows);

// The row named `name`, or null.
const ApiRow* find_api(const std::vector<ApiRow>& rows, const std::string& name);

}  // namespace nki::front
