#include <iostream>

#include "cli/cmd_bench.h"
#include "cli/cmd_solve.h"
#include "cli/common.h"
#include "cli/commands.h"
#include "toolchain/agent_glue.h"

namespace nki::cli {

Command make_solve_command() {
  return make_solve_command([](const ParsedOptions& o) { return toolchain::solve_deps(tasks_root_from(o)); });
}

Command make_bench_command() { return make_bench_command(simulator_episodes); }

const std::vector<CommandEntry>& command_list() {
  static const std::vector<CommandEntry> list = {
      {"check", "compile a kernel and report NKI errors (the neuronx-cc stand-in)", make_check_command},
      {"ir", "print the kernel IR of a traced kernel", make_ir_command},
      {"run", "simulate a kernel on .npy inputs", make_run_command},
      {"verify", "check a kernel against a benchmark task's PyTorch reference", make_verify_command},
      {"profile", "estimate a kernel's latency on Trainium with the cost model (no hardware)", make_profile_command},
      {"tasks", "list/show benchmark tasks, verify every reference solution, audit against trivial kernels",
       make_tasks_command},
      {"solve", "let an LLM write a kernel for a task (agent, multi-turn or single-shot)", make_solve_command},
      {"bench", "run a model over a task subset (parallel, resumable, sharded)", make_bench_command},
      {"merge", "combine shard run directories into one run", make_merge_command},
      {"report", "Markdown and self-contained HTML report of one or more runs", make_report_command},
      {"serve", "HTTP/JSON environment for RL trainers: prompts, compile, verify, rewards, episodes", make_serve_command},
      {"synth", "synthesise a training corpus of benchmark-format tasks from seeds (filtered, balanced)", make_synth_command},
      {"export", "fine-tuning data: SFT/ShareGPT/DPO records from runs, template and repair episodes", make_export_command},
      {"migrate", "rewrite a legacy (neuronxcc.nki) kernel into the current dialect and check it on the simulator", make_migrate_command},
  };
  return list;
}

int run_command(const Command& command, int argc, char** argv) {
  const std::string& name = command.spec.name;
  try {
    ParsedOptions o = parse_command_line(command.spec, argc, argv);
    if (o.help()) {
      std::cout << format_help(command.spec);
      return 0;
    }
    return command.run(o);
  } catch (const UsageError& e) {
    std::cerr << "nkiagent " << name << ": " << e.what() << "\n"
              << "usage: " << command.spec.synopsis << "  (see nkiagent " << name << " --help)\n";
    return 2;
  }
}

}  // namespace nki::cli
