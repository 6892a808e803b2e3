// Templates for synthesised tasks whose forward() holds a prefix scan along the last axis
// (cumsum, cumprod, cummax / cummin, logcumsumexp and the seeds built on them), a triangular
// mask of the last two axes (tril / triu, masked_fill of a triu / tril boolean matrix, the
// causal softmax and log-softmax), or torch.renorm of 2-D rows. They are extra line rules of
// the fused row kernel (fused_templates.h): every other line must still be in its table, and
// a forward() with any unknown line gets no candidate. Also the row seeds whose forward()
// returns a tuple (layernorm_stats, fused_add_rmsnorm, aminmax_last), matched as a whole, and
// (through fused_recurrence_templates.h) the minGRU and selective-scan recurrences.
#pragma once

#include <string>
#include <vector>

#include "task/task_spec.h"
#include "train/templates.h"

namespace nki::train {

// Candidates "fused_scan:map" / "fused_scan:reduce" (scans, renorm) and "fused_mask:map"
// (triangular masks; the kernel walks each [shape[-2], shape[-1]] matrix in row tiles), and
// "fused_tuple:rows" (several outputs, one store each per row tile).
void add_fused_scan_templates(const TaskSpec& task, const std::vector<std::string>& args, std::vector<TemplateKernel>& out);

}  // namespace nki::train
