// Tensor Engine lowerings shared by nl and nisa: matmul (nl.matmul, nisa.nc_matmul) and
// transpose (nl.transpose, nl.matmul's implicit transpose, nisa.nc_transpose).
#include "base/diag_codes.h"
#include "nki/api_common.h"

namespace nki::front {

Ref emit_transpose(Tracer& t, const std::string& api, TensorObj& x, const Ref& dtype, ir::Buffer buffer,
                   ir::Engine engine) {
  require_on_chip(x, api, "x");
  if (t.direct_alloc && engine == ir::Engine::Tensor)
    nki_error(diag::Code::err_transpose_on_tensor_engine_not_allowed_in_allocated_kernel,
              "'" + api + "' transposes on the tensor engine, which is not allowed in a kernel with direct allocation",
              "use nisa.nc_transpose(..., engine=nisa.vector_engine) on 32x32 blocks, or nl.matmul(..., transpose_x=True)");
  if (x.shape().size() != 2)
    nki_error(diag::Code::err_exceed_max_supported_dimension,
              "'" + api + "' supports 2-D tiles only, got a tile of rank " + std::to_string(x.shape().size()),
              "reshape or index the tile down to [P, F] first");
  int64_t limit = engine == ir::Engine::Vector ? 32 : 128;
  for (int64_t d : x.shape())
    if (d > limit)
      nki_error(diag::Code::err_size_of_dimension_exceed_arch_limit,
                "'" + api + "' input " + shape_str(x.shape()) + " exceeds the " + std::to_string(limit) + "x" +
                    std::to_string(limit) + " limit of the " + ir::engine_name(engine) + " engine",
                "transpose in blocks of at most 128x128");
  std::vector<int64_t> out_shape = {x.shape()[1], x.shape()[0]};
  auto res = t.new_tensor(out_shape, opt_dtype(dtype).value_or(x.dtype()), buffer, "");
  ir::Access src = x.view;
  src.shape = out_shape;
  for (auto& col : src.coef) std::swap(col[0], col[1]);
  ir::Instr in;
  in.op = ir::Opcode::Copy;
  in.name = api;
  in.engine = engine;
  in.dst = res->view;
  in.srcs.push_back(ir::Operand::of(src));
  res->producer = t.emit(std::move(in));
  return res;
}

Ref emit_matmul(Tracer& t, const std::string& api, TensorObj& st, TensorObj& mv, const Ref& mask) {
  for (auto [tile, arg] : {std::pair<TensorObj*, const char*>{&st, "stationary"}, {&mv, "moving"}}) {
    bool placed = t.compiler_placed.count(t.storage_of(tile->view.tensor)) > 0;
    if (tile->buffer() != ir::Buffer::Sbuf && !placed)
      nki_error(diag::Code::err_unsupported_memory,
                std::string("Expected operand '") + arg + "' of '" + api + "' to be in address space 'sbuf', but got a tile in '" +
                    ir::buffer_name(tile->buffer()) + "' instead.",
                "the tensor engine reads SBUF only: copy PSUM results to SBUF with nl.copy first");
    if (tile->shape().size() != 2)
      nki_error(diag::Code::err_exceed_max_supported_dimension,
                std::string("'") + api + "' operand '" + arg + "' must be a 2-D tile, got " + shape_str(tile->shape()));
    if (!dtype_is_float(tile->dtype()))
      nki_error(diag::Code::unsupported_dtype, std::string("'") + api + "' operand '" + arg + "' has dtype " +
                                             dtype_name(tile->dtype()) + "; the tensor engine multiplies floating-point tiles",
                "cast with nl.copy(x, dtype=nl.bfloat16) first");
  }
  int64_t K = st.shape()[0], M = st.shape()[1], K2 = mv.shape()[0], N = mv.shape()[1];
  if (K != K2)
    nki_error(diag::Code::err_num_partition_mismatch,
              "number of partitions (dimension 0 size of a tile) mismatch in parameters (stationary" +
                  shape_str(st.shape()) + ", moving" + shape_str(mv.shape()) + ") of '" + api + "'",
              "both matmul operands hold the contraction dimension K on their partitions");
  const std::string pmax = std::to_string(t.hw().pmax), st_fmax = std::to_string(t.hw().gemm_stationary_fmax),
                    mv_fmax = std::to_string(t.hw().gemm_moving_fmax);
  if (K > t.hw().pmax)
    nki_error(diag::Code::err_num_partition_exceed_arch_limit, "matmul contraction size " + std::to_string(K) + " exceeds " + pmax,
              "tile K by " + pmax + " and accumulate the partial products into one PSUM tile");
  if (M > t.hw().gemm_stationary_fmax)
    nki_error(diag::Code::matmul_stationary_fmax,
              "matmul stationary free size " + std::to_string(M) + " exceeds nl.tile_size.gemm_stationary_fmax (" + st_fmax + ")",
              "tile M by " + st_fmax);
  if (N > t.hw().gemm_moving_fmax)
    nki_error(diag::Code::matmul_moving_fmax,
              "matmul moving free size " + std::to_string(N) + " exceeds nl.tile_size.gemm_moving_fmax (" + mv_fmax + ")",
              "tile N by " + mv_fmax);
  auto res = t.new_tensor({M, N}, DType::Float32, ir::Buffer::Psum, "");
  ir::Instr in;
  in.op = ir::Opcode::Matmul;
  in.name = api;
  in.engine = ir::Engine::Tensor;
  in.dst = res->view;
  in.srcs.push_back(ir::Operand::of(st.view));
  in.srcs.push_back(ir::Operand::of(mv.view));
  in.mask = make_mask(t, mask, 2);
  res->producer = t.emit(std::move(in));
  return res;
}

}  // namespace nki::front
