#include "nki/operand_rules.h"

#include <algorithm>

#include "base/diag_codes.h"
#include "nki/lowering.h"

namespace nki::front {

bool is_bitvec(ir::Alu op) {
  return op == ir::Alu::BitwiseAnd || op == ir::Alu::BitwiseOr || op == ir::Alu::BitwiseXor ||
         op == ir::Alu::LeftShift || op == ir::Alu::RightShift;
}

void require_same_partitions(const TensorObj& a, const std::string& a_arg, const TensorObj& b,
                             const std::string& b_arg, const std::string& api) {
  if (a.shape()[0] == b.shape()[0]) return;
  nki_error(diag::Code::err_num_partition_mismatch,
            "number of partitions (dimension 0 size of a tile) mismatch in parameters (" + a_arg +
                shape_str(a.shape()) + ", " + b_arg + shape_str(b.shape()) + ") of '" + api + "'",
            "give both operands the same partition count (load matching rows, or .broadcast_to)");
}

void require_gpsimd_readable(const TensorObj& t, const std::string& api, const std::string& arg) {
  if (t.buffer() != ir::Buffer::Psum) return;
  nki_error(diag::Code::err_unsupported_memory,
            "Expected operand '" + arg + "' of '" + api +
                "' to be in address space 'sbuf', but got a tile in 'psum' instead (GpSimd Engine cannot access PSUM).",
            "copy the PSUM tile to SBUF first (nl.copy), or run the operation on the Vector Engine");
}

void require_int_for_bitvec(ir::Alu op, const TensorObj& t, const std::string& api, const std::string& arg) {
  if (!is_bitvec(op) || !dtype_is_float(t.dtype())) return;
  nki_error(diag::Code::invalid_alu_op,
            "bitvec operator " + std::string(ir::alu_name(op)) + " of '" + api + "' needs integer tiles, but '" + arg +
                "' has dtype " + dtype_name(t.dtype()),
            "load/convert the data as an integer dtype (e.g. nl.int32 or nl.uint32), or use an arithmetic operator");
}

void require_alu_in(ir::Alu op, std::initializer_list<ir::Alu> allowed, const std::string& api,
                    const std::string& arg, const std::string& names) {
  if (std::find(allowed.begin(), allowed.end(), op) != allowed.end()) return;
  nki_error(diag::Code::invalid_alu_op,
            "'" + arg + "' of '" + api + "' cannot be " + ir::alu_name(op) + "; it must be one of " + names,
            "use one of the operators listed in the '" + api + "' documentation");
}

void check_reduce_res(const TensorObj& rr, const TensorObj& data, const std::string& api) {
  require_same_partitions(data, "data", rr, "reduce_res", api);
  int64_t free = 1;
  for (size_t i = 1; i < rr.shape().size(); ++i) free *= rr.shape()[i];
  if (free != 1)
    nki_error(diag::Code::reduce_res_shape,
              "reduce_res of '" + api + "' has shape " + shape_str(rr.shape()) + "; it must hold one element per partition, [" +
                  std::to_string(data.shape()[0]) + ", 1]",
              "pass a [P, 1] tile (e.g. nl.ndarray((P, 1), dtype=nl.float32))");
}

// A per-partition scalar operand: a Python number or a [P, 1] tile broadcast along free dims.
// `shape_code` names the project code for a tile that is not [P, 1] (the docstrings of
// tensor_scalar & co. and of activation's bias state that shape without an err_ code).
ir::Operand per_partition(const Ref& v, const TensorObj& data, const std::string& api, const std::string& arg,
                          const std::string& shape_code) {
  if (auto n = py::as_number(v)) return ir::Operand::of_imm(*n);
  TensorObj* t = need_tensor(v, api, arg);
  require_on_chip(*t, api, arg);
  int64_t free = 1;
  for (size_t i = 1; i < t->shape().size(); ++i) free *= t->shape()[i];
  if (t->shape()[0] != data.shape()[0])
    nki_error(diag::Code::err_num_partition_mismatch,
              "number of partitions (dimension 0 size of a tile) mismatch in parameters (data" + shape_str(data.shape()) +
                  ", " + arg + shape_str(t->shape()) + ") of '" + api + "'",
              "give the per-partition operand the same partition count as data");
  if (free != 1)
    nki_error(shape_code,
              "'" + arg + "' of '" + api + "' must be a scalar or a [" + std::to_string(data.shape()[0]) +
                  ", 1] tile, got " + shape_str(t->shape()),
              "pass one value per partition as a [P, 1] tile");
  ir::Access a = t->view;
  // [P,1,...] -> broadcast to data's shape: partition coefficient kept, free coefficients 0.
  ir::Access b;
  b.tensor = a.tensor;
  b.offset = a.offset;
  b.shape = data.shape();
  b.coef.assign(a.coef.size(), std::vector<int64_t>(b.shape.size(), 0));
  for (size_t d = 0; d < a.coef.size(); ++d) b.coef[d][0] = a.coef[d][0];
  return ir::Operand::of(b);
}

}  // namespace nki::front
