// Operand rules that the SDK 2.24 ISA docstrings state for several instructions
// (general/nki/api/nki/isa/__init__.py at aws-neuron-sdk@86051b85). Each helper raises the
// diagnostic at the current API call.
#pragma once

#include <initializer_list>
#include <string>

#include "base/diag_codes.h"
#include "nki/objects.h"

namespace nki::front {

// bitwise_and/or/xor, left_shift, right_shift: the "bitvec" class of the ALU operator table.
bool is_bitvec(ir::Alu op);

// "Both tiles must have the same partition axis size" (err_num_partition_mismatch).
void require_same_partitions(const TensorObj& a, const std::string& a_arg, const TensorObj& b,
                             const std::string& b_arg, const std::string& api);

// GpSimd Engine cannot access PSUM (tensor_tensor with power, tensor_copy, affine_select,
// tensor_partition_reduce, iota: err_unsupported_memory).
void require_gpsimd_readable(const TensorObj& t, const std::string& api, const std::string& arg);

// Bitvec operators treat elements as bit patterns: "the input/output data types must be
// integer types" (tensor_tensor, tensor_scalar, tensor_reduce; nl.bitwise_*: "of integer type").
void require_int_for_bitvec(ir::Alu op, const TensorObj& t, const std::string& api, const std::string& arg);

// The operator must be one of `allowed` (the docstring's list, spelled out in `names`).
void require_alu_in(ir::Alu op, std::initializer_list<ir::Alu> allowed, const std::string& api,
                    const std::string& arg, const std::string& names);

// `reduce_res` of activation / activation_reduce / tensor_scalar_reduce: "a tile of shape
// (data.shape[0], 1)" in SBUF or PSUM.
void check_reduce_res(const TensorObj& rr, const TensorObj& data, const std::string& api);

// A per-partition scalar operand: a Python number or a tile with one element per partition
// ([P, 1], same partition count as `data`), broadcast along data's free dims. `shape_code` is
// the project code for a tile with more elements per partition.
ir::Operand per_partition(const Ref& v, const TensorObj& data, const std::string& api, const std::string& arg,
                          const std::string& shape_code = diag::name(diag::Code::tensor_scalar_operand_shape));

}  // namespace nki::front
