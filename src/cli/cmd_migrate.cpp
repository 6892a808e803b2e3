// nkiagent migrate FILE --to 0.6: legacy kernel -> current dialect, checked on the simulator
// (src/migrate, docs/nki-current.md "Migrating legacy kernels").
#include <fstream>
#include <iostream>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/input_files.h"
#include "migrate/migrate.h"
#include "task/task_spec.h"

namespace nki::cli {

namespace {

std::string default_out(const std::string& in) {
  auto dot = in.rfind(".py");
  return (dot == std::string::npos ? in : in.substr(0, dot)) + "_nki06.py";
}

int migrate(const ParsedOptions& o) {
  const std::string& path = single_file_positional(o);
  SourceFilePtr file = read_kernel_file(path);
  migrate::MigrationOptions mo;
  mo.target = o.text("to");
  mo.trace = trace_options(o);
  if (o.has("task")) {
    if (!o.all("arg").empty()) throw UsageError("give either --task or --arg, not both");
    mo.task = load_task(resolve_task_dir(o.text("task"), tasks_root_from(o)));
  } else if (!mo.trace.binds_tensors()) {
    throw UsageError("migrate needs the kernel's inputs to trace it: --task ID or --arg SHAPE:DTYPE...");
  }
  mo.run_check = !o.flag("no-check");
  migrate::MigrationReport r = migrate::migrate_file(file, mo);
  std::string out = o.has("out") ? o.text("out") : default_out(path);
  if (out != "-") {
    std::ofstream f(out, std::ios::binary);
    if (!f) throw IoError("cannot write '" + out + "'");
    f << r.rewrite.text;
  } else if (!o.flag("json")) {
    std::cout << r.rewrite.text;
  }
  if (o.flag("json")) std::cout << migrate::render_json(r, path, out) << "\n";
  else (out == "-" ? std::cerr : std::cout) << migrate::render_text(r, path, out == "-" ? "" : out);
  if (!r.rewrite.complete()) return 1;
  if (!mo.run_check) return 0;
  if (!r.current_ran) return 1;
  return r.ok() ? 0 : 4;
}

}  // namespace

Command make_migrate_command() {
  Command c;
  c.spec.name = "migrate";
  c.spec.synopsis = "nkiagent migrate FILE.py --to 0.6 [--out PATH] (--task ID | --arg [NAME=]SHAPE:DTYPE...) [--json]";
  c.spec.description =
      "Rewrite a legacy (neuronxcc.nki, SDK 2.24) kernel into the current dialect (import nki, NKI 0.6): imports,\n"
      "destination-passing nisa calls, nl.arange indices and masks as slices. Constructs it cannot rewrite are\n"
      "listed with their line and reason. Then both kernels run on the simulator on the same inputs.";
  c.spec.options = {
      choice_option("to", "VERSION", {"0.6"}, "target dialect version", "0.6"),
      text_option("out", "PATH", "where the migrated file goes ('-' = stdout)", ""),
      text_option("task", "ID", "trace and check with this task's inputs, and verify the result against it"),
      arg_option(),
      kernel_option(),
      grid_option(),
      target_option(),
      const_option(),
      tasks_dir_option(),
      flag_option("no-check", "only rewrite (still traces the original for tile shapes)"),
      flag_option("json", "JSON report on stdout"),
  };
  c.spec.options[1].default_help = "FILE_nki06.py";
  c.spec.epilog = "exit status: 0 migrated and equal (or verified), 1 not fully rewritten or the result does not\n"
                  "compile/run, 2 usage or I/O error, 4 outputs differ";
  c.run = migrate;
  return c;
}

}  // namespace nki::cli
