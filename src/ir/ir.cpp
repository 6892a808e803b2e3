#include "ir/ir.h"

#include <sstream>

#include "ir/walk.h"

namespace nki::ir {

const char* buffer_name(Buffer b) {
  switch (b) {
    case Buffer::SharedHbm: return "shared_hbm";
    case Buffer::PrivateHbm: return "private_hbm";
    case Buffer::Sbuf: return "sbuf";
    case Buffer::Psum: return "psum";
  }
  return "?";
}

const char* engine_name(Engine e) {
  switch (e) {
    case Engine::Unknown: return "unknown";
    case Engine::Tensor: return "tensor";
    case Engine::Vector: return "vector";
    case Engine::Scalar: return "scalar";
    case Engine::GpSimd: return "gpsimd";
    case Engine::Dma: return "dma";
    case Engine::Sync: return "sync";
  }
  return "?";
}

const char* alu_name(Alu op) {
  static const char* names[] = {
      "add", "subtract", "multiply", "divide", "maximum", "minimum", "power", "mod", "fmod",
      "equal", "not_equal", "greater", "greater_equal", "less", "less_equal", "logical_and",
      "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift",
      "right_shift", "bypass"};
  return names[static_cast<int>(op)];
}

const char* act_name(Act f) {
  static const char* names[] = {
      "copy", "exp", "log", "tanh", "sigmoid", "relu", "gelu", "gelu_dx", "gelu_apprx_tanh",
      "gelu_apprx_sigmoid", "silu", "silu_dx", "softplus", "mish", "erf", "erf_dx", "sign",
      "abs", "square", "sqrt", "rsqrt", "reciprocal", "sin", "cos", "tan", "arctan", "negative",
      "floor", "ceil", "trunc", "logical_not", "invert"};
  return names[static_cast<int>(f)];
}

const char* opcode_name(Opcode op) {
  static const char* names[] = {"copy",   "alu",    "activation", "reduce", "matmul",
                                "iota",   "memset", "select",     "scan",   "custom", "register"};
  return names[static_cast<int>(op)];
}

const char* reg_op_name(RegOp op) {
  switch (op) {
    case RegOp::Set: return "set";
    case RegOp::Move: return "move";
    case RegOp::Load: return "load";
    case RegOp::Store: return "store";
  }
  return "?";
}

const char* loop_kind_name(LoopKind k) {
  switch (k) {
    case LoopKind::Affine: return "affine_range";
    case LoopKind::Sequential: return "sequential_range";
    case LoopKind::Static: return "static_range";
    case LoopKind::Dynamic: return "dynamic_range";
    case LoopKind::While: return "while_loop";
  }
  return "?";
}

int64_t element_count(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

std::optional<int64_t> checked_element_count(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0 || __builtin_mul_overflow(n, d, &n)) return std::nullopt;
  }
  return n;
}

int64_t Loop::trip_count() const {
  // In 128-bit arithmetic: range(-2**62, 2**62) must not wrap around.
  __int128 a = start, b = stop, s = step, n = 0;
  if (s > 0 && b > a) n = (b - a + s - 1) / s;
  if (s < 0 && a > b) n = (a - b + (-s) - 1) / (-s);
  return n > INT64_MAX ? INT64_MAX : static_cast<int64_t>(n);
}

std::string shape_str(const std::vector<int64_t>& s) {
  std::ostringstream o;
  o << "[";
  for (size_t i = 0; i < s.size(); ++i) o << (i ? ", " : "") << s[i];
  o << "]";
  return o.str();
}

