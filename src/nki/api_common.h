// Shared pieces of the API module builders (api_nl.cpp, api_nisa.cpp, api_nki.cpp).
#pragma once

#include <memory>
#include <string>

#include "nki/args.h"
#include "nki/lowering.h"
#include "nki/tracer.h"

namespace nki::front {

using Impl = py::BuiltinFn::Impl;

inline Ref make_fn(const std::string& name, Impl f) {
  return std::make_shared<py::BuiltinFn>(name, std::move(f));
}

// An API that exists in SDK 2.24 but is not implemented by this simulator: fails loudly, giving
// `reason` (shown in docs/api-coverage.md) when one is known.
Ref unsupported_api(const std::string& qualified, const std::string& reason = "");

// The reduce_cmd argument of an instruction that drives the engine accumulator registers through
// idle/reset/reduce/reset_reduce (0..3; absent or None: idle). load_reduce is rejected loudly: it
// is post-2.24 and documented only for tensor_scalar_cumulative (api_nisa_cumulative.cpp).
int accumulator_cmd(const Ref& r, const std::string& api);

// Operator-valued functions (nl.add, nl.exp, np.add ...).
std::shared_ptr<OpFnObj> make_alu_fn(Tracer& t, const std::string& qualified, ir::Alu op);
std::shared_ptr<OpFnObj> make_act_fn(Tracer& t, const std::string& qualified, ir::Act f);
// Reduction functions usable as both nl.sum(x, axis) and op= values (np.max / nl.max).
std::shared_ptr<OpFnObj> make_reduce_fn(Tracer& t, const std::string& qualified, ir::Alu op);

// The operator carried by an op= argument.
std::optional<ir::Alu> op_alu(const Ref& r);
std::optional<ir::Act> op_act(const Ref& r);

// Adds the dtype objects to a module (nl.float32, np.float32, ...).
void add_dtypes(py::ModuleObj& m, bool numpy_names);

// Python `range` arguments of affine_range & co. (compile-time ints).
std::shared_ptr<RangeDriver> make_range(Tracer& t, const std::string& api, py::CallArgs& a, ir::LoopKind kind);

// Creates a tensor for nl.ndarray / zeros / ... honouring buffer rules.
Ref create_tensor(Tracer& t, const std::string& api, py::Interp& in, const Ref& shape, const Ref& dtype,
                  const Ref& buffer, const Ref& name, std::optional<double> fill);

// Matmul lowering shared by nl.matmul and nisa.nc_matmul: PSUM fp32 [M, N] = stationary^T @ moving.
Ref emit_matmul(Tracer& t, const std::string& api, TensorObj& stationary, TensorObj& moving, const Ref& mask);
// Transpose of a 2-D tile into a new tile in `buffer`.
Ref emit_transpose(Tracer& t, const std::string& api, TensorObj& x, const Ref& dtype, ir::Buffer buffer,
                   ir::Engine engine);

}  // namespace nki::front
