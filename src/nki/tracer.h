// The legacy NKI tracer: loads a kernel file with the Python evaluator, binds the NKI modules
// (neuronxcc.nki, .language, .isa, .typing, .compiler, numpy, math), runs the kernel function
// once with HBM tensor parameters and records its API calls as kernel IR.
#pragma once

#include <functional>

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "check/pipeline.h"
#include "ir/ir.h"
#include "lang/interp.h"
#include "nki/check_alloc.h"
#include "nki/objects.h"
#include "target/target.h"

namespace nki::front {

struct ArgSpec {
  std::vector<int64_t> shape;
  DType dtype = DType::Float32;
};

// Parses "128x512:float32" (also "128,512:bf16", ":float32" for a scalar shape []).
std::optional<ArgSpec> parse_arg_spec(const std::string& text, std::string* error);

// A kernel parameter bound by name (`--arg NAME=VALUE`): a tensor parameter (an HBM tensor of
// that shape and dtype) or a compile-time value written as a Python literal.
struct NamedArg {
  std::string name;
  std::optional<ArgSpec> tensor;  // set: a tensor parameter
  std::string literal;            // otherwise: the Python literal bound to it
};

// Parses "NAME=VALUE" when the text starts with a Python identifier and '=' (std::nullopt
// otherwise: a positional spec). VALUE is a tensor when it reads SHAPE:DTYPE (digits and
// x/,/* separators before the last ':'), else a Python literal (checked when the kernel is
// traced). A bad tensor spec sets *error and returns a NamedArg with an empty name.
std::optional<NamedArg> parse_named_arg(const std::string& text, std::string* error);

struct TraceOptions {
  std::string kernel_name;                                   // empty = the only decorated kernel
  std::vector<ArgSpec> args;                                 // tensor parameters, in order
  // Parameters bound by name after `args` (--arg NAME=VALUE). Their tensors are kernel
  // arguments after the positional ones, in this order (the inputs of a run follow it).
  std::vector<NamedArg> named_args;
  // Whether any tensor parameter is given (by position or by name); run() derives the specs
  // from its inputs only when none is.
  bool binds_tensors() const {
    for (const NamedArg& a : named_args)
      if (a.tensor) return true;
    return !args.empty();
  }
  std::vector<std::pair<std::string, std::string>> consts;   // name -> Python literal
  std::vector<int64_t> grid;                                 // SPMD grid (empty = none)
  Target target = Target::Trn1;
  // nki.simulate_kernel leniency (spec §7.1): kernels may return on-chip tiles.
  bool simulation_leniency = false;
  // Heap the compile-time evaluation may use (base/memory_budget.h); beyond it the compile
  // fails with error[evaluation_memory]. 0 = unlimited.
  int64_t max_eval_bytes = int64_t{2} << 30;
  // How errors name the source of the tensor parameters: `run` takes them from --input files.
  std::string tensor_source = "--arg spec";
  // Step and wall-clock budgets of the compile-time evaluation (py::Limits); beyond either the
  // compile fails with error[evaluation_budget]. Callers that compile many kernels in one
  // process (the kernel fuzzer) lower them.
  int64_t max_eval_steps = py::Limits{}.max_steps;
  double max_eval_seconds = py::Limits{}.max_seconds;
  // The NKI dialect to read the file as: "" = detected from its imports (`neuronxcc.nki` is the
  // legacy 2.24 dialect, `import nki` the current one), "2.24", or a current version "0.2".."0.6".
  // The dispatch lives above this layer (src/nki_current/dialect.h); trace_kernel is always 2.24.
  std::string dialect;
  // The last IR check pass to run after tracing (check/pipeline.h): `nkiagent ir --after PASS`
  // stops the pipeline early.
  check::Pass last_check = check::Pass::DirectAlloc;
};

struct TraceResult {
  std::shared_ptr<ir::Kernel> kernel;      // null when tracing failed
  std::vector<Diagnostic> diagnostics;     // errors and warnings, in order
  check::Findings checks;                  // the IR check passes that ran, and what each found
  bool ok() const;
};

// Parses and traces `file`. Never throws for problems in the kernel: they become diagnostics.
TraceResult trace_kernel(const SourceFilePtr& file, const TraceOptions& opts);

class Tracer;
// Runs an already-built tracer over a parsed module (budgets, error collection and recovery as
// trace_kernel). The current-dialect front end (src/nki_current) passes its Tracer subclass.
TraceResult trace_with(Tracer& tracer, const SourceFilePtr& file, const py::Module& module,
                       const TraceOptions& opts);

// Raised-error helpers used by the API implementations.
[[noreturn]] void nki_error(const std::string& code, const std::string& message,
                            const std::string& hint = {});

class Tracer : public py::Interp {
 public:
  Tracer(SourceFilePtr file, const TraceOptions& opts);

