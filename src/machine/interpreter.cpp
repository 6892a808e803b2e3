#include "machine/interpreter.h"

#include "ir/walk.h"
#include "machine/ops.h"

namespace nki::machine {

namespace {

void tensors_of(const ir::Access& a, std::vector<int>& out) {
  out.push_back(a.tensor);
  if (a.indirect && a.indirect->index) tensors_of(*a.indirect->index, out);
}

struct ScopeWalker {
  const ir::Kernel& k;
  ScopeInfo& info;
  std::vector<const std::vector<ir::Stmt>*> stack;
  std::vector<bool> seen;

  void use(int t) {
    if (t < 0 || t >= static_cast<int>(seen.size()) || seen[static_cast<size_t>(t)]) return;
    seen[static_cast<size_t>(t)] = true;
    int depth = k.tensors[static_cast<size_t>(t)].scope_depth;
    size_t d = depth <= 0 ? 0 : std::min(static_cast<size_t>(depth), stack.size() - 1);
    info.block_of[static_cast<size_t>(t)] = stack[d];
  }

  void walk(const std::vector<ir::Stmt>& body) {
    ir::WalkCallbacks cb;
    cb.instr = [&](const ir::Instr& in, int) {
      std::vector<int> ts;
      tensors_of(in.dst, ts);
      for (const ir::Operand& o : in.srcs)
        if (!o.is_imm) tensors_of(o.access, ts);
      if (in.reduce_res) tensors_of(*in.reduce_res, ts);
      for (int t : ts) use(t);
    };
    // Every Loop body and If arm is a block nested in the one being walked.
    cb.enter_loop = [&](const ir::Loop& lp, int) { return enter(lp.body); };
    cb.exit_loop = [&](const ir::Loop&, int) { stack.pop_back(); };
    cb.enter_branch = [&](const ir::If& c, bool then_branch, int) { return enter(ir::branch_body(c, then_branch)); };
    cb.exit_branch = [&](const ir::If&, bool, int) { stack.pop_back(); };
    ir::walk(body, cb);
  }

