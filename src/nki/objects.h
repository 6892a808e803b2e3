// Python-visible NKI objects for the legacy (neuronxcc.nki, SDK 2.24) tracer: tensors and their
// views, symbolic index expressions (loop variables, nl.arange / nl.mgrid grids, program ids),
// masks/predicates, dtypes, buffers, API operator functions and symbolic loop ranges.
//
// Tracing model (shared/docs/nki-spec.md §5.1): the kernel function runs once; API calls append
// IR instructions; affine/sequential loops run their body once with a symbolic induction variable.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "lang/interp.h"

namespace nki::front {

class Tracer;
using py::Ref;

// ------------------------------------------------------------------ tensors
// A tensor or a view of one: the IR access that reads/writes it.
struct TensorObj : py::Obj {
  Tracer* tracer = nullptr;
  ir::Access view;           // iteration space = this view's shape
  bool from_compare = false; // produced by a comparison (for control-flow diagnostics)
  // The instruction that produced this tile, while it can still be retargeted (see Tracer).
  int64_t producer = -1;

  std::string type_name() const override { return "tensor"; }
  std::string repr() const override;
  const ir::TensorDecl& decl() const;
  const std::vector<int64_t>& shape() const { return view.shape; }
  DType dtype() const;
  ir::Buffer buffer() const;

  Ref getattr(py::Interp& in, const std::string& name) override;
  Ref getitem(py::Interp& in, const Ref& key) override;
  void setitem(py::Interp& in, const Ref& key, Ref value) override;
  Ref binop(py::Interp& in, py::Operator op, const Ref& other, bool reflected) override;
  Ref unaryop(py::Interp& in, py::UnaryOpKind op) override;
  Ref compare(py::Interp& in, py::CmpOp op, const Ref& other, bool reflected) override;
  bool truthy(py::Interp& in) override;
  std::vector<Ref> iterate(py::Interp& in) override;
  int64_t len(py::Interp& in) override;
  Ref inplace(py::Interp& in, py::Operator op, const Ref& value) override;
  bool setitem_inplace(py::Interp& in, const Ref& key, py::Operator op, const Ref& value) override;
};

// ------------------------------------------------------------------ index expressions
// value(k) = rest + sum_j coef[j] * k_j over an index grid of `shape` (rank 0 for loop variables
// and program ids). arange/mgrid values have nonzero coefs; loop variables live in `rest`.
struct IndexObj : py::Obj {
  Tracer* tracer = nullptr;
  std::vector<int64_t> shape;
  std::vector<int64_t> coef;
  ir::ScalarExpr rest;
  bool is_arange = false;  // built from nl.arange / nl.mgrid (1-D aranges must be lifted)

  bool is_scalar() const { return shape.empty(); }
  std::string type_name() const override { return "index"; }
  std::string repr() const override;
  Ref binop(py::Interp& in, py::Operator op, const Ref& other, bool reflected) override;
  Ref unaryop(py::Interp& in, py::UnaryOpKind op) override;
  Ref compare(py::Interp& in, py::CmpOp op, const Ref& other, bool reflected) override;
  bool truthy(py::Interp& in) override;
  Ref getitem(py::Interp& in, const Ref& key) override;
  void setitem(py::Interp& in, const Ref& key, Ref value) override;
  Ref getattr(py::Interp& in, const std::string& name) override;
  // min()/max()/int()/range()/list indexing need a Python int: only constant indices have one.
  void require_concrete(py::Interp& in, const std::string& use) override;
};

// A runtime offset: a one-element integer tile plus an index expression
// (`off_sb[0, c] + ij`), usable in on-chip subscripts of nisa.tensor_copy_dynamic_src/dst.
struct DynIndexObj : py::Obj {
  ir::Access value;                 // the one-element tile
  std::shared_ptr<IndexObj> index;  // added affine part (may be a grid)
  std::string type_name() const override { return "dynamic_index"; }
  Ref binop(py::Interp& in, py::Operator op, const Ref& other, bool reflected) override;
};

// A conjunction of affine comparisons over an index grid (masks, `if i < n:` conditions,
// affine_select predicates).
struct PredObj : py::BranchDriver {
  Tracer* tracer = nullptr;
  std::vector<int64_t> shape;
  std::vector<ir::Predicate> terms;  // each coef has shape.size() entries
  bool uses_arange = false;

