// Helpers of the APIs lowered to Custom instructions (the table: src/ir/custom_ops.def; operand
// layouts: src/machine/custom_ops.h), shared by nisa_custom.cpp, nisa_selects.cpp and the nl
// ones in api_custom.cpp.
#pragma once

#include <string>
#include <vector>

#include "ir/custom_ops.h"
#include "nki/objects.h"
#include "nki/tracer.h"

namespace nki::front {

// Elements per partition.
int64_t free_size(const TensorObj& t);

// A tile operand in SBUF or PSUM.
TensorObj* on_chip_tile(const Ref& r, const std::string& api, const std::string& arg);

// A Custom instruction of kind `op` (its name and engine from ir/custom_ops.def) writing a new
// SBUF tile.
Ref emit_custom(Tracer& t, ir::CustomOp op, std::vector<int64_t> shape, DType dtype,
                std::vector<ir::Operand> srcs, const Ref& mask,
                std::vector<int64_t> int_attrs = {}, std::vector<double> float_attrs = {});

// err_num_partition_mismatch between two operands (named by shape only).
void same_partitions(const TensorObj& a, const TensorObj& b, const std::string& api);

}  // namespace nki::front
