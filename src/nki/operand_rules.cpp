#include "nki/operand_rules.h"

#include <algorithm>

#include "nki/lowering.h"

namespace nki::front {

bool is_bitvec(ir::Alu op) {
  return op == ir::Alu::BitwiseAnd || op == ir::Alu::BitwiseOr || op == ir::Alu::BitwiseXor ||
         op == ir::Alu::LeftShift || op == ir::Alu::RightShift;
}

void require_same_partitions(const TensorObj& a, const std::string& a_arg, const TensorObj& b,
                             const std::string& b_arg, const std::string& api) {
  if (a.shape()[0] == b.shape()[0]) return;
  nki_error("err_num_partition_mismatch",
            "number of partitions (dimension 0 size of a tile) mismatch in parameters (" + a_arg +
                shape_str(a.shape()) + ", " + b_arg + shape_str(b.shape()) + ") of '" + api + "'",
            "give both operands the same partition count (load matching rows, or .broadcast_to)");
}

void require_gpsimd_readable(const TensorObj& t, const std::string& api, const std::string& arg) {
  if (t.buffer() != ir::Buffer::Psum) return;
  nki_error("err_unsupported_memory",
            "Expected operand '" + arg + "' of '" + api +
                "' to be in address space 'sbuf', but got a tile in 'psum' instead (GpSimd Engine cannot access PSUM).",
            "copy the PSUM tile to SBUF first (nl.copy), or run the operation on the Vector Engine");
}

void require_int_for_bitvec(ir::Alu op, const TensorObj& t, const std::string& api, const std::string& arg) {
  if (!is_bitvec(op) || !dtype_is_float(t.dtype())) return;
  nki_error("invalid_alu_op",
            "bitvec operator " + std::string(ir::alu_name(op)) + " of '" + api + "' needs integer tiles, but '" + arg +
                "' has dtype " + dtype_name(t.dtype()),
            "load/convert the data as an integer dtype (e.g. nl.int32 or nl.uint32), or use an arithmetic operator");
}

void require_alu_in(ir::Alu op, std::initializer_list<ir::Alu> allowed, const std::string& api,
                    const std::string& arg, const std::string& names) {
  if (std::find(allowed.begin(), allowed.end(), op) != allowed.end()) return;
  nki_error("invalid_alu_op",
            "'" + arg + "' of '" + api + "' cannot be " + ir::alu_name(op) + "; it must be one of " + names,
            "use one of the operators listed in the '" + api + "' documentation");
}

void check_reduce_res(const TensorObj& rr, const TensorObj& data, const std::string& api) {
  require_same_partitions(data, "data", rr, "reduce_res", api);
  int64_t free = 1;
  for (size_t i = 1; i < rr.shape().size(); ++i) free *= rr.shape()[i];
  if (free != 1)
    nki_error("reduce_res_shape",
              "reduce_res of '" + api + "' has shape " + shape_str(rr.shape()) + "; it must hold one element per partition, [" +
                  std::to_string(data.shape()[0]) + ", 1]",
              "pass a [P, 1] tile (e.g. nl.ndarray((P, 1), dtype=nl.float32))");
}

}  // namespace nki::front
