// nkiagent: the command-line front end. Thin: each subcommand parses its options and calls the
// library (src/toolchain, src/agent, src/eval).
#include <cstring>
#include <iostream>
#include <new>

#include "base/diagnostic.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "eval/commands.h"

namespace {

const char* kUsage = R"(usage: nkiagent COMMAND [options]

A hardware-free NKI toolchain and kernel agent (legacy neuronxcc.nki, SDK 2.24).

commands:
  check    compile a kernel and report NKI errors (the neuronx-cc stand-in)
  ir       print the kernel IR of a traced kernel
  run      simulate a kernel on .npy inputs
  verify   check a kernel against a benchmark task's PyTorch reference
  tasks    list/show benchmark tasks, verify every reference solution, audit against trivial kernels
  solve    let an LLM write a kernel for a task (agent, multi-turn or single-shot)
  bench    run a model over a task subset (parallel, resumable, sharded)
  merge    combine shard run directories into one run
  report   Markdown and self-contained HTML report of one or more runs

Run `nkiagent COMMAND --help` for the options of a command.
)";

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "help")) {
    std::cout << kUsage;
    return argc < 2 ? 2 : 0;
  }
  std::string cmd = argv[1];
  int sub_argc = argc - 1;
  char** sub_argv = argv + 1;
  try {
    if (cmd == "check") return nki::cli::cmd_check(sub_argc, sub_argv, false);
    if (cmd == "ir") return nki::cli::cmd_check(sub_argc, sub_argv, true);
    if (cmd == "run") return nki::cli::cmd_run(sub_argc, sub_argv);
    if (cmd == "verify") return nki::cli::cmd_verify(sub_argc, sub_argv);
    if (cmd == "solve") return nki::cli::cmd_solve(sub_argc, sub_argv);
    if (cmd == "tasks") return nki::cli::cmd_tasks(sub_argc, sub_argv);
    if (cmd == "bench") return nki::cli::cmd_bench(sub_argc, sub_argv);
    if (cmd == "merge") return nki::eval::cmd_merge(sub_argc, sub_argv);
    if (cmd == "report") return nki::eval::cmd_report(sub_argc, sub_argv);
    std::cerr << "nkiagent: unknown command '" << cmd << "'\n" << kUsage;
    return 2;
  } catch (const nki::cli::UsageError& e) {
    std::cerr << "nkiagent " << cmd << ": " << e.what() << " (see nkiagent " << cmd << " --help)\n";
    return 2;
  } catch (const nki::IoError& e) {
    std::cerr << "nkiagent " << cmd << ": error: " << e.what() << "\n";
    return 2;
  } catch (const nki::DiagnosticError& e) {
    std::cerr << nki::render_text(e.diagnostic());
    return 1;
  } catch (const std::bad_alloc&) {
    std::cerr << "nkiagent " << cmd << ": error: out of memory\n";
    return 3;
  }
}
