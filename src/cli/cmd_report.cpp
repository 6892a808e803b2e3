// nkiagent report: Markdown summary and a self-contained HTML page over one or more runs.
#include <fstream>
#include <iostream>

#include "cli/commands.h"
#include "eval/metrics_json.h"
#include "eval/report.h"

namespace nki::cli {

namespace {

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  return static_cast<bool>(out.flush());
}

int write_reports(const ParsedOptions& o) {
  std::vector<eval::RunMetrics> runs;
  for (const auto& dir : o.positionals()) runs.push_back(eval::load_run_metrics(dir));
  eval::assign_labels(runs);
  std::string html_path = o.has("out") ? o.text("out") : o.positionals().front() + "/report.html";
  if (!write_file(html_path, eval::render_html(runs, html_path))) {
    std::cerr << "nkiagent report: cannot write " << html_path << "\n";
    return 2;
  }
  if (o.has("json")) {
    if (!write_file(o.text("json"), eval::runs_to_json(runs).dump(2) + "\n")) {
      std::cerr << "nkiagent report: cannot write " << o.text("json") << "\n";
      return 2;
    }
  }
  std::string md = eval::render_markdown(runs);
  if (o.has("md")) {
    if (!write_file(o.text("md"), md)) {
      std::cerr << "nkiagent report: cannot write " << o.text("md") << "\n";
      return 2;
    }
  } else {
    std::cout << md;
  }
  std::cerr << "wrote " << html_path << "\n";
  return 0;
}

int report(const ParsedOptions& o) {
  if (o.positionals().empty()) throw UsageError("need at least one RUN_DIR");
  try {
    return write_reports(o);
  } catch (const std::exception& e) {
    std::cerr << "nkiagent report: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace

Command make_report_command() {
  Command c;
  c.spec.name = "report";
  c.spec.synopsis = "nkiagent report RUN_DIR... [--out report.html] [--md report.md]";
  c.spec.description =
      "Summarises finished episodes: pass rate per level with counts, strict vs tolerance,\n"
      "pass@k, turns to pass, failure taxonomy, tokens and cost. Several RUN_DIRs are shown\n"
      "side by side (the ablation tables). The HTML file has no scripts and no external\n"
      "resources; its transcript links are relative to the file's directory.";
  OptionSpec out = text_option("out", "FILE", "HTML report path");
  out.default_help = "report.html inside the first RUN_DIR";
  OptionSpec md = text_option("md", "FILE", "write the Markdown summary to FILE instead of stdout");
  OptionSpec json = text_option("json", "FILE", "also write every metric (and per-task verdicts) as JSON to FILE");
  c.spec.options = {out, md, json};
  c.spec.epilog = "exit status: 0 written, 2 usage or I/O error";
  c.run = report;
  return c;
}

}  // namespace nki::cli
