// The nisa instructions lowered to Custom instructions (src/ir/custom_ops.def) and the
// predicated selects, as binder + emitter pairs (api_table.h, nisa_apis.h): nisa_custom.cpp,
// nisa_selects.cpp and api_nisa_cumulative.cpp. Some emitters still check an argument: where
// the check has always come after a side effect (a staged copy, the result tile), it stays
// there, since error recovery makes that order observable.
#pragma once

#include <optional>
#include <vector>

#include "nki/api_table.h"

namespace nki::front::nisa {

// ---- nisa_custom.cpp
struct BnStats {
  TensorObj* data;
  DType dtype;
  Ref mask;  // over the data: masked-out elements take no part in the statistics
};
BnStats bind_bn_stats(Tracer& t, py::Interp& in, const Args& a);
Ref emit_bn_stats(Tracer& t, const BnStats& a);

struct BnAggr {
  TensorObj* data;
  DType dtype;
  Ref mask;
};
BnAggr bind_bn_aggr(Tracer& t, py::Interp& in, const Args& a);
Ref emit_bn_aggr(Tracer& t, const BnAggr& a);

struct Max8 {
  TensorObj* src;
  DType dtype;
  Ref mask;
};
Max8 bind_max8(Tracer& t, py::Interp& in, const Args& a);
Ref emit_max8(Tracer& t, const Max8& a);

struct NcFindIndex8 {
  TensorObj* data;
  Ref vals, mask, dtype;  // vals and dtype are checked after the masked copy of data is staged
};
NcFindIndex8 bind_nc_find_index8(Tracer& t, py::Interp& in, const Args& a);
Ref emit_nc_find_index8(Tracer& t, const NcFindIndex8& a);

struct NcMatchReplace8 {
  TensorObj* data;
  TensorObj* vals;
  double imm;
  TensorObj* dst_idx;  // optional (null)
  DType dtype;
  Ref mask;
};
NcMatchReplace8 bind_nc_match_replace8(Tracer& t, py::Interp& in, const Args& a);
Ref emit_nc_match_replace8(Tracer& t, const NcMatchReplace8& a);

struct Dropout {
  TensorObj* data;
  ir::Operand prob;
  DType dtype;
  Ref mask;
};
Dropout bind_dropout(Tracer& t, py::Interp& in, const Args& a);
Ref emit_dropout(Tracer& t, const Dropout& a);

struct NcStreamShuffle {
  TensorObj* src;
  TensorObj* dst;
  std::vector<int64_t> shuffle_mask;
  Ref mask;
};
NcStreamShuffle bind_nc_stream_shuffle(Tracer& t, py::Interp& in, const Args& a);
Ref emit_nc_stream_shuffle(Tracer& t, const NcStreamShuffle& a);

struct LocalGather {
  TensorObj* src;
  TensorObj* index;
  int64_t elems_per_index, valid_indices;
  std::vector<int64_t> out_shape;
  Ref mask;
};
LocalGather bind_local_gather(Tracer& t, py::Interp& in, const Args& a);
Ref emit_local_gather(Tracer& t, const LocalGather& a);

struct SequenceBounds {
  TensorObj* segment_ids;
  DType dtype;
};
SequenceBounds bind_sequence_bounds(Tracer& t, py::Interp& in, const Args& a);
Ref emit_sequence_bounds(Tracer& t, const SequenceBounds& a);

// ---- nisa_selects.cpp
struct RangeSelect {
  TensorObj* on_true;
  TensorObj* bound0;
  TensorObj* bound1;
  int64_t comp_op0, comp_op1;  // ir::Alu values
  int64_t range_start;
  ir::ScalarExpr range_start_expr;  // a range_start of loop indices
  double on_false;
  DType dtype;
  Ref reduce_res, reduce_op, reduce_cmd;  // checked after the result tile is created
  Ref mask;
};
RangeSelect bind_range_select(Tracer& t, py::Interp& in, const Args& a);
Ref emit_range_select(Tracer& t, const RangeSelect& a);

struct TensorCopyPredicated {
  TensorObj* dst;
  TensorObj* predicate;
  ir::Operand src;
  bool reverse_pred;
  Ref mask;
};
TensorCopyPredicated bind_tensor_copy_predicated(Tracer& t, py::Interp& in, const Args& a);
Ref emit_tensor_copy_predicated(Tracer& t, const TensorCopyPredicated& a);

struct SelectReduce {
  TensorObj* dst;
  TensorObj* predicate;
  ir::Operand on_true, on_false;
  bool reverse_pred;
  std::optional<ir::Access> reduce_res;
  std::optional<ir::Alu> reduce_op;
  int reduce_cmd;
  Ref mask;
};
SelectReduce bind_select_reduce(Tracer& t, py::Interp& in, const Args& a);
Ref emit_select_reduce(Tracer& t, const SelectReduce& a);

// ---- api_nisa_cumulative.cpp
struct TensorScalarCumulative {
  TensorObj* dst;
  TensorObj* src;
  ir::Alu op0, op1;
  ir::Operand imm0, imm1;
  int64_t reduce_cmd;
};
TensorScalarCumulative bind_tensor_scalar_cumulative(Tracer& t, py::Interp& in, const Args& a);
Ref emit_tensor_scalar_cumulative(Tracer& t, const TensorScalarCumulative& a);

}  // namespace nki::front::nisa
