// The 0.6 ISA instructions addressed through an access pattern: nisa.iota and
// nisa.affine_select (nki/api/nki/isa/__init__.py at aws-neuron-sdk HEAD). Each binds and checks
// its 0.6 arguments into a typed struct and then emits; the Iota instruction is emitted by the
// same function as the 2.24 nisa.iota (front::nisa::emit_iota_into).
#include "nki_current/isa_patterns.h"

#include "base/diag_codes.h"
#include "nki/api_common.h"
#include "nki/nisa_apis.h"
#include "nki_current/bind.h"

namespace nki::current {

namespace {

using front::TensorObj;

Ref instruction_handle(const std::string& api) {
  auto h = std::make_shared<InstrHandleObj>();
  h->api = api;
  return h;
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

// nisa.iota(dst, pattern, offset=0, channel_multiplier=0): value at (partition p, pattern indices
// i_k) = offset + p * channel_multiplier + sum_k step_k * i_k, computed in int32 and cast to
// dst.dtype; dst in SBUF; the pattern's element count equals dst's elements per partition
// (nki/api/nki/isa/__init__.py, iota).
struct PatternIota {
  ir::Access view;      // dst over the iteration space [P, num_0, ..., num_k]
  ir::Predicate value;  // offset + p * channel_multiplier + sum_k step_k * i_k
};

PatternIota bind_iota(CurrentTracer& t, py::Interp& in, const Bound& b) {
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
  return {acc, p};
}

// nisa.affine_select(dst, pattern, channel_multiplier, on_true_tile, on_false_value,
// cmp_op=nl.equal, offset=0): dst[p, i...] = on_true_tile[p, i...] where
// cmp_op(offset + p * channel_multiplier + sum_k step_k * i_k, 0), else on_false_value; dst and
// on_true_tile in SBUF, on_false_value a float32 (nki/api/nki/isa/__init__.py, affine_select).
// Lowers to the Select instruction with an affine predicate, as the 2.24 affine_select does.
struct PatternSelect {
  ir::Predicate pred;
  ir::Access dst, on_true;  // over the iteration space [P, num_0, ..., num_k]
  double on_false;
};

PatternSelect bind_affine_select(CurrentTracer& t, py::Interp& in, const Bound& b) {
  const std::string& api = b.api();
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
  ir::Access dst_view = pattern_view(dst->view, nums, api, "dst");
  ir::Access on_true = pattern_view(x->view, nums, api, "on_true_tile");
  return {p, dst_view, on_true, *fv};
}

Ref emit_affine_select(CurrentTracer& t, const std::string& api, const PatternSelect& a) {
  ir::Instr instr;
  instr.op = ir::Opcode::Select;
  instr.name = api;
  instr.engine = ir::Engine::GpSimd;
  instr.select_pred = a.pred;
  instr.dst = a.dst;
  instr.srcs.push_back(ir::Operand::of(a.on_true));
  instr.srcs.push_back(ir::Operand::of_imm(a.on_false));
  t.emit(std::move(instr));
  return instruction_handle(api);
}

}  // namespace

Ref make_iota(CurrentTracer& t) {
  return std::make_shared<py::BuiltinFn>("nisa.iota", [&t](py::Interp& in, py::CallArgs& call) -> Ref {
    const std::string api = "nisa.iota";
    Bound b(call, api, {"dst", "pattern", "offset", "channel_multiplier", "name"}, 2, true);
    PatternIota a = bind_iota(t, in, b);
    front::nisa::emit_iota_into(t, api, a.view, a.value, std::nullopt);
    return instruction_handle(api);
  });
}

Ref make_affine_select(CurrentTracer& t) {
  return std::make_shared<py::BuiltinFn>("nisa.affine_select", [&t](py::Interp& in, py::CallArgs& call) -> Ref {
    Bound b(call, "nisa.affine_select",
            {"dst", "pattern", "channel_multiplier", "on_true_tile", "on_false_value", "cmp_op", "offset", "name"}, 5, true);
    return emit_affine_select(t, b.api(), bind_affine_select(t, in, b));
  });
}

}  // namespace nki::current
