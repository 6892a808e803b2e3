#include "base/diag_codes.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace nki {
namespace {

TEST(DiagCatalogue, EveryRowHasAUniqueNameAndIsFoundByIt) {
  std::set<std::string> names;
  for (const diag::CodeInfo& r : diag::kCatalogue) {
    EXPECT_TRUE(names.insert(r.name).second) << r.name;
    ASSERT_NE(diag::find(r.name), nullptr) << r.name;
    EXPECT_EQ(diag::find(r.name), &r);
  }
  EXPECT_EQ(diag::find("no_such_code"), nullptr);
}

TEST(DiagCatalogue, ACodeRefRendersAsItsCodeText) {
  // Emission sites pass diag::Code::X where they passed "X": the diagnostic must be the same.
  Diagnostic with_ref = make_diagnostic(Severity::Error, diag::Code::psum_fmax, "m", nullptr, SourceLoc{1, 1});
  Diagnostic with_text = make_diagnostic(Severity::Error, "psum_fmax", "m", nullptr, SourceLoc{1, 1});
  EXPECT_EQ(render_text(with_ref), render_text(with_text));
  EXPECT_EQ(with_ref.code, "psum_fmax");
  std::string code = "dynamic_oob";
  EXPECT_TRUE(code == diag::Code::dynamic_oob);
  EXPECT_FALSE(code == diag::Code::sim_budget);
}

TEST(DiagCatalogue, RowsCarryTheSeverityTheirSitesReport) {
  EXPECT_EQ(diag::Code::sbuf_capacity_estimate.info().severity, Severity::Warning);
  EXPECT_EQ(diag::Code::allocation_overlap.info().severity, Severity::Warning);
  EXPECT_EQ(diag::Code::device_print.info().severity, Severity::Note);
  EXPECT_EQ(diag::Code::err_unsupported_memory.info().severity, Severity::Error);
  EXPECT_STREQ(diag::Code::err_unsupported_memory.info().kind, "official");
  EXPECT_STREQ(diag::Code::err_1d_arange_not_supported.info().since, "2.20");
}

}  // namespace
}  // namespace nki
