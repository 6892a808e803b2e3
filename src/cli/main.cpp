// nkiagent: the command-line front end. Thin: each subcommand parses its options from its
// table and calls the libraries (src/toolchain, src/agent, src/eval).
#include "cli/run_cli.h"

int main(int argc, char** argv) { return nki::cli::run_cli(argc, argv); }
