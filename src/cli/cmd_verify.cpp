// nkiagent verify (shared/docs/cli-contract.md): a kernel against a benchmark task's reference.
#include <cstdint>
#include <iostream>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/input_files.h"
#include "cli/numbers.h"
#include "task/task_spec.h"
#include "toolchain/toolchain.h"

namespace nki::cli {

namespace {

int verify(const ParsedOptions& o) {
  if (!o.has("task")) throw UsageError("verify needs --task ID");
  SourceFilePtr file = read_kernel_file(single_file_positional(o));
  TaskSpec task = load_task(resolve_task_dir(o.text("task"), tasks_root_from(o)));
  VerifyOptions vo;
  vo.trials = static_cast<int>(o.integer("trials").value_or(0));  // 0: the task's own count
  vo.strict = o.flag("strict");
  vo.stop_on_failure = !o.flag("all-trials");
  // Reproduces a final verdict: the same secret gives the same held-out trials.
  if (o.has("held-out-secret")) {
    // Text in the table (a secret is a 63-bit number, wider than the table's integers).
    std::optional<int64_t> secret = to_integer(o.text("held-out-secret"));
    if (!secret || *secret < 0)
      throw UsageError("--held-out-secret expects the non-negative integer a final verdict printed, got '" +
                       o.text("held-out-secret") + "'");
    vo.held_out = held_out_trials(task, static_cast<uint64_t>(*secret),
                                  static_cast<int>(o.integer("held-out-trials").value_or(2)));
  }
  else if (o.has("held-out-trials"))
    throw UsageError("--held-out-trials needs --held-out-secret (the secret a final verdict printed)");
  toolchain::RunSettings s;
  s.trace.target = target_from(o);
  if (o.has("nki")) s.trace.dialect = o.text("nki");
  s.machine.numerics = numerics_from(o);
  apply_sim_budget(o, s.machine);
  VerifyReport rep = verify_task(task, vo, toolchain::make_runner(file, s));
  if (o.flag("json")) std::cout << render_verify_json(rep) << "\n";
  else std::cout << render_verify_text(rep);
  return verify_exit_code(rep);
}

}  // namespace

Command make_verify_command() {
  Command c;
  c.spec.name = "verify";
  c.spec.synopsis = "nkiagent verify FILE.py --task ID [--trials N] [--strict] [--json]";
  c.spec.description = "Compile the kernel, run it on the task's random trials and compare with the PyTorch reference.";
  c.spec.options = {
      text_option("task", "ID", "task id (directory under the tasks directory) or a task directory (required)"),
      trials_option(),
      flag_option("strict", "atol=rtol=1e-3 for every dtype (the paper's criterion)"),
      flag_option("all-trials", "keep running trials after the first failure"),
      flag_option("json", "full JSON report on stdout"),
      target_option(),
      nki_option(),
      numerics_option(),
      tasks_dir_option(),
      text_option("held-out-secret", "S",
                  "also run the held-out trials of this secret (reproduces an episode's final verdict)"),
      integer_option("held-out-trials", "N", 1, 100, "how many held-out trials (with --held-out-secret)", "2"),
  };
  for (OptionSpec& b : sim_budget_options()) c.spec.options.push_back(std::move(b));
  c.spec.epilog = "exit status: 0 pass, 1 compile error, 2 usage or I/O error, 3 runtime error, 4 mismatch";
  c.run = verify;
  return c;
}

}  // namespace nki::cli