  ir::Kernel& kernel() { return *kernel_; }
  std::shared_ptr<ir::Kernel> take_kernel() { return kernel_; }
  const TraceOptions& options() const { return opts_; }
  std::vector<Diagnostic>& warnings() { return warnings_; }
  bool tracing() const { return tracing_; }
  // err_nki_api_outside_of_nki_kernel for `api` (empty: any API creating a tensor), called while
  // no kernel is being traced (module level). The first such error is kept: run() reports it
  // after loading the module even when the statement's names are never used (module-level code
  // runs at import in Python).
  [[noreturn]] void api_outside_kernel(const std::string& api);

  Ref import_module(const std::string& dotted) override;
  // The 2.24 module objects (neuronxcc.nki, .language, .isa, .typing): a front end for another
  // dialect adapts their builders instead of copying them.
  std::shared_ptr<py::ModuleObj> legacy_nki() const { return nki_mod_; }
  std::shared_ptr<py::ModuleObj> legacy_nl() const { return nl_mod_; }
  std::shared_ptr<py::ModuleObj> legacy_nisa() const { return nisa_mod_; }
  std::shared_ptr<py::ModuleObj> legacy_typing() const { return nt_mod_; }
  std::shared_ptr<py::ModuleObj> legacy_numpy() const { return np_mod_; }
  Ref adapt_for_iterable(const py::For& stmt, const Ref& iterable) override;
  void on_bind(const std::string& name, const Ref& value) override;
  Ref transform_bind(const std::string& name, Ref value) override;
  // Errors in independent statements of the kernel body are all reported (tracer_recovery.cpp).
  bool recover_statement(const py::Stmt& s, py::PyError& e) override;

  // Runs the kernel: finds it, builds parameters, calls it, records outputs, runs checks.
  void run(const py::Module& module);

  // ---- building blocks for the API implementations ----
  // Creates a tensor and returns a full view of it.
  std::shared_ptr<TensorObj> new_tensor(std::vector<int64_t> shape, DType dtype, ir::Buffer buffer,
                                        const std::string& name, int partition_dim = 0);
  std::shared_ptr<TensorObj> view_of(const ir::Access& a);
  ir::Access full_access(int tensor) const;
  // Appends an instruction to the current block; returns its serial number.
  // `accumulation`: the instruction is an associative update (`+=`, PSUM accumulation), which
  // the affine_range dependency rule allows.
  int64_t emit(ir::Instr instr, bool accumulation = false);
  // The last emitted instruction if `serial` is still the last one of the current block.
  ir::Instr* retargetable(int64_t serial);
  ir::Atom& atom(int id) { return kernel_->atoms[id]; }
  int new_atom(ir::Atom a);
  // The root storage tensor of `t` (follows alias_of).
  int storage_of(int tensor) const;
  void note_write(const ir::Instr& in, bool accumulation);
  // The kernel uses direct allocation (ncc.sbuf/psum.alloc/mod_alloc), which adds rules
  // (spec §2.12, C27).
  bool direct_alloc = false;
  // Placements of the directly allocated tensors, in creation order (check_alloc.h).
  std::vector<DirectTensor> direct_tensors;
  // Instruction results that an assignment copied into another tile right after they were
  // produced (not retargeted, see assign_into).
  std::set<int> folded_results;
  // Tiles whose engine, and so memory, the compiler picks: nisa.nc_transpose without engine=
  // (general/nki/api/nki/isa nc_transpose: "Neuron Compiler will automatically select an
  // engine"). They are simulated in PSUM, yet the official nki-samples flash_attn_bwd feeds
  // such a [128, 128] transpose to nc_matmul, so the tensor engine may read them.
  std::set<int> compiler_placed;
  SourceLoc loc() const { return current_loc(); }
  void warn(const std::string& code, const std::string& message, const std::string& hint = {});

  // Symbolic loops and branches (called by RangeDriver / PredObj).
  py::Flow trace_loop(const py::For& stmt, ir::LoopKind kind, int64_t start, int64_t stop,
                      int64_t step, bool python_range = false);
  // Records `body()` once as the body of a register-driven loop (ir::LoopKind Dynamic/While;
  // nl.fori_loop / nl.while_loop): gives it an id and induction atom, and appends it to the block.
  void trace_register_loop(ir::Loop loop, const std::function<void()>& body);
  int new_register(const std::string& name);
  py::Flow trace_if(const py::If& stmt, const std::vector<ir::Predicate>& cond);
  // `body if cond else orelse` with a condition on loop indices (tracer_if_exp.cpp).
  Ref trace_if_exp(const py::IfExp& e, const std::vector<ir::Predicate>& cond);
  int block_depth() const { return static_cast<int>(blocks_.size()) - 1; }
  bool in_loop_or_branch() const { return blocks_.size() > 1; }

