// The kernel IR: one representation shared by the checker, the executor (src/machine) and a
// later cost model. The legacy tracer (src/nki) lowers every NKI API call into it; the current
// `nki.*` dialect will lower into the same structures.
//
// Shape of a kernel:
//   - tensors: every HBM parameter, output, on-chip tile and temporary, with buffer/dtype/shape;
//   - a body: a tree of Blocks holding Instrs, Loops (symbolic induction variable) and Ifs;
//   - index arithmetic: ScalarExpr = affine combination of "atoms" (loop variables, program ids,
//     and floor-div/mod nodes), evaluated by the executor with concrete values.
//
// An instruction operand is an Access: a tensor plus an affine map from the instruction's
// iteration space (the coordinates k_0..k_{r-1} of the accessed tile) to tensor indices:
//     index_d = offset_d(loop vars) + sum_j coef[d][j] * k_j        (d = tensor dim)
// which covers basic indexing (slices, ints, nl.ds), advanced indexing with nl.arange/nl.mgrid
// expressions, broadcasting (coef 0), transposed DMA (permuted coefs) and reshape views.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "base/dtype.h"
#include "base/source.h"

namespace nki::ir {

// ------------------------------------------------------------------ index arithmetic
enum class AtomKind : uint8_t { LoopVar, ProgramId, FloorDiv, Mod };

struct ScalarExpr {
  int64_t constant = 0;
  std::vector<std::pair<int, int64_t>> terms;  // (atom id, coefficient), atom ids unique, sorted

  bool is_constant() const { return terms.empty(); }
  static ScalarExpr of(int64_t c) { return ScalarExpr{c, {}}; }
};

// An atom of index arithmetic. FloorDiv/Mod atoms refer to an expression over earlier atoms and a
// positive constant divisor (Python semantics: floor division, result of % has the divisor's sign).
struct Atom {
  AtomKind kind = AtomKind::LoopVar;
  int loop = -1;          // LoopVar: id of the Loop
  int axis = -1;          // ProgramId: grid axis
  ScalarExpr operand;     // FloorDiv/Mod
  int64_t divisor = 1;    // FloorDiv/Mod
  std::string name;       // for printing: "i", "pid0", ...
};

enum class CmpKind : uint8_t { Lt, Le, Gt, Ge, Eq, Ne };

// Whether `v CMP 0` holds.
inline bool cmp_holds(CmpKind c, int64_t v) {
  switch (c) {
    case CmpKind::Lt: return v < 0;
    case CmpKind::Le: return v <= 0;
    case CmpKind::Gt: return v > 0;
    case CmpKind::Ge: return v >= 0;
    case CmpKind::Eq: return v == 0;
    case CmpKind::Ne: return v != 0;
  }
  return false;
}

// sum_j coef[j]*k_j + rest  CMP  0   where k_j are coordinates of the instruction's iteration
// space (empty coef = a predicate over loop variables only, as in `if i < 2:`).
struct Predicate {
  std::vector<int64_t> coef;
  ScalarExpr rest;
  CmpKind cmp = CmpKind::Lt;
};

// Conjunction of predicates (NKI masks combine comparisons with `&`).
struct Mask {
  std::vector<Predicate> terms;
};

// ------------------------------------------------------------------ tensors
enum class Buffer : uint8_t { SharedHbm, PrivateHbm, Sbuf, Psum };
const char* buffer_name(Buffer b);
inline bool is_hbm(Buffer b) { return b == Buffer::SharedHbm || b == Buffer::PrivateHbm; }
inline bool is_on_chip(Buffer b) { return b == Buffer::Sbuf || b == Buffer::Psum; }

enum class TensorRole : uint8_t {
  Parameter,  // kernel argument (HBM)
  Output,     // HBM tensor the kernel returns
  Internal,   // anything else (tiles, temporaries, private HBM scratch)
  Constant,   // compile-time data (nl.shared_constant, nl.shared_identity_matrix)
};

enum class TensorInit : uint8_t { Uninitialized, Zeros, Fill };

struct TensorDecl {
  int id = -1;
  std::string name;
  Buffer buffer = Buffer::Sbuf;
  DType dtype = DType::Float32;
  std::vector<int64_t> shape;
  int partition_dim = 0;           // dims before it are block dims (nl.par_dim)
  TensorRole role = TensorRole::Internal;
  int param_index = -1;            // Parameter: position among kernel arguments
  int output_index = -1;           // Output: position in the returned tuple
  // A view with another shape over the storage of tensor `alias_of` (tensor.reshape on HBM,
  // tensor.view(dtype)); -1 when this tensor owns its storage.
  int alias_of = -1;
  TensorInit init = TensorInit::Uninitialized;
  double fill_value = 0.0;
  std::vector<uint8_t> const_data;  // Constant: element bytes at dtype width, C order
  bool mutable_param = false;       // annotated nt.mutable_tensor
  SourceLoc loc;                    // where it was created
  int scope_depth = 0;              // nesting depth of the block that created it
};

int64_t element_count(const std::vector<int64_t>& shape);
// The product of `shape`, or nullopt when a dimension is negative or the product overflows int64.
std::optional<int64_t> checked_element_count(const std::vector<int64_t>& shape);

// ------------------------------------------------------------------ operands
struct Access;

// An indirect (data-dependent) index on tensor dim `dim`: the value read from `index` at the
// instruction's coordinates (broadcast) is added to that dim's affine index.
struct Indirect {
  int dim = 0;
  std::shared_ptr<Access> index;
};

struct Access {
  int tensor = -1;
  std::vector<int64_t> shape;                 // iteration space of this operand
  std::vector<ScalarExpr> offset;             // one per tensor dim
  std::vector<std::vector<int64_t>> coef;     // [tensor dim][shape dim]
  std::optional<Indirect> indirect;
  SourceLoc loc;  // the subscript that produced this view (diagnostics only)

