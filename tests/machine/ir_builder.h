// Small helpers for building kernel IR by hand in the simulator tests and benchmarks.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "base/host_tensor.h"
#include "ir/ir.h"

namespace nki::testing {

using ir::ScalarExpr;

inline ScalarExpr C(int64_t c) { return ScalarExpr::of(c); }
// coef * atom + c
inline ScalarExpr V(int atom, int64_t coef = 1, int64_t c = 0) {
  ScalarExpr e;
  e.constant = c;
  e.terms.push_back({atom, coef});
  return e;
}

class KernelBuilder {
 public:
  explicit KernelBuilder(std::string name = "kernel") {
    k.name = std::move(name);
    k.file = std::make_shared<SourceFile>("kernel.py", "line1\nline2\nline3\nline4\n");
  }

  int tensor(const std::string& name, ir::Buffer buf, DType dt, std::vector<int64_t> shape,
             ir::TensorInit init = ir::TensorInit::Uninitialized, double fill = 0.0) {
    ir::TensorDecl d;
    d.id = static_cast<int>(k.tensors.size());
    d.name = name;
    d.buffer = buf;
    d.dtype = dt;
    d.shape = std::move(shape);
    d.init = init;
    d.fill_value = fill;
    d.loc = {1, 1};
    k.tensors.push_back(d);
    return d.id;
  }
  int param(const std::string& name, DType dt, std::vector<int64_t> shape) {
    int t = tensor(name, ir::Buffer::SharedHbm, dt, std::move(shape));
    k.tensors[t].role = ir::TensorRole::Parameter;
    k.tensors[t].param_index = static_cast<int>(k.params.size());
    k.params.push_back(t);
    return t;
  }
  int output(const std::string& name, DType dt, std::vector<int64_t> shape) {
    int t = tensor(name, ir::Buffer::SharedHbm, dt, std::move(shape));
    k.tensors[t].role = ir::TensorRole::Output;
    k.tensors[t].output_index = static_cast<int>(k.outputs.size());
    k.outputs.push_back(t);
    return t;
  }
  int sbuf(const std::string& name, DType dt, std::vector<int64_t> shape, int depth = 0,
           ir::TensorInit init = ir::TensorInit::Uninitialized) {
    int t = tensor(name, ir::Buffer::Sbuf, dt, std::move(shape), init);
    k.tensors[t].scope_depth = depth;
    return t;
  }
  int psum(const std::string& name, std::vector<int64_t> shape, int depth = 0,
           ir::TensorInit init = ir::TensorInit::Zeros) {
    int t = tensor(name, ir::Buffer::Psum, DType::Float32, std::move(shape), init);
    k.tensors[t].scope_depth = depth;
    return t;
  }
  int program_id(int axis) {
    ir::Atom a;
    a.kind = ir::AtomKind::ProgramId;
    a.axis = axis;
    a.name = "pid" + std::to_string(axis);
    k.atoms.push_back(a);
    return static_cast<int>(k.atoms.size()) - 1;
  }
  int floordiv(ScalarExpr e, int64_t d) {
    ir::Atom a;
    a.kind = ir::AtomKind::FloorDiv;
    a.operand = std::move(e);
    a.divisor = d;
    k.atoms.push_back(a);
    return static_cast<int>(k.atoms.size()) - 1;
  }
  int mod(ScalarExpr e, int64_t d) {
    ir::Atom a;
    a.kind = ir::AtomKind::Mod;
    a.operand = std::move(e);
    a.divisor = d;
    k.atoms.push_back(a);
    return static_cast<int>(k.atoms.size()) - 1;
  }

