// nl index helpers (SDK 2.24; shared/docs/nki-spec.md §2.7–§2.8): nl.ds (a slice of static size
// at a possibly symbolic start), nl.program_id and nl.num_programs (the SPMD launch grid).
#include "base/diag_codes.h"
#include "ir/scalar_expr.h"
#include "nki/api_common.h"
#include "nki/nl_apis.h"

namespace nki::front::nl {

namespace {

struct Ds {
  Ref start;
  int64_t size;
};

Ds bind_ds(Tracer&, py::Interp&, const Args& a) {
  auto size = static_int(a[1]);
  if (!size || *size <= 0) nki_error(diag::Code::invalid_arguments, "nl.ds size must be a positive compile-time integer");
  return {a[0], *size};
}

// start:start + size (start may be a loop index expression).
Ref emit_ds(Tracer&, py::Interp& in, const Ds& a) {
  auto s = std::make_shared<py::SliceObj>();
  s->lower = a.start;
  s->upper = in.binary(py::Operator::Add, a.start, py::make_int(a.size));
  s->step = py::none();
  return s;
}

struct ProgramId {
  int64_t axis;
};

ProgramId bind_program_id(Tracer& t, py::Interp&, const Args& a) {
  auto axis = static_int(a[0]);
  if (!axis || *axis < 0) nki_error(diag::Code::invalid_arguments, "nl.program_id(axis) needs a non-negative integer axis");
  const auto& grid = t.options().grid;
  if (grid.empty()) {
    if (*axis != 0) nki_error(diag::Code::invalid_arguments, "nl.program_id(" + std::to_string(*axis) + ") without an SPMD grid");
  } else if (*axis >= static_cast<int64_t>(grid.size())) {
    nki_error(diag::Code::invalid_arguments, "nl.program_id(" + std::to_string(*axis) + ") but the launch grid has rank " +
                                           std::to_string(grid.size()));
  }
  return {*axis};
}

// Without a grid the one program has id 0; with one, the id is the launch atom of that axis.
Ref emit_program_id(Tracer& t, const ProgramId& a) {
  auto ix = std::make_shared<IndexObj>();
  ix->tracer = &t;
  if (t.options().grid.empty()) ix->rest = ir::ScalarExpr::of(0);
  else ix->rest = ir::atom_expr(t.program_id_atom(static_cast<int>(a.axis)));
  return ix;
}

struct NumPrograms {
  enum class Form { All, One, Tuple } form;
  std::vector<int64_t> extents;  // One: one entry; Tuple: one per requested axis
};

NumPrograms bind_num_programs(Tracer& t, py::Interp& in, const Args& a) {
  const auto& grid = t.options().grid;
  auto extent = [&](int64_t ax) -> int64_t {
    if (grid.empty()) return 1;
    if (ax < 0 || ax >= static_cast<int64_t>(grid.size())) nki_error(diag::Code::invalid_arguments, "num_programs axis out of range");
    return grid[ax];
  };
  if (!a.has(0)) {
    int64_t n = 1;
    for (int64_t g : grid) n *= g;
    return {NumPrograms::Form::All, {n}};
  }
  if (auto ax = static_int(a[0])) return {NumPrograms::Form::One, {extent(*ax)}};
  std::vector<int64_t> out;
  for (const Ref& r : a[0]->iterate(in)) out.push_back(extent(static_int(r).value_or(-1)));
  return {NumPrograms::Form::Tuple, out};
}

Ref emit_num_programs(Tracer&, const NumPrograms& a) {
  if (a.form != NumPrograms::Form::Tuple) return py::make_int(a.extents[0]);
  std::vector<Ref> out;
  for (int64_t e : a.extents) out.push_back(py::make_int(e));
  return py::make_tuple(out);
}

}  // namespace

const std::vector<ApiRow>& index_apis() {
  static const std::vector<ApiRow> rows = {
      {"ds", {{"start", "size"}, 2, 2}, bind_then_emit(bind_ds, emit_ds)},
      {"program_id", {{"axis"}, 1, 1}, bind_then_emit(bind_program_id, emit_program_id)},
      {"num_programs", {{"axes"}, 1, 0}, bind_then_emit(bind_num_programs, emit_num_programs)},
  };
  return rows;
}

}  // namespace nki::front::nl
