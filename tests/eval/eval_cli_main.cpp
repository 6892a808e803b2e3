// eval_cli report|merge ...: the eval subcommands without the agent (bench needs the real
// nkiagent binary, which supplies the episode function). For trying reports and merges locally.
#include <cstring>
#include <iostream>

#include "eval/commands.h"

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "report") == 0) return nki::eval::cmd_report(argc - 1, argv + 1);
  if (argc >= 2 && std::strcmp(argv[1], "merge") == 0) return nki::eval::cmd_merge(argc - 1, argv + 1);
  std::cerr << "usage: eval_cli report|merge ARGS... (see --help of each)\n";
  return 2;
}
