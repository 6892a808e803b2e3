#include "eval/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "eval/html.h"

namespace nki::eval {

namespace {

// Plot margins: room for y tick labels on the left and category labels below. The top margin
// depends on how many rows the legend needs (see legend()).
constexpr int kLeft = 56, kRight = 16, kBottom = 44;
constexpr double kLegendRow = 17;

std::string num(double v) { return fixed(v, 1); }

// All ticks of one axis share the number of decimals the step needs ($0.00 $0.05 $0.10).
std::string tick_text(double v, double step, bool pct, bool dollars) {
  if (pct) {
    v *= 100.0;
    step *= 100.0;
  }
  int decimals = std::max(0, static_cast<int>(-std::floor(std::log10(step) + 1e-9)));
  if (std::abs(step * std::pow(10.0, decimals) - std::round(step * std::pow(10.0, decimals))) > 1e-6) ++decimals;
  return (dollars ? "$" : "") + fixed(v, decimals) + (pct ? "%" : "");
}

void open_svg(std::ostringstream& s, int w, int h, const std::string& aria) {
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " << w << " " << h << "\" width=\"" << w
    << "\" height=\"" << h << "\" role=\"img\" aria-label=\"" << html_escape(aria)
    << "\" font-family=\"system-ui, -apple-system, 'Segoe UI', sans-serif\" font-size=\"12\">";
}

// Legend across the top, wrapping into rows; returns the y where the plot may start, leaving
// room for value labels above the tallest bar.
double legend(std::ostringstream& s, const std::vector<std::string>& names, int width) {
  double x = kLeft, y = 14;
  for (size_t i = 0; i < names.size(); ++i) {
    double w = 17 + 6.6 * static_cast<double>(names[i].size()) + 20;  // swatch + text + gap
    if (x + w > width - kRight && x > kLeft) {
      x = kLeft;
      y += kLegendRow;
    }
    s << "<rect x=\"" << num(x) << "\" y=\"" << num(y - 9) << "\" width=\"12\" height=\"12\" rx=\"2\" fill=\""
      << series_color(i) << "\"/><text x=\"" << num(x + 17) << "\" y=\"" << num(y + 1) << "\" fill=\"#333\">"
      << html_escape(names[i]) << "</text>";
    x += w;
  }
  return y + 26;
}

// Horizontal grid lines with tick labels; returns the y pixel of value v.
struct YAxis {
  double top_value;
  double y0, y1;  // pixel of value 0 and of top_value
  double at(double v) const { return y0 - (y0 - y1) * (v / top_value); }
};

YAxis draw_y_axis(std::ostringstream& s, const AxisScale& scale, int width, int height, double top, bool pct,
                  bool dollars, const std::string& label) {
  YAxis ax{scale.top, static_cast<double>(height - kBottom), top};
  for (double v = 0; v <= scale.top + scale.step * 1e-6; v += scale.step) {
    double y = ax.at(v);
    s << "<line x1=\"" << kLeft << "\" x2=\"" << width - kRight << "\" y1=\"" << num(y) << "\" y2=\"" << num(y)
      << "\" stroke=\"" << (v == 0 ? "#888" : "#e3e3e3") << "\"/>";
    s << "<text x=\"" << kLeft - 6 << "\" y=\"" << num(y + 4) << "\" text-anchor=\"end\" fill=\"#555\">"
      << tick_text(v, scale.step, pct, dollars) << "</text>";
  }
  double mid = (ax.y0 + ax.y1) / 2;
  s << "<text transform=\"translate(14," << num(mid) << ") rotate(-90)\" text-anchor=\"middle\" fill=\"#555\">"
    << html_escape(label) << "</text>";
  return ax;
}

}  // namespace

const std::string& series_color(size_t i) {
  static const std::vector<std::string> palette = {"#0072B2", "#E69F00", "#009E73", "#CC79A7",
                                                   "#56B4E9", "#D55E00", "#F0E442", "#000000"};
  return palette[i % palette.size()];
}

AxisScale nice_axis(double max_value, int target_ticks) {
  if (!(max_value > 0)) return {1.0, 0.2};
  double raw = max_value / target_ticks;
  double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    step = m * mag;
    if (step >= raw) break;
  }
  return {std::ceil(max_value / step - 1e-9) * step, step};
}

