// Virtual registers of the current dialect (nisa.register_alloc/move/load/store, NKI 0.2+) and
// the register-driven loops nl.fori_loop / nl.while_loop (0.6). Ground truth: the docstrings in
// nki/api/nki/isa/__init__.py (register_*, VirtualRegister) and nki/api/nki/language/__init__.py
// (fori_loop, while_loop, dynamic_range).
#pragma once

#include <memory>

#include "lang/value.h"
#include "nki_current/current_tracer.h"

namespace nki::current {

// A VirtualRegister: its value exists only on the device, so it has no Python truth value or int.
struct RegisterObj : py::Obj {
  int reg = -1;  // index into ir::Kernel::registers
  std::string type_name() const override { return "VirtualRegister"; }
  std::string repr() const override { return "<VirtualRegister %" + std::to_string(reg) + ">"; }
};

RegisterObj* as_register(const Ref& r);

// Binds register_alloc / register_move / register_load / register_store into `nisa`.
void add_register_functions(CurrentTracer& t, py::ModuleObj& nisa);

// nl.fori_loop with at least one register bound, traced once as an ir::LoopKind::Dynamic loop.
Ref trace_fori_register_loop(CurrentTracer& t, py::Interp& in, const py::CallArgs& call, const Ref& lower,
                             const Ref& upper, const Ref& body_fun, int64_t step);
// nl.while_loop(init, body_fun) (0.6), traced once as an ir::LoopKind::While loop.
Ref make_while_loop(CurrentTracer& t);

}  // namespace nki::current
