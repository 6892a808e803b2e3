// nki.isa for the current dialect (NKI 0.6 signatures: nki/api/nki/isa/__init__.py at
// aws-neuron-sdk HEAD; shared/docs/nki-spec.md §3.5). Every instruction is destination-passing:
// `nisa.op(dst, inputs...)` with the output dtype taken from dst. The adapters bind the 0.6
// signature, run the 2.24 binder and emitter of src/nki (nisa_apis.h: the argument checks and
// the IR emission, one copy for both dialects) with dtype=dst.dtype, and write the result into
// dst the way the 2.24 `dst[...] = nisa.op(...)` does (front::assign_into retargets the
// instruction, so no copy is added).
#include "base/diag_codes.h"
#include "nki/api_common.h"
#include "nki/nisa_apis.h"
#include "nki_current/bind.h"
#include "nki_current/current_tracer.h"
#include "nki_current/registers.h"

namespace nki::current {

namespace {

using front::TensorObj;

struct P {
  const char* name;
  const char* legacy;  // 2.24 keyword; "" = no counterpart (must stay at its default); nullptr = ignored
};

enum class Special { None, DmaCopy, Matmul, Memset, SameDtype };  // SameDtype: dst.dtype == data.dtype

struct IsaForward {
  const char* name;
  const char* legacy;
  std::vector<P> params;  // params[0] is dst unless dst_arg says otherwise
  size_t required;
  bool pass_dtype = true;       // dtype=dst.dtype to the 2.24 builder
  bool legacy_writes_dst = false;  // the 2.24 builder is destination-passing already
  Special special = Special::None;
};

std::vector<IsaForward> forwards() {
  std::vector<IsaForward> f;
  f.push_back({"dma_copy", "dma_copy", {{"dst", "dst"}, {"src", "src"}, {"priority", nullptr}, {"oob_mode", "oob_mode"},
                                        {"dge_mode", "dge_mode"}, {"engine", nullptr}, {"name", nullptr}},
               2, false, true, Special::DmaCopy});
  f.push_back({"tensor_copy", "tensor_copy", {{"dst", nullptr}, {"src", "src"}, {"engine", "engine"}, {"name", nullptr}}, 2});
  f.push_back({"memset", "memset", {{"dst", nullptr}, {"value", "value"}, {"engine", "engine"}, {"name", nullptr}}, 2,
               true, false, Special::Memset});
  f.push_back({"nc_matmul", "nc_matmul",
               {{"dst", nullptr}, {"stationary", "stationary"}, {"moving", "moving"},
                {"is_stationary_onezero", "is_stationary_onezero"}, {"is_moving_onezero", "is_moving_onezero"},
                {"is_transpose", "is_transpose"}, {"accumulate", nullptr}, {"tile_position", "tile_position"},
                {"tile_size", "tile_size"}, {"perf_mode", nullptr}, {"name", nullptr}},
               3, false, false, Special::Matmul});
  f.push_back({"nc_transpose", "nc_transpose", {{"dst", nullptr}, {"data", "data"}, {"engine", "engine"}, {"name", nullptr}}, 2,
               true, false, Special::SameDtype});
  f.push_back({"tensor_tensor", "tensor_tensor", {{"dst", nullptr}, {"data1", "data1"}, {"data2", "data2"}, {"op", "op"},
                                                  {"engine", "engine"}, {"name", nullptr}}, 4});
  f.push_back({"tensor_scalar", "tensor_scalar",
               {{"dst", nullptr}, {"data", "data"}, {"op0", "op0"}, {"operand0", "operand0"}, {"reverse0", "reverse0"},
                {"op1", "op1"}, {"operand1", "operand1"}, {"reverse1", "reverse1"}, {"engine", "engine"}, {"name", nullptr}},
               4});
  f.push_back({"tensor_reduce", "tensor_reduce", {{"dst", nullptr}, {"op", "op"}, {"data", "data"}, {"axis", "axis"},
                                                  {"negate", "negate"}, {"keepdims", "keepdims"}, {"name", nullptr}}, 4});
  f.push_back({"tensor_partition_reduce", "tensor_partition_reduce", {{"dst", nullptr}, {"op", "op"}, {"data", "data"},
                                                                      {"name", nullptr}}, 3});
  f.push_back({"activation", "activation",
               {{"dst", nullptr}, {"op", "op"}, {"data", "data"}, {"bias", "bias"}, {"scale", "scale"},
                {"reduce_op", "reduce_op"}, {"reduce_res", "reduce_res"}, {"reduce_cmd", "reduce_cmd"}, {"name", nullptr}},
               3});
  f.push_back({"activation_reduce", "activation_reduce",
               {{"dst", nullptr}, {"op", "op"}, {"data", "data"}, {"reduce_op", "reduce_op"}, {"reduce_res", "reduce_res"},
                {"bias", "bias"}, {"scale", "scale"}, {"name", nullptr}},
               5});
  f.push_back({"reciprocal", "reciprocal", {{"dst", nullptr}, {"data", "data"}, {"name", nullptr}}, 2});
  f.push_back({"scalar_tensor_tensor", "scalar_tensor_tensor",
               {{"dst", nullptr}, {"data", "data"}, {"op0", "op0"}, {"operand0", "operand0"}, {"op1", "op1"},
                {"operand1", "operand1"}, {"reverse0", "reverse0"}, {"reverse1", "reverse1"}, {"name", nullptr}},
               6});
  f.push_back({"tensor_tensor_scan", "tensor_tensor_scan",
               {{"dst", nullptr}, {"data0", "data0"}, {"data1", "data1"}, {"initial", "initial"}, {"op0", "op0"},
                {"op1", "op1"}, {"reverse0", "reverse0"}, {"reverse1", "reverse1"}, {"name", nullptr}},
               6});
  f.push_back({"tensor_scalar_reduce", "tensor_scalar_reduce",
               {{"dst", nullptr}, {"data", "data"}, {"op0", "op0"}, {"operand0", "operand0"}, {"reduce_op", "reduce_op"},
                {"reduce_res", "reduce_res"}, {"reverse0", "reverse0"}, {"reduce_cmd", ""}, {"reduce_init", ""},
                {"reduce_res_negate", ""}, {"name", nullptr}},
               6});
  f.push_back({"tensor_scalar_cumulative", "tensor_scalar_cumulative",
               {{"dst", "dst"}, {"src", "src"}, {"op0", "op0"}, {"op1", "op1"}, {"imm0", "imm0"}, {"imm1", "imm1"},
                {"reduce_cmd", "reduce_cmd"}, {"name", nullptr}},
               5, false, true});
  f.push_back({"bn_stats", "bn_stats", {{"dst", nullptr}, {"data", "data"}, {"name", nullptr}}, 2});
  f.push_back({"bn_aggr", "bn_aggr", {{"dst", nullptr}, {"data", "data"}, {"name", nullptr}}, 2});
  f.push_back({"max8", "max8", {{"dst", nullptr}, {"src", "src"}, {"name", nullptr}}, 2});
  f.push_back({"nc_find_index8", "nc_find_index8", {{"dst", nullptr}, {"data", "data"}, {"vals", "vals"}, {"name", nullptr}}, 3});
  f.push_back({"dropout", "dropout", {{"dst", nullptr}, {"data", "data"}, {"prob", "prob"}, {"name", nullptr}}, 3});
  f.push_back({"sequence_bounds", "sequence_bounds", {{"dst", nullptr}, {"segment_ids", "segment_ids"}, {"name", nullptr}}, 2});
  // NKI 0.6 signatures of ops whose 2.24 builders exist (nki/api/nki/isa/__init__.py at HEAD).
  f.push_back({"tensor_copy_predicated", "tensor_copy_predicated",
               {{"dst", "dst"}, {"src", "src"}, {"predicate", "predicate"}, {"reverse_pred", "reverse_pred"},
                {"name", nullptr}},
               3, false, true});
  f.push_back({"select_reduce", "select_reduce",
               {{"dst", "dst"}, {"predicate", "predicate"}, {"on_true", "on_true"}, {"on_false", "on_false"},
                {"reduce_res", "reduce_res"}, {"reduce_cmd", "reduce_cmd"}, {"reduce_op", "reduce_op"},
                {"reverse_pred", "reverse_pred"}, {"name", nullptr}},
               4, false, true});
  // 0.2 swapped the 2.24 (src, dst) order (release-notes/prev/2.27.0/nki.rst); bound by keyword.
  f.push_back({"nc_stream_shuffle", "nc_stream_shuffle",
               {{"dst", "dst"}, {"src", "src"}, {"shuffle_mask", "shuffle_mask"}, {"name", nullptr}}, 3, false, true});
  f.push_back({"local_gather", "local_gather",
               {{"dst", nullptr}, {"src_buffer", "src_buffer"}, {"index", "index"}, {"num_elem_per_idx", "num_elem_per_idx"},
                {"num_valid_indices", "num_valid_indices"}, {"name", nullptr}},
               3, false});
  f.push_back({"range_select", "range_select",
               {{"dst", nullptr}, {"on_true_tile", "on_true_tile"}, {"comp_op0", "comp_op0"}, {"comp_op1", "comp_op1"},
                {"bound0", "bound0"}, {"bound1", "bound1"}, {"reduce_cmd", "reduce_cmd"}, {"reduce_res", "reduce_res"},
                {"reduce_op", "reduce_op"}, {"range_start", "range_start"}, {"on_false_value", "on_false_value"},
                {"name", nullptr}},
               6});
  // oob_mode only matters for indirect sources, which this front end does not build for DMA
  // transposes; priority is a scheduling hint.
  f.push_back({"dma_transpose", "dma_transpose",
               {{"dst", nullptr}, {"src", "src"}, {"axes", "axes"}, {"priority", nullptr}, {"dge_mode", "dge_mode"},
                {"oob_mode", nullptr}, {"name", nullptr}},
               2, true, false, Special::DmaCopy});
  f.push_back({"nc_match_replace8", "nc_match_replace8",
               {{"dst", nullptr}, {"data", "data"}, {"vals", "vals"}, {"imm", "imm"}, {"dst_idx", "dst_idx"},
                {"name", nullptr}},
               4});
  return f;
}

// nki.isa.dge_mode at HEAD: unknown=0, swdge=1, hwdge=2, none=3; the 2.24 encoding swaps 0 and 3
// (nki-spec §1.3 row 19).
Ref legacy_dge_mode(const Ref& v) {
  auto n = v ? front::static_int(v) : std::nullopt;
  if (!n) return v;
  if (*n == 0) return py::make_int(3);
  if (*n == 3) return py::make_int(0);
  return v;
}

// The destination (first) argument; a non-tensor there is the 2.24 functional form.
TensorObj* need_dst(const Bound& b) {
  TensorObj* dst = front::as_tensor(b[0]);
  if (!dst)
    current_error(diag::Code::dst_not_a_tensor, "the first argument of " + b.api() + " is its destination '" + b.name(0) +
                                          "', which must be a tensor, got " + b[0]->type_name(),
                  "NKI 0.2+ ISA calls are destination-passing: allocate the result with nl.ndarray(shape, dtype, "
                  "buffer=...) and pass it first; the 2.24 form `out = " + b.api() + "(...)` returned a new tile");
  return dst;
}

Ref make_adapter(CurrentTracer& t, const IsaForward& f) {
  std::string api = std::string("nisa.") + f.name;
  // The 2.24 instruction whose binder and emitter this adapter runs (nisa_apis.h).
  const front::ApiRow* row = front::find_api(front::nisa::apis(), f.legacy);
  if (!row) return front::unsupported_api(api, "in NKI 0.6 but not implemented by this simulator yet (docs/nki-current.md)");
  std::vector<std::string> names;
  for (const P& p : f.params) names.push_back(p.name);
  IsaForward spec = f;
  return std::make_shared<py::BuiltinFn>(api, [&t, spec, names, api, row](py::Interp& in, py::CallArgs& call) -> Ref {
    Bound b(call, api, names, spec.required, true);
    TensorObj* dst = need_dst(b);
    std::vector<std::pair<std::string, Ref>> kw;
    for (size_t i = 0; i < spec.params.size(); ++i) {
      const char* lk = spec.params[i].legacy;
      if (!lk) continue;
      if (!*lk) {
        if (b.has(i))
          current_error(diag::Code::unsupported_api, api + "(" + b.name(i) + "=...) is in NKI 0.6 but not implemented by this "
                                                 "simulator yet",
                        "leave " + b.name(i) + " at its default");
        continue;
      }
      if (!b.has(i)) continue;
      Ref v = b[i];
      if (spec.special == Special::DmaCopy && std::string(lk) == "dge_mode") v = legacy_dge_mode(v);
      kw.emplace_back(lk, v);
    }
    if (spec.special == Special::SameDtype) {
      // nki/api/nki/isa/__init__.py, nc_transpose "Data types": dst must have the dtype of data
      // (a transpose is a data move; 2.24's dtype= cast on the way is gone).
      TensorObj* data = front::as_tensor(b[1]);
      if (data && data->dtype() != dst->dtype())
        current_error(diag::Code::unsupported_dtype, api + " dst must have the dtype of data (" + dtype_name(data->dtype()) +
                                                         "), got " + dtype_name(dst->dtype()),
                      "allocate dst (in PSUM too) with data's dtype and convert afterwards with nisa.tensor_copy");
    }
    if (spec.pass_dtype) kw.emplace_back("dtype", std::make_shared<front::DTypeObj>(dst->dtype()));
    std::optional<ir::Alu> accumulate;
    if (spec.special == Special::Memset) {
      std::vector<Ref> dims;
      for (int64_t d : dst->shape()) dims.push_back(py::make_int(d));
      kw.emplace_back("shape", py::make_tuple(dims));
    }
    if (spec.special == Special::Matmul) {
      size_t acc = 6, perf = 9;
      if (b.has(perf) && front::static_int(b[perf]).value_or(1) != 0)
        current_error(diag::Code::unsupported_api, "nisa.nc_matmul(perf_mode=matmul_perf_mode.double_row) is not implemented by "
                                         "this simulator yet");
      if (dst->buffer() != ir::Buffer::Psum)
        current_error(diag::Code::err_unsupported_memory, "nisa.nc_matmul writes its result to PSUM; dst is in " +
                                                    std::string(ir::buffer_name(dst->buffer())),
                      "allocate dst with nl.ndarray(shape, nl.float32, buffer=nl.psum)");
      bool add;
      if (b[acc] && !t.at_least(3))
        // release-notes/components/nki.rst, NKI 0.3.0: "matmul accumulation control" is new there.
        current_error(diag::Code::unknown_argument, "nisa.nc_matmul(accumulate=...) is not in NKI " + t.version() + " (added in 0.3)",
                      "drop accumulate= (the first matmul into a PSUM location overwrites, later ones accumulate), "
                      "or compile with --nki 0.3 or later");
      if (b.has(acc)) {
        add = t.truthy(b[acc]);
      } else {
        // accumulate=None: "first write overwrites, subsequent writes accumulate".
        CurrentTracer::Written w = t.psum_written(dst->view);
        if (w == CurrentTracer::Written::Some)
          current_error(diag::Code::matmul_partial_accumulation,
                        "nisa.nc_matmul(accumulate=None) into a PSUM view of which only some elements were written "
                        "before: this simulator cannot tell which flag the compiler infers",
                        "pass accumulate=True or accumulate=False explicitly");
        add = w == CurrentTracer::Written::All;
      }
      if (add) accumulate = ir::Alu::Add;
    }
    Ref res = call_row(in, t, *row, kw, call);
    if (!spec.legacy_writes_dst) {
      if (!front::as_tensor(res))
        current_error(diag::Code::internal_error, api + ": the 2.24 builder returned no tile");
      front::assign_into(t, *dst, res, accumulate, api);
    }
    t.mark_written(dst->view);
    auto h = std::make_shared<InstrHandleObj>();
    h->api = api;
    return h;
  });
}

// nisa.iota(dst, pattern, offset=0, channel_multiplier=0): value at (partition p, pattern indices
// i_k) = offset + p * channel_multiplier + sum_k step_k * i_k, computed in int32 and cast to
// dst.dtype; dst in SBUF; the pattern's element count equals dst's elements per partition
// (nki/api/nki/isa/__init__.py, iota).
Ref make_iota(CurrentTracer& t) {
  return std::make_shared<py::BuiltinFn>("nisa.iota", [&t](py::Interp& in, py::CallArgs& call) -> Ref {
    const std::string api = "nisa.iota";
    Bound b(call, api, {"dst", "pattern", "offset", "channel_multiplier", "name"}, 2, true);
    TensorObj* dst = need_dst(b);
    if (dst->buffer() != ir::Buffer::Sbuf)
      current_error(diag::Code::err_unsupported_memory, "the output of nisa.iota must be in SBUF, got a tile in " +
                                                  std::string(ir::buffer_name(dst->buffer())));
    auto ints = [&](const Ref& r, const char* what) {
      std::vector<int64_t> out;
      for (const Ref& x : r->iterate(in)) {
        auto v = front::static_int(x);
        if (!v) current_error(diag::Code::invalid_arguments, std::string("nisa.iota ") + what + " must hold compile-time integers");
        out.push_back(*v);
      }
      return out;
    };
    std::vector<int64_t> steps, nums;
    for (const Ref& pair : b[1]->iterate(in)) {
      std::vector<int64_t> sn = ints(pair, "pattern entries [step, num]");
      if (sn.size() != 2 || sn[1] < 1)
        current_error(diag::Code::invalid_arguments, "nisa.iota pattern entries are [step, num] pairs with num >= 1");
      steps.push_back(sn[0]);
      nums.push_back(sn[1]);
    }
    if (steps.empty() || steps.size() > 4)
      current_error(diag::Code::invalid_arguments, "nisa.iota pattern has 1 to 4 [step, num] pairs");
    const auto& shape = dst->shape();
    int64_t per_partition = 1;
    for (size_t d = 1; d < shape.size(); ++d) per_partition *= shape[d];
    int64_t pattern_count = ir::element_count(nums);
    if (pattern_count != per_partition)
      current_error(diag::Code::iota_pattern_size,
                    "nisa.iota pattern generates " + std::to_string(pattern_count) +
                        " elements per partition but dst " + front::shape_str(shape) + " has " +
                        std::to_string(per_partition),
                    "the product of the pattern's num entries must equal dst's elements per partition");
    // Iteration space [P, num_0, ..., num_k]; dst is addressed through it.
    ir::Access view = dst->view;
    std::vector<int64_t> space = {shape[0]};
    space.insert(space.end(), nums.begin(), nums.end());
    std::vector<int64_t> free(shape.begin() + 1, shape.end());
    ir::Access acc = view;
    acc.shape = space;
    for (auto& c : acc.coef) {
      std::vector<int64_t> row(space.size(), 0);
      row[0] = c[0];
      if (free == nums) {
        for (size_t k = 0; k < nums.size(); ++k) row[1 + k] = c[1 + k];
      } else if (shape.size() == 2) {
        int64_t stride = 1;
        for (size_t k = nums.size(); k-- > 0;) {
          row[1 + k] = c[1] * stride;
          stride *= nums[k];
        }
      } else {
        current_error(diag::Code::unsupported_api, "nisa.iota into a " + std::to_string(shape.size()) +
                                             "-D dst whose free shape differs from the pattern is not implemented by "
                                             "this simulator yet",
                      "use a 2-D dst [P, F] or one whose free dims equal the pattern's num entries");
      }
      c = row;
    }
    auto opt_int = [&](size_t i) -> int64_t {
      if (!b.has(i)) return 0;
      auto v = front::static_int(b[i]);
      if (!v) current_error(diag::Code::invalid_arguments, "nisa.iota " + b.name(i) + " must be a compile-time integer");
      return *v;
    };
    ir::Predicate p;
    p.coef = {opt_int(3)};
    p.coef.insert(p.coef.end(), steps.begin(), steps.end());
    p.rest = ir::ScalarExpr::of(opt_int(2));
    front::check_writable(t, *dst);
    front::nisa::emit_iota_into(t, api, acc, p, std::nullopt);
    auto h = std::make_shared<InstrHandleObj>();
    h->api = api;
    return h;
  });
}

// [[step, num], ...] of nisa.iota / nisa.affine_select: 1 to 4 pairs of compile-time integers.
void parse_pattern(py::Interp& in, const Ref& pattern, const std::string& api, std::vector<int64_t>* steps,
                   std::vector<int64_t>* nums) {
  for (const Ref& pair : pattern->iterate(in)) {
    std::vector<int64_t> sn;
    for (const Ref& x : pair->iterate(in)) {
      auto v = front::static_int(x);
      if (!v) current_error(diag::Code::invalid_arguments, api + " pattern entries must hold compile-time integers");
      sn.push_back(*v);
    }
    if (sn.size() != 2 || sn[1] < 1)
      current_error(diag::Code::invalid_arguments, api + " pattern entries are [step, num] pairs with num >= 1");
    steps->push_back(sn[0]);
    nums->push_back(sn[1]);
  }
  if (steps->empty() || steps->size() > 4) current_error(diag::Code::invalid_arguments, api + " pattern has 1 to 4 [step, num] pairs");
}

// `view` (shape [P, ...], `per_partition` elements per partition) addressed through the iteration
// space [P, nums...]: the same dims when its free shape is `nums`, else its free elements in
// row-major order (the pattern walks the elements of each partition in order).
ir::Access pattern_view(const ir::Access& view, const std::vector<int64_t>& nums, const std::string& api,
                        const std::string& what) {
  const auto& shape = view.shape;
  int64_t per_partition = 1;
  for (size_t d = 1; d < shape.size(); ++d) per_partition *= shape[d];
  if (ir::element_count(nums) != per_partition)
    current_error(diag::Code::iota_pattern_size,
                  api + " pattern covers " + std::to_string(ir::element_count(nums)) + " elements per partition but " +
                      what + " " + front::shape_str(shape) + " has " + std::to_string(per_partition),
                  "the product of the pattern's num entries must equal the elements per partition");
  std::vector<int64_t> free(shape.begin() + 1, shape.end());
  ir::Access acc = view;
  acc.shape = {shape[0]};
  acc.shape.insert(acc.shape.end(), nums.begin(), nums.end());
  for (auto& c : acc.coef) {
    std::vector<int64_t> row(acc.shape.size(), 0);
    row[0] = c[0];
    // Pattern dims and free dims of size > 1, in order: equal lists map one to one (the
    // compiler pads a short pattern with size-1 dims); a 2-D view [P, F] takes the pattern's
    // elements in row-major order; anything else is not modelled.
    std::vector<size_t> pk, fd;
    for (size_t k = 0; k < nums.size(); ++k)
      if (nums[k] > 1) pk.push_back(k);
    for (size_t d = 0; d < free.size(); ++d)
      if (free[d] > 1) fd.push_back(d);
    bool same = pk.size() == fd.size();
    for (size_t i = 0; same && i < pk.size(); ++i) same = nums[pk[i]] == free[fd[i]];
    if (same) {
      for (size_t i = 0; i < pk.size(); ++i) row[1 + pk[i]] = c[1 + fd[i]];
    } else if (free.size() == 1) {
      int64_t stride = 1;
      for (size_t k = nums.size(); k-- > 0;) {
        row[1 + k] = c[1] * stride;
        stride *= nums[k];
      }
    } else {
      current_error(diag::Code::unsupported_api, api + " into a " + std::to_string(shape.size()) + "-D " + what +
                                           " whose free shape differs from the pattern is not implemented by this "
                                           "simulator yet",
                    "use a 2-D " + what + " [P, F] or one whose free dims equal the pattern's num entries");
    }
    c = row;
  }
  return acc;
}

// nisa.affine_select(dst, pattern, channel_multiplier, on_true_tile, on_false_value,
// cmp_op=nl.equal, offset=0): dst[p, i...] = on_true_tile[p, i...] where
// cmp_op(offset + p * channel_multiplier + sum_k step_k * i_k, 0), else on_false_value; dst and
// on_true_tile in SBUF, on_false_value a float32 (nki/api/nki/isa/__init__.py, affine_select).
// Lowers to the Select instruction with an affine predicate, as the 2.24 affine_select does.
Ref make_affine_select(CurrentTracer& t) {
  return std::make_shared<py::BuiltinFn>("nisa.affine_select", [&t](py::Interp& in, py::CallArgs& call) -> Ref {
    const std::string api = "nisa.affine_select";
    Bound b(call, api, {"dst", "pattern", "channel_multiplier", "on_true_tile", "on_false_value", "cmp_op", "offset",
                        "name"},
            5, true);
    TensorObj* dst = need_dst(b);
    TensorObj* x = front::as_tensor(b[3]);
    if (!x) current_error(diag::Code::invalid_arguments, api + " on_true_tile must be a tile");
    for (auto [tile, what] : {std::pair<TensorObj*, const char*>{dst, "dst"}, {x, "on_true_tile"}})
      if (tile->buffer() != ir::Buffer::Sbuf)
        current_error(diag::Code::err_unsupported_memory, std::string(api) + " " + what + " must be in SBUF, got a tile in " +
                                                    ir::buffer_name(tile->buffer()));
    if (x->shape()[0] != dst->shape()[0])
      current_error(diag::Code::shape_mismatch, api + " on_true_tile and dst need the same number of partitions");
    std::vector<int64_t> steps, nums;
    parse_pattern(in, b[1], api, &steps, &nums);
    auto cm = front::static_int(b[2]);
    if (!cm) current_error(diag::Code::invalid_arguments, api + " channel_multiplier must be a compile-time integer");
    int64_t offset = 0;
    if (b.has(6)) {
      auto o = front::static_int(b[6]);
      if (!o)
        current_error(diag::Code::unsupported_api, api + " with a register offset is not implemented by this simulator yet",
                      "pass a compile-time integer offset");
      offset = *o;
    }
    auto fv = py::as_number(b[4]);
    if (!fv) current_error(diag::Code::invalid_arguments, api + " on_false_value must be a number (float32)");
    ir::CmpKind cmp = ir::CmpKind::Eq;
    if (b.has(5)) {
      auto alu = front::op_alu(b[5]);
      using A = ir::Alu;
      if (alu == A::Equal) cmp = ir::CmpKind::Eq;
      else if (alu == A::NotEqual) cmp = ir::CmpKind::Ne;
      else if (alu == A::Greater) cmp = ir::CmpKind::Gt;
      else if (alu == A::GreaterEqual) cmp = ir::CmpKind::Ge;
      else if (alu == A::Less) cmp = ir::CmpKind::Lt;
      else if (alu == A::LessEqual) cmp = ir::CmpKind::Le;
      else
        current_error(diag::Code::invalid_alu_op, api + " cmp_op must be a comparison (nl.equal, nl.not_equal, nl.greater, "
                                              "nl.greater_equal, nl.less, nl.less_equal)");
    }
    ir::Predicate p;
    p.coef = {*cm};
    p.coef.insert(p.coef.end(), steps.begin(), steps.end());
    p.rest = ir::ScalarExpr::of(offset);
    p.cmp = cmp;
    front::check_writable(t, *dst);
    ir::Instr instr;
    instr.op = ir::Opcode::Select;
    instr.name = api;
    instr.engine = ir::Engine::GpSimd;
    instr.select_pred = p;
    instr.dst = pattern_view(dst->view, nums, api, "dst");
    instr.srcs.push_back(ir::Operand::of(pattern_view(x->view, nums, api, "on_true_tile")));
    instr.srcs.push_back(ir::Operand::of_imm(*fv));
    t.emit(std::move(instr));
    auto h = std::make_shared<InstrHandleObj>();
    h->api = api;
    return h;
  });
}

std::shared_ptr<py::ModuleObj> make_enum(const std::string& name,
                                         std::initializer_list<std::pair<const char*, int64_t>> values) {
  auto m = std::make_shared<py::ModuleObj>(name);
  for (auto& [k, v] : values) m->set(k, py::make_int(v));
  return m;
}

// Enums at HEAD (nki/api/nki/isa/__init__.py; nki-spec §3.5 "Enums (0.6)").
void add_enums(py::ModuleObj& m) {
  m.set("engine", make_enum("nisa.engine", {{"unknown", 0}, {"tensor", 1}, {"scalar", 2}, {"gpsimd", 3}, {"dma", 4},
                                            {"vector", 5}, {"sync", 6}}));
  // Deprecated module constants that real code still uses (nki-spec §3.4, last paragraph).
  m.set("tensor_engine", py::make_int(1));
  m.set("scalar_engine", py::make_int(2));
  m.set("gpsimd_engine", py::make_int(3));
  m.set("vector_engine", py::make_int(5));
  m.set("unknown_engine", py::make_int(0));
  m.set("reduce_cmd", make_enum("nisa.reduce_cmd", {{"idle", 0}, {"reset", 1}, {"reduce", 2}, {"reset_reduce", 3},
                                                    {"load_reduce", 4}}));
  m.set("dge_mode", make_enum("nisa.dge_mode", {{"unknown", 0}, {"swdge", 1}, {"hwdge", 2}, {"none", 3}}));
  m.set("oob_mode", make_enum("nisa.oob_mode", {{"error", 0}, {"skip", 1}}));
  m.set("matmul_perf_mode", make_enum("nisa.matmul_perf_mode", {{"none", 0}, {"double_row", 1}}));
  m.set("nc_version", make_enum("nisa.nc_version", {{"gen2", 2}, {"gen3", 3}, {"gen4", 4}}));
  m.set("dma_engine", make_enum("nisa.dma_engine", {{"dma", 1}, {"gpsimd_dma", 2}}));
}

}  // namespace

std::shared_ptr<py::ModuleObj> make_isa_constants_module(CurrentTracer&) {
  auto m = std::make_shared<py::ModuleObj>("nki.isa.constants");
  add_enums(*m);
  return m;
}

std::shared_ptr<py::ModuleObj> make_isa_module(CurrentTracer& t) {
  auto m = std::make_shared<py::ModuleObj>("nki.isa");
  add_enums(*m);
  for (const IsaForward& f : forwards()) m->set(f.name, make_adapter(t, f));
  m->set("iota", make_iota(t));
  m->set("get_nc_version", t.legacy_nisa()->find("get_nc_version"));
  m->set("affine_select", make_affine_select(t));
  for (const char* n : {"nc_matmul_mx", "activate2", "nc_n_gather", "rng", "set_rng_seed", "rand_set_state",
                        "rand_get_state", "rand2", "exponential", "core_barrier", "dma_compute", "quantize_mx",
                        "sendrecv", "nonzero_with_count", "topk", "get_nc_sub_version", "VirtualRegister", "NkiInstruction"})
    m->set(n, front::unsupported_api(std::string("nisa.") + n,
                                     "in NKI 0.6 but not implemented by this simulator's current-dialect front end yet "
                                     "(docs/nki-current.md)"));
  add_register_functions(t, *m);
  return m;
}

}  // namespace nki::current
