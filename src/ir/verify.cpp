#include "ir/verify.h"

#include <limits>
#include <vector>

#include "ir/custom_ops.h"
#include "ir/walk.h"

namespace nki::ir {

namespace {

constexpr int kMaxAtomDepth = 64;  // FloorDiv/Mod nesting; deeper means a cycle among atoms

std::optional<int64_t> byte_size(const TensorDecl& t) {
  std::optional<int64_t> n = checked_element_count(t.shape);
  const int64_t w = static_cast<int64_t>(dtype_size(t.dtype));
  if (!n || *n > std::numeric_limits<int64_t>::max() / (w > 0 ? w : 1)) return std::nullopt;
  return *n * w;
}

// Operands the executor reads without looking (machine/ops_*.cpp): the minimum per opcode.
size_t required_srcs(const Instr& in) {
  switch (in.op) {
    case Opcode::Copy:
    case Opcode::Activation:
    case Opcode::Memset: return 1;
    case Opcode::Alu: return in.has_second ? 3 : in.alu0 == Alu::Bypass ? 1 : 2;
    case Opcode::Matmul: return 2;
    case Opcode::Select: return in.select_pred ? 2 : 3;
    case Opcode::Scan: return 3;
    case Opcode::Reduce: return 1;
    case Opcode::Register: return in.reg_op == RegOp::Load ? 1 : 0;
    case Opcode::Iota:
    case Opcode::Custom: return 0;  // checked against the table (custom_ops.def) in custom()
  }
  return 0;
}

class Verifier {
 public:
  explicit Verifier(const Kernel& k) : k_(k), in_scope_(k.atoms.size(), false) {}

  std::optional<InvariantViolation> run() {
    tensors();
    for (int t : k_.params) tensor_id(t, "a parameter", SourceLoc{});
    for (int t : k_.outputs) tensor_id(t, "an output", SourceLoc{});
    if (found_) return found_;
    WalkCallbacks cb;
    cb.instr = [&](const Instr& in, int) {
      if (!found_) instr(in);
    };
    cb.enter_loop = [&](const Loop& lp, int) {
      if (found_) return false;
      loop(lp);
      if (!found_) in_scope_[static_cast<size_t>(lp.atom)] = true;
      return !found_;
    };
    // Not reset at exit_loop: the tracer lets a loop variable be used after its loop (`x[i]`
    // below `for i in nl.affine_range(n)` reads the last iteration's value in the simulator), a
    // front-end question rather than broken IR. A use before the loop is broken IR.
    cb.enter_branch = [&](const If& c, bool then_branch, int) {
      if (then_branch && !found_) expr_of_mask(c.cond, "the condition of an if", c.loc);
      return !found_;
    };
    walk(k_, cb);
    return found_;
  }

 private:
  void fail(std::string what, const SourceLoc& loc) {
    if (!found_) found_ = InvariantViolation{std::move(what), loc};
  }

  void tensor_id(int t, const std::string& who, const SourceLoc& loc) {
    if (t < 0 || t >= static_cast<int>(k_.tensors.size()))
      fail(who + " names tensor id " + std::to_string(t) + ", which does not exist", loc);
  }

  void tensors() {
    const int n = static_cast<int>(k_.tensors.size());
    for (int t = 0; t < n && !found_; ++t) {
      const TensorDecl& d = k_.tensors[static_cast<size_t>(t)];
      const std::string who = "tensor '" + d.name + "'";
      std::optional<int64_t> bytes = byte_size(d);
      if (!bytes) {
        fail(who + " has a negative or overflowing shape", d.loc);
        break;
      }
      // A view must lie inside the storage of its root (a reshape or a dtype view).
      int r = t, hops = 0;
      while (k_.tensors[static_cast<size_t>(r)].alias_of >= 0 && !found_) {
        r = k_.tensors[static_cast<size_t>(r)].alias_of;
        if (r >= n || ++hops > n) fail(who + " has an invalid alias chain", d.loc);
      }
      if (found_) break;
      if (r != t) {
        std::optional<int64_t> root_bytes = byte_size(k_.tensors[static_cast<size_t>(r)]);
        if (!root_bytes || *bytes > *root_bytes)
          fail("view " + who + " is larger than its base tensor '" + k_.tensors[static_cast<size_t>(r)].name + "'", d.loc);
      }
      if (d.role == TensorRole::Constant && !d.const_data.empty() && static_cast<int64_t>(d.const_data.size()) != *bytes)
        fail("constant " + who + " has " + std::to_string(d.const_data.size()) + " bytes of data for " +
                 std::to_string(*bytes), d.loc);
    }
  }

