#include "toolchain/profile.h"

namespace nki::toolchain {

ProfileOutcome profile(const SourceFilePtr& file, const ProfileSettings& settings) {
  cost::CostTable table = cost::default_table(settings.trace.target);
  if (!settings.cost_table_json.empty()) cost::apply_overrides(table, settings.cost_table_json);
  ProfileOutcome out;
  out.compiled = compile(file, settings.trace, settings.isolation);
  if (!out.compiled.ok()) return out;
  try {
    out.report = cost::estimate(*out.compiled.kernel, table, settings.cost);
  } catch (const cost::CostBudgetError& e) {
    out.error = e.what();
  }
  return out;
}

}  // namespace nki::toolchain