namespace {

std::string atom_str(const Kernel& k, int id) {
  const Atom& a = k.atoms[id];
  switch (a.kind) {
    case AtomKind::LoopVar:
    case AtomKind::ProgramId: return a.name;
    case AtomKind::FloorDiv:
      return "(" + print_scalar_expr(k, a.operand) + " // " + std::to_string(a.divisor) + ")";
    case AtomKind::Mod:
      return "(" + print_scalar_expr(k, a.operand) + " % " + std::to_string(a.divisor) + ")";
  }
  return "?";
}

// "c0*k0 + c1*k1 + rest" with the iteration coordinates named k0.. (or the given names).
std::string linear_str(const Kernel& k, const std::vector<int64_t>& coef, const ScalarExpr& rest) {
  std::ostringstream o;
  bool first = true;
  for (size_t j = 0; j < coef.size(); ++j) {
    if (coef[j] == 0) continue;
    if (!first) o << " + ";
    if (coef[j] != 1) o << coef[j] << "*";
    o << "k" << j;
    first = false;
  }
  std::string r = print_scalar_expr(k, rest);
  if (first) return r;
  if (r != "0") o << " + " << r;
  return o.str();
}

const char* cmp_str(CmpKind c) {
  switch (c) {
    case CmpKind::Lt: return "<";
    case CmpKind::Le: return "<=";
    case CmpKind::Gt: return ">";
    case CmpKind::Ge: return ">=";
    case CmpKind::Eq: return "==";
    case CmpKind::Ne: return "!=";
  }
  return "?";
}

std::string mask_str(const Kernel& k, const Mask& m) {
  std::string s;
  for (size_t i = 0; i < m.terms.size(); ++i) {
    if (i) s += " & ";
    s += "(" + linear_str(k, m.terms[i].coef, m.terms[i].rest) + " " + cmp_str(m.terms[i].cmp) +
         " 0)";
  }
  return s;
}

std::string operand_str(const Kernel& k, const Operand& o) {
  if (o.is_imm) {
    std::ostringstream s;
    s << o.imm;
    return s.str();
  }
  return print_access(k, o.access);
}

std::string reg_str(const Kernel& k, int r) {
  if (r < 0 || r >= static_cast<int>(k.registers.size())) return "%?";
  return "%" + k.registers[static_cast<size_t>(r)];
}

void print_instr(const Kernel& k, const Instr& in, int indent, std::ostream& o) {
  std::string pad(indent, ' ');
  if (in.op == Opcode::Register) {
    o << pad;
    switch (in.reg_op) {
      case RegOp::Set: o << reg_str(k, in.reg_dst) << " = register.set(" << in.reg_imm << ")"; break;
      case RegOp::Move: o << reg_str(k, in.reg_dst) << " = register.move(" << reg_str(k, in.reg_src) << ")"; break;
      case RegOp::Load:
        o << reg_str(k, in.reg_dst) << " = register.load(" << (in.srcs.empty() ? "?" : operand_str(k, in.srcs[0])) << ")";
        break;
      case RegOp::Store: o << print_access(k, in.dst) << " = register.store(" << reg_str(k, in.reg_src) << ")"; break;
    }
    o << "  # " << in.name << " " << engine_name(in.engine) << " @" << in.loc.line << "\n";
    return;
  }
  o << pad << print_access(k, in.dst) << (in.accumulate ? " += " : " = ") << opcode_name(in.op);
  switch (in.op) {
    case Opcode::Alu:
      o << "." << alu_name(in.alu0);
      if (in.has_second) o << "." << alu_name(in.alu1);
      break;
    case Opcode::Activation: o << "." << act_name(in.act); break;
    case Opcode::Reduce: o << "." << alu_name(in.alu0); break;
    case Opcode::Copy:
      if (in.rmw) o << ".rmw_" << alu_name(*in.rmw);
      break;
    case Opcode::Custom: o << "." << in.name; break;
    default: break;
  }
  o << "(";
  for (size_t i = 0; i < in.srcs.size(); ++i) o << (i ? ", " : "") << operand_str(k, in.srcs[i]);
  if (in.op == Opcode::Reduce) {
    o << (in.srcs.empty() ? "" : ", ") << "axes=[";
    for (size_t i = 0; i < in.axes.size(); ++i) o << (i ? "," : "") << in.axes[i];
    o << "]";
  }
  if (in.op == Opcode::Iota) o << linear_str(k, in.iota.coef, in.iota.rest);
  o << ")";
  if (in.mask) o << " mask " << mask_str(k, *in.mask);
  o << "  # " << in.name << " " << engine_name(in.engine) << " @" << in.loc.line << "\n";
}

void print_stmts(const Kernel& k, const std::vector<Stmt>& body, int indent, std::ostream& o) {
  auto pad = [&](int depth) { return std::string(static_cast<size_t>(indent + 2 * depth), ' '); };
  WalkCallbacks cb;
  cb.instr = [&](const Instr& in, int depth) { print_instr(k, in, indent + 2 * depth, o); };
  cb.enter_loop = [&](const Loop& lp, int depth) {
    if (lp.kind == LoopKind::While) {
      o << pad(depth) << "while " << reg_str(k, lp.cond_reg) << " != 0:  # @" << lp.loc.line << "\n";
      return true;
    }
    if (lp.kind == LoopKind::Dynamic) {
      auto bound = [&](int reg, int64_t v) { return reg >= 0 ? reg_str(k, reg) : std::to_string(v); };
      o << pad(depth) << "for " << (lp.index_reg >= 0 ? reg_str(k, lp.index_reg) : lp.var_name) << " in dynamic_range("
        << bound(lp.start_reg, lp.start) << ", " << bound(lp.stop_reg, lp.stop) << ", " << lp.step << "):  # @"
        << lp.loc.line << "\n";
      return true;
    }
    o << pad(depth) << "for " << lp.var_name << " in " << loop_kind_name(lp.kind) << "(" << lp.start
      << ", " << lp.stop << ", " << lp.step << "):  # @" << lp.loc.line << "\n";
    return true;
  };
  cb.enter_branch = [&](const If& iff, bool then_branch, int depth) {
    if (then_branch) o << pad(depth) << "if " << mask_str(k, iff.cond) << ":  # @" << iff.loc.line << "\n";
    else if (!iff.else_body.empty()) o << pad(depth) << "else:\n";
    return true;
  };
  walk(body, cb);
}

}  // namespace