  int rank() const { return static_cast<int>(shape.size()); }
};

// An operand: a tensor access or an immediate scalar.
struct Operand {
  bool is_imm = false;
  double imm = 0.0;
  Access access;

  static Operand of_imm(double v) {
    Operand o;
    o.is_imm = true;
    o.imm = v;
    return o;
  }
  static Operand of(Access a) {
    Operand o;
    o.access = std::move(a);
    return o;
  }
};

// ------------------------------------------------------------------ instructions
enum class Engine : uint8_t { Unknown, Tensor, Vector, Scalar, GpSimd, Dma, Sync };
const char* engine_name(Engine e);

// ALU operators (shared/docs/nki-spec.md §2.11.1).
enum class Alu : uint8_t {
  Add, Subtract, Multiply, Divide, Maximum, Minimum, Power, Mod, Fmod,
  Equal, NotEqual, Greater, GreaterEqual, Less, LessEqual,
  LogicalAnd, LogicalOr, LogicalXor,
  BitwiseAnd, BitwiseOr, BitwiseXor, LeftShift, RightShift,
  // Second operand ignored:
  Bypass,
};
const char* alu_name(Alu op);

// Element-wise functions (activation table §2.11.2 and nl unary math §2.9.3).
enum class Act : uint8_t {
  Copy, Exp, Log, Tanh, Sigmoid, Relu, Gelu, GeluDx, GeluApprxTanh, GeluApprxSigmoid, Silu,
  SiluDx, Softplus, Mish, Erf, ErfDx, Sign, Abs, Square, Sqrt, Rsqrt, Reciprocal, Sin, Cos, Tan,
  Arctan, Negative, Floor, Ceil, Trunc, LogicalNot, Invert,
};
const char* act_name(Act f);

enum class Opcode : uint8_t {
  // dst <- src (dtype cast). DMA (HBM<->SBUF, nl.load/store/dma_copy/load_transpose2d/
  // atomic_rmw) or on-chip copy (tensor_copy, nl.copy, assignment), told apart by `engine`.
  // rmw: dst = rmw(dst, src) (dst_rmw_op / atomic_rmw / `+=`).
  Copy,
  // dst <- alu1(alu0(src0, src1), src2) ; src2/alu1 optional (has_second). Covers nl binary
  // ops, tensor_tensor, tensor_scalar, scalar_tensor_tensor.
  // int_attrs[1] != 0 reverses the second operator: alu1(src2, alu0(src0, src1)).
  Alu,
  // dst <- act(src0 * scale + bias); scale: srcs[1] (imm or [P,1]); bias: srcs[2] (optional).
  // Optional accumulate-register reduction into `reduce_res` (activation reduce_*).
  Activation,
  // dst <- reduce(alu0, src0 over `axes`) ; negate; all reductions accumulate in fp32.
  Reduce,
  // dst[M,N] (+)= srcs[0][K,M]^T @ srcs[1][K,N], fp32 multiply/accumulate.
  Matmul,
  // dst <- value of the index expression in `iota` (integer arithmetic), cast.
  Iota,
  // dst <- imm
  Memset,
  // dst <- cond(srcs[0] or `select_pred`) ? srcs[1] : srcs[2]
  Select,
  // per-partition scan: r_i = alu1(alu0(src0_i, r_{i-1}), src1_i), r_{-1} = srcs[2]
  Scan,
  // Any other instruction, identified by `custom` (bn_stats, max8, gather_flattened, ...): the
  // contract is the table in ir/custom_ops.def; simulator and cost model switch on it.
  Custom,
  // A scalar register operation (nisa.register_alloc/move/load/store, NKI 0.2+): `reg_op`
  // says which. Registers are the kernel's `registers`, 32-bit integers held by the engine
  // sequencers (nki/api/nki/isa/__init__.py register_alloc), not tensor memory.
  Register,
};
const char* opcode_name(Opcode op);

// Which Custom instruction an Instr is (ir/custom_ops.def); None for every other opcode.
enum class CustomOp : uint8_t {
  None,
#define CUSTOM_OP(id, name, min_srcs, max_srcs, engine, doc) id,
#include "ir/custom_ops.def"
#undef CUSTOM_OP
};

// Register: Set reg_dst <- imm (register_alloc(x) / register_move(dst, int));
// Move reg_dst <- reg_src; Load reg_dst <- the one element of srcs[0]; Store dst <- reg_src.
enum class RegOp : uint8_t { Set, Move, Load, Store };
const char* reg_op_name(RegOp op);

struct Instr {
  Opcode op = Opcode::Copy;
  CustomOp custom = CustomOp::None;  // Custom only: which one (the name stays for dumps)
  std::string name;          // API that produced it, e.g. "nl.load", "nisa.tensor_tensor"
  Engine engine = Engine::Unknown;
  SourceLoc loc;

