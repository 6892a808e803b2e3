#include "nki_current/registers.h"

#include "base/diag_codes.h"
#include "nki/lowering.h"
#include "nki/objects.h"
#include "nki_current/bind.h"

namespace nki::current {

namespace {

using front::TensorObj;

std::shared_ptr<RegisterObj> new_register(CurrentTracer& t) {
  auto r = std::make_shared<RegisterObj>();
  r->reg = t.new_register("r");
  return r;
}

ir::Instr register_instr(const std::string& api, ir::RegOp op) {
  ir::Instr in;
  in.op = ir::Opcode::Register;
  in.name = api;
  in.reg_op = op;
  in.engine = ir::Engine::Sync;  // an engine-sequencer operation, not a compute engine
  return in;
}

RegisterObj& need_register(const Bound& b, size_t i) {
  RegisterObj* r = as_register(b[i]);
  if (!r)
    current_error(diag::Code::invalid_arguments, b.api() + " " + b.name(i) + " must be a VirtualRegister (from nisa.register_alloc)",
                  "allocate it with nisa.register_alloc()");
  return *r;
}

// register_load / register_store: "a NKI tensor with exactly one element (shape [1] or [1, 1])",
// in HBM or SBUF.
TensorObj& need_scalar_tensor(const Bound& b, size_t i) {
  TensorObj* x = front::as_tensor(b[i]);
  if (!x) current_error(diag::Code::invalid_arguments, b.api() + " " + b.name(i) + " must be a tensor");
  if (ir::element_count(x->shape()) != 1)
    current_error(diag::Code::invalid_arguments, b.api() + " " + b.name(i) + " must have exactly one element (shape [1] or [1, 1])");
  if (x->buffer() == ir::Buffer::Psum)
    current_error(diag::Code::err_unsupported_memory, b.api() + " " + b.name(i) + " must be in HBM or SBUF, not PSUM");
  return *x;
}

// A loop bound: a compile-time int (start/stop field) or a register (its index).
void loop_bound(const Ref& v, const std::string& what, int64_t& value, int& reg) {
  if (RegisterObj* r = as_register(v)) {
    reg = r->reg;
    return;
  }
  auto n = front::static_int(v);
  if (!n) current_error(diag::Code::invalid_arguments, "nl.fori_loop " + what + " must be an int or a VirtualRegister");
  value = *n;
}

}  // namespace

RegisterObj* as_register(const Ref& r) { return dynamic_cast<RegisterObj*>(r.get()); }

void add_register_functions(CurrentTracer& t, py::ModuleObj& m) {
  m.set("register_alloc", std::make_shared<py::BuiltinFn>("nisa.register_alloc", [&t](py::Interp&, py::CallArgs& call) -> Ref {
    Bound b(call, "nisa.register_alloc", {"x"}, 0, false);
    auto r = new_register(t);
    if (b.has(0)) {
      auto v = front::static_int(b[0]);
      if (!v) current_error(diag::Code::invalid_arguments, "nisa.register_alloc x must be None or a compile-time int");
      ir::Instr in = register_instr("nisa.register_alloc", ir::RegOp::Set);
      in.reg_dst = r->reg;
      in.reg_imm = *v;
      t.emit(std::move(in));
    }
    return r;
  }));
  // The source parameter is `imm` in 0.2 and `src` from 0.3 (api_versions.def,
  // release-notes/components/nki.rst 0.3.0 Breaking Changes).
  const std::string src_name = t.at_least(3) ? "src" : "imm";
  m.set("register_move", std::make_shared<py::BuiltinFn>("nisa.register_move", [&t, src_name](py::Interp&, py::CallArgs& call) -> Ref {
    Bound b(call, "nisa.register_move", {"dst", src_name}, 2, false);
    RegisterObj& dst = need_register(b, 0);
    ir::Instr in = register_instr("nisa.register_move", ir::RegOp::Set);
    in.reg_dst = dst.reg;
    if (RegisterObj* src = as_register(b[1])) {
      in.reg_op = ir::RegOp::Move;
      in.reg_src = src->reg;
    } else if (auto v = front::static_int(b[1])) {
      in.reg_imm = *v;
    } else {
      current_error(diag::Code::invalid_arguments, "nisa.register_move " + src_name + " must be a compile-time int or a VirtualRegister");
    }
    t.emit(std::move(in));
    return py::none();
  }));
  m.set("register_load", std::make_shared<py::BuiltinFn>("nisa.register_load", [&t](py::Interp&, py::CallArgs& call) -> Ref {
    Bound b(call, "nisa.register_load", {"dst", "src"}, 2, false);
    RegisterObj& dst = need_register(b, 0);
    TensorObj& src = need_scalar_tensor(b, 1);
    ir::Instr in = register_instr("nisa.register_load", ir::RegOp::Load);
    in.reg_dst = dst.reg;
    ir::Operand o;
    o.access = src.view;
    in.srcs.push_back(o);
    t.emit(std::move(in));
    return py::none();
  }));
  m.set("register_store", std::make_shared<py::BuiltinFn>("nisa.register_store", [&t](py::Interp&, py::CallArgs& call) -> Ref {
    Bound b(call, "nisa.register_store", {"dst", "src"}, 2, false);
    TensorObj& dst = need_scalar_tensor(b, 0);
    RegisterObj& src = need_register(b, 1);
    ir::Instr in = register_instr("nisa.register_store", ir::RegOp::Store);
    in.dst = dst.view;
    in.reg_src = src.reg;
    t.emit(std::move(in));
    return py::none();
  }));
}

Ref trace_fori_register_loop(CurrentTracer& t, py::Interp& in, const py::CallArgs& call, const Ref& lower,
                             const Ref& upper, const Ref& body_fun, int64_t step) {
  ir::Loop loop;
  loop.kind = ir::LoopKind::Dynamic;
  loop.step = step;
  loop.loc = call.loc;
  if (lower) loop_bound(lower, "lower", loop.start, loop.start_reg);
  loop_bound(upper, "upper", loop.stop, loop.stop_reg);
  // "The body receives the current iteration value i as a VirtualRegister, passed by value."
  auto index = new_register(t);
  loop.index_reg = index->reg;
  t.trace_register_loop(std::move(loop), [&] {
    py::CallArgs body;
    body.loc = call.loc;
    body.pos.push_back(index);
    Ref r = body_fun->call(in, body);
    if (r && !py::is_none(r)) current_error(diag::Code::invalid_arguments, "nl.fori_loop body_fun must return None");
  });
  return py::none();
}

Ref make_while_loop(CurrentTracer& t) {
  return std::make_shared<py::BuiltinFn>("nl.while_loop", [&t](py::Interp& in, py::CallArgs& call) -> Ref {
    Bound b(call, "nl.while_loop", {"init", "body_fun"}, 2, false);
    RegisterObj& init = need_register(b, 0);
    // r = init; while r != 0: r = body_fun(r). The condition lives in its own register so that
    // the body's argument is passed by value.
    auto cond = new_register(t);
    ir::Instr copy_in = register_instr("nl.while_loop", ir::RegOp::Move);
    copy_in.reg_dst = cond->reg;
    copy_in.reg_src = init.reg;
    t.emit(std::move(copy_in));
    ir::Loop loop;
    loop.kind = ir::LoopKind::While;
    loop.cond_reg = cond->reg;
    loop.loc = call.loc;
    Ref body_fun = b[1];
    t.trace_register_loop(std::move(loop), [&] {
      auto arg = new_register(t);
      ir::Instr pass = register_instr("nl.while_loop", ir::RegOp::Move);
      pass.reg_dst = arg->reg;
      pass.reg_src = cond->reg;
      t.emit(std::move(pass));
      py::CallArgs body;
      body.loc = call.loc;
      body.pos.push_back(arg);
      Ref next = body_fun->call(in, body);
      RegisterObj* r = as_register(next);
      if (!r)
        current_error(diag::Code::invalid_arguments, "nl.while_loop body_fun must return the next condition register (a VirtualRegister)");
      ir::Instr back = register_instr("nl.while_loop", ir::RegOp::Move);
      back.reg_dst = cond->reg;
      back.reg_src = r->reg;
      t.emit(std::move(back));
    });
    return py::none();
  });
}

}  // namespace nki::current
