#include "eval/progress.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace nki::eval {
namespace {

std::string captured(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string out;
  char buf[512];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  return out;
}

EpisodeOutcome with(Verdict v, std::int64_t tin, double cost) {
  EpisodeOutcome o;
  o.verdict = v;
  o.tokens_in = tin;
  o.tokens_out = tin / 10;
  o.cost_usd = cost;
  return o;
}

TEST(Progress, Formatting) {
  EXPECT_EQ(human_count(950), "950");
  EXPECT_EQ(human_count(12345), "12.3k");
  EXPECT_EQ(human_count(4560000), "4.56M");
  EXPECT_EQ(human_duration(42), "42s");
  EXPECT_EQ(human_duration(252), "4m12s");
  EXPECT_EQ(human_duration(3 * 3600 + 5 * 60), "3h05m");
  EXPECT_EQ(dollars(3.214), "$3.21");
  EXPECT_EQ(dollars(0.0348), "$0.035");
  EXPECT_EQ(dollars(0.00123), "$0.0012");
  EXPECT_EQ(dollars(0), "$0.00");
}

TEST(Progress, PlainLinesWhenNotATerminal) {
  std::FILE* f = std::tmpfile();
  Progress p(f, /*tty=*/false, 4);
  p.add_previous(with(Verdict::pass(), 1000, 0.5));
  p.episode_finished(with(Verdict::compile_error("err_a"), 2000, 0.25), "t1#0");
  std::string out = captured(f);
  EXPECT_EQ(out.find('\r'), std::string::npos);
  EXPECT_NE(out.find("[2/4] pass 1 (50.0%) | fail 1: compile_error 1"), std::string::npos) << out;
  EXPECT_NE(out.find("tok 3.0k in 300 out | $0.75"), std::string::npos) << out;
  EXPECT_NE(out.find("ETA "), std::string::npos) << out;
  EXPECT_NE(out.find("last: t1#0 compile_error(err_a)"), std::string::npos) << out;
  std::fclose(f);
}

TEST(Progress, RedrawsOneLineOnATerminal) {
  std::FILE* f = std::tmpfile();
  Progress p(f, /*tty=*/true, 2);
  p.episode_finished(with(Verdict::pass(), 10, 0.0), "a#0");
  p.episode_finished(with(Verdict::of(VerdictKind::Mismatch), 10, 0.0), "b#0");
  p.finish();
  std::string out = captured(f);
  EXPECT_EQ(out.rfind("\r\033[K", 0), 0u);
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1);  // only the final line ends a line
  EXPECT_NE(out.find("[2/2] pass 1 (50.0%) | fail 1: mismatch 1"), std::string::npos) << out;
  std::fclose(f);
}

}  // namespace
}  // namespace nki::eval
