// Helpers shared by the NKI API implementations: argument coercion, broadcasting, masks and
// the emission of the common instruction shapes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "nki/objects.h"
#include "nki/tracer.h"

namespace nki::front {

TensorObj* as_tensor(const Ref& r);
IndexObj* as_index(const Ref& r);
// A compile-time integer (int, or a scalar IndexObj with constant value).
std::optional<int64_t> static_int(const Ref& r);
std::optional<DType> opt_dtype(const Ref& r);
DType need_dtype(const Ref& r, const std::string& api, const std::string& arg);
// Shape from a tuple/list of ints and par_dim markers; sets *partition_dim.
std::vector<int64_t> need_shape(py::Interp& in, const Ref& r, const std::string& api,
                                int* partition_dim = nullptr);
TensorObj* need_tensor(const Ref& r, const std::string& api, const std::string& arg);
// Compute APIs read SBUF/PSUM only (err_unsupported_memory otherwise).
void require_on_chip(const TensorObj& t, const std::string& api, const std::string& arg);
void require_hbm(const TensorObj& t, const std::string& api, const std::string& arg);

std::string shape_str(const std::vector<int64_t>& s);
// NumPy broadcasting of two shapes; nullopt when incompatible.
std::optional<std::vector<int64_t>> broadcast_shapes(const std::vector<int64_t>& a,
                                                     const std::vector<int64_t>& b);
// Shapes equal once size-1 dims are dropped ([128] vs [128, 1]).
bool same_except_unit_dims(const std::vector<int64_t>& a, const std::vector<int64_t>& b);
// `a` re-indexed over `shape`, which differs from a.shape only by size-1 dims.
ir::Access reshape_unit_dims(const ir::Access& a, const std::vector<int64_t>& shape);
// Re-expresses `a` over the (broadcast) iteration shape `shape` (right-aligned, zero strides).
ir::Access broadcast_access(const ir::Access& a, const std::vector<int64_t>& shape);

// Converts a `mask=` argument into an IR mask over an iteration space of rank `rank`.
std::optional<ir::Mask> make_mask(Tracer& t, const Ref& mask, size_t rank);

// An operand: tensor (broadcast to `shape`) or scalar immediate.
ir::Operand operand_for(const Ref& v, const std::vector<int64_t>& shape, const std::string& api,
                        const std::string& arg);
bool is_scalar_value(const Ref& v);
// dtype of a value for promotion (tensors: dtype; python scalars: weak types).
DType value_dtype(const Ref& v, DType other);

// Element-wise binary op with broadcasting (nl.add, operators, nisa.tensor_tensor).
Ref emit_binary(Tracer& t, const std::string& api, const Ref& a, const Ref& b, ir::Alu op,
                const Ref& dtype, const Ref& mask, bool allow_partition_broadcast,
                ir::Engine engine = ir::Engine::Vector);
// Element-wise unary function (nl.exp, ...): activation f(x*scale + bias).
Ref emit_unary(Tracer& t, const std::string& api, const Ref& x, ir::Act f, const Ref& dtype,
               const Ref& mask);
// Reduction over free axes.
Ref emit_reduce(Tracer& t, const std::string& api, const Ref& x, ir::Alu op, const Ref& axis,
                const Ref& dtype, const Ref& mask, bool keepdims, bool negate = false);
// Copy into a new tile (nl.copy, tensor_copy, casts).
Ref emit_copy(Tracer& t, const std::string& api, const Ref& x, const Ref& dtype, const Ref& mask,
              ir::Buffer buffer = ir::Buffer::Sbuf, ir::Engine engine = ir::Engine::Vector);
// dst_view[...] = value (or +=): retargets a fresh result when possible, else copies.
void assign_into(Tracer& t, TensorObj& dst, const Ref& value, std::optional<ir::Alu> accumulate,
                 const std::string& api, const Ref& mask = nullptr);
// On-chip views at a runtime offset are only legal in the dynamic-copy instructions.
void reject_dynamic_view(const TensorObj& t, const std::string& api);
// Checks `dst` may be written (kernel parameters are immutable unless nt.mutable_tensor).
void check_writable(Tracer& t, const TensorObj& dst);

// Resolves a tensor subscript into a view (basic, advanced and indirect indexing).
ir::Access index_view(Tracer& t, const TensorObj& base, const Ref& key);

}  // namespace nki::front
