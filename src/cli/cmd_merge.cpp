// nkiagent merge: combine shard run directories into one run.
#include <iostream>

#include "eval/cli_args.h"
#include "eval/commands.h"
#include "eval/merge.h"
#include "eval/results_db.h"

namespace nki::eval {

namespace {

const std::vector<OptionSpec>& merge_options() {
  static const std::vector<OptionSpec> specs = {
      {"--keep-first", "", "on an episode present in two inputs keep the first copy instead of failing"},
  };
  return specs;
}

std::string usage() {
  return format_usage("nkiagent merge OUT_DIR RUN_DIR...",
                      "Copies the finished episodes of shard runs (bench --shard I/N) into one run database,\n"
                      "OUT_DIR/results.sqlite. All inputs must share the configuration apart from the shard;\n"
                      "an episode present twice is an error. Transcript paths are rewritten relative to OUT_DIR\n"
                      "(the files stay where they are).",
                      merge_options());
}

}  // namespace

int cmd_merge(int argc, char** argv) {
  ParsedArgs args;
  try {
    args = parse_args(argc, argv, merge_options());
    if (args.help) {
      std::cout << usage();
      return 0;
    }
    if (args.positional.size() < 2) throw UsageError("need OUT_DIR and at least one RUN_DIR");
  } catch (const UsageError& e) {
    std::cerr << "nkiagent merge: " << e.what() << "\n\n" << usage();
    return 2;
  }
  std::string out = args.positional.front();
  std::vector<std::string> inputs(args.positional.begin() + 1, args.positional.end());
  try {
    MergeSummary s = merge_runs(out, inputs, MergeOptions{args.has("--keep-first")});
    for (const auto& w : s.warnings) std::cerr << "warning: " << w << "\n";
    std::cout << "merged " << s.merged << " episodes into " << out << " (" << s.expected << " expected";
    if (s.unfinished_skipped) std::cout << ", " << s.unfinished_skipped << " unfinished skipped";
    if (s.duplicates_skipped) std::cout << ", " << s.duplicates_skipped << " duplicates skipped";
    std::cout << ")\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "nkiagent merge: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace nki::eval