  void loop(const Loop& lp) {
    const std::string who = "the loop over '" + lp.var_name + "'";
    if (lp.atom < 0 || lp.atom >= static_cast<int>(k_.atoms.size())) {
      fail(who + " has no induction-variable atom", lp.loc);
      return;
    }
    const Atom& a = k_.atoms[static_cast<size_t>(lp.atom)];
    if (a.kind != AtomKind::LoopVar || a.loop != lp.id) fail(who + " names an atom that is not its loop variable", lp.loc);
    else if (in_scope_[static_cast<size_t>(lp.atom)]) fail(who + " reuses the variable of an earlier loop", lp.loc);
    if (lp.kind == LoopKind::While) {
      if (!reg_ok(lp.cond_reg)) fail(who + " (while_loop) has no valid condition register", lp.loc);
    } else if (lp.kind == LoopKind::Dynamic) {
      if (lp.step < 1) fail(who + " (dynamic) needs a positive compile-time step", lp.loc);
      for (int r : {lp.start_reg, lp.stop_reg, lp.index_reg})
        if (r >= 0 && !reg_ok(r)) fail(who + " names register " + std::to_string(r) + " that does not exist", lp.loc);
    } else if (lp.start_reg >= 0 || lp.stop_reg >= 0 || lp.index_reg >= 0 || lp.cond_reg >= 0) {
      fail(who + " is a static loop with register bounds", lp.loc);
    }
  }

  bool reg_ok(int r) const { return r >= 0 && r < static_cast<int>(k_.registers.size()); }

  // Register instructions name existing registers; load reads and store writes one element.
  void register_instr(const Instr& in) {
    const std::string who = in.name + " (register." + reg_op_name(in.reg_op) + ")";
    const bool writes_reg = in.reg_op != RegOp::Store, reads_reg = in.reg_op == RegOp::Move || in.reg_op == RegOp::Store;
    if (writes_reg && !reg_ok(in.reg_dst)) fail(who + " has no valid destination register", in.loc);
    if (reads_reg && !reg_ok(in.reg_src)) fail(who + " has no valid source register", in.loc);
    const Access* mem = in.reg_op == RegOp::Load ? (in.srcs.empty() || in.srcs[0].is_imm ? nullptr : &in.srcs[0].access)
                        : in.reg_op == RegOp::Store ? &in.dst : nullptr;
    if ((in.reg_op == RegOp::Load || in.reg_op == RegOp::Store) && (!mem || element_count(mem->shape) != 1))
      fail(who + " must access exactly one tensor element", in.loc);
  }

  // Every atom of `e` exists, and loop variables belong to an enclosing loop.
  void expr(const ScalarExpr& e, const std::string& where, const SourceLoc& loc, int depth = 0) {
    for (const auto& [atom, c] : e.terms) {
      if (found_) return;
      if (atom < 0 || atom >= static_cast<int>(k_.atoms.size())) {
        fail(where + " uses atom id " + std::to_string(atom) + ", which does not exist", loc);
        return;
      }
      const Atom& a = k_.atoms[static_cast<size_t>(atom)];
      switch (a.kind) {
        case AtomKind::LoopVar:
          if (!in_scope_[static_cast<size_t>(atom)])
            fail(where + " uses loop variable '" + a.name + "' before its loop", loc);
          break;
        case AtomKind::ProgramId: break;
        case AtomKind::FloorDiv:
        case AtomKind::Mod:
          if (a.divisor == 0) fail(where + " divides by zero in '" + a.name + "'", loc);
          else if (depth >= kMaxAtomDepth) fail(where + " uses atoms that refer to each other", loc);
          else expr(a.operand, where, loc, depth + 1);
          break;
      }
    }
  }

  void expr_of_mask(const Mask& m, const std::string& where, const SourceLoc& loc) {
    for (const Predicate& p : m.terms) expr(p.rest, where, loc);
  }

