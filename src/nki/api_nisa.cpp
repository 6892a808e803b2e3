// neuronxcc.nki.isa (nisa) for SDK 2.24: shared/docs/nki-spec.md §2.10–§2.11. The instructions
// are binder + emitter pairs in nisa_*.cpp and api_nisa_cumulative.cpp (nisa_apis.h,
// nisa_custom_apis.h), registered from the table below.
#include "base/diag_codes.h"
#include "nki/api_common.h"
#include "nki/nisa_apis.h"
#include "nki/nisa_custom_apis.h"

namespace nki::front {

using py::CallArgs;
using py::Interp;

namespace {

// nisa enums are plain integers in the legacy API (engine, reduce_cmd, oob_mode, dge_mode).
std::shared_ptr<py::ModuleObj> make_enum(const std::string& name,
                                         std::initializer_list<std::pair<const char*, int64_t>> values) {
  auto m = std::make_shared<py::ModuleObj>(name);
  for (auto& [k, v] : values) m->set(k, py::make_int(v));
  return m;
}

}  // namespace

namespace nisa {

// 2.24 signatures: parameter names, how many may be positional, how many are required.
const std::vector<ApiRow>& apis() {
  static const std::vector<ApiRow> rows = {
      {"nc_matmul",
       {{"stationary", "moving", "is_stationary_onezero", "is_moving_onezero", "is_transpose", "tile_position",
         "tile_size", "mask", "perf_mode"}, 2, 2},
       bind_then_emit(bind_nc_matmul, emit_nc_matmul)},
      {"nc_transpose", {{"data", "mask", "dtype", "engine"}, 1, 1}, bind_then_emit(bind_nc_transpose, emit_nc_transpose)},
      {"activation",
       {{"op", "data", "bias", "scale", "reduce_op", "reduce_res", "reduce_cmd", "mask", "dtype"}, 2, 2},
       bind_then_emit(bind_activation, emit_activation)},
      {"activation_reduce",
       {{"op", "data", "reduce_op", "reduce_res", "bias", "scale", "mask", "dtype"}, 2, 4},
       bind_then_emit(bind_activation_reduce, emit_activation)},
      {"tensor_tensor", {{"data1", "data2", "op", "dtype", "mask", "engine"}, 3, 3},
       bind_then_emit(bind_tensor_tensor, emit_tensor_tensor)},
      {"tensor_scalar",
       {{"data", "op0", "operand0", "reverse0", "op1", "operand1", "reverse1", "dtype", "mask", "engine"}, 7, 3},
       bind_then_emit(bind_tensor_scalar, emit_tensor_scalar)},
      {"scalar_tensor_tensor",
       {{"data", "op0", "operand0", "op1", "operand1", "reverse0", "reverse1", "dtype", "mask"}, 0, 5},
       bind_then_emit(bind_scalar_tensor_tensor, emit_scalar_tensor_tensor)},
      {"tensor_reduce", {{"op", "data", "axis", "mask", "dtype", "negate", "keepdims"}, 3, 3},
       bind_then_emit(bind_tensor_reduce, emit_tensor_reduce)},
      {"tensor_partition_reduce", {{"op", "data", "mask", "dtype"}, 2, 2},
       bind_then_emit(bind_tensor_partition_reduce, emit_tensor_partition_reduce)},
      {"tensor_copy", {{"src", "mask", "dtype", "engine"}, 1, 1}, bind_then_emit(bind_tensor_copy, emit_tensor_copy)},
      {"reciprocal", {{"data", "dtype", "mask"}, 1, 1}, bind_then_emit(bind_reciprocal, emit_reciprocal)},
      {"iota", {{"expr", "dtype", "mask"}, 2, 2}, bind_then_emit(bind_iota, emit_iota)},
      {"memset", {{"shape", "value", "dtype", "mask", "engine"}, 3, 3}, bind_then_emit(bind_memset, emit_memset)},
      {"affine_select", {{"pred", "on_true_tile", "on_false_value", "mask", "dtype"}, 3, 3},
       bind_then_emit(bind_affine_select, emit_affine_select)},
      {"tensor_tensor_scan",
       {{"data0", "data1", "initial", "op0", "op1", "reverse0", "reverse1", "dtype", "mask"}, 7, 5},
       bind_then_emit(bind_tensor_tensor_scan, emit_tensor_tensor_scan)},
      {"tensor_scalar_reduce",
       {{"data", "op0", "operand0", "reduce_op", "reduce_res", "reverse0", "dtype", "mask"}, 0, 5},
       bind_then_emit(bind_tensor_scalar_reduce, emit_tensor_scalar_reduce)},
      {"dma_copy", {{"dst", "src", "mask", "dst_rmw_op", "oob_mode", "dge_mode"}, 0, 2},
       bind_then_emit(bind_dma_copy, emit_dma_copy)},
      {"tensor_copy_dynamic_src", {{"src", "mask", "dtype", "engine"}, 1, 1},
       bind_then_emit(bind_tensor_copy_dynamic_src, emit_tensor_copy_dynamic_src)},
      {"tensor_copy_dynamic_dst", {{"dst", "src", "mask", "dtype", "engine"}, 0, 2},
       bind_then_emit(bind_tensor_copy_dynamic_dst, emit_tensor_copy_dynamic_dst)},
      // nisa_custom.cpp
      {"bn_stats", {{"data", "mask", "dtype"}, 1, 1}, bind_then_emit(bind_bn_stats, emit_bn_stats)},
      {"bn_aggr", {{"data", "mask", "dtype"}, 1, 1}, bind_then_emit(bind_bn_aggr, emit_bn_aggr)},
      {"max8", {{"src", "mask", "dtype"}, 0, 1}, bind_then_emit(bind_max8, emit_max8)},
      {"nc_find_index8", {{"data", "vals", "mask", "dtype"}, 0, 2},
       bind_then_emit(bind_nc_find_index8, emit_nc_find_index8)},
      {"nc_match_replace8", {{"data", "vals", "imm", "dst_idx", "mask", "dtype"}, 0, 3},
       bind_then_emit(bind_nc_match_replace8, emit_nc_match_replace8)},
      {"dropout", {{"data", "prob", "mask", "dtype"}, 2, 2}, bind_then_emit(bind_dropout, emit_dropout)},
      {"nc_stream_shuffle", {{"src", "dst", "shuffle_mask", "dtype", "mask"}, 3, 3},
       bind_then_emit(bind_nc_stream_shuffle, emit_nc_stream_shuffle)},
      {"local_gather", {{"src_buffer", "index", "num_elem_per_idx", "num_valid_indices", "mask"}, 4, 2},
       bind_then_emit(bind_local_gather, emit_local_gather)},
      // nisa_selects.cpp
      {"range_select",
       {{"on_true_tile", "comp_op0", "comp_op1", "bound0", "bound1", "reduce_cmd", "reduce_res", "reduce_op",
         "range_start", "on_false_value", "mask", "dtype"}, 0, 5},
       bind_then_emit(bind_range_select, emit_range_select)},
      {"tensor_copy_predicated", {{"src", "dst", "predicate", "mask", "dtype", "reverse_pred"}, 0, 3},
       bind_then_emit(bind_tensor_copy_predicated, emit_tensor_copy_predicated)},
      {"select_reduce",
       {{"dst", "predicate", "on_true", "on_false", "reduce_res", "reduce_cmd", "reduce_op", "reverse_pred", "mask",
         "dtype"}, 0, 4},
       bind_then_emit(bind_select_reduce, emit_select_reduce)},
      {"sequence_bounds", {{"segment_ids", "dtype"}, 0, 1}, bind_then_emit(bind_sequence_bounds, emit_sequence_bounds)},
      {"dma_transpose", {{"src", "axes", "mask", "dtype", "dge_mode"}, 1, 1},
       bind_then_emit(bind_dma_transpose, emit_dma_transpose)},
      // api_nisa_cumulative.cpp
      {"tensor_scalar_cumulative", {{"dst", "src", "op0", "op1", "imm0", "imm1", "reduce_cmd", "name"}, 7, 5},
       bind_then_emit(bind_tensor_scalar_cumulative, emit_tensor_scalar_cumulative)},
  };
  return rows;
}

}  // namespace nisa

std::shared_ptr<py::ModuleObj> make_nisa_module(Tracer& t) {
  auto m = std::make_shared<py::ModuleObj>("neuronxcc.nki.isa");
  auto engine = make_enum("nisa.engine", {{"unknown", 0}, {"tensor", 1}, {"scalar", 2}, {"gpsimd", 3},
                                          {"vector", 5}, {"sync", 6}});
  m->set("engine", engine);
  m->set("unknown_engine", py::make_int(0));
  m->set("tensor_engine", py::make_int(1));
  m->set("scalar_engine", py::make_int(2));
  m->set("gpsimd_engine", py::make_int(3));
  m->set("vector_engine", py::make_int(5));
  m->set("dma_engine", py::make_int(7));
  // load_reduce (4) is post-2.24 (HEAD nki/api/nki/isa/__init__.py, reduce_cmd); only
  // tensor_scalar_cumulative accepts it.
  m->set("reduce_cmd", make_enum("nisa.reduce_cmd", {{"idle", 0}, {"reset", 1}, {"reduce", 2}, {"reset_reduce", 3},
                                                     {"load_reduce", 4}}));
  m->set("oob_mode", make_enum("nisa.oob_mode", {{"error", 0}, {"skip", 1}}));
  m->set("dge_mode", make_enum("nisa.dge_mode", {{"none", 0}, {"swdge", 1}, {"hwdge", 2}, {"unknown", 3}}));
  m->set("nc_version", make_enum("nisa.nc_version", {{"gen2", 2}, {"gen3", 3}}));
  auto fp32 = std::make_shared<py::ModuleObj>("nisa.fp32");
  fp32->set("min", py::make_float(-3.4028234663852886e38));
  m->set("fp32", fp32);
  m->set("get_nc_version", make_fn("get_nc_version", [&t](Interp&, CallArgs&) -> Ref {
    return py::make_int(t.hw().nc_version);
  }));

  add_apis(t, *m, nisa::apis());
  for (const char* n : {"bn_stats", "bn_aggr", "max8", "nc_find_index8", "nc_match_replace8", "local_gather",
                        "nc_stream_shuffle", "dropout", "range_select", "tensor_copy_predicated",
                        "tensor_copy_dynamic_src", "tensor_copy_dynamic_dst", "dma_transpose"}) {
    if (!m->find(n)) m->set(n, unsupported_api(std::string("nisa.") + n));
  }
  m->set("builtin_custom_op", unsupported_api("nisa.builtin_custom_op",
                                              "it runs a GpSimd library binary (lib_file_name), whose code the "
                                              "simulator does not have"));
  return m;
}

}  // namespace nki::front
