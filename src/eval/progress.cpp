#include "eval/progress.h"

#include <cmath>
#include <sstream>

namespace nki::eval {

std::string human_count(std::int64_t n) {
  char buf[32];
  double v = static_cast<double>(n);
  if (n < 1000) std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(n));
  else if (n < 1000000) std::snprintf(buf, sizeof buf, "%.1fk", v / 1e3);
  else if (n < 1000000000) std::snprintf(buf, sizeof buf, "%.2fM", v / 1e6);
  else std::snprintf(buf, sizeof buf, "%.2fG", v / 1e9);
  return buf;
}

std::string human_duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  long s = std::lround(seconds);
  char buf[32];
  if (s < 60) std::snprintf(buf, sizeof buf, "%lds", s);
  else if (s < 3600) std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
  else std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, (s % 3600) / 60);
  return buf;
}

std::string dollars(double usd) {
  char buf[32];
  // Enough digits to tell cheap runs apart, never more than three significant ones.
  if (usd != 0.0 && std::fabs(usd) < 0.01) std::snprintf(buf, sizeof buf, "$%.4f", usd);
  else if (usd != 0.0 && std::fabs(usd) < 0.1) std::snprintf(buf, sizeof buf, "$%.3f", usd);
  else if (std::fabs(usd) < 1000) std::snprintf(buf, sizeof buf, "$%.2f", usd);
  else std::snprintf(buf, sizeof buf, "$%.0f", usd);
  return buf;
}

Progress::Progress(std::FILE* out, bool tty, int total)
    : out_(out), tty_(tty), total_(total), start_(std::chrono::steady_clock::now()) {}

void Progress::count(const EpisodeOutcome& o) {
  ++done_;
  if (o.verdict.passed()) ++passes_;
  else failures_[verdict_kind_name(o.verdict.kind)]++;
  tokens_in_ += o.tokens_in;
  tokens_out_ += o.tokens_out;
  cost_ += o.cost_usd;
}

void Progress::add_previous(const EpisodeOutcome& o) {
  std::lock_guard lock(mu_);
  count(o);
}

void Progress::episode_finished(const EpisodeOutcome& o, const std::string& what) {
  std::lock_guard lock(mu_);
  count(o);
  ++done_here_;
  std::string detail = what + " " + verdict_kind_name(o.verdict.kind);
  if (!o.verdict.code.empty()) detail += "(" + o.verdict.code + ")";
  print(detail);
}

void Progress::episode_crashed(const std::string& what, const std::string& error) {
  std::lock_guard lock(mu_);
  ++crashed_;
  // A crash is always worth its own line, even on a terminal.
  if (tty_) std::fputs("\r\033[K", out_);
  std::fprintf(out_, "episode %s crashed (will be retried on the next run): %s\n", what.c_str(), error.c_str());
  print({});
}

void Progress::finish() {
  std::lock_guard lock(mu_);
  if (tty_) std::fprintf(out_, "\r\033[K%s\n", text().c_str());
  else std::fprintf(out_, "%s\n", text().c_str());
  std::fflush(out_);
}

std::string Progress::line() const {
  std::lock_guard lock(mu_);
  return text();
}

std::string Progress::text() const {
  std::ostringstream s;
  s << "[" << done_ << "/" << total_ << "] pass " << passes_;
  if (done_ > 0) {
    char pct[16];
    std::snprintf(pct, sizeof pct, " (%.1f%%)", 100.0 * passes_ / done_);
    s << pct;
  }
  int failed = done_ - passes_;
  s << " | fail " << failed;
  if (failed > 0) {
    s << ":";
    for (const auto& [kind, n] : failures_) s << " " << kind << " " << n;
  }
  if (crashed_ > 0) s << " | crashed " << crashed_;
  s << " | tok " << human_count(tokens_in_) << " in " << human_count(tokens_out_) << " out | "
    << dollars(cost_);
  int remaining = total_ - done_;
  if (remaining > 0 && done_here_ > 0) {
    double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    s << " | ETA " << human_duration(elapsed / done_here_ * remaining);
  } else if (remaining > 0) {
    s << " | ETA ?";
  }
  return s.str();
}

void Progress::print(const std::string& detail) {
  if (tty_) {
    std::fprintf(out_, "\r\033[K%s", text().c_str());
  } else {
    std::fprintf(out_, "%s%s%s\n", text().c_str(), detail.empty() ? "" : " | last: ", detail.c_str());
  }
  std::fflush(out_);
}

}  // namespace nki::eval