  // The report of the IR check passes (check/pipeline.h), once the kernel has been traced.
  const check::Findings& check_findings() const { return checks_; }

  // Errors recorded by recover_statement, in the order they were found.
  const std::vector<Diagnostic>& errors() const { return errors_; }
  // At most this many errors are reported by one compile (as clang's -ferror-limit).
  static constexpr size_t kMaxErrors = 20;
  // Records an error diagnostic unless an error was already reported at that line and column;
  // false once kMaxErrors are recorded.
  bool record_error(Diagnostic d);

  // The enclosing loops (innermost last), for dependency checks.
  struct LoopCtx {
    int loop_id;
    int atom;
    ir::LoopKind kind;
    int64_t trips;
    bool python_range = false;  // written as a Python range() loop
  };
  const std::vector<LoopCtx>& loops() const { return loops_; }
  // The enclosing loop whose induction atom is `atom`, or null.
  const LoopCtx* loop_of_atom(int atom) const;
  // Loops (ids) enclosing the creation of each tensor.
  std::vector<std::vector<int>> tensor_loops;
  // Whether an atom (transitively) depends on a loop's induction atom.
  bool atom_depends_on(int atom, int loop_atom) const;
  bool expr_depends_on(const ir::ScalarExpr& e, int loop_atom) const;

  // Whether an on-chip allocation is itself a tile, the unit one instruction processes, so that
  // the tile-size constraints apply to it when it is created. The 2.24 dialect says so ("A Tensor
  // whose partition dimension is the first dimension is also called a Tile",
  // general/nki/programming_model.rst); the current one applies them to what each instruction
  // accesses (nki/get-started/about/tiling-overview.rst), and overrides this.
  virtual bool allocations_are_tiles() const { return true; }
  // "NKI check the object shape based on python type annotation in the `target: type = value`
  // syntax" (general/nki/api/nki.errors.rst, err_annotation_shape_mismatch): the 2.24 dialect
  // evaluates the annotations of local variables, which Python itself does not.
  bool checks_local_annotations() const override { return true; }

  Target target() const { return opts_.target; }
  // The target's geometry and tile-size limits (target/target.h).
  const TargetDesc& hw() const { return nki::describe(opts_.target); }
  std::vector<int64_t> program_ids_grid;  // grid of the traced launch
  std::vector<int> program_atoms;         // ProgramId atom per grid axis
  int program_id_atom(int axis);

 private:
  void poison_scope(size_t tensor_watermark);
  // Tiles created in the block that escaped through Python containers (lists, tuples, dicts,
  // object attributes) reachable from the running frame and the module (tracer_scope.cpp).
  void poison_containers(size_t tensor_watermark);
  void finish_checks();
  // The front-end facts the IR checks need (write counts, direct-allocation placements, target).
  check::CheckInputs check_inputs() const;
  // Runs the IR checks up to `last` and records their errors (up to kMaxErrors) and warnings.
  void run_ir_checks(check::Pass last);
  Ref make_param(const ArgSpec& spec, const std::string& name, int index, bool mutable_param);
  // The call of the kernel function from opts_.args, named_args and consts (tracer_params.cpp).
  // Throws IoError for an unknown or twice-given name and for a parameter left without a value.
  py::CallArgs bind_parameters(const py::FunctionObj& fn, bool pass_by_reference);

  std::shared_ptr<ir::Kernel> kernel_;
  TraceOptions opts_;
  std::vector<std::vector<ir::Stmt>*> blocks_;
  std::vector<ir::Stmt> root_;
  std::vector<LoopCtx> loops_;
  std::vector<Diagnostic> warnings_;
  std::vector<Diagnostic> errors_;
  int64_t instr_serial_ = 0;
  int64_t last_serial_ = -1;
  std::vector<ir::Stmt>* last_block_ = nullptr;
  bool tracing_ = false;
  std::optional<py::PyError> outside_kernel_error_;
  SourceLoc kernel_def_loc_;
  std::vector<int> write_counts_;
  check::Findings checks_;
  std::shared_ptr<py::ModuleObj> nki_mod_, nl_mod_, nisa_mod_, nt_mod_, ncc_mod_, np_mod_;

  friend void install_modules(Tracer& t);
  friend struct KernelObj;
};

// Defined in api_*.cpp: build the module objects.
std::shared_ptr<py::ModuleObj> make_nl_module(Tracer& t);
std::shared_ptr<py::ModuleObj> make_nisa_module(Tracer& t);
std::shared_ptr<py::ModuleObj> make_nki_module(Tracer& t);
std::shared_ptr<py::ModuleObj> make_typing_module(Tracer& t);
std::shared_ptr<py::ModuleObj> make_compiler_module(Tracer& t);
std::shared_ptr<py::ModuleObj> make_numpy_module(Tracer& t);

}  // namespace nki::front
