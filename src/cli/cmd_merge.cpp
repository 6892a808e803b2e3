// nkiagent merge: combine shard run directories into one run (the work is eval::merge_runs).
#include <iostream>

#include "cli/commands.h"
#include "eval/merge.h"

namespace nki::cli {

namespace {

int merge(const ParsedOptions& o) {
  if (o.positionals().size() < 2) throw UsageError("need OUT_DIR and at least one RUN_DIR");
  std::string out = o.positionals().front();
  std::vector<std::string> inputs(o.positionals().begin() + 1, o.positionals().end());
  try {
    eval::MergeSummary s = eval::merge_runs(out, inputs, eval::MergeOptions{o.flag("keep-first")});
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

}  // namespace

Command make_merge_command() {
  Command c;
  c.spec.name = "merge";
  c.spec.synopsis = "nkiagent merge OUT_DIR RUN_DIR... [--keep-first]";
  c.spec.description =
      "Copies the finished episodes of shard runs (bench --shard I/N) into one run database,\n"
      "OUT_DIR/results.sqlite. All inputs must share the configuration apart from the shard;\n"
      "an episode present twice is an error. Transcript paths are rewritten relative to OUT_DIR\n"
      "(the files stay where they are).";
  c.spec.options = {
      flag_option("keep-first", "on an episode present in two inputs keep the first copy instead of failing"),
  };
  c.spec.epilog = "exit status: 0 merged, 2 usage, I/O or configuration error";
  c.run = merge;
  return c;
}

}  // namespace nki::cli