  Access dst;
  std::vector<Operand> srcs;
  std::optional<Mask> mask;  // over dst's iteration space

  // Copy
  std::optional<Alu> rmw;    // dst = rmw(dst, value)
  bool oob_skip = false;     // indirect DMA: skip out-of-bounds rows instead of erroring
  // Alu / Scan / Reduce
  Alu alu0 = Alu::Add;
  Alu alu1 = Alu::Add;
  bool has_second = false;
  // Activation
  Act act = Act::Copy;
  std::optional<Alu> reduce_op;   // activation/tensor_scalar_reduce accumulation
  std::optional<Access> reduce_res;
  int reduce_cmd = 0;             // nisa.reduce_cmd value: idle=0 reset=1 reduce=2 reset_reduce=3
  // Reduce
  std::vector<int> axes;          // reduced dims of srcs[0]'s iteration space
  bool negate = false;
  // Matmul
  bool accumulate = false;        // add into dst instead of overwriting
  // Iota: value = iota.rest + sum_j iota.coef[j] * k_j
  Predicate iota;
  // Select with an affine predicate instead of a tensor condition (affine_select).
  std::optional<Predicate> select_pred;
  // Register
  RegOp reg_op = RegOp::Set;
  int reg_dst = -1, reg_src = -1;  // indices into Kernel::registers
  int64_t reg_imm = 0;
  // Custom: free-form integer/float attributes
  std::vector<int64_t> int_attrs;
  std::vector<double> float_attrs;
};

// ------------------------------------------------------------------ control flow
// Dynamic: a hardware loop whose bounds may be registers read once at loop entry
// (nl.fori_loop / nl.dynamic_range with VirtualRegister bounds); While: runs while register
// `cond_reg` is nonzero, tested before each iteration (nl.while_loop). Their trip counts are not
// known at compile time, so trip_count() must not be used for them (has_static_trip_count()).
enum class LoopKind : uint8_t { Affine, Sequential, Static, Dynamic, While };
const char* loop_kind_name(LoopKind k);

struct Block;
struct Stmt;

struct Loop {
  int id = -1;          // also the LoopVar atom's `loop` field
  int atom = -1;        // atom id of the induction variable
  LoopKind kind = LoopKind::Affine;
  int64_t start = 0, stop = 0, step = 1;
  // Dynamic: a register index replaces start / stop when >= 0; the induction value is written to
  // index_reg (if >= 0) before each iteration. While: the condition register.
  int start_reg = -1, stop_reg = -1, index_reg = -1, cond_reg = -1;
  std::string var_name;
  SourceLoc loc;
  std::vector<Stmt> body;

  int64_t trip_count() const;
  bool has_static_trip_count() const {
    return kind == LoopKind::While ? false : start_reg < 0 && stop_reg < 0;
  }
};

struct If {
  Mask cond;            // conjunction over loop variables / program ids
  std::vector<Stmt> then_body;
  std::vector<Stmt> else_body;
  SourceLoc loc;
};

struct Stmt {
  std::variant<Instr, Loop, If> node;
};

// ------------------------------------------------------------------ kernel
struct Kernel {
  std::string name;
  SourceFilePtr file;
  std::vector<TensorDecl> tensors;
  std::vector<Atom> atoms;
  std::vector<Stmt> body;
  std::vector<int> params;    // tensor ids of tensor parameters, in argument order
  std::vector<int> outputs;   // tensor ids returned, in order (empty for pass-by-reference)
  bool returns_tuple = false;
  std::vector<int64_t> grid;  // SPMD launch grid; empty = single instance
  int loop_count = 0;
  std::vector<std::string> registers;  // virtual registers (names), Instr::reg_* / Loop::*_reg
};

// "[128, 512]": how the printer and the diagnostics write a shape.
std::string shape_str(const std::vector<int64_t>& s);
// Human-readable dump used by `nkiagent ir` (stable: tests compare against it).
std::string print_kernel(const Kernel& k);
std::string print_scalar_expr(const Kernel& k, const ScalarExpr& e);
std::string print_access(const Kernel& k, const Access& a);

}  // namespace nki::ir
