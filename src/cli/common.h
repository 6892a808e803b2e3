// Pieces shared by the toolchain subcommands (check, ir, run, verify).
#pragma once

#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "cli/options.h"
#include "nki/tracer.h"

namespace nki::cli {

// --kernel, --arg, --grid, --target, --const into trace options (UsageError on bad values).
front::TraceOptions trace_options(const Options& o);
// Prints diagnostics in the contract's text form on stderr.
void print_diagnostics(const std::vector<Diagnostic>& diags);

}  // namespace nki::cli
