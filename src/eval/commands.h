// Entry points of the evaluation subcommands. The nkiagent main dispatches to them with
// argv[0] being the subcommand name (e.g. {"bench", "--model", ...}); argv[0] is not parsed.
// Exit codes: 0 success; 1 the command ran but left work undone (bench: crashed episodes);
// 2 usage, I/O or configuration error (message on stderr).
#pragma once

#include "eval/episode.h"

namespace nki::eval {

// nkiagent bench --model M --mode agent|multi-turn|single-shot --subset NAME [options]
int cmd_bench(int argc, char** argv, EpisodeFn fn);
// nkiagent merge OUT_DIR RUN_DIR...
int cmd_merge(int argc, char** argv);
// nkiagent report RUN_DIR... [--out report.html] [--md report.md]
int cmd_report(int argc, char** argv);

}  // namespace nki::eval
