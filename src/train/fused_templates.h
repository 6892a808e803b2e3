// Templates for synthesised tasks (src/synth): a seed operation followed by fused prologue and
// epilogue lines (synth/seeds/_patterns.json). The kernel is written from the task's own
// reference.py: every line of forward() is matched against a table of known PyTorch lines
// (element-wise maps, row reductions and norms, softmax variants, nn.LayerNorm / BatchNorm1d
// (eval) / PReLU modules, nn.Linear projections), each with its NKI equivalent. A forward()
// with any line outside the table gets no candidate (never a guess at unknown semantics).
#pragma once

#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "task/task_spec.h"
#include "train/templates.h"

namespace nki::train {

// A forward() line translation supplied by a table outside fused_templates.cpp (e.g. the scans
// and triangular masks of fused_scan_templates.cpp). `re` comes from row_rule_regex; `out` uses
// the placeholders of the built-in table ($k, @, %, #C, #C1, #RSQRTC) and also #I (the row
// index within the [shape[-2], shape[-1]] matrix, on partitions) and #J (the column index);
// a line using #I or #J makes the kernel loop over matrices and row tiles within each.
struct RowLineRule {
  std::regex re;
  std::vector<std::string> out;
  bool reduce = false;  // the result is one value per row
};

// Extra rules (tried before the built-in table) and the candidate name of kernels using them.
struct RowExtension {
  std::string name;  // e.g. "fused_scan": candidates "fused_scan:map" / "fused_scan:reduce"
  std::vector<const RowLineRule*> rules;
};

// The regex of a line pattern ({o} an operand, {n} a number, {=k} the same text as placeholder k,
// everything else literal).
std::regex row_rule_regex(const std::string& pattern);

// forward()'s parameters and statements (indentation stripped, the final `return y` left out),
// or nullopt when reference.py has no such forward().
struct ForwardLines {
  std::vector<std::string> args, lines;
  bool has_modules = false;  // __init__ builds nn.LayerNorm / BatchNorm1d / PReLU / Linear modules
};
std::optional<ForwardLines> read_forward(const std::string& task_dir);

// The lines of forward() from `first_line` on, as element-wise / row statements on a float32
// tile `v` of `rows` x `width` that already holds y; the operands they may read are the kernel
// arguments of shape [width] or [1] (broadcast once: `setup`, before the loop) and those of
// shape `full` (one [rows, width] block per tile, loaded by the caller: `full_loads`), minus
// `skip`. nullopt when a line is outside the table, reads anything else, or reduces the row.
struct RowTail {
  struct Load {
    int arg;          // kernel argument index
    std::string var;  // the float32 tile the body reads
  };
  std::vector<std::string> setup, body;  // body ends with `v = ...` (or is empty)
  std::vector<Load> full_loads;
  std::vector<std::string> summary;
};
std::optional<RowTail> translate_row_tail(const TaskSpec& task, const std::vector<std::string>& args, size_t first_line,
                                          int64_t rows, int64_t width, const std::vector<int64_t>& full,
                                          const std::vector<std::string>& skip);

// Row kernels: inputs viewed as [rows, last axis], 128-row tiles, every line on float32 tiles.
// With `ext`, a kernel is written only when at least one line needed an extension rule.
void add_fused_row_templates(const TaskSpec& task, const std::vector<std::string>& args, std::vector<TemplateKernel>& out,
                             const RowExtension* ext = nullptr);
// Linear kernels: y = x @ W.T (+ bias) on TensorE, then the element-wise / row epilogue lines.
void add_fused_linear_templates(const TaskSpec& task, const std::vector<std::string>& args,
                                std::vector<TemplateKernel>& out);

// Several nn.Linear projections chained with element-wise / row lines (MLPs, gated FFNs): per
// 128-row tile, every projection on TensorE against a W.T loaded once.
void add_linear_chain_templates(const TaskSpec& task, const std::vector<std::string>& args,
                                std::vector<TemplateKernel>& out);

}  // namespace nki::train
