// The nisa (SDK 2.24) instructions as binder + emitter pairs (api_table.h): each bind_<api>
// binds the 2.24 arguments and applies the docstring's rules, giving a typed struct; each
// emit_<api> emits the IR from it and returns the result tile (or None for the
// destination-passing ones). shared/docs/nki-spec.md §2.10–§2.11 and the 2.24 docstrings
// (general/nki/api/nki/isa/__init__.py at aws-neuron-sdk@86051b85) are the spec.
//
// Refs are kept where a lowering helper of lowering.h converts (and checks) the value itself,
// so the checks run where they always did.
#pragma once

#include <optional>
#include <vector>

#include "nki/api_table.h"

namespace nki::front::nisa {

// The rows of neuronxcc.nki.isa (these and nisa_custom_apis.h's), in registration order.
const std::vector<ApiRow>& apis();

// ---- nisa_matmul.cpp
struct NcMatmul {
  TensorObj* stationary;
  TensorObj* moving;
  bool double_row;  // perf_mode='double_row_gen3': stationary [K, 2, M], moving [K, 2, N]
  Ref mask;
};
NcMatmul bind_nc_matmul(Tracer& t, py::Interp& in, const Args& a);
Ref emit_nc_matmul(Tracer& t, const NcMatmul& a);

struct NcTranspose {
  TensorObj* data;
  Ref dtype;
  ir::Engine engine;  // Unknown: chosen from the tile size
};
NcTranspose bind_nc_transpose(Tracer& t, py::Interp& in, const Args& a);
Ref emit_nc_transpose(Tracer& t, const NcTranspose& a);

// ---- nisa_activation.cpp
struct Activation {
  std::string api;  // nisa.activation or nisa.activation_reduce
  ir::Act op;
  TensorObj* data;
  ir::Operand scale;
  std::optional<ir::Operand> bias;
  std::optional<ir::Alu> reduce_op;
  std::optional<ir::Access> reduce_res;
  int reduce_cmd;
  DType dtype;
  Ref mask;
};
Activation bind_activation(Tracer& t, py::Interp& in, const Args& a);
Activation bind_activation_reduce(Tracer& t, py::Interp& in, const Args& a);
Ref emit_activation(Tracer& t, const Activation& a);

// ---- nisa_elementwise.cpp
struct TensorTensor {
  Ref data1, data2;
  ir::Alu op;
  Ref dtype, mask;
  ir::Engine engine;
};
TensorTensor bind_tensor_tensor(Tracer& t, py::Interp& in, const Args& a);
Ref emit_tensor_tensor(Tracer& t, const TensorTensor& a);

struct TensorScalar {
  TensorObj* data;
  ir::Alu op0;
  ir::Operand operand0;
  bool reverse0;
  std::optional<ir::Alu> op1;  // with operand1
  std::optional<ir::Operand> operand1;
  bool reverse1;
  DType dtype;
  ir::Engine engine;
  Ref mask;
};
TensorScalar bind_tensor_scalar(Tracer& t, py::Interp& in, const Args& a);
Ref emit_tensor_scalar(Tracer& t, const TensorScalar& a);

struct ScalarTensorTensor {
  TensorObj* data;
  ir::Alu op0, op1;
  ir::Operand operand0;
  TensorObj* operand1;
  bool reverse0, reverse1;
  DType dtype;
  Ref mask;
};
ScalarTensorTensor bind_scalar_tensor_tensor(Tracer& t, py::Interp& in, const Args& a);
Ref emit_scalar_tensor_tensor(Tracer& t, const ScalarTensorTensor& a);

struct TensorTensorScan {
  TensorObj* data0;
  TensorObj* data1;
  ir::Alu op0, op1;
  ir::Operand initial;
  bool reverse0, reverse1;
  DType dtype;
  Ref mask;
};
TensorTensorScan bind_tensor_tensor_scan(Tracer& t, py::Interp& in, const Args& a);
Ref emit_tensor_tensor_scan(Tracer& t, const TensorTensorScan& a);

struct Reciprocal {
  Ref data, dtype, mask;
};
Reciprocal bind_reciprocal(Tracer& t, py::Interp& in, const Args& a);
Ref emit_reciprocal(Tracer& t, const Reciprocal& a);

// ---- nisa_reduce.cpp
struct TensorReduce {
  ir::Alu op;
  Ref data, axis, dtype, mask;
  bool negate, keepdims;
};
TensorReduce bind_tensor_reduce(Tracer& t, py::Interp& in, const Args& a);
Ref emit_tensor_reduce(Tracer& t, const TensorReduce& a);

struct TensorPartitionReduce {
  ir::Alu op;
  TensorObj* data;
  DType dtype;
  Ref mask;
};
TensorPartitionReduce bind_tensor_partition_reduce(Tracer& t, py::Interp& in, const Args& a);
Ref emit_tensor_partition_reduce(Tracer& t, const TensorPartitionReduce& a);

struct TensorScalarReduce {
  TensorObj* data;
  ir::Alu op0;
  ir::Operand operand0;
  ir::Alu reduce_op;
  TensorObj* reduce_res;
  DType dtype;
  Ref mask;
};
TensorScalarReduce bind_tensor_scalar_reduce(Tracer& t, py::Interp& in, const Args& a);
Ref emit_tensor_scalar_reduce(Tracer& t, const TensorScalarReduce& a);

// ---- nisa_data.cpp
struct TensorCopy {
  Ref src, dtype, mask;
  ir::Engine engine;
};
TensorCopy bind_tensor_copy(Tracer& t, py::Interp& in, const Args& a);
Ref emit_tensor_copy(Tracer& t, const TensorCopy& a);

struct Iota {
  std::vector<int64_t> shape;
  ir::Predicate value;  // the index expression as an affine function of the tile's indices
  DType dtype;
  Ref mask;
};
Iota bind_iota(Tracer& t, py::Interp& in, const Args& a);
Ref emit_iota(Tracer& t, const Iota& a);
// The Iota instruction of both dialects: `value` written into `dst` (2.24: a new tile; 0.6:
// its dst addressed through the pattern's iteration space). Returns the instruction index.
int64_t emit_iota_into(Tracer& t, const std::string& api, const ir::Access& dst, const ir::Predicate& value,
                       std::optional<ir::Mask> mask);

struct Memset {
  std::vector<int64_t> shape;
  double value;
  DType dtype;
  ir::Engine engine;
  Ref mask;
};
Memset bind_memset(Tracer& t, py::Interp& in, const Args& a);
Ref emit_memset(Tracer& t, const Memset& a);

struct AffineSelect {
  ir::Predicate pred;
  TensorObj* on_true;
  double on_false;
  DType dtype;
  Ref mask;
};
AffineSelect bind_affine_select(Tracer& t, py::Interp& in, const Args& a);
Ref emit_affine_select(Tracer& t, const AffineSelect& a);

struct DmaCopy {
  TensorObj* dst;
  TensorObj* src;
  std::optional<ir::Alu> rmw;
  bool oob_skip;
  Ref mask;
};
DmaCopy bind_dma_copy(Tracer& t, py::Interp& in, const Args& a);
Ref emit_dma_copy(Tracer& t, const DmaCopy& a);

struct TensorCopyDynamicSrc {
  TensorObj* src;
  DType dtype;
  ir::Engine engine;
  Ref mask;
};
TensorCopyDynamicSrc bind_tensor_copy_dynamic_src(Tracer& t, py::Interp& in, const Args& a);
Ref emit_tensor_copy_dynamic_src(Tracer& t, const TensorCopyDynamicSrc& a);

struct TensorCopyDynamicDst {
  TensorObj* dst;
  TensorObj* src;
  ir::Engine engine;
  Ref mask;
};
TensorCopyDynamicDst bind_tensor_copy_dynamic_dst(Tracer& t, py::Interp& in, const Args& a);
Ref emit_tensor_copy_dynamic_dst(Tracer& t, const TensorCopyDynamicDst& a);

struct DmaTranspose {
  TensorObj* src;
  std::vector<size_t> perm;  // result dim k walks source dim perm[k]
  DType dtype;
  Ref mask;
};
DmaTranspose bind_dma_transpose(Tracer& t, py::Interp& in, const Args& a);
Ref emit_dma_transpose(Tracer& t, const DmaTranspose& a);

}  // namespace nki::front::nisa
