// Quality validators for training records. Each returns the reason code it rejects a record
// with (and a one-line message), or nothing. Reason codes (docs/training.md):
//   bad_structure      messages are not valid for the output format (roles out of order, a tool
//                      call without its result or a result without its call, an empty turn,
//                      tool arguments that are not a JSON object with "code")
//   no_kernel_function the final kernel has no @nki.jit function (or does not parse)
//   wrong_kernel_name  the kernel function is not named as the task's required signature
//   wrong_arg_order    the parameters are the required ones in another order
//   wrong_args         the parameters differ from the required ones
//   compile_failed     the final kernel does not compile with the task's argument shapes
//   rank_mismatch      a returned output's shape (rank or extents) is not the task's: a silent
//                      reshape of the result
//   output_not_stored  some output element is never written (the simulator leaves it NaN)
//   reverify_failed    the final kernel fails a fresh verification (public + held-out trials)
//   duplicate          the same task and normalised kernel as an earlier record
//   contaminated       the record teaches a benchmark task (decontam.h)
//   over_token_budget  still over the token budget after truncating tool results
// tool_result_mismatch (a shown tool result that is not the toolchain's) is in tool_replay.h.
#pragma once

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "agent/tools.h"
#include "task/task_spec.h"
#include "task/verify.h"
#include "toolchain/toolchain.h"
#include "train/decontam.h"
#include "train/record.h"

namespace nki::train {

struct Rejection {
  std::string reason;
  std::string message;
};
using Verdict = std::optional<Rejection>;

// Structure of the rendered record for `format` (dpo: the record's own conversation is
// checked as openai, since the pair is built from it).
Verdict check_structure(const TrainingRecord& r, Format format);
// The openai / sharegpt JSON itself (exposed for tests and for files written elsewhere).
Verdict check_openai_json(const nlohmann::json& j);
Verdict check_sharegpt_json(const nlohmann::json& j);

Verdict check_signature(const std::string& kernel, const agent::TaskInfo& task);

// How kernels are compiled and re-verified.
struct CheckSettings {
  toolchain::RunSettings run;  // isolation on by default: kernels are untrusted
  int fresh_trials = 3;        // held-out trials, beyond the task's public ones
  uint64_t secret = 0x5eed0e7;  // seeds them (never the secret of the episode's own final verdict)
  GoldenProvider golden;       // empty: golden data from PyTorch (tests substitute their own)
};

Verdict check_rank(const std::string& kernel, const TaskSpec& task, const CheckSettings& s);
// output_not_stored, then reverify_failed, from one verification run.
Verdict check_reverify(const std::string& kernel, const TaskSpec& task, const CheckSettings& s);

// Remembers (task id, normalised kernel hash) pairs already accepted.
class DuplicateFilter {
 public:
  Verdict check(const std::string& task_id, const std::string& kernel);

 private:
  std::set<std::pair<std::string, std::string>> seen_;
};

Verdict check_contamination(const TaskSpec& task, const std::string& reference_source, const std::string& kernel,
                            const BenchmarkIndex& index);

// Cuts the middle of tool results (and harness feedback) longer than `keep_chars` until the
// record's estimated tokens fit `budget`, adding the characters cut to r.cut_chars; rejects with
// over_token_budget when it still does not fit. budget <= 0: no limit.
Verdict truncate_to_budget(TrainingRecord& r, long long budget, size_t keep_chars = 1500);

}  // namespace nki::train
