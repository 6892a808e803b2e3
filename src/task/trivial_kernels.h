// Trivial kernels: the outputs a kernel can produce without computing anything (all zeros, one
// constant, NaN, a copied input). `nkiagent tasks audit` proves that none of them passes a task;
// the RL server's graded reward gives them no correctness credit (task/trivial_credit.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/host_tensor.h"
#include "task/task_spec.h"
#include "task/verify.h"

namespace nki {

// An output of `o`'s shape and dtype with every element `v` (rounded to the dtype).
HostTensor filled_output(const TensorSpec& o, float v);

// `arg` reshaped to `o`'s shape and cast to its dtype (through float32, as a kernel that loads
// and stores it would), or nothing when the element counts differ.
std::optional<HostTensor> copied_input(const TensorSpec& o, const HostTensor& arg);

// The kinds `tasks audit` runs: "zeros", "constant" (1.0), "nan", "copy-input" (the first
// argument with the output's element count, else zeros) and "modify-input" (zeros, and every
// argument overwritten with zero bytes).
const std::vector<std::string>& trivial_kinds();

// A fake kernel returning the outputs of `kind` for every trial.
KernelRunner trivial_runner(const TaskSpec& task, const std::string& kind);

// A fake kernel returning fixed outputs whatever its arguments (a constant per output, say).
KernelRunner fixed_runner(std::vector<HostTensor> outputs);

}  // namespace nki
