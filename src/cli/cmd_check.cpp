// nkiagent check / ir (shared/docs/cli-contract.md): compile a kernel, print diagnostics or IR.
#include <iostream>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/input_files.h"
#include "toolchain/toolchain.h"

namespace nki::cli {

namespace {

std::vector<OptionSpec> check_options() {
  return {arg_option(), kernel_option(), grid_option(), const_option(), target_option(), nki_option(),
          flag_option("json", "print {\"ok\": ..., \"diagnostics\": [...]} on stdout")};
}

int check(const ParsedOptions& o, bool print_ir) {
  front::TraceOptions topts = trace_options(o);
  SourceFilePtr file = read_kernel_file(single_file_positional(o));
  toolchain::CompileResult r = toolchain::compile(file, topts, toolchain::Isolation{});
  if (o.flag("json")) {
    std::cout << render_json(r.diagnostics, r.ok()) << "\n";
    return r.ok() ? 0 : 1;
  }
  print_diagnostics(r.diagnostics);
  if (r.ok() && print_ir) std::cout << ir::print_kernel(*r.kernel);
  if (r.ok() && !print_ir) {
    size_t n = 0;
    for (const Diagnostic& d : r.diagnostics) n += d.severity == Severity::Warning;
    std::cout << file->path() << ": ok: kernel '" << r.kernel->name << "' compiles"
              << (n ? " (" + std::to_string(n) + " warning" + (n > 1 ? "s" : "") + ")" : std::string()) << "\n";
  }
  return r.ok() ? 0 : 1;
}

}  // namespace

Command make_check_command() {
  Command c;
  c.spec.name = "check";
  c.spec.synopsis = "nkiagent check FILE.py [--arg SHAPE:DTYPE]... [options]";
  c.spec.description =
      "Compile an NKI kernel (legacy neuronxcc.nki dialect, SDK 2.24) without hardware: parse, trace\n"
      "and check it against the NeuronCore rules, reporting the compiler's err_* codes.";
  c.spec.options = check_options();
  c.spec.epilog = "exit status: 0 compiles, 1 compile errors, 2 usage or I/O error";
  c.run = [](const ParsedOptions& o) { return check(o, false); };
  return c;
}

Command make_ir_command() {
  Command c;
  c.spec.name = "ir";
  c.spec.synopsis = "nkiagent ir FILE.py [--arg SHAPE:DTYPE]... [options]";
  c.spec.description =
      "Trace a kernel and print its kernel IR (tensors, loops, instructions with affine accesses).\n"
      "Takes the same options as `nkiagent check`.";
  c.spec.options = check_options();
  c.spec.options.back().help = "print the diagnostics as JSON instead of the IR";
  c.spec.epilog = "exit status: 0 compiles, 1 compile errors, 2 usage or I/O error";
  c.run = [](const ParsedOptions& o) { return check(o, true); };
  return c;
}

}  // namespace nki::cli
