// `nkiagent migrate` end to end: trace the legacy kernel (for the tiles its nisa calls return),
// rewrite it into the current dialect (rewrite.h), then check the result on the simulator: both
// kernels run on the same inputs (a task's golden inputs, or seeded random arrays of the --arg
// shapes) and their outputs are compared bit for bit, then numerically.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "base/host_tensor.h"
#include "migrate/rewrite.h"
#include "nki/tracer.h"
#include "task/task_spec.h"
#include "task/verify.h"

namespace nki::migrate {

// Tiles returned by the nisa calls of the legacy trace, keyed as TileFacts says. Trace errors
// go to `diagnostics` (a kernel that does not compile as 2.24 is not migrated).
TileFacts trace_facts(const SourceFilePtr& legacy, const front::TraceOptions& opts, std::vector<Diagnostic>& diagnostics);

struct OutputComparison {
  size_t index = 0;
  bool same_shape = false;
  bool bitwise_equal = false;
  double max_abs_diff = 0;  // over elements, as float32 values
};

struct MigrationReport {
  std::string target = "0.6";
  RewriteResult rewrite;
  std::vector<Diagnostic> legacy_diagnostics;   // tracing the original
  std::vector<Diagnostic> current_diagnostics;  // compiling/running the migrated file
  bool legacy_ran = false;
  bool current_ran = false;
  std::vector<OutputComparison> outputs;
  std::optional<VerifyReport> verify;           // with a task: the migrated kernel on its trials
  std::string inputs_from;                      // "task <id> trial 0" or "random (seed 0)"
  bool equal() const;                           // every output bitwise equal
  bool close() const;                           // equal, or verified against the task
  bool ok() const { return rewrite.complete() && current_ran && (equal() || close()); }
};

struct MigrationOptions {
  std::string target = "0.6";
  front::TraceOptions trace;               // args from the task or --arg; dialect set per side
  std::optional<TaskSpec> task;            // inputs and a verify of the result
  bool run_check = true;
};

MigrationReport migrate_file(const SourceFilePtr& legacy, const MigrationOptions& opts);

std::string render_text(const MigrationReport& r, const std::string& path, const std::string& out_path);
std::string render_json(const MigrationReport& r, const std::string& path, const std::string& out_path);

}  // namespace nki::migrate
