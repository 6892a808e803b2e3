// Reports over one or more runs: a Markdown summary and one self-contained HTML page.
//
// Several runs side by side are the ablation tables (single-shot vs multi-turn vs agent, or
// model vs model): every table has one row per run and every chart one color per run.
#pragma once

#include <string>
#include <vector>

#include "eval/metrics.h"

namespace nki::eval {

// Gives every run a distinct legend label: "mode · model", plus the run directory's name when
// two runs would otherwise share a label.
void assign_labels(std::vector<RunMetrics>& runs);

// Empty when the runs are comparable; otherwise one sentence saying why not (different task
// lists, e.g. ablation60 next to balanced150). Both reports print it above their tables.
std::string comparability_warning(const std::vector<RunMetrics>& runs);

// Markdown: run table, pass rates per level (counts and %), strict vs tolerance, pass@k,
// turns to pass, failure taxonomy, compile-error codes, tokens/cost/wall time.
std::string render_markdown(const std::vector<RunMetrics>& runs);

// One HTML file with inline CSS and inline SVG charts (no scripts, no network). Transcript links
// are written relative to the directory of `html_path`, so the page works when the run
// directories are moved together with it.
std::string render_html(const std::vector<RunMetrics>& runs, const std::string& html_path);

}  // namespace nki::eval
