// Correctness credit beyond trivial kernels: how much of a wrong answer a kernel got right that
// a kernel computing nothing would not have got right too.
//
// Counting the elements within tolerance rewards doing nothing: on a softmax most reference
// values are close to one small constant, so a kernel that stores that constant is "85% right".
// Here an output element counts only when no trivial output gets it right (all zeros, or a copy
// of an input with the output's element count, cast to its dtype), and of the elements left the
// most that one constant can get right is subtracted as well. The best constant is exact, not a
// guess among candidates: each element accepts the interval [e - tol(e), e + tol(e)] of values,
// and the constant is the point covered by the most intervals (a sweep over the sorted ends).
// So all zeros, any one constant per output and any copied input earn exactly zero credit on
// every task, whatever the reference values are (tests/serve/trivial_sweep_test.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "base/host_tensor.h"
#include "task/golden_cache.h"
#include "task/task_spec.h"

namespace nki {

// The constant accepted by the most elements of `expected` (element_passes), skipping the
// elements whose `skip` flag is set (`skip` empty: none skipped). hits = 0 when none accepts one.
struct BestConstant {
  double value = 0;
  int64_t hits = 0;
};
BestConstant best_constant(const std::vector<double>& expected, Tolerance tol, const std::vector<char>& skip = {});

struct TrivialCredit {
  int64_t elements = 0;        // expected output elements, every output
  int64_t trivial = 0;         // of them, elements zeros or a copied input gets right
  int64_t best_constant = 0;   // of the rest, the most one constant per output gets right (summed)
  int64_t kernel_right = 0;    // of the rest, the elements the kernel gets right
  // sum over outputs of max(0, kernel_right - best_constant), divided by the sum of
  // (elements - trivial - best_constant); 0 when that is 0. In [0, 1].
  double credit = 0;
};

// `outputs` are the kernel's outputs on `golden`'s trial (fewer or more than the task's are
// allowed; an output of the wrong shape or dtype gets nothing right). `strict` as in verify.
TrivialCredit trivial_credit(const TaskSpec& task, const GoldenTrial& golden, const std::vector<HostTensor>& outputs,
                             bool strict = false);

}  // namespace nki
