// The simulator's atom environment is ir::AtomEnv (ir/atom_env.h), shared with the bounds check.
#pragma once

#include "ir/atom_env.h"

namespace nki::machine {

using ir::AtomEnv;
using ir::compare;
using ir::floor_div;
using ir::py_mod;

}  // namespace nki::machine