  void access(const Access& a, const std::string& where, const SourceLoc& loc) {
    if (found_) return;
    tensor_id(a.tensor, where, loc);
    if (found_) return;
    const TensorDecl& t = k_.tensors[static_cast<size_t>(a.tensor)];
    const size_t R = t.shape.size();
    const std::string who = where + " ('" + t.name + "')";
    if (a.offset.size() != R || a.coef.size() != R) {
      fail(who + " has " + std::to_string(a.offset.size()) + " offsets and " + std::to_string(a.coef.size()) +
               " coefficient rows for a rank-" + std::to_string(R) + " tensor", loc);
      return;
    }
    for (size_t d = 0; d < R && !found_; ++d) {
      if (a.coef[d].size() != a.shape.size())
        fail(who + " has a coefficient row of rank " + std::to_string(a.coef[d].size()) + " for a rank-" +
                 std::to_string(a.shape.size()) + " iteration space", loc);
      expr(a.offset[d], who, loc);
    }
    for (int64_t s : a.shape)
      if (s < 0) fail(who + " has a negative iteration size", loc);
    if (a.indirect) {
      if (a.indirect->dim < 0 || a.indirect->dim >= static_cast<int>(R) || !a.indirect->index)
        fail(who + " has an indirect index on an invalid dimension", loc);
      else access(*a.indirect->index, where + " index", loc);
    }
  }

  // A Custom instruction names a row of custom_ops.def and has as many operands as that row
  // allows (the simulator reads them by position).
  void custom(const Instr& in, const std::string& who) {
    if (in.custom == CustomOp::None) {
      fail(who + " has no custom-op kind (ir/custom_ops.def)", in.loc);
      return;
    }
    const CustomOpInfo& row = custom_op_info(in.custom);
    const size_t n = in.srcs.size();
    if (n < row.min_srcs || n > row.max_srcs)
      fail(who + " is " + std::string(row.name) + ", which takes " + std::to_string(row.min_srcs) +
               (row.max_srcs == row.min_srcs ? "" : " to " + std::to_string(row.max_srcs)) +
               " operand(s), has " + std::to_string(n),
           in.loc);
  }

  void instr(const Instr& in) {
    const std::string who = "instruction '" + in.name + "' (" + opcode_name(in.op) + ")";
    // A destination id of -1 means "none" (some custom instructions write no tensor).
    if (in.dst.tensor != -1) access(in.dst, who + " destination", in.loc);
    for (size_t i = 0; i < in.srcs.size(); ++i)
      if (!in.srcs[i].is_imm) access(in.srcs[i].access, who + " operand #" + std::to_string(i), in.loc);
    if (in.reduce_res) access(*in.reduce_res, who + " reduce_res", in.loc);
    if (in.mask) expr_of_mask(*in.mask, who + " mask", in.loc);
    if (in.op == Opcode::Iota) expr(in.iota.rest, who + " iota", in.loc);
    if (in.select_pred) expr(in.select_pred->rest, who + " predicate", in.loc);
    if (found_) return;
    if (in.op == Opcode::Custom) return custom(in, who);
    const size_t need = required_srcs(in);
    if (in.srcs.size() < need) {
      fail(who + " needs " + std::to_string(need) + " operand(s), has " + std::to_string(in.srcs.size()), in.loc);
      return;
    }
    switch (in.op) {
      case Opcode::Register: register_instr(in); break;
      case Opcode::Matmul:
        if (in.srcs[0].is_imm || in.srcs[1].is_imm) fail(who + " needs stationary and moving tensor operands", in.loc);
        break;
      case Opcode::Memset:
        if (!in.srcs[0].is_imm) fail(who + " needs an immediate value", in.loc);
        break;
      case Opcode::Reduce:
        if (in.srcs[0].is_imm) fail(who + " needs a tensor operand", in.loc);
        for (int ax : in.axes)
          if (!found_ && (ax < 0 || ax >= static_cast<int>(in.srcs[0].access.shape.size())))
            fail(who + " reduces axis " + std::to_string(ax) + ", outside its operand's rank", in.loc);
        break;
      default: break;
    }
  }

  const Kernel& k_;
  std::vector<bool> in_scope_;  // per atom: the variable of a loop entered so far
  std::optional<InvariantViolation> found_;
};

}  // namespace

std::optional<InvariantViolation> verify_kernel(const Kernel& k) { return Verifier(k).run(); }

}  // namespace nki::ir
