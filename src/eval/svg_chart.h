// Inline SVG charts for the HTML report: plain strings, no scripts, no external resources.
// Every text that reaches the SVG is HTML-escaped.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace nki::eval {

// Color-blind-safe palette (Okabe-Ito); series i uses series_color(i).
const std::string& series_color(size_t i);

struct BarSeries {
  std::string name;                  // legend entry (a run)
  std::vector<double> values;        // one per category
  std::vector<std::string> labels;   // printed above each bar (may be empty strings)
  std::vector<std::string> tooltips; // <title> of each bar, e.g. "116/150"
  std::vector<std::pair<double, double>> intervals;  // optional error bar (lo, hi) per bar
};

struct BarChart {
  std::vector<std::string> categories;  // x groups, e.g. "Level 1"
  std::vector<BarSeries> series;        // bars inside each group, one per run
  std::string y_label;
  bool percent_axis = false;            // values are fractions, ticks printed as percentages
  bool full_percent_range = true;       // with percent_axis: always 0-100% (else fit the data)
};

// Grouped vertical bars (one group per category, one colored bar per series) with a legend.
std::string render_bar_chart(const BarChart& chart, int width = 640, int height = 320);

struct ScatterPoint {
  std::string name;  // legend / label next to the point
  double x = 0.0;
  double y = 0.0;    // a fraction when the y axis is a percentage
  std::string tooltip;
};

struct ScatterChart {
  std::vector<ScatterPoint> points;  // point i uses series_color(i)
  std::string x_label;
  std::string y_label;
  bool x_dollars = true;
};

// Cost (x) against pass rate (y, 0-100%), one labelled point per run.
std::string render_scatter(const ScatterChart& chart, int width = 640, int height = 320);

// A "nice" axis top >= v from the 1-2-2.5-5 sequence, and its tick step.
struct AxisScale {
  double top = 1.0;
  double step = 0.2;
};
AxisScale nice_axis(double max_value, int target_ticks = 5);

}  // namespace nki::eval