std::string render_bar_chart(const BarChart& c, int width, int height) {
  std::ostringstream s;
  open_svg(s, width, height, c.y_label);
  std::vector<std::string> names;
  double max_v = 0;
  for (const auto& ser : c.series) {
    names.push_back(ser.name);
    for (double v : ser.values) max_v = std::max(max_v, v);
  }
  double top = legend(s, names, width);
  AxisScale scale = !c.percent_axis          ? nice_axis(std::max(max_v, 1.0))
                    : c.full_percent_range ? AxisScale{1.0, 0.2}
                                           : nice_axis(std::clamp(max_v, 0.01, 1.0));
  YAxis ax = draw_y_axis(s, scale, width, height, top, c.percent_axis, false, c.y_label);

  size_t groups = std::max<size_t>(c.categories.size(), 1), nser = std::max<size_t>(c.series.size(), 1);
  double group_w = static_cast<double>(width - kLeft - kRight) / groups;
  double bar_w = std::min(48.0, group_w * 0.8 / nser);
  double label_font = std::min(11.0, std::max(8.0, bar_w * 0.45));
  for (size_t g = 0; g < c.categories.size(); ++g) {
    double gx = kLeft + g * group_w;
    double start = gx + (group_w - bar_w * nser) / 2;
    for (size_t i = 0; i < c.series.size(); ++i) {
      const auto& ser = c.series[i];
      double v = g < ser.values.size() ? ser.values[g] : 0.0;
      double x = start + i * bar_w, y = ax.at(v), h = ax.y0 - y;
      s << "<g><rect x=\"" << num(x + 1) << "\" y=\"" << num(y) << "\" width=\"" << num(bar_w - 2)
        << "\" height=\"" << num(std::max(h, 0.0)) << "\" fill=\"" << series_color(i) << "\">";
      std::string tip = ser.name + " \u2014 " + c.categories[g];
      if (g < ser.tooltips.size() && !ser.tooltips[g].empty()) tip += ": " + ser.tooltips[g];
      s << "<title>" << html_escape(tip) << "</title></rect>";
      double label_y = y;
      if (g < ser.intervals.size()) {
        // Whisker with caps; the value label then sits above whichever is higher.
        double lo = ax.at(ser.intervals[g].first), hi = ax.at(ser.intervals[g].second), cx = x + bar_w / 2;
        double cap = std::min(5.0, bar_w / 4);
        s << "<path d=\"M" << num(cx) << " " << num(lo) << "V" << num(hi) << "M" << num(cx - cap) << " " << num(hi)
          << "h" << num(2 * cap) << "M" << num(cx - cap) << " " << num(lo) << "h" << num(2 * cap)
          << "\" stroke=\"#333\" stroke-opacity=\"0.65\" fill=\"none\"/>";
        label_y = std::min(label_y, hi);
      }
      if (g < ser.labels.size() && !ser.labels[g].empty() && bar_w >= 14)
        s << "<text x=\"" << num(x + bar_w / 2) << "\" y=\"" << num(label_y - 4) << "\" text-anchor=\"middle\" font-size=\""
          << num(label_font) << "\" fill=\"#333\">" << html_escape(ser.labels[g]) << "</text>";
      s << "</g>";
    }
    s << "<text x=\"" << num(gx + group_w / 2) << "\" y=\"" << height - kBottom + 18
      << "\" text-anchor=\"middle\" fill=\"#333\">" << html_escape(c.categories[g]) << "</text>";
  }
  s << "</svg>";
  return s.str();
}

std::string render_scatter(const ScatterChart& c, int width, int height) {
  std::ostringstream s;
  open_svg(s, width, height, c.y_label + " vs " + c.x_label);
  std::vector<std::string> names;
  double max_x = 0;
  for (const auto& p : c.points) {
    names.push_back(p.name);
    max_x = std::max(max_x, p.x);
  }
  double top = legend(s, names, width);
  YAxis ay = draw_y_axis(s, {1.0, 0.2}, width, height, top, true, false, c.y_label);
  AxisScale xs = nice_axis(max_x > 0 ? max_x * 1.1 : 1.0);
  double x0 = kLeft + 10, x1 = width - kRight - 10;
  auto at_x = [&](double v) { return x0 + (x1 - x0) * (v / xs.top); };
  for (double v = 0; v <= xs.top + xs.step * 1e-6; v += xs.step) {
    double x = at_x(v);
    s << "<line x1=\"" << num(x) << "\" x2=\"" << num(x) << "\" y1=\"" << num(ay.y1) << "\" y2=\"" << num(ay.y0)
      << "\" stroke=\"#f0f0f0\"/><text x=\"" << num(x) << "\" y=\"" << num(ay.y0 + 16)
      << "\" text-anchor=\"middle\" fill=\"#555\">" << tick_text(v, xs.step, false, c.x_dollars) << "</text>";
  }
  s << "<text x=\"" << num((x0 + x1) / 2) << "\" y=\"" << height - 6 << "\" text-anchor=\"middle\" fill=\"#555\">"
    << html_escape(c.x_label) << "</text>";
  for (size_t i = 0; i < c.points.size(); ++i) {
    const auto& p = c.points[i];
    double x = at_x(p.x), y = ay.at(p.y);
    // Labels go left of points in the right third so they stay inside the plot.
    bool left = x > x0 + (x1 - x0) * 0.66;
    s << "<g><circle cx=\"" << num(x) << "\" cy=\"" << num(y) << "\" r=\"7\" fill=\"" << series_color(i)
      << "\" stroke=\"#fff\" stroke-width=\"1.5\"><title>" << html_escape(p.name + ": " + p.tooltip)
      << "</title></circle><text x=\"" << num(left ? x - 11 : x + 11) << "\" y=\"" << num(y + 4)
      << "\" text-anchor=\"" << (left ? "end" : "start") << "\" fill=\"#333\">" << html_escape(p.name)
      << "</text></g>";
  }
  s << "</svg>";
  return s.str();
}

}  // namespace nki::eval
