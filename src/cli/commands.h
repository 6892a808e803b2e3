// Subcommand entry points of the nkiagent CLI (argv[0] is the subcommand name).
#pragma once

namespace nki::cli {

int cmd_check(int argc, char** argv, bool print_ir);
int cmd_run(int argc, char** argv);
int cmd_verify(int argc, char** argv);
// solve / bench: the agent and the benchmark runner wired to the simulator (cmd_agent.cpp).
int cmd_solve(int argc, char** argv);
int cmd_bench(int argc, char** argv);
// nkiagent tasks list|show|verify-solutions|audit (cmd_tasks.cpp)
int cmd_tasks(int argc, char** argv);

}  // namespace nki::cli