std::string print_scalar_expr(const Kernel& k, const ScalarExpr& e) {
  std::ostringstream o;
  bool first = true;
  for (const auto& [atom, c] : e.terms) {
    if (c == 0) continue;
    if (!first) o << " + ";
    if (c != 1) o << c << "*";
    o << atom_str(k, atom);
    first = false;
  }
  if (first) return std::to_string(e.constant);
  if (e.constant != 0) o << " + " << e.constant;
  return o.str();
}

std::string print_access(const Kernel& k, const Access& a) {
  std::ostringstream o;
  const TensorDecl& t = k.tensors.at(a.tensor);
  o << t.name << "[";
  for (size_t d = 0; d < a.offset.size(); ++d) {
    if (d) o << ", ";
    if (a.indirect && a.indirect->dim == static_cast<int>(d)) {
      o << "*" << print_access(k, *a.indirect->index) << " + ";
    }
    o << linear_str(k, a.coef[d], a.offset[d]);
  }
  o << "]" << shape_str(a.shape);
  return o.str();
}

std::string print_kernel(const Kernel& k) {
  std::ostringstream o;
  o << "kernel " << k.name;
  if (!k.grid.empty()) o << " grid" << shape_str(k.grid);
  o << "\n";
  for (const TensorDecl& t : k.tensors) {
    o << "  tensor %" << t.id << " " << t.name << ": " << dtype_name(t.dtype) << shape_str(t.shape)
      << " " << buffer_name(t.buffer);
    switch (t.role) {
      case TensorRole::Parameter: o << " param#" << t.param_index; break;
      case TensorRole::Output: o << " output#" << t.output_index; break;
      case TensorRole::Constant: o << " constant"; break;
      case TensorRole::Internal: break;
    }
    if (t.alias_of >= 0) o << " alias_of %" << t.alias_of;
    if (t.init == TensorInit::Zeros) o << " zeros";
    if (t.init == TensorInit::Fill) o << " fill " << t.fill_value;
    o << "  # @" << t.loc.line << "\n";
  }
  o << "body:\n";
  print_stmts(k, k.body, 2, o);
  return o.str();
}

}  // namespace nki::ir
