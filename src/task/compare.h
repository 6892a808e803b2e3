// Comparing kernel outputs with golden reference outputs (the verdict of `nkiagent verify`).
//
// Expected values are the float32 (or int32) reference outputs; actual values are the kernel's
// outputs in the task dtype, converted to float32 exactly. An element passes when
//   |actual - expected| <= atol + rtol * |expected|
// and is finite-vs-finite; NaN in the actual output is always a mismatch. The simulator pre-fills
// kernel outputs with NaN, so NaN where a finite value was expected is reported separately as
// "never written".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/dtype.h"
#include "base/host_tensor.h"
#include "task/task_spec.h"

namespace nki {

struct ElementMismatch {
  std::vector<int64_t> index;  // multi-dimensional index into the output
  double expected = 0.0;
  double actual = 0.0;
};

struct OutputComparison {
  int index = 0;                       // position in the kernel's return tuple
  std::vector<int64_t> expected_shape;
  std::vector<int64_t> actual_shape;
  DType expected_dtype = DType::Float32;
  DType actual_dtype = DType::Float32;
  bool shape_ok = true;
  bool dtype_ok = true;
  Tolerance tol;
  int64_t elements = 0;
  int64_t mismatches = 0;              // elements failing allclose (includes NaN/never written)
  double mismatch_fraction = 0.0;
  double max_abs_err = 0.0;            // over finite-vs-finite elements
  double max_rel_err = 0.0;            // |a-e| / |e| over elements with e != 0
  std::vector<int64_t> max_abs_index;
  double rel_l2 = 0.0;                 // ||a-e||_2 / ||e||_2 over finite elements (record only)
  // max |a-e| / (atol + rtol |e|) over finite elements: <= 1 passes; 1 - this is the margin a
  // kernel has left (tasks verify-solutions prints it for bf16/fp16 tasks; verify reports it).
  // Unlike max_rel_err it stays meaningful where the reference is near zero. Infinite when a
  // zero tolerance (integer outputs) is missed.
  double tolerance_used = 0.0;
  std::vector<int64_t> tolerance_used_index;  // first element reaching it; empty when it is 0
  int64_t nan_count = 0;               // NaN in actual
  int64_t inf_count = 0;               // +-Inf in actual
  int64_t never_written = 0;           // NaN in actual where expected is finite
  std::vector<int64_t> first_never_written;
  // First few mismatching elements in C order, not counting never-written ones.
  std::vector<ElementMismatch> examples;
  bool passed = false;
};

// Compares one output. `expected` is float32 (floating outputs) or int32 (integer outputs) with
// the reference shape; `expected_dtype` is the task's dtype for this output.
OutputComparison compare_output(const HostTensor& expected, DType expected_dtype,
                                const HostTensor& actual, Tolerance tol, int max_examples = 5);

// The element rule of compare_output: a NaN actual never passes; an infinite actual or a
// non-finite expected passes only when both are the same value; otherwise
// |actual - expected| <= atol + rtol * |expected|.
bool element_passes(double actual, double expected, Tolerance tol);

// Every element of `t` as double (floats via their exact float32 value, integers exactly), in C
// order; empty when the data buffer does not hold the declared shape.
std::vector<double> element_values(const HostTensor& t);

// A kernel argument whose contents differ after the kernel ran (kernels must not write inputs).
struct InputChange {
  int arg_index = 0;
  std::string name;
  int64_t changed_elements = 0;  // bitwise differences (NaN payloads included)
  bool layout_changed = false;   // shape or dtype differs
};

// Bitwise comparison of an argument before and after the kernel ran.
std::optional<InputChange> compare_input(int arg_index, const std::string& name,
                                         const HostTensor& before, const HostTensor& after);

// "[3, 17]"
std::string format_index(const std::vector<int64_t>& index);
// "[256, 1024]"
std::string format_shape(const std::vector<int64_t>& shape);

}  // namespace nki
