#include "nki/symbolic_index.h"

#include <set>

#include "base/diag_codes.h"
#include "nki/tracer.h"

namespace nki::front {

namespace {

// Loop-variable and program-id atoms `e` depends on (through floor-div/mod atoms too).
void collect_roots(const ir::Kernel& k, const ir::ScalarExpr& e, std::set<int>& out, int depth = 0) {
  if (depth > 64) return;  // atoms only refer to earlier atoms; this bounds pathological chains
  for (const auto& [atom, c] : e.terms) {
    if (c == 0) continue;
    const ir::Atom& a = k.atoms[static_cast<size_t>(atom)];
    if (a.kind == ir::AtomKind::FloorDiv || a.kind == ir::AtomKind::Mod) collect_roots(k, a.operand, out, depth + 1);
    else out.insert(atom);
  }
}

}  // namespace

std::string describe_symbolic(Tracer& t, const ir::ScalarExpr& e) {
  const ir::Kernel& k = t.kernel();
  std::set<int> roots;
  collect_roots(k, e, roots);
  std::string out;
  for (int atom : roots) {
    const ir::Atom& a = k.atoms[static_cast<size_t>(atom)];
    std::string part = "`" + a.name + "` ";
    if (a.kind == ir::AtomKind::ProgramId) {
      part += "is nl.program_id(" + std::to_string(a.axis) + "), one symbolic value for every SPMD instance";
    } else if (const Tracer::LoopCtx* l = t.loop_of_atom(atom); l && l->python_range) {
      part += "is the index of a Python range() loop, which the compiler traces as nl.sequential_range";
    } else if (l && l->kind == ir::LoopKind::Affine) {
      part += "is the index of an nl.affine_range loop";
    } else if (l && l->kind == ir::LoopKind::Sequential) {
      part += "is the index of an nl.sequential_range loop";
    } else {
      part += "is a loop index";
    }
    out += (out.empty() ? "" : "; ") + part;
  }
  return out;
}

std::string symbolic_index_hint(const std::string& use) {
  std::string h =
      "the loop body is traced once with a symbolic index, so Python cannot compute with its value; "
      "iterate with nl.static_range(...) when the code needs the index as a Python int (the loop is "
      "unrolled at trace time)";
  if (use == "min()" || use == "max()")
    h += ", or keep full tiles and cover a partial last tile with a mask, e.g. "
         "mask=(t * 128 + nl.arange(128)[:, None] < n)";
  else
    h += ", or use the index only in index expressions (slices, nl.ds, masks)";
  return h;
}

void symbolic_index_error(Tracer& t, const ir::ScalarExpr& e, const std::string& use) {
  std::string expr = ir::print_scalar_expr(t.kernel(), e);
  std::string what = describe_symbolic(t, e);
  if (what.empty()) what = "it is an index expression";
  nki_error(diag::Code::symbolic_loop_index,
            use + " needs a Python int, but `" + expr + "` is symbolic while the kernel is traced: " +
                what,
            symbolic_index_hint(use));
}

}  // namespace nki::front
