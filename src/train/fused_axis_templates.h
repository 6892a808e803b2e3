// Templates for synthesised tasks whose seed line works across rows rather than along them:
// reductions and softmax over a non-last axis, pooling, halves of the last axis
// (fused_axis_rows.cpp); matrix-vector and matrix products, multi_dot, unmasked attention
// (fused_axis_products.cpp); dense MoE, squeeze-excitation, attention pooling, two-layer MLPs
// (fused_axis_blocks.cpp). The seed line is recognised by its exact PyTorch text; the prologue
// lines before it and the epilogue lines after it go through the row table of
// fused_templates.cpp (fused_lines.h). Any other line: no candidate.
#pragma once

#include <string>
#include <vector>

#include "task/task_spec.h"
#include "train/templates.h"

namespace nki::train {

void add_fused_axis_templates(const TaskSpec& task, const std::vector<std::string>& args, std::vector<TemplateKernel>& out);

}  // namespace nki::train
