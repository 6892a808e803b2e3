// nkiagent run (shared/docs/cli-contract.md): simulate a kernel on .npy inputs.
#include <filesystem>
#include <iostream>

#include "base/npy.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/input_files.h"
#include "toolchain/toolchain.h"

namespace nki::cli {

namespace {

std::vector<OptionSpec> run_options() {
  OptionSpec input = text_option("input", "[NAME=]PATH[:DTYPE]",
                                 "input .npy array, in kernel-parameter order, or by name after those\n"
                                 "(NAME=PATH); :DTYPE converts stored float32 values (RNE),\n"
                                 "e.g. x.npy:bfloat16");
  input.repeatable = true;
  std::vector<OptionSpec> opts = {input,
                                  const_option(),
                                  kernel_option(),
                                  grid_option(),
                                  target_option(),
                                  nki_option(),
                                  numerics_option(),
                                  flag_option("warn-uninit", "warn when an instruction reads memory never written"),
                                  text_option("out-dir", "DIR", "where out0.npy, out1.npy... are written", "."),
                                  flag_option("json", "print a JSON summary on stdout")};
  for (OptionSpec& b : sim_budget_options()) opts.push_back(std::move(b));
  return opts;
}

std::vector<std::string> write_outputs(const toolchain::RunOutcome& r, const std::vector<HostTensor>& inputs,
                                       const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw IoError("cannot create output directory '" + dir + "': " + ec.message());
  std::vector<std::string> written;
  for (size_t i = 0; i < r.outputs.size(); ++i) {
    std::string p = dir + "/out" + std::to_string(i) + ".npy";
    write_npy(p, r.outputs[i]);
    written.push_back(p);
  }
  // Pass-by-reference kernels return nothing: every argument they stored into is an output.
  if (r.outputs.empty()) {  // pass-by-reference kernel: it returns nothing
    for (size_t i = 0; i < r.args_after.size(); ++i) {
      if (r.args_after[i].data == inputs[i].data) continue;
      std::string p = dir + "/arg" + std::to_string(i) + ".npy";
      write_npy(p, r.args_after[i]);
      written.push_back(p);
    }
  }
  return written;
}

int run(const ParsedOptions& o) {
  toolchain::RunSettings s;
  s.trace = trace_options(o);
  s.trace.tensor_source = "--input file";
  s.machine.numerics = numerics_from(o);
  s.machine.warn_uninit = o.flag("warn-uninit");
  apply_sim_budget(o, s.machine);
  SourceFilePtr file = read_kernel_file(single_file_positional(o));
  // Inputs in kernel-argument order: the positional ones, then those bound by name.
  std::vector<HostTensor> inputs;
  for (const std::string& spec : o.all("input")) {
    std::string err;
    if (auto named = front::parse_named_arg(spec, &err); named && !named->name.empty()) {
      HostTensor h = read_input_array(spec.substr(named->name.size() + 1));
      add_named_arg(s.trace, front::NamedArg{named->name, front::ArgSpec{h.shape, h.dtype}, ""}, "--input");
      inputs.push_back(std::move(h));
      continue;
    }
    if (!s.trace.named_args.empty())
      throw UsageError("--input " + spec + " after --input " + s.trace.named_args.back().name +
                       "=...: give the positional --input files first, then the NAME=PATH ones");
    inputs.push_back(read_input_array(spec));
    s.trace.args.push_back(front::ArgSpec{inputs.back().shape, inputs.back().dtype});
  }
  toolchain::RunOutcome r = toolchain::run(file, inputs, s);
  print_diagnostics(r.diagnostics);
  if (r.status != RunStatus::Ok) {
    if (o.flag("json")) std::cout << render_json(r.diagnostics, false) << "\n";
    return r.status == RunStatus::CompileError ? 1 : 3;
  }
  std::vector<std::string> written = write_outputs(r, inputs, o.text("out-dir"));
  if (o.flag("json")) {
    std::cout << "{\"ok\": true, \"outputs\": [";
    for (size_t i = 0; i < written.size(); ++i) std::cout << (i ? ", " : "") << "\"" << json_escape(written[i]) << "\"";
    std::cout << "], \"diagnostics\": " << render_json(r.diagnostics, true) << "}\n";
  } else {
    for (const std::string& p : written) std::cout << "wrote " << p << "\n";
  }
  return 0;
}

}  // namespace

Command make_run_command() {
  Command c;
  c.spec.name = "run";
  c.spec.synopsis = "nkiagent run FILE.py --input [NAME=]PATH[:DTYPE]... [options]";
  c.spec.description = "Simulate a kernel on a NeuronCore model with .npy inputs (in parameter order).";
  c.spec.options = run_options();
  c.spec.epilog =
      "outputs keep float32/float16/int/uint/bool dtypes; bfloat16, tfloat32 and float8 are written as\n"
      "exact float32 values. Pass-by-reference kernels write DIR/arg<i>.npy for each argument stored into.\n"
      "exit status: 0 ok, 1 compile error, 2 usage or I/O error, 3 runtime error";
  c.run = run;
  return c;
}

}  // namespace nki::cli
