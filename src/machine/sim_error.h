// Runtime error reporting for the simulator: every failure becomes a nki::DiagnosticError
// located in the kernel's source file.
#pragma once

#include <string>

#include "base/diagnostic.h"
#include "ir/ir.h"

namespace nki::machine {

[[noreturn]] inline void throw_sim_error(const ir::Kernel& k, SourceLoc loc, std::string code,
                                         std::string message, std::string hint = {}) {
  throw DiagnosticError(make_diagnostic(Severity::Error, std::move(code), std::move(message),
                                        k.file, loc, std::move(hint)));
}

}  // namespace nki::machine
