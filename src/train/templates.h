// Kernel templates: for tasks whose family has a known, regular shape (element-wise chains, row
// reductions and norms, softmax variants, matmul with epilogues, transposes), candidate kernels
// written from the task's manifest alone. A candidate is only a guess at the reference's
// semantics (the family name says "leaky_relu", not the slope): the generator keeps the first
// candidate that passes verification on the simulator, and counts tasks where none does.
#pragma once

#include <string>
#include <vector>

#include "task/task_spec.h"

namespace nki::train {

struct TemplateKernel {
  std::string name;  // e.g. "unary:relu", "gemm:bias+gelu"
  std::string plan;  // one or two sentences the episode's answer starts with
  std::string code;  // the whole kernel module
};

// Candidates for `task`, best guess first; empty when no template covers the task's family or
// shapes. `arg_names` are the kernel's parameter names (agent::task_arg_names).
std::vector<TemplateKernel> template_candidates(const TaskSpec& task, const std::vector<std::string>& arg_names);

// The template kinds and the families each covers (for --help and docs).
std::string template_coverage_text();

}  // namespace nki::train
