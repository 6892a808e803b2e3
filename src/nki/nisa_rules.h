// Argument rules shared by several nisa (SDK 2.24) instructions: the engine encoding, ALU
// operator arguments and the PSUM restriction of two-input instructions.
#pragma once

#include <string>

#include "nki/objects.h"

namespace nki::front::nisa {

// nisa enums are plain integers in the legacy API: engine= values (1 tensor, 2 scalar,
// 3 gpsimd, 5 vector, 6 sync); absent, None or unknown values give `dflt`.
ir::Engine engine_of(const Ref& r, ir::Engine dflt);

// An op= argument that must be an ALU operator (nl.add, np.multiply, ...).
ir::Alu need_alu(const Ref& r, const std::string& api, const std::string& arg);

// Two-input instructions read at most one operand from PSUM.
void not_both_psum(const TensorObj& a, const TensorObj& b, const std::string& api);

}  // namespace nki::front::nisa
