// nisa.iota and nisa.affine_select of the current dialect: instructions addressed through an
// access pattern ([[step, num], ...]), which have no 2.24 counterpart with the same arguments.
#pragma once

#include "lang/value.h"
#include "nki_current/current_tracer.h"

namespace nki::current {

py::Ref make_iota(CurrentTracer& t);
py::Ref make_affine_select(CurrentTracer& t);

}  // namespace nki::current
