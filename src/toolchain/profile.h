// `profile`: compile a kernel (isolated like `check`) and estimate its latency on Trainium with
// the cost model (src/cost). No simulation, no numerics.
#pragma once

#include <optional>
#include <string>

#include "cost/cost_model.h"
#include "toolchain/toolchain.h"

namespace nki::toolchain {

struct ProfileSettings {
  front::TraceOptions trace;
  Isolation isolation;
  std::string cost_table_json;  // overrides of the target's table (cost_table.def names); may be empty
  cost::CostOptions cost;
};

struct ProfileOutcome {
  CompileResult compiled;
  std::optional<cost::CostReport> report;  // set when the kernel compiled and the model finished
  std::string error;                       // why there is no report despite a compiled kernel
};

// Throws std::invalid_argument for bad cost-table overrides (checked before compiling).
ProfileOutcome profile(const SourceFilePtr& file, const ProfileSettings& settings);

}  // namespace nki::toolchain
