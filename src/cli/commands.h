// The nkiagent subcommands, each built from its option table (one cmd_*.cpp per command).
#pragma once

#include "cli/command.h"

namespace nki::cli {

Command make_check_command();   // cmd_check.cpp
Command make_ir_command();      // cmd_check.cpp
Command make_run_command();     // cmd_run.cpp
Command make_verify_command();  // cmd_verify.cpp
Command make_profile_command(); // cmd_profile.cpp
Command make_tasks_command();   // cmd_tasks.cpp: list | show | verify-solutions | audit
Command make_solve_command();   // command_list.cpp: cmd_solve.cpp wired to the simulator tools
Command make_bench_command();   // command_list.cpp: cmd_bench.cpp wired to simulator_episodes
Command make_merge_command();   // cmd_merge.cpp
Command make_report_command();  // cmd_report.cpp
Command make_serve_command();   // cmd_serve.cpp: the RL environment server
Command make_synth_command();   // cmd_synth.cpp: the training-corpus synthesiser
Command make_export_command();  // cmd_export.cpp: fine-tuning data (sft export, generated episodes)
Command make_migrate_command(); // cmd_migrate.cpp: legacy -> current dialect rewrite + check

}  // namespace nki::cli
