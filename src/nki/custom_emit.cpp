#include "nki/custom_emit.h"

#include "base/diag_codes.h"
#include "nki/api_common.h"

namespace nki::front {

int64_t free_size(const TensorObj& t) {
  int64_t f = 1;
  for (size_t i = 1; i < t.shape().size(); ++i) f *= t.shape()[i];
  return f;
}

TensorObj* on_chip_tile(const Ref& r, const std::string& api, const std::string& arg) {
  TensorObj* t = need_tensor(r, api, arg);
  require_on_chip(*t, api, arg);
  return t;
}

Ref emit_custom(Tracer& t, ir::CustomOp op, std::vector<int64_t> shape, DType dtype,
                std::vector<ir::Operand> srcs, const Ref& mask,
                std::vector<int64_t> int_attrs, std::vector<double> float_attrs) {
  auto res = t.new_tensor(std::move(shape), dtype, ir::Buffer::Sbuf, "");
  const ir::CustomOpInfo& row = ir::custom_op_info(op);
  ir::Instr in;
  in.op = ir::Opcode::Custom;
  in.custom = op;
  in.name = std::string(row.name);
  in.engine = row.engine;
  in.dst = res->view;
  in.srcs = std::move(srcs);
  in.int_attrs = std::move(int_attrs);
  in.float_attrs = std::move(float_attrs);
  in.mask = make_mask(t, mask, res->shape().size());
  res->producer = t.emit(std::move(in));
  return res;
}

void same_partitions(const TensorObj& a, const TensorObj& b, const std::string& api) {
  if (a.shape()[0] != b.shape()[0])
    nki_error(diag::Code::err_num_partition_mismatch,
              "number of partitions (dimension 0 size of a tile) mismatch in parameters (" + shape_str(a.shape()) +
                  ", " + shape_str(b.shape()) + ") of '" + api + "'");
}

}  // namespace nki::front
