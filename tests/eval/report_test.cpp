#include "eval/report.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include "eval/html.h"
#include "eval/metrics_json.h"
#include "eval/runner.h"
#include "eval_test_support.h"

namespace nki::eval {
namespace {

namespace fs = std::filesystem;

size_t count_of(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t p = text.find(needle); p != std::string::npos; p = text.find(needle, p + 1)) ++n;
  return n;
}

// Checks that every element is closed in order (void and self-closing elements aside). Returns
// the first problem, or "" when the nesting is sound. Enough to catch a missing </td> or </svg>.
std::string nesting_problem(const std::string& html) {
  static const std::set<std::string> void_tags = {"meta", "br", "img", "input", "link", "hr"};
  std::vector<std::string> open;
  size_t i = 0;
  while ((i = html.find('<', i)) != std::string::npos) {
    if (html.compare(i, 2, "<!") == 0) {
      i = html.find('>', i);
      continue;
    }
    size_t end = html.find('>', i);
    if (end == std::string::npos) return "unterminated tag at " + std::to_string(i);
    bool closing = html[i + 1] == '/';
    size_t name_start = i + (closing ? 2 : 1);
    size_t name_end = html.find_first_of(" \t\n/>", name_start);
    std::string name = html.substr(name_start, name_end - name_start);
    bool self_closing = html[end - 1] == '/';
    if (closing) {
      if (open.empty() || open.back() != name)
        return "</" + name + "> closes <" + (open.empty() ? "nothing" : open.back()) + "> at " + std::to_string(i);
      open.pop_back();
    } else if (!self_closing && !void_tags.count(name)) {
      open.push_back(name);
      if (name == "style") {  // CSS may contain '>' selectors; skip to its end tag
        end = html.find("</style>", end) - 1;
      }
    }
    i = end + 1;
  }
  return open.empty() ? "" : "<" + open.back() + "> never closed";
}

// Three runs over the same 9 tasks, one per mode, with different pass rates.
struct ThreeRuns {
  std::string root = testing::make_temp_dir("report");
  std::vector<std::string> ids;
  std::vector<RunMetrics> runs;
  ThreeRuns() {
    ids = testing::write_fake_tasks(root + "/tasks", 3);
    int bias = -3;
    for (Mode m : {Mode::SingleShot, Mode::MultiTurn, Mode::Agent}) {
      auto o = testing::quiet_options(root + "/tasks", root + "/" + mode_name(m));
      o.config.mode = m;
      o.config.max_turns = m == Mode::SingleShot ? 1 : 10;
      run_bench(o, [bias](const EpisodeRequest& r) { return testing::fake_outcome(r, bias); });
      runs.push_back(load_run_metrics(o.run_dir));
      bias += 3;
    }
    assign_labels(runs);
  }
};

TEST(Report, HtmlIsSelfContainedAndHasEveryChartAndTask) {
  ThreeRuns t;
  std::string html_path = t.root + "/out/report.html";
  std::string html = render_html(t.runs, html_path);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(nesting_problem(html), "");
  EXPECT_NE(nesting_problem("<div><span></div>"), "");  // the checker itself catches bad nesting
  EXPECT_NE(nesting_problem("<table><tr><td>x</tr></table>"), "");
  EXPECT_EQ(count_of(html, "<svg"), 4u);
  EXPECT_EQ(count_of(html, "<svg"), count_of(html, "</svg>"));
  EXPECT_EQ(count_of(html, "<table"), count_of(html, "</table>"));
  EXPECT_EQ(count_of(html, "<tr>"), count_of(html, "</tr>"));
  EXPECT_EQ(count_of(html, "<figure>"), 4u);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg"));  // only the SVG namespace
  EXPECT_EQ(html.find("https://"), std::string::npos);
  for (const auto& id : t.ids) EXPECT_NE(html.find("<code>" + id + "</code>"), std::string::npos) << id;
  for (const auto& r : t.runs) EXPECT_NE(html.find(html_escape(r.label)), std::string::npos) << r.label;
  // Transcript links are relative to the report's directory.
  EXPECT_NE(html.find("href=\"../agent/transcripts/l1_t0/s0.jsonl\""), std::string::npos);
}

TEST(Report, MarkdownTablesHaveOneRowPerRunAndCounts) {
  ThreeRuns t;
  std::string md = render_markdown(t.runs);
  for (const auto& r : t.runs) {
    // One row in each of runs, pass, strict-per-level, pass@k, turns, failures and cost, plus one
    // column header in the compile-error table (the fake runs have compile errors).
    EXPECT_EQ(count_of(md, "| " + r.label + " |"), 8u) << r.label;
    std::string counts = std::to_string(r.overall.passed) + "/" + std::to_string(r.overall.total) + " (";
    EXPECT_NE(md.find(counts), std::string::npos) << counts;
  }
  EXPECT_NE(md.find("| Run | Overall | 95% CI | Level 1 | Level 2 | Level 3 | Strict 1e-3 |"), std::string::npos);
  EXPECT_NE(md.find("## Failure taxonomy"), std::string::npos);
}

TEST(Report, EscapesHostileStrings) {
  RunConfig c;
  c.model = "m\"<x>";
  c.subset = "s";
  c.task_count = 1;
  StoredEpisode e;
  e.task = {"t<b>&'1", 1};
  e.finished = true;
  e.outcome.verdict = Verdict::compile_error("err_<i>");
  e.outcome.transcript_path = "/tmp/a b#c.jsonl";
  StoredEpisode scheme = e;
  scheme.sample = 1;
  scheme.outcome.transcript_path = "javascript:alert(1)";  // relative to the run dir
  std::vector<RunMetrics> runs = {compute_metrics(c, {e, scheme}, "/tmp")};
  assign_labels(runs);
  std::string html = render_html(runs, "/tmp/report.html");
  EXPECT_EQ(html.find("href=\"javascript:"), std::string::npos);
  EXPECT_NE(html.find("href=\"./javascript:alert(1)\""), std::string::npos);
  EXPECT_EQ(nesting_problem(html), "");
  EXPECT_EQ(html.find("t<b>"), std::string::npos);
  EXPECT_EQ(html.find("<x>"), std::string::npos);
  EXPECT_EQ(html.find("err_<i>"), std::string::npos);
  EXPECT_NE(html.find("t&lt;b&gt;&amp;&#39;1"), std::string::npos);
  EXPECT_NE(html.find("m&quot;&lt;x&gt;"), std::string::npos);
  EXPECT_NE(html.find("href=\"a%20b%23c.jsonl\""), std::string::npos);
  std::string md = render_markdown(runs);
  EXPECT_NE(md.find("`err_<i>`"), std::string::npos);  // Markdown code span keeps it literal
}

// Splits a Markdown table row on the '|' that are not backslash-escaped.
std::vector<std::string> md_row_cells(const std::string& row) {
  std::vector<std::string> cells(1);
  for (size_t i = 0; i < row.size(); ++i) {
    if (row[i] == '\\' && i + 1 < row.size()) {
      cells.back() += row.substr(i, 2);
      ++i;
    } else if (row[i] == '|') {
      cells.emplace_back();
    } else {
      cells.back() += row[i];
    }
  }
  return cells;
}

std::string line_containing(const std::string& text, const std::string& needle) {
  size_t at = text.find(needle);
  if (at == std::string::npos) return "";
  size_t start = text.rfind('\n', at) + 1;
  return text.substr(start, text.find('\n', at) - start);
}

TEST(Report, MarkdownAndHtmlEscapeEveryUserString) {
  RunConfig c;
  c.model = "evil|name<script>*_";
  c.subset = "sub_[set]`x`";
  c.task_count = 1;
  c.task_list_fingerprint = "1";
  StoredEpisode e;
  e.task = {"t|<b>*x*_&amp;", 1};
  e.finished = true;
  e.outcome.verdict = Verdict::compile_error("err|`tick`<i>");
  e.outcome.error_message = "boom <script>alert(1)</script> | *";
  RunConfig other = c;
  other.subset = "plain";
  other.task_list_fingerprint = "2";  // different task lists: the warning quotes both subsets
  std::vector<RunMetrics> runs = {compute_metrics(c, {e}, "/tmp/run_<x>"), compute_metrics(other, {}, "/tmp/b")};
  assign_labels(runs);

  std::string md = render_markdown(runs);
  EXPECT_EQ(md.find("<script>"), std::string::npos) << md;
  EXPECT_EQ(md.find("<x>"), std::string::npos);
  EXPECT_NE(md.find("evil\\|name\\<script\\>\\*\\_"), std::string::npos) << md;
  EXPECT_NE(md.find("sub\\_\\[set\\]\\`x\\`"), std::string::npos) << md;
  // The model name does not add cells: the runs row has as many as its header.
  std::string header = line_containing(md, "| Run | Model | Mode |");
  std::string row = line_containing(md, "| /tmp/run\\_\\<x\\> |");
  ASSERT_FALSE(row.empty()) << md;
  EXPECT_EQ(md_row_cells(row).size(), md_row_cells(header).size()) << row;
  // A code with backticks and a pipe stays one literal code span in one cell.
  std::string code_row = line_containing(md, "tick");
  EXPECT_NE(code_row.find("``err\\|`tick`<i>``"), std::string::npos) << code_row;
  EXPECT_EQ(md_row_cells(code_row).size(), md_row_cells(line_containing(md, "| Code |")).size()) << code_row;
  std::string warning = line_containing(md, "> **Warning:**");
  EXPECT_NE(warning.find("sub\\_\\[set\\]"), std::string::npos) << warning;

  std::string html = render_html(runs, "/tmp/report.html");
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<b>"), std::string::npos);
  EXPECT_EQ(html.find("<i>"), std::string::npos);
  EXPECT_NE(html.find("evil|name&lt;script&gt;*_"), std::string::npos);
  EXPECT_NE(html.find("t|&lt;b&gt;*x*_&amp;amp;"), std::string::npos);
  EXPECT_NE(html.find("err|`tick`&lt;i&gt;"), std::string::npos);
  EXPECT_EQ(nesting_problem(html), "");
}

TEST(Report, DuplicateLabelsGetTheRunDirectory) {
  RunConfig c;
  c.model = "m";
  RunMetrics a = compute_metrics(c, {}, "/x/first"), b = compute_metrics(c, {}, "/x/second");
  std::vector<RunMetrics> runs = {a, b};
  assign_labels(runs);
  EXPECT_NE(runs[0].label, runs[1].label);
  EXPECT_NE(runs[1].label.find("second"), std::string::npos);
}

TEST(Report, JsonHasEveryRunAndTask) {
  ThreeRuns t;
  auto j = runs_to_json(t.runs);
  ASSERT_EQ(j["runs"].size(), 3u);
  const auto& agent = j["runs"][2];
  EXPECT_EQ(agent["config"]["mode"], "agent");
  EXPECT_EQ(agent["overall"]["passed"], t.runs[2].overall.passed);
  EXPECT_EQ(agent["by_level"]["2"]["total"], 3);
  EXPECT_EQ(agent["tasks"].size(), t.ids.size());
  EXPECT_EQ(agent["tasks"][0]["samples"][0]["transcript"], t.root + "/agent/transcripts/l1_t0/s0.jsonl");
}

TEST(Report, WarnsWhenTaskListsDiffer) {
  RunConfig a, b;
  a.subset = "ablation60";
  a.task_list_fingerprint = "1";
  b.subset = "balanced150";
  b.task_list_fingerprint = "2";
  std::vector<RunMetrics> same = {compute_metrics(a, {}), compute_metrics(a, {})};
  std::vector<RunMetrics> mixed = {compute_metrics(a, {}), compute_metrics(b, {})};
  EXPECT_EQ(comparability_warning(same), "");
  EXPECT_NE(comparability_warning(mixed).find("ablation60 vs balanced150"), std::string::npos);
  EXPECT_NE(render_markdown(mixed).find("> **Warning:**"), std::string::npos);
}

TEST(Report, EmptyRunStillRenders) {
  RunConfig c;
  c.model = "m";
  c.task_count = 5;
  std::vector<RunMetrics> runs = {compute_metrics(c, {}, "/x/empty")};
  assign_labels(runs);
  std::string html = render_html(runs, "/x/report.html");
  EXPECT_EQ(count_of(html, "<svg"), 4u);
  EXPECT_NE(html.find("0 of 5 episodes finished"), std::string::npos);
  EXPECT_EQ(html.find("nan"), std::string::npos);
  EXPECT_EQ(html.find("inf"), std::string::npos);
  std::string md = render_markdown(runs);
  EXPECT_NE(md.find("| 0/5 |"), std::string::npos);
}

// Renders the page in headless Chromium when it is installed; only checks it produces an image.
TEST(Report, RendersInHeadlessChromium) {
  const char* candidates[] = {"/usr/bin/chromium", "/usr/bin/chromium-browser"};
  std::string browser;
  for (const char* c : candidates)
    if (fs::exists(c)) browser = c;
  if (browser.empty()) GTEST_SKIP() << "chromium not installed";
  ThreeRuns t;
  std::string html_path = t.root + "/report.html";
  std::ofstream(html_path) << render_html(t.runs, html_path);
  std::string png = t.root + "/shot.png";
  std::string cmd = "timeout 60 " + browser + " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
                    "--disable-background-networking --disable-component-update --disable-sync "
                    "--user-data-dir=" + t.root + "/profile --screenshot=" + png +
                    " --window-size=1200,900 file://" + html_path + " >/dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  ASSERT_TRUE(fs::exists(png));
  EXPECT_GT(fs::file_size(png), 10000u);
}

}  // namespace
}  // namespace nki::eval
