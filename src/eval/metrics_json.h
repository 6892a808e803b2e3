// Machine-readable form of the metrics (`nkiagent report --json FILE`), for scripts, CI
// regression checks and plots made elsewhere. Field names follow RunMetrics.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "eval/metrics.h"

namespace nki::eval {

nlohmann::ordered_json metrics_to_json(const RunMetrics& m);
// {"runs": [...]} in the order given.
nlohmann::ordered_json runs_to_json(const std::vector<RunMetrics>& runs);

}  // namespace nki::eval
