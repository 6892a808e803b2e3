// nkiagent report: Markdown summary and a self-contained HTML page over one or more runs.
#include <fstream>
#include <iostream>

#include "eval/cli_args.h"
#include "eval/commands.h"
#include "eval/metrics_json.h"
#include "eval/report.h"

namespace nki::eval {

namespace {

const std::vector<OptionSpec>& report_options() {
  static const std::vector<OptionSpec> specs = {
      {"--out", "FILE", "HTML report path (default: report.html inside the first RUN_DIR)"},
      {"--md", "FILE", "write the Markdown summary to FILE instead of stdout"},
      {"--json", "FILE", "also write every metric (and per-task verdicts) as JSON to FILE"},
  };
  return specs;
}

std::string usage() {
  return format_usage("nkiagent report RUN_DIR... [--out report.html] [--md report.md]",
                      "Summarises finished episodes: pass rate per level with counts, strict vs tolerance,\n"
                      "pass@k, turns to pass, failure taxonomy, tokens and cost. Several RUN_DIRs are shown\n"
                      "side by side (the ablation tables). The HTML file has no scripts and no external\n"
                      "resources; its transcript links are relative to the file's directory.",
                      report_options());
}

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  return static_cast<bool>(out.flush());
}

}  // namespace

int cmd_report(int argc, char** argv) {
  ParsedArgs args;
  try {
    args = parse_args(argc, argv, report_options());
    if (args.help) {
      std::cout << usage();
      return 0;
    }
    if (args.positional.empty()) throw UsageError("need at least one RUN_DIR");
  } catch (const UsageError& e) {
    std::cerr << "nkiagent report: " << e.what() << "\n\n" << usage();
    return 2;
  }
  try {
    std::vector<RunMetrics> runs;
    for (const auto& dir : args.positional) runs.push_back(load_run_metrics(dir));
    assign_labels(runs);
    std::string html_path = args.get_or("--out", args.positional.front() + "/report.html");
    if (!write_file(html_path, render_html(runs, html_path))) {
      std::cerr << "nkiagent report: cannot write " << html_path << "\n";
      return 2;
    }
    if (auto json_path = args.get("--json")) {
      if (!write_file(*json_path, runs_to_json(runs).dump(2) + "\n")) {
        std::cerr << "nkiagent report: cannot write " << *json_path << "\n";
        return 2;
      }
    }
    std::string md = render_markdown(runs);
    if (auto md_path = args.get("--md")) {
      if (!write_file(*md_path, md)) {
        std::cerr << "nkiagent report: cannot write " << *md_path << "\n";
        return 2;
      }
    } else {
      std::cout << md;
    }
    std::cerr << "wrote " << html_path << "\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "nkiagent report: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace nki::eval
