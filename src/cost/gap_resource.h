// A resource that serves work in any order of arrival (DMA engines, the HBM interface): each
// reservation takes the earliest idle gap at or after its ready time. The scheduler places
// instructions in program order, so a store issued late in time must not block a load that is
// placed after it in the program but is ready earlier (different DMA queues are served
// round-robin by the engines [DMA], TP §2.10).
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

namespace nki::cost {

class GapResource {
 public:
  // Reserves `d` time units starting no earlier than `t`; returns the start.
  double reserve(double t, double d) {
    double s = std::max(t, floor_);
    if (d <= 0) return s;
    reserved_ += d;
    size_t i = 0;
    // Intervals are sorted and disjoint; find the first gap of length d at or after s.
    while (i < busy_.size() && busy_[i].second <= s) ++i;
    size_t pos = i;
    for (; i < busy_.size(); ++i) {
      if (busy_[i].first >= s + d) break;
      s = std::max(s, busy_[i].second);
      pos = i + 1;
    }
    busy_.insert(busy_.begin() + static_cast<long>(pos), {s, s + d});
    // Merge touching neighbours so the list stays short.
    if (pos + 1 < busy_.size() && busy_[pos + 1].first <= busy_[pos].second + 1e-9) {
      busy_[pos].second = std::max(busy_[pos].second, busy_[pos + 1].second);
      busy_.erase(busy_.begin() + static_cast<long>(pos) + 1);
    }
    if (pos > 0 && busy_[pos - 1].second >= busy_[pos].first - 1e-9) {
      busy_[pos - 1].second = std::max(busy_[pos - 1].second, busy_[pos].second);
      busy_.erase(busy_.begin() + static_cast<long>(pos));
    }
    if (busy_.size() > kMaxIntervals) {
      // Forget the oldest gaps: nothing may start before the end of what is dropped.
      size_t drop = busy_.size() - kMaxIntervals / 2;
      floor_ = std::max(floor_, busy_[drop - 1].second);
      busy_.erase(busy_.begin(), busy_.begin() + static_cast<long>(drop));
    }
    return s;
  }
  double reserved() const { return reserved_; }
  // Appends `len` of work after everything reserved so far (the extrapolated iterations of a
  // loop in steady state); nothing may be placed before its end afterwards... except later gaps.
  void extend(double len) {
    if (len <= 0) return;
    double s = last_end();
    busy_.push_back({s, s + len});
    floor_ = std::max(floor_, s);
    reserved_ += len;
  }
  double last_end() const { return busy_.empty() ? floor_ : std::max(floor_, busy_.back().second); }
  // Moves everything that ends after `from` later by `by` (loop extrapolation).
  // The extrapolated iterations occupy the time in between: nothing may be placed before the
  // first shifted reservation any more.
  void shift(double from, double by) {
    double first_shifted = -1;
    for (auto& iv : busy_)
      if (iv.second > from) {
        iv.first += by;
        iv.second += by;
        if (first_shifted < 0 || iv.first < first_shifted) first_shifted = iv.first;
      }
    if (floor_ > from) floor_ += by;
    if (first_shifted >= 0) floor_ = std::max(floor_, first_shifted);
    // Shifted intervals may now overlap later ones only if they were later already: keep order.
    std::sort(busy_.begin(), busy_.end());
  }

 private:
  static constexpr size_t kMaxIntervals = 256;
  std::vector<std::pair<double, double>> busy_;
  double floor_ = 0;
  double reserved_ = 0;
};

}  // namespace nki::cost
