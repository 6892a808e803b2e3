// Templates for synthesised tasks (src/synth): a seed operation followed by fused prologue and
// epilogue lines (synth/seeds/_patterns.json). The kernel is written from the task's own
// reference.py: every line of forward() is matched against a table of known PyTorch lines
// (element-wise maps, row reductions and norms, softmax variants, nn.LayerNorm / BatchNorm1d
// (eval) / PReLU modules, nn.Linear projections), each with its NKI equivalent. A forward()
// with any line outside the table gets no candidate (never a guess at unknown semantics).
#pragma once

#include <string>
#include <vector>

#include "task/task_spec.h"
#include "train/templates.h"

namespace nki::train {

// Row kernels: inputs viewed as [rows, last axis], 128-row tiles, every line on float32 tiles.
void add_fused_row_templates(const TaskSpec& task, const std::vector<std::string>& args, std::vector<TemplateKernel>& out);
// Linear kernels: y = x @ W.T (+ bias) on TensorE, then the element-wise / row epilogue lines.
void add_fused_linear_templates(const TaskSpec& task, const std::vector<std::string>& args,
                                std::vector<TemplateKernel>& out);

// Several nn.Linear projections chained with element-wise / row lines (MLPs, gated FFNs): per
// 128-row tile, every projection on TensorE against a W.T loaded once.
void add_linear_chain_templates(const TaskSpec& task, const std::vector<std::string>& args,
                                std::vector<TemplateKernel>& out);

}  // namespace nki::train