  bool enter(const std::vector<ir::Stmt>& inner) {
    info.parent[&inner] = stack.back();
    stack.push_back(&inner);
    return true;
  }
};

}  // namespace

ScopeInfo analyse_scopes(const ir::Kernel& k) {
  ScopeInfo info;
  info.block_of.assign(k.tensors.size(), &k.body);
  info.parent[&k.body] = nullptr;
  ScopeWalker w{k, info, {&k.body}, std::vector<bool>(k.tensors.size(), false)};
  w.walk(k.body);
  for (size_t t = 0; t < k.tensors.size(); ++t) {
    // Views are created where their base is; persistent tensors live at the top.
    int r = static_cast<int>(t);
    while (k.tensors[static_cast<size_t>(r)].alias_of >= 0) r = k.tensors[static_cast<size_t>(r)].alias_of;
    const ir::TensorDecl& d = k.tensors[static_cast<size_t>(r)];
    if (ir::is_hbm(d.buffer) || d.role != ir::TensorRole::Internal) info.block_of[t] = &k.body;
    if (r == static_cast<int>(t)) info.created_in[info.block_of[t]].push_back(static_cast<int>(t));
  }
  return info;
}

void Interpreter::run_instance() { run_block(cx_.k.body); }

void Interpreter::enter_block(const std::vector<ir::Stmt>& body) {
  auto it = scopes_.created_in.find(&body);
  if (it == scopes_.created_in.end()) return;
  for (int t : it->second) {
    const ir::TensorDecl& d = cx_.k.tensors[static_cast<size_t>(t)];
    // Zeros/Fill tiles are refilled on every entry. Uninitialised tiles keep their previous
    // contents (as a reused hardware buffer would); only the warn_uninit shadow is reset.
    if (d.init != ir::TensorInit::Uninitialized) {
      cx_.mem.initialise(t);
    } else if (cx_.mem.tracks_uninit()) {
      auto& w = cx_.mem.storage(t).written;
      std::fill(w.begin(), w.end(), 0);
    }
  }
}

void Interpreter::run_block(const std::vector<ir::Stmt>& body) {
  for (const ir::Stmt& s : body) {
    ir::visit_stmt(
        s, [&](const ir::Instr& in) { exec(in); },
        [&](const ir::Loop& lp) {
          if (!lp.has_static_trip_count()) {
            run_dynamic_loop(lp);
            return;
          }
          const int64_t trips = lp.trip_count();
          const ir::Loop* outer = loop_;
          loop_ = &lp;
          for (int64_t i = 0; i < trips; ++i) {
            cx_.work.charge(1, &lp);
            cx_.env.set_loop(lp.id, lp.start + i * lp.step);
            enter_block(lp.body);
            run_block(lp.body);
          }
          loop_ = outer;
        },
        [&](const ir::If& cond) {
          const auto& branch = ir::branch_body(cond, cx_.env.holds(cond.cond));
          enter_block(branch);
          run_block(branch);
        });
  }
}

// Hardware loops driven by registers. Bounds are read once at loop entry; a while_loop tests its
// condition register before each iteration (nki/api/nki/language/__init__.py while_loop: "a true
// while, not do-while"). Each iteration charges the work budget, so a loop whose register never
// changes ends with error[sim_budget] instead of hanging.
void Interpreter::run_dynamic_loop(const ir::Loop& lp) {
  auto reg = [&](int r) -> int64_t {
    if (r < 0 || r >= static_cast<int>(cx_.vregs.size())) throw_bad_register();
    return cx_.vregs[static_cast<size_t>(r)];
  };
  const ir::Loop* outer = loop_;
  loop_ = &lp;
  if (lp.kind == ir::LoopKind::While) {
    for (int64_t i = 0; reg(lp.cond_reg) != 0; ++i) {
      cx_.work.charge(kRegisterLoopIterationWork, &lp);
      cx_.env.set_loop(lp.id, i);
      enter_block(lp.body);
      run_block(lp.body);
    }
  } else {
    const int64_t start = lp.start_reg >= 0 ? reg(lp.start_reg) : lp.start;
    const int64_t stop = lp.stop_reg >= 0 ? reg(lp.stop_reg) : lp.stop;
    for (int64_t v = start; v < stop; v += lp.step) {
      cx_.work.charge(kRegisterLoopIterationWork, &lp);
      cx_.env.set_loop(lp.id, v);
      if (lp.index_reg >= 0) cx_.vregs[static_cast<size_t>(lp.index_reg)] = static_cast<int32_t>(v);
      enter_block(lp.body);
      run_block(lp.body);
    }
  }
  loop_ = outer;
}

void Interpreter::throw_bad_register() {
  cx_.instr = nullptr;
  cx_.fail(diag::Code::sim_bad_ir, "loop names a register that does not exist");
}

void Interpreter::exec(const ir::Instr& in) {
  cx_.work.charge(instruction_work(in), loop_);
  cx_.instr = &in;
  switch (in.op) {
    case ir::Opcode::Copy: exec_copy(cx_, in); break;
    case ir::Opcode::Alu: exec_alu(cx_, in); break;
    case ir::Opcode::Activation: exec_activation(cx_, in); break;
    case ir::Opcode::Reduce: exec_reduce(cx_, in); break;
    case ir::Opcode::Matmul: exec_matmul(cx_, in); break;
    case ir::Opcode::Iota: exec_iota(cx_, in); break;
    case ir::Opcode::Memset: exec_memset(cx_, in); break;
    case ir::Opcode::Select: exec_select(cx_, in); break;
    case ir::Opcode::Scan: exec_scan(cx_, in); break;
    case ir::Opcode::Custom: exec_custom(cx_, in); break;
    case ir::Opcode::Register: exec_register(cx_, in); break;
  }
  cx_.instr = nullptr;
}

}  // namespace nki::machine
