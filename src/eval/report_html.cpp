#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "eval/html.h"
#include "eval/progress.h"
#include "eval/report.h"
#include "eval/svg_chart.h"

namespace nki::eval {

namespace fs = std::filesystem;

namespace {

constexpr const char* kStyle = R"css(
:root { --ink:#1d2330; --muted:#5b6475; --line:#e4e7ec; --bg:#f6f7f9; --pass:#1a7f37; --fail:#b42318; }
* { box-sizing: border-box; }
body { margin:0; font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif; color:var(--ink); background:var(--bg); }
main { max-width:1360px; margin:0 auto; padding:28px 32px 48px; }
h1 { font-size:26px; margin:0 0 4px; }
h2 { font-size:18px; margin:36px 0 12px; }
.sub { color:var(--muted); margin:0; }
.cards { display:grid; grid-template-columns:repeat(auto-fit,minmax(260px,1fr)); gap:14px; margin-top:20px; }
.card { background:#fff; border:1px solid var(--line); border-radius:10px; padding:14px 16px; border-top:5px solid var(--c); }
.card .name { font-weight:600; overflow-wrap:anywhere; }
.card .big { font-size:34px; font-weight:700; line-height:1.1; margin:6px 0 2px; }
.card .big small { font-size:15px; color:var(--muted); font-weight:500; }
.card .facts { color:var(--muted); font-size:13px; }
.grid { display:grid; grid-template-columns:repeat(auto-fit,minmax(600px,1fr)); gap:16px; }
figure { margin:0; background:#fff; border:1px solid var(--line); border-radius:10px; padding:14px 16px 8px; }
figcaption { font-weight:600; margin-bottom:2px; }
figcaption span { display:block; font-weight:400; color:var(--muted); font-size:12.5px; }
figure svg { width:100%; max-width:760px; height:auto; display:block; margin:0 auto; }
table { border-collapse:collapse; background:#fff; border:1px solid var(--line); font-size:13px; width:100%; }
th, td { padding:6px 10px; border-bottom:1px solid var(--line); text-align:right; vertical-align:top; }
th { background:#eef1f5; font-weight:600; position:sticky; top:0; white-space:nowrap; }
.scroll { overflow-x:auto; }
table.summary td { white-space:nowrap; }
table.summary small { color:var(--muted); }
th:first-child, td:first-child { text-align:left; }
td.l, th.l { text-align:left; }
tr:hover td { background:#fafbfc; }
.swatch { display:inline-block; width:10px; height:10px; border-radius:2px; margin-right:6px; background:var(--c); }
.v { display:inline-block; padding:1px 6px; margin:1px 2px 1px 0; border-radius:4px; font-size:12px; text-decoration:none; white-space:nowrap; }
a.v:hover { text-decoration:underline; }
.v.pass { background:#dafbe1; color:var(--pass); }
.v.compile_error { background:#ffebe9; color:var(--fail); }
.v.runtime_error { background:#fff1e5; color:#a8480a; }
.v.mismatch { background:#fff8c5; color:#7d5a00; }
.v.no_code, .v.budget_exhausted { background:#eaeef2; color:#424a53; }
.v.api_error { background:#f3e8ff; color:#6b2fb3; }
.v.strictfail { outline:1px dashed var(--pass); }
.note { color:var(--muted); font-size:12.5px; margin:6px 0 0; }
.warn { background:#fff8c5; border:1px solid #e9d46b; border-radius:8px; padding:8px 12px; margin-top:14px; }
code { font-size:12.5px; }
)css";

const std::map<VerdictKind, std::string>& badge_text() {
  static const std::map<VerdictKind, std::string> m = {
      {VerdictKind::Pass, "\u2713"},           {VerdictKind::CompileError, "compile"},
      {VerdictKind::RuntimeError, "runtime"},  {VerdictKind::Mismatch, "mismatch"},
      {VerdictKind::NoCode, "no code"},        {VerdictKind::ApiError, "API"},
      {VerdictKind::BudgetExhausted, "budget"}};
  return m;
}

std::string failure_title(VerdictKind k) {
  std::string t = verdict_kind_name(k);
  std::replace(t.begin(), t.end(), '_', ' ');
  if (k == VerdictKind::ApiError) t = "API error";
  return t;
}

std::string count_text(const PassCount& c) {
  return std::to_string(c.passed) + "/" + std::to_string(c.total);
}

std::string now_utc() {
  std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", std::gmtime(&t));
  return buf;
}

std::set<int> levels_of(const std::vector<RunMetrics>& runs) {
  std::set<int> levels;
  for (const auto& r : runs)
    for (const auto& [l, _] : r.by_level) levels.insert(l);
  return levels;
}

void cards(std::ostringstream& s, const std::vector<RunMetrics>& runs) {
  s << "<section class=\"cards\">";
  for (size_t i = 0; i < runs.size(); ++i) {
    const auto& r = runs[i];
    s << "<div class=\"card\" style=\"--c:" << series_color(i) << "\"><div class=\"name\">" << html_escape(r.label)
      << "</div><div class=\"big\">" << percent(r.overall.rate()) << " <small>" << count_text(r.overall)
      << " passed</small></div><div class=\"facts\">strict 1e-3 " << percent(r.strict_overall.rate()) << " \u00b7 "
      << dollars(r.cost_per_episode()) << " per task \u00b7 "
      << (r.overall.passed ? fixed(r.mean_turns_to_pass, 1) + " turns to pass" : std::string("no passes"))
      << "<br>NKI " << html_escape(r.config.nki) << " on " << html_escape(r.config.target) << ", "
      << html_escape(r.config.subset) << ", " << r.config.samples << " sample"
      << (r.config.samples == 1 ? "" : "s") << ", \u2264" << r.config.max_turns << " turns</div></div>";
  }
  s << "</section>";
  for (const auto& r : runs)
    if (r.unfinished > 0 || r.finished < r.expected_episodes)
      s << "<p class=\"warn\">" << html_escape(r.label) << ": " << r.finished << " of " << r.expected_episodes
        << " episodes finished" << (r.unfinished ? " (" + std::to_string(r.unfinished) + " interrupted)" : "")
        << " \u2014 re-run the same bench command to complete it.</p>";
}

std::string pass_by_level_chart(const std::vector<RunMetrics>& runs) {
  BarChart c;
  c.percent_axis = true;
  c.y_label = "pass rate";
  auto levels = levels_of(runs);
  for (int l : levels) c.categories.push_back("Level " + std::to_string(l));
  c.categories.push_back("Overall");
  for (const auto& r : runs) {
    BarSeries ser;
    ser.name = r.label;
    auto add = [&](const PassCount& pc) {
      Interval ci = wilson_interval(pc);
      ser.intervals.emplace_back(pc.total ? ci.lo : 0.0, pc.total ? ci.hi : 0.0);
      ser.values.push_back(pc.rate());
      ser.labels.push_back(pc.total ? fixed(100 * pc.rate(), 0) + "%" : "");
      ser.tooltips.push_back(count_text(pc) + " (" + percent(pc.rate()) + "), 95% CI " + percent(ci.lo) + "\u2013" +
                             percent(ci.hi));
    };
    for (int l : levels) add(r.by_level.count(l) ? r.by_level.at(l) : PassCount{});
    add(r.overall);
    c.series.push_back(std::move(ser));
  }
  return render_bar_chart(c);
}

std::string turns_chart(const std::vector<RunMetrics>& runs) {
  BarChart c;
  c.y_label = "passing episodes";
  int max_turn = 1;
  for (const auto& r : runs) {
    max_turn = std::max(max_turn, r.config.max_turns);
    if (!r.turns_to_pass.empty()) max_turn = std::max(max_turn, r.turns_to_pass.rbegin()->first);
  }
  for (int t = 1; t <= max_turn; ++t) c.categories.push_back(std::to_string(t));
  for (const auto& r : runs) {
    BarSeries ser;
    ser.name = r.label;
    for (int t = 1; t <= max_turn; ++t) {
      int n = r.turns_to_pass.count(t) ? r.turns_to_pass.at(t) : 0;
      ser.values.push_back(n);
      ser.labels.push_back(n ? std::to_string(n) : "");
      ser.tooltips.push_back(std::to_string(n) + " passed at turn " + std::to_string(t));
    }
    c.series.push_back(std::move(ser));
  }
  return render_bar_chart(c);
}

std::string failure_chart(const std::vector<RunMetrics>& runs) {
  BarChart c;
  c.percent_axis = true;
  c.full_percent_range = false;  // failures are usually a small share; use the height for them
  c.y_label = "share of episodes";
  for (auto k : failure_kinds()) c.categories.push_back(failure_title(k));
  double worst = 0;
  for (const auto& r : runs) {
    BarSeries ser;
    ser.name = r.label;
    for (auto k : failure_kinds()) {
      int n = r.failures.count(verdict_kind_name(k)) ? r.failures.at(verdict_kind_name(k)) : 0;
      double share = r.finished ? static_cast<double>(n) / r.finished : 0.0;
      worst = std::max(worst, share);
      ser.values.push_back(share);
      ser.labels.push_back(n ? std::to_string(n) : "");
      ser.tooltips.push_back(std::to_string(n) + " of " + std::to_string(r.finished) + " episodes");
    }
    c.series.push_back(std::move(ser));
  }
  return render_bar_chart(c);
}

std::string cost_chart(const std::vector<RunMetrics>& runs) {
  ScatterChart c;
  c.x_label = "cost per task (USD)";
  c.y_label = "pass rate";
  for (const auto& r : runs)
    c.points.push_back({r.label, r.cost_per_episode(), r.overall.rate(),
                        percent(r.overall.rate()) + " at " + dollars(r.cost_per_episode()) + "/task, " +
                            (r.overall.passed ? dollars(r.cost_per_pass()) + "/pass" : "no passes")});
  return render_scatter(c);
}

void figure(std::ostringstream& s, const std::string& title, const std::string& note, const std::string& svg) {
  s << "<figure><figcaption>" << html_escape(title) << "<span>" << html_escape(note) << "</span></figcaption>"
    << svg << "</figure>";
}

void summary_table(std::ostringstream& s, const std::vector<RunMetrics>& runs) {
  auto levels = levels_of(runs);
  std::set<int> ks;
  for (const auto& r : runs)
    for (const auto& [k, _] : r.pass_at_k) ks.insert(k);
  s << "<h2>Ablation table</h2><div class=\"scroll\"><table class=\"summary\"><thead><tr><th>Run</th><th>Overall</th>"
       "<th>95% CI</th>";
  for (int l : levels) s << "<th>Level " << l << "</th>";
  s << "<th>Strict 1e-3</th>";
  for (int k : ks) s << "<th>pass@" << k << "</th>";
  s << "<th>Mean turns to pass</th></tr></thead><tbody>";
  auto cell = [](const PassCount& pc) {
    return pc.total ? count_text(pc) + " <small>(" + percent(pc.rate()) + ")</small>" : std::string("\u2013");
  };
  for (size_t i = 0; i < runs.size(); ++i) {
    const auto& r = runs[i];
    s << "<tr><td><span class=\"swatch\" style=\"--c:" << series_color(i) << "\"></span>" << html_escape(r.label)
      << "</td><td>" << cell(r.overall) << "</td>";
    Interval ci = wilson_interval(r.overall);
    s << "<td>" << (r.overall.total ? fixed(100 * ci.lo, 1) + "\u2013" + percent(ci.hi) : "\u2013") << "</td>";
    for (int l : levels) s << "<td>" << cell(r.by_level.count(l) ? r.by_level.at(l) : PassCount{}) << "</td>";
    s << "<td>" << cell(r.strict_overall) << "</td>";
    for (int k : ks) {
      std::string v = "\u2013";
      for (const auto& [kk, p] : r.pass_at_k)
        if (kk == k) v = percent(p);
      s << "<td>" << v << "</td>";
    }
    s << "<td>" << (r.overall.passed ? fixed(r.mean_turns_to_pass, 2) : "\u2013") << "</td></tr>";
  }
  s << "</tbody></table></div><p class=\"note\">95% CI is the Wilson score interval of the overall rate. "
       "Overall and level columns use each task's tolerance (the verdict); "
       "strict re-judges the same kernels at atol=rtol=1e-3 on every output. pass@k is the unbiased "
       "estimator over the samples of each task.</p>";
}

void cost_table(std::ostringstream& s, const std::vector<RunMetrics>& runs) {
  s << "<h2>Tokens, cost and time</h2><div class=\"scroll\"><table class=\"summary\"><thead><tr><th>Run</th>"
       "<th>Tokens in</th><th>Tokens out</th><th>Cached in</th><th>Tokens / task</th><th>Tokens / pass</th>"
       "<th>Cost</th><th>$ / task</th><th>$ / pass</th><th>Wall p50</th><th>Wall p90</th><th>Wall sum</th>"
       "</tr></thead><tbody>";
  for (size_t i = 0; i < runs.size(); ++i) {
    const auto& r = runs[i];
    bool any = r.overall.passed > 0;
    s << "<tr><td><span class=\"swatch\" style=\"--c:" << series_color(i) << "\"></span>" << html_escape(r.label)
      << "</td><td>" << human_count(r.tokens_in) << "</td><td>" << human_count(r.tokens_out) << "</td><td>"
      << human_count(r.tokens_cached) << "</td><td>" << human_count(static_cast<std::int64_t>(r.tokens_per_episode()))
      << "</td><td>" << (any ? human_count(static_cast<std::int64_t>(r.tokens_per_pass())) : "\u2013") << "</td><td>"
      << dollars(r.cost_usd) << "</td><td>" << dollars(r.cost_per_episode()) << "</td><td>"
      << (any ? dollars(r.cost_per_pass()) : "\u2013") << "</td><td>" << human_duration(r.wall_seconds_p50)
      << "</td><td>" << human_duration(r.wall_seconds_p90) << "</td><td>" << human_duration(r.wall_seconds_total)
      << "</td></tr>";
  }
  s << "</tbody></table></div><p class=\"note\">Per task = per episode (task and sample); per pass divides the "
       "run's whole cost by its passing episodes. Wall times are per episode; the sum is independent of --jobs.</p>";
  for (const auto& r : runs)
    if (r.cost_unknown_episodes)
      s << "<p class=\"warn\">" << html_escape(r.label) << ": " << r.cost_unknown_episodes
        << " episode(s) used a model missing from the price table, so its costs are lower bounds.</p>";
}

void compile_code_table(std::ostringstream& s, const std::vector<RunMetrics>& runs) {
  std::map<std::string, int> total;
  for (const auto& r : runs)
    for (const auto& [code, n] : r.compile_codes) total[code] += n;
  if (total.empty()) return;
  std::vector<std::pair<std::string, int>> codes(total.begin(), total.end());
  std::sort(codes.begin(), codes.end(), [](auto& a, auto& b) { return a.second != b.second ? a.second > b.second : a.first < b.first; });
  s << "<h2>Compile errors by code</h2><table><thead><tr><th>Code</th>";
  for (size_t i = 0; i < runs.size(); ++i)
    s << "<th><span class=\"swatch\" style=\"--c:" << series_color(i) << "\"></span>" << html_escape(runs[i].label) << "</th>";
  s << "</tr></thead><tbody>";
  for (const auto& [code, _] : codes) {
    s << "<tr><td><code>" << html_escape(code) << "</code></td>";
    for (const auto& r : runs) s << "<td>" << (r.compile_codes.count(code) ? r.compile_codes.at(code) : 0) << "</td>";
    s << "</tr>";
  }
  s << "</tbody></table>";
}

std::string link_target(const std::string& transcript, const fs::path& html_dir) {
  if (transcript.empty()) return {};
  fs::path p = fs::absolute(transcript).lexically_normal();
  fs::path rel = p.lexically_relative(html_dir);
  std::string out = (rel.empty() ? p : rel).generic_string();
  // A first segment like "javascript:x" would be read as a URL scheme; "./" keeps it a path.
  if (out.find(':') < out.find('/')) out = "./" + out;
  return out;
}

bool any_speed(const std::vector<RunMetrics>& runs) {
  for (const auto& r : runs)
    if (r.speed.any()) return true;
  return false;
}

// Histogram of speedups (passing kernels with a baseline) in fixed buckets, one series per run,
// as a share of each run's episodes with a speedup.
std::string speedup_chart(const std::vector<RunMetrics>& runs) {
  static const double kEdges[] = {0.5, 1.0, 1.5, 2.0, 4.0};
  BarChart c;
  c.percent_axis = true;
  c.full_percent_range = false;
  c.y_label = "share of kernels";
  c.categories = {"< 0.5\u00d7", "0.5\u20131\u00d7", "1\u20131.5\u00d7", "1.5\u20132\u00d7", "2\u20134\u00d7",
                  "\u2265 4\u00d7"};
  for (const auto& r : runs) {
    std::vector<int> counts(6, 0);
    for (double x : r.speed.speedups) {
      size_t b = 0;
      while (b < 5 && x >= kEdges[b]) ++b;
      counts[b]++;
    }
    BarSeries ser;
    ser.name = r.label;
    int n = static_cast<int>(r.speed.speedups.size());
    for (int k : counts) {
      double share = n ? static_cast<double>(k) / n : 0.0;
      ser.values.push_back(share);
      ser.labels.push_back(k ? std::to_string(k) : "");
      ser.tooltips.push_back(std::to_string(k) + "/" + std::to_string(n) + " kernels");
    }
    c.series.push_back(std::move(ser));
  }
  return render_bar_chart(c);
}

void speed_table(std::ostringstream& s, const std::vector<RunMetrics>& runs) {
  s << "<h2>Speed (cost-model estimates)</h2><div class=\"scroll\"><table class=\"summary\"><thead><tr><th>Run</th>"
       "<th>Level</th><th>Episodes</th><th>With speedup</th><th>fast<sub>1</sub></th><th>fast<sub>1.5</sub></th>"
       "<th>fast<sub>2</sub></th><th>Geomean speedup</th><th>% of peak</th></tr></thead><tbody>";
  for (const auto& r : runs) {
    auto row = [&](const std::string& level, const SpeedStats& sp) {
      s << "<tr><td class=\"l\">" << html_escape(r.label) << "</td><td>" << level << "</td><td>" << sp.episodes
        << "</td><td>" << sp.with_speedup << "</td>";
      for (int i = 0; i < 3; ++i)
        s << "<td>" << (sp.episodes ? percent(sp.fast_p(i)) : "\u2013") << "<br><small>" << sp.fast[i] << "/"
          << sp.episodes << "</small></td>";
      s << "<td>" << (sp.with_speedup ? speedup_text(sp.geomean_speedup()) : "\u2013") << "</td><td>"
        << (sp.pct_of_peak_count ? fixed(sp.mean_pct_of_peak(), 1) + "%" : "\u2013") << "</td></tr>";
    };
    row("all", r.speed);
    for (const auto& [level, sp] : r.speed_by_level) row("L" + std::to_string(level), sp);
  }
  s << "</tbody></table></div><p class=\"note\">speedup = baseline (the reference solution's estimated latency, "
       "tasks/baselines.json) / the passing final kernel's estimated latency, both from the cost model, not measured "
       "on hardware. fast<sub>p</sub> = share of episodes correct with speedup &gt; p (KernelBench); an episode "
       "whose task has no baseline is never fast.</p>";
}

void task_table(std::ostringstream& s, const std::vector<RunMetrics>& runs, const fs::path& html_dir) {
  std::map<std::pair<int, std::string>, std::vector<const TaskResult*>> rows;  // (level, id) -> per run
  for (size_t i = 0; i < runs.size(); ++i)
    for (const auto& t : runs[i].tasks) {
      auto& row = rows[{t.task.level, t.task.id}];
      row.resize(runs.size(), nullptr);
      row[i] = &t;
    }
  s << "<h2>Per task</h2><div class=\"scroll\"><table class=\"tasks\"><thead><tr><th>Task</th><th class=\"l\">Level</th>"
       "<th class=\"l\">Solved by</th>";
  for (size_t i = 0; i < runs.size(); ++i)
    s << "<th class=\"l\"><span class=\"swatch\" style=\"--c:" << series_color(i) << "\"></span>"
      << html_escape(runs[i].label) << "</th>";
  s << "</tr></thead><tbody>";
  const bool speed = any_speed(runs);
  for (const auto& [key, per_run] : rows) {
    int solved = 0;
    for (const auto* t : per_run) solved += (t && t->passed() > 0) ? 1 : 0;
    s << "<tr><td><code>" << html_escape(key.second) << "</code></td><td class=\"l\">L" << key.first
      << "</td><td class=\"l\">" << solved << "/" << runs.size() << "</td>";
    for (const auto* t : per_run) {
      s << "<td class=\"l\">";
      if (!t) s << "\u2013";
      // The estimated latency of the first sample whose final kernel has one.
      if (speed && t)
        for (const auto& smp : t->samples)
          if (smp.est_latency_ns) {
            s << "<small>" << html_escape(latency_text(*smp.est_latency_ns)) << "</small> ";
            break;
          }
      for (const auto* smp = t ? t->samples.data() : nullptr; t && smp != t->samples.data() + t->samples.size(); ++smp) {
        std::string cls = verdict_kind_name(smp->verdict.kind);
        if (smp->verdict.passed() && !smp->strict_pass) cls += " strictfail";
        std::string text = badge_text().at(smp->verdict.kind);
        if (smp->verdict.passed()) text += " t" + std::to_string(smp->pass_turn.value_or(smp->turns_used));
        std::string title = "sample " + std::to_string(smp->sample) + ": " + verdict_kind_name(smp->verdict.kind) +
                            (smp->verdict.code.empty() ? "" : " [" + smp->verdict.code + "]") + ", " +
                            std::to_string(smp->turns_used) + " turns, " + dollars(smp->cost_usd) +
                            (smp->verdict.passed() && !smp->strict_pass ? ", fails strict 1e-3" : "") +
                            (smp->est_latency_ns ? ", estimated " + latency_text(*smp->est_latency_ns) : "") +
                            (smp->baseline_ns ? ", baseline " + latency_text(*smp->baseline_ns) : "");
        if (smp->speedup) text += " " + speedup_text(*smp->speedup);
        std::string href = link_target(smp->transcript_path, html_dir);
        if (href.empty())
          s << "<span class=\"v " << cls << "\" title=\"" << html_escape(title) << "\">" << html_escape(text) << "</span>";
        else
          s << "<a class=\"v " << cls << "\" href=\"" << href_escape(href) << "\" title=\"" << html_escape(title)
            << "\">" << html_escape(text) << "</a>";
        s << ' ';  // a break opportunity, so many samples wrap inside the cell
      }
      s << "</td>";
    }
    s << "</tr>";
  }
  s << "</tbody></table></div><p class=\"note\">Each badge is one sample and links to its transcript; "
       "\u2713 t3 = passed at turn 3 (1.50\u00d7: its estimated speedup over the baseline); a dashed outline marks a "
       "pass that fails the strict 1e-3 check. A latency before the badges is the cost model's estimate of the "
       "first sample's final kernel.</p>";
}

}  // namespace

std::string render_html(const std::vector<RunMetrics>& runs, const std::string& html_path) {
  fs::path html_dir = fs::absolute(html_path).lexically_normal().parent_path();
  std::ostringstream s;
  s << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
       "<title>NKI-Agent benchmark report</title><style>"
    << kStyle << "</style></head><body><main>";
  s << "<h1>NKI-Agent benchmark report</h1><p class=\"sub\">" << runs.size() << " run"
    << (runs.size() == 1 ? "" : "s") << " \u00b7 generated " << now_utc() << "</p>";
  cards(s, runs);
  if (auto w = comparability_warning(runs); !w.empty()) s << "<p class=\"warn\">" << html_escape(w) << "</p>";
  s << "<h2>Overview</h2><div class=\"grid\">";
  figure(s, "Pass rate by level",
         "share of episodes whose final kernel verified (task tolerance); whiskers: 95% Wilson interval",
         pass_by_level_chart(runs));
  figure(s, "Cost vs pass rate", "mean cost per task against overall pass rate, one point per run",
         cost_chart(runs));
  figure(s, "Turns to pass", "turn at which each passing episode first verified", turns_chart(runs));
  figure(s, "Failure taxonomy", "share of episodes ending in each failure kind (bar labels are counts)",
         failure_chart(runs));
  if (any_speed(runs))
    figure(s, "Speedup distribution",
           "baseline / estimated latency of passing final kernels (cost model), share per run", speedup_chart(runs));
  s << "</div>";
  summary_table(s, runs);
  if (any_speed(runs)) speed_table(s, runs);
  cost_table(s, runs);
  compile_code_table(s, runs);
  task_table(s, runs, html_dir);
  s << "</main></body></html>\n";
  return s.str();
}

}  // namespace nki::eval
