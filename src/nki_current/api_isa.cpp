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
#include "nki_current/isa_patterns.h"
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

// "The output tile of a TensorE matrix multiplication instruction (nki.isa.nc_matmul) must fit
// into one PSUM bank per partition" (nki/guides/architecture/trainium_inferentia2_arch.rst), and a
// PSUM tensor starts at a bank boundary ("The allocation for PSUM tensors must start at the
// beginning of each bank", nki/migration/index.rst). So a dst whose bytes in a partition cross a
// multiple of 2 KiB from the tensor's start is invalid. Checked only when that is provable: a
// tensor that owns its storage, constant offsets, no indirection.
void check_matmul_dst_in_one_bank(CurrentTracer& t, const front::TensorObj& dst) {
  const ir::Access& v = dst.view;
  if (v.indirect || t.storage_of(v.tensor) != v.tensor) return;
  const ir::TensorDecl& d = t.kernel().tensors[static_cast<size_t>(v.tensor)];
  if (d.partition_dim != 0 || v.offset.size() != d.shape.size() || v.coef.size() != d.shape.size()) return;
  // Element offsets within one partition (row-major over the free dims): lowest and highest.
  int64_t lo = 0, hi = 0, stride = 1;
  for (size_t dim = d.shape.size(); dim-- > 1;) {
    if (!v.offset[dim].is_constant() || v.coef[dim].size() != v.shape.size()) return;
    lo += v.offset[dim].constant * stride;
    hi += v.offset[dim].constant * stride;
    for (size_t j = 0; j < v.shape.size(); ++j) {
      const int64_t step = v.coef[dim][j] * stride, extent = v.shape[j] - 1;
      (step < 0 ? lo : hi) += step * extent;
    }
    stride *= d.shape[dim];
  }
  const int64_t size = static_cast<int64_t>(dtype_size(d.dtype)), bank = t.hw().psum_bank_bytes;
  const int64_t first = lo * size / bank, last = ((hi + 1) * size - 1) / bank;
  if (first != last)
    current_error(diag::Code::matmul_psum_bank_crossing,
                  "nisa.nc_matmul writes bytes " + std::to_string(lo * size) + ".." + std::to_string((hi + 1) * size - 1) +
                      " of each partition of PSUM tensor '" + d.name + "', across the boundary of its " +
                      std::to_string(bank / 1024) + " KiB PSUM banks " + std::to_string(first) + " and " +
                      std::to_string(last),
                  "write each matmul output to a slice within one bank, e.g. dst=psum[:, n * 512:(n + 1) * 512] "
                  "for float32");
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
      check_matmul_dst_in_one_bank(t, *dst);
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
