// Migration diagnostics between the two dialects (issue 15, item 3 of "What to build"): a
// 2.24 (neuronxcc.nki) construct in a current-dialect kernel gets its NKI 0.2+ rewrite, written
// with the kernel's own expressions, in the hint; a 0.2+ construct in a legacy kernel gets the
// 2.24 spelling. Works on the parsed module and the tracer's diagnostics, after tracing, so the
// tracer's checks (and their codes and locations) stay the single source of errors.
#pragma once

#include <string>

#include "lang/ast.h"
#include "nki/tracer.h"

namespace nki::current {

// Current dialect: rewrites the hints of the tracer's errors at 2.24-style calls (functional ISA
// calls, nl.load/nl.store where the version lacks them, mask= and dtype= arguments).
void add_current_migration_hints(const py::Module& module, const std::string& version, front::TraceResult& res);

// Legacy dialect: warns `destination_passing_in_legacy_dialect` at `nisa.op(dst=...)` calls
// (SDK 2.24 ignores the keyword and returns a new tile), and explains in the hint of an
// attribute error that a missing nl/nisa name or tensor method belongs to the current dialect.
void add_legacy_migration_diagnostics(const py::Module& module, front::TraceResult& res);

}  // namespace nki::current