  std::string type_name() const override { return "mask"; }
  std::string repr() const override { return "<nki mask>"; }
  Ref binop(py::Interp& in, py::Operator op, const Ref& other, bool reflected) override;
  bool truthy(py::Interp& in) override;
  Ref symbolic_and(py::Interp& in, const std::function<Ref()>& rhs) override;
  void setitem(py::Interp& in, const Ref& key, Ref value) override;
  py::Flow run_if(py::Interp& in, const py::If& stmt) override;
  Ref run_if_exp(py::Interp& in, const py::IfExp& e) override;
  void require_concrete(py::Interp& in, const std::string& use) override;
  // `not (i > 0)` of one comparison is the opposite comparison (`i <= 0`).
  Ref unaryop(py::Interp& in, py::UnaryOpKind op) override;
  // " (`i` is the index of ...)" for messages, or empty.
  std::string condition_origin() const;
};

// Result of nl.mgrid[...]: unpackable into its components, or accessed as .p/.x/.y.
struct MgridObj : py::Obj {
  std::vector<Ref> components;
  std::string type_name() const override { return "mgrid"; }
  std::vector<Ref> iterate(py::Interp&) override { return components; }
  int64_t len(py::Interp&) override { return static_cast<int64_t>(components.size()); }
  Ref getattr(py::Interp& in, const std::string& name) override;
  Ref getitem(py::Interp& in, const Ref& key) override;
};

// ------------------------------------------------------------------ types, buffers, ops
struct DTypeObj : py::Obj {
  explicit DTypeObj(DType d) : dtype(d) {}
  DType dtype;
  std::string type_name() const override { return "dtype"; }
  std::string repr() const override;
  Ref getattr(py::Interp& in, const std::string& name) override;
  Ref call(py::Interp& in, py::CallArgs& args) override;  // np.float32(1.5) -> scalar
  bool hashable() const override { return true; }
  size_t hash() const override { return static_cast<size_t>(dtype) * 7919; }
  bool equals(const py::Obj& o) const override;
  Ref compare(py::Interp& in, py::CmpOp op, const Ref& other, bool reflected) override;
};

// How a direct-allocation buffer places the logical tiles of a tensor (nki.compiler, spec §2.12):
// `func` for ncc.sbuf/psum.alloc(func), the modulo parameters for ncc.sbuf/psum.mod_alloc.
struct DirectAllocSpec {
  Ref func;
  int64_t base_bank = 0, base_partition = 0, base_addr = 0;
  std::vector<int64_t> num_bank_tiles, num_par_tiles, num_free_tiles;
};

struct BufferObj : py::Obj {
  explicit BufferObj(ir::Buffer b, bool direct = false) : buffer(b), direct_alloc(direct) {}
  ir::Buffer buffer;
  bool direct_alloc;  // ncc.sbuf.alloc / mod_alloc / psum.alloc
  std::shared_ptr<DirectAllocSpec> placement;  // set for the direct-allocation buffers
  std::string type_name() const override { return "buffer"; }
  std::string repr() const override { return std::string("nl.") + ir::buffer_name(buffer); }
  bool equals(const py::Obj& o) const override;
  bool hashable() const override { return true; }
  size_t hash() const override { return static_cast<size_t>(buffer); }
};

// An NKI/NumPy function that is also an operator value (op=nl.add, np.exp, ...).
struct OpFnObj : py::BuiltinFn {
  OpFnObj(std::string n, Impl f) : BuiltinFn(std::move(n), std::move(f)) {}
  std::optional<ir::Alu> alu;
  std::optional<ir::Act> act;
  bool equals(const py::Obj& o) const override;
  bool hashable() const override { return true; }
  size_t hash() const override { return std::hash<std::string>()(name); }
};

// The value of `nl.loop_reduce(x, op, ...)` before it is assigned: the reduction writes into the
// tile the assigned variable already names (`b = nl.loop_reduce(a, op=np.add, ...)` means
// b[...] = op(b, a)), so it is emitted by Tracer::transform_bind.
struct LoopReduceObj : py::Obj {
  Ref x;
  ir::Alu op = ir::Alu::Add;
  Ref mask;
  std::string type_name() const override { return "loop_reduce result"; }
  std::string repr() const override { return "<nl.loop_reduce result>"; }
};

struct ParDimObj : py::Obj {
  explicit ParDimObj(int64_t n) : size(n) {}
  int64_t size;
  std::string type_name() const override { return "par_dim"; }
  std::string repr() const override { return "par_dim(" + std::to_string(size) + ")"; }
};

// nl.affine_range / sequential_range / static_range / plain range inside a kernel.
struct RangeDriver : py::LoopDriver {
  Tracer* tracer = nullptr;
  ir::LoopKind kind = ir::LoopKind::Affine;
  bool python_range = false;  // a Python range() in a kernel, traced as nl.sequential_range
  int64_t start = 0, stop = 0, step = 1;
  std::string type_name() const override { return "range"; }
  std::vector<Ref> iterate(py::Interp& in) override;  // concrete values (outside for-loops)
  int64_t len(py::Interp& in) override;
  py::Flow run_loop(py::Interp& in, const py::For& stmt) override;
};

// A kernel function decorated with nki.jit / baremetal / benchmark / trace / simulate.
struct KernelObj : py::Obj {
  Tracer* tracer = nullptr;
  std::shared_ptr<py::FunctionObj> fn;
  std::string decorator;           // "jit", "trace", ...
  std::vector<Ref> grid;           // set for kernel[g0, g1]
  std::vector<std::pair<std::string, Ref>> options;
  std::string type_name() const override { return "kernel"; }
  std::string repr() const override { return "<nki kernel " + fn->name + ">"; }
  Ref getitem(py::Interp& in, const Ref& key) override;
  Ref call(py::Interp& in, py::CallArgs& args) override;
  Ref getattr(py::Interp& in, const std::string& name) override;
};

// A typed scalar (np.float32(1.5)): a number that keeps its dtype for promotion.
struct TypedScalarObj : py::FloatObj {
  TypedScalarObj(double v, DType d) : FloatObj(v), dtype(d) {}
  DType dtype;
  std::string type_name() const override { return dtype_name(dtype); }
};

}  // namespace nki::front
