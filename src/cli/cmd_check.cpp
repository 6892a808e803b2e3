// nkiagent check / ir (shared/docs/cli-contract.md): compile a kernel, print diagnostics or IR
// (`ir --after PASS`: the IR with the check pipeline stopped after PASS, check/pipeline.h).
#include <iostream>
#include <optional>
#include <string>

#include "check/pipeline.h"
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

// --after PASS: the pass names in pipeline order, and one help line per pass.
OptionSpec after_option() {
  std::vector<std::string> names;
  std::string hint, help =
      "run the IR check passes only up to PASS, then print the IR and\n"
      "what PASS found. The passes read the IR and do not change it: the\n"
      "IR is the traced kernel either way, --after only decides which\n"
      "checks run (a kernel rejected by a pass up to PASS prints no IR).\n"
      "Passes, in order:";
  for (const check::PassInfo& p : check::passes()) {
    names.push_back(p.name);
    hint += (hint.empty() ? "" : "|") + std::string(p.name);
    help += "\n  " + std::string(p.name) + ": " + p.summary;
  }
  OptionSpec o = choice_option("after", hint, names, help);
  o.default_help = "every pass";
  return o;
}

// "warning[sbuf_capacity_estimate] 12:5: message"
std::string finding_line(const Diagnostic& d) {
  return std::string(d.severity == Severity::Error ? "error" : "warning") + "[" + d.code + "] " +
         std::to_string(d.line) + ":" + std::to_string(d.col) + ": " + d.message;
}

// After the IR of `ir --after PASS`: which passes ran and the findings of PASS, as # comments.
void print_pass_report(const check::Findings& f, check::Pass after) {
  std::string ran;
  for (const check::PassReport& r : f.passes)
    ran += (ran.empty() ? "" : ", ") + std::string(check::pass_name(r.pass)) + (r.skipped.empty() ? "" : " (skipped)");
  std::cout << "# check passes up to '" << check::pass_name(after) << "': " << ran
            << " (they read the IR and do not change it)\n";
  const check::PassReport* r = f.report(after);
  if (!r) return;
  if (!r->skipped.empty()) {
    std::cout << "# '" << check::pass_name(after) << "' did not run: " << r->skipped << "\n";
    return;
  }
  const size_t n = r->errors.size() + r->warnings.size();
  std::cout << "# findings of '" << check::pass_name(after) << "': " << (n ? std::to_string(n) : "none") << "\n";
  for (const Diagnostic& d : r->errors) std::cout << "# " << finding_line(d) << "\n";
  for (const Diagnostic& d : r->warnings) std::cout << "# " << finding_line(d) << "\n";
}

int compile_and_report(const ParsedOptions& o, bool print_ir) {
  front::TraceOptions topts = trace_options(o);
  std::optional<check::Pass> after;
  if (print_ir && o.has("after")) {
    if (o.flag("json")) throw UsageError("--after prints the IR, which --json replaces: give one of them");
    after = check::pass_named(o.text("after"));  // the table accepted the name
    topts.last_check = *after;
  }
  SourceFilePtr file = read_kernel_file(single_file_positional(o));
  toolchain::CompileResult r = toolchain::compile(file, topts, toolchain::Isolation{});
  if (o.flag("json")) {
    std::cout << render_json(r.diagnostics, r.ok()) << "\n";
    return r.ok() ? 0 : 1;
  }
  print_diagnostics(r.diagnostics);
  if (r.ok() && print_ir) std::cout << ir::print_kernel(*r.kernel);
  if (r.ok() && after) print_pass_report(r.checks, *after);
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
  c.spec.synopsis = "nkiagent check FILE.py [--arg [NAME=]SHAPE:DTYPE | --arg NAME=LITERAL]... [options]";
  c.spec.description =
      "Compile an NKI kernel (legacy neuronxcc.nki dialect, SDK 2.24) without hardware: parse, trace\n"
      "and check it against the NeuronCore rules, reporting the compiler's err_* codes.";
  c.spec.options = check_options();
  c.spec.epilog = "exit status: 0 compiles, 1 compile errors, 2 usage or I/O error";
  c.run = [](const ParsedOptions& o) { return compile_and_report(o, false); };
  return c;
}

Command make_ir_command() {
  Command c;
  c.spec.name = "ir";
  c.spec.synopsis = "nkiagent ir FILE.py [--arg [NAME=]SHAPE:DTYPE | --arg NAME=LITERAL]... [--after PASS] [options]";
  c.spec.description =
      "Trace a kernel and print its kernel IR (tensors, loops, instructions with affine accesses).\n"
      "Takes the options of `nkiagent check`, and --after PASS to stop the IR checks after PASS.";
  c.spec.options = check_options();
  c.spec.options.back().help = "print the diagnostics as JSON instead of the IR";
  c.spec.options.push_back(after_option());
  c.spec.epilog = "exit status: 0 compiles, 1 compile errors, 2 usage or I/O error";
  c.run = [](const ParsedOptions& o) { return compile_and_report(o, true); };
  return c;
}

}  // namespace nki::cli