  // A loop statement; `body(atom)` builds its body given the induction variable's atom id.
  ir::Stmt loop(int64_t start, int64_t stop, int64_t step,
                const std::function<std::vector<ir::Stmt>(int)>& body,
                ir::LoopKind kind = ir::LoopKind::Affine) {
    ir::Loop l;
    l.id = k.loop_count++;
    ir::Atom a;
    a.kind = ir::AtomKind::LoopVar;
    a.loop = l.id;
    a.name = "i" + std::to_string(l.id);
    k.atoms.push_back(a);
    l.atom = static_cast<int>(k.atoms.size()) - 1;
    l.kind = kind;
    l.start = start;
    l.stop = stop;
    l.step = step;
    l.body = body(l.atom);
    return ir::Stmt{std::move(l)};
  }

  ir::Kernel k;
};

// A box access: iteration shape `shape` (same rank as the tensor), identity coefficients,
// offsets per tensor dim.
inline ir::Access box(const ir::Kernel& k, int t, std::vector<ScalarExpr> off,
                      std::vector<int64_t> shape) {
  ir::Access a;
  a.tensor = t;
  size_t R = k.tensors[t].shape.size();
  a.shape = std::move(shape);
  a.offset = std::move(off);
  a.offset.resize(R, C(0));
  a.coef.assign(R, std::vector<int64_t>(a.shape.size(), 0));
  for (size_t d = 0; d < R && d < a.shape.size(); ++d) a.coef[d][d] = 1;
  return a;
}
// The whole tensor.
inline ir::Access whole(const ir::Kernel& k, int t) {
  return box(k, t, {}, k.tensors[t].shape);
}

inline ir::Stmt S(ir::Instr in) {
  if (!in.loc.valid()) in.loc = {2, 3};
  return ir::Stmt{std::move(in)};
}

inline ir::Instr copy(ir::Access dst, ir::Access src, ir::Engine e = ir::Engine::Dma) {
  ir::Instr in;
  in.op = ir::Opcode::Copy;
  in.name = e == ir::Engine::Dma ? "nl.load" : "nisa.tensor_copy";
  in.engine = e;
  in.dst = std::move(dst);
  in.srcs = {ir::Operand::of(std::move(src))};
  return in;
}
inline ir::Instr alu(ir::Alu op, ir::Access dst, ir::Operand a, ir::Operand b) {
  ir::Instr in;
  in.op = ir::Opcode::Alu;
  in.name = "nisa.tensor_tensor";
  in.engine = ir::Engine::Vector;
  in.alu0 = op;
  in.dst = std::move(dst);
  in.srcs = {std::move(a), std::move(b)};
  return in;
}
inline ir::Operand T(ir::Access a) { return ir::Operand::of(std::move(a)); }
inline ir::Operand I(double v) { return ir::Operand::of_imm(v); }

inline ir::Predicate pred(std::vector<int64_t> coef, ScalarExpr rest, ir::CmpKind c) {
  ir::Predicate p;
  p.coef = std::move(coef);
  p.rest = std::move(rest);
  p.cmp = c;
  return p;
}

// i * scale + off for i in [0, n): easy-to-check test data.
inline std::vector<float> iota_f(size_t n, float scale = 1.0f, float off = 0.0f) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(i) * scale + off;
  return v;
}

// HostTensor helpers.
inline HostTensor host_f32(std::vector<int64_t> shape, const std::vector<float>& v) {
  HostTensor h;
  h.dtype = DType::Float32;
  h.shape = std::move(shape);
  h.data.resize(v.size() * 4);
  std::memcpy(h.data.data(), v.data(), h.data.size());
  return h;
}
template <class T>
inline HostTensor host_of(DType dt, std::vector<int64_t> shape, const std::vector<T>& v) {
  HostTensor h;
  h.dtype = dt;
  h.shape = std::move(shape);
  h.data.resize(v.size() * sizeof(T));
  std::memcpy(h.data.data(), v.data(), h.data.size());
  return h;
}
template <class T>
inline std::vector<T> values(const HostTensor& h) {
  std::vector<T> v(h.data.size() / sizeof(T));
  std::memcpy(v.data(), h.data.data(), h.data.size());
  return v;
}

}  // namespace nki::testing
