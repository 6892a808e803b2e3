#include "nki/tracer.h"
#include "nki/no_kernel.h"

#include <algorithm>
#include <new>
#include <optional>
#include <sstream>

#include "base/diag_codes.h"
#include "base/memory_budget.h"
#include "ir/scalar_expr.h"
#include "lang/parser.h"
#include "nki/check_alloc.h"
#include "nki/lowering.h"

namespace nki::front {

void nki_error(const std::string& code, const std::string& message, const std::string& hint) {
  py::PyError e;
  e.type = "NkiError";
  e.code = code;
  e.message = message;
  e.hint = hint;
  throw e;
}

bool TraceResult::ok() const {
  if (!kernel) return false;
  for (const Diagnostic& d : diagnostics)
    if (d.severity == Severity::Error) return false;
  return true;
}

std::optional<ArgSpec> parse_arg_spec(const std::string& text, std::string* error) {
  ArgSpec spec;
  size_t colon = text.rfind(':');
  std::string dims = colon == std::string::npos ? text : text.substr(0, colon);
  std::string dt = colon == std::string::npos ? "float32" : text.substr(colon + 1);
  auto d = parse_dtype(dt);
  if (!d) {
    if (error) *error = "unknown dtype '" + dt + "' in '" + text + "'";
    return std::nullopt;
  }
  spec.dtype = *d;
  std::string cur;
  auto flush = [&]() -> bool {
    if (cur.empty()) return false;
    for (char c : cur)
      if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    if (cur.size() > 12) return false;
    int64_t v = std::stoll(cur);
    if (v <= 0) return false;
    spec.shape.push_back(v);
    cur.clear();
    return true;
  };
  for (char c : dims) {
    if (c == 'x' || c == 'X' || c == ',' || c == '*') {
      if (!flush()) {
        if (error) *error = "bad shape in '" + text + "' (expected e.g. 128x512:float32)";
        return std::nullopt;
      }
    } else {
      cur += c;
    }
  }
  if (!cur.empty() && !flush()) {
    if (error) *error = "bad shape in '" + text + "' (expected e.g. 128x512:float32)";
    return std::nullopt;
  }
  return spec;
}

// ------------------------------------------------------------------ Tracer
Tracer::Tracer(SourceFilePtr file, const TraceOptions& opts) : py::Interp(file), opts_(opts) {
  kernel_ = std::make_shared<ir::Kernel>();
  kernel_->file = file;
  blocks_.push_back(&root_);
  limits().max_steps = opts.max_eval_steps;
  limits().max_seconds = opts.max_eval_seconds;
  nki_mod_ = make_nki_module(*this);
  nl_mod_ = make_nl_module(*this);
  nisa_mod_ = make_nisa_module(*this);
  nt_mod_ = make_typing_module(*this);
  ncc_mod_ = make_compiler_module(*this);
  np_mod_ = make_numpy_module(*this);
  nki_mod_->set("language", nl_mod_);
  nki_mod_->set("isa", nisa_mod_);
  nki_mod_->set("typing", nt_mod_);
  nki_mod_->set("compiler", ncc_mod_);
}

Ref Tracer::import_module(const std::string& dotted) {
  if (dotted == "neuronxcc") {
    auto m = std::make_shared<py::ModuleObj>("neuronxcc");
    m->set("nki", nki_mod_);
    return m;
  }
  if (dotted == "neuronxcc.nki") return nki_mod_;
  if (dotted == "neuronxcc.nki.language") return nl_mod_;
  if (dotted == "neuronxcc.nki.isa") return nisa_mod_;
  if (dotted == "neuronxcc.nki.typing") return nt_mod_;
  if (dotted == "neuronxcc.nki.compiler") return ncc_mod_;
  if (dotted == "numpy") return np_mod_;
  return py::Interp::import_module(dotted);
}

Ref Tracer::adapt_for_iterable(const py::For&, const Ref& iterable) {
  // Inside a kernel, a Python `for ... in range(...)` statement is traced like
  // nl.sequential_range (shared/docs/nki-spec.md §2.4, §5.1).
  if (!tracing_) return nullptr;
  if (auto* r = py::cast<py::RangeObj>(iterable)) {
    auto d = std::make_shared<RangeDriver>();
    d->tracer = this;
    d->kind = ir::LoopKind::Sequential;
    d->python_range = true;
    d->start = r->start;
    d->stop = r->stop;
    d->step = r->step;
    return d;
  }
  return nullptr;
}

Ref Tracer::transform_bind(const std::string& name, Ref value) {
  auto* lr = py::cast<LoopReduceObj>(value);
  if (!lr) return value;
  // nl.loop_reduce (general/nki/api/nki/language/__init__.py at 86051b85): "the destination tile
  // is also the rhs input to op", i.e. `b = nl.loop_reduce(a, op, ...)` is b = op(b, a) written
  // into b, an associative update across the loop (like `+=`).
  Ref old = current_binding(name);
  auto* dst = as_tensor(old);
  if (!dst)
    nki_error(diag::Code::loop_reduce_destination,
              "the result of nl.loop_reduce is assigned to '" + name + "', which does not name a tile; "
              "its destination is the tile the variable already refers to",
              "create the accumulator before the loop (e.g. " + name +
                  " = nl.zeros(shape, dtype=nl.float32, buffer=nl.sbuf)) and assign the result to it");
  require_on_chip(*dst, "nl.loop_reduce", "destination");
  assign_into(*this, *dst, lr->x, lr->op, "nl.loop_reduce", lr->mask);
  return old;
}

void Tracer::on_bind(const std::string& name, const Ref& value) {
  // Give an anonymous tensor the name of the first variable it is bound to, so IR dumps and
  // diagnostics say 'acc' rather than 't7'.
  auto* t = as_tensor(value);
  if (!t || !tracing_) return;
  ir::TensorDecl& d = kernel_->tensors[t->view.tensor];
  if (d.name == "t" + std::to_string(d.id) && d.role != ir::TensorRole::Parameter) d.name = name;
}

int Tracer::new_atom(ir::Atom a) {
  kernel_->atoms.push_back(std::move(a));
  return static_cast<int>(kernel_->atoms.size()) - 1;
}

int Tracer::program_id_atom(int axis) {
  while (static_cast<int>(program_atoms.size()) <= axis) {
    ir::Atom a;
    a.kind = ir::AtomKind::ProgramId;
    a.axis = static_cast<int>(program_atoms.size());
    a.name = "pid" + std::to_string(a.axis);
    program_atoms.push_back(new_atom(a));
  }
  return program_atoms[axis];
}

bool Tracer::atom_depends_on(int atom, int loop_atom) const {
  if (atom == loop_atom) return true;
  const ir::Atom& a = kernel_->atoms[atom];
  if (a.kind == ir::AtomKind::FloorDiv || a.kind == ir::AtomKind::Mod) return expr_depends_on(a.operand, loop_atom);
  return false;
}

bool Tracer::expr_depends_on(const ir::ScalarExpr& e, int loop_atom) const {
  for (const auto& [atom, c] : e.terms)
    if (c != 0 && atom_depends_on(atom, loop_atom)) return true;
  return false;
}

int Tracer::storage_of(int tensor) const {
  while (kernel_->tensors[tensor].alias_of >= 0) tensor = kernel_->tensors[tensor].alias_of;
  return tensor;
}

void Tracer::warn(const std::string& code, const std::string& message, const std::string& hint) {
  warnings_.push_back(make_diagnostic(Severity::Warning, code, message, file(), current_loc(), hint));
}

std::shared_ptr<TensorObj> Tracer::new_tensor(std::vector<int64_t> shape, DType dtype, ir::Buffer buffer,
                                              const std::string& name, int partition_dim) {
  if (!tracing_) api_outside_kernel("");
  if (ir::is_on_chip(buffer)) {
    if (shape.empty())
      nki_error(diag::Code::invalid_shape, "on-chip tiles need at least one dimension (the partition dimension)");
    int64_t p = shape[partition_dim];
    if (const int64_t pmax = hw().pmax; p > pmax)
      nki_error(diag::Code::err_num_partition_exceed_arch_limit,
                "number of partitions " + std::to_string(p) + " exceeds architecture limitation of " + std::to_string(pmax),
                "tile the partition dimension into chunks of at most nl.tile_size.pmax (" + std::to_string(pmax) + ")");
    if (partition_dim > 0)
      warn(diag::Code::block_dimension_deprecated,
           "tensor created with block dimensions before nl.par_dim; block dimensions are deprecated since SDK 2.23",
           "allocate a list of tiles or fold the block dimension into the free dimensions");
  }
  for (int64_t dim : shape)
    if (dim < 0) nki_error(diag::Code::invalid_shape, "tensor dimensions must be non-negative, got " + std::to_string(dim));
  // Every size and offset computed later (bounds, liveness, the simulator's addressing) is an
  // int64 byte count: a tensor whose size does not fit cannot exist on any device.
  std::optional<int64_t> elems = ir::checked_element_count(shape);
  int64_t bytes = 0;
  if (!elems || __builtin_mul_overflow(*elems, static_cast<int64_t>(dtype_size(dtype)), &bytes))
    nki_error(diag::Code::tensor_size_overflow,
              "tensor of shape " + shape_str(shape) + " and dtype " + dtype_name(dtype) +
                  " has more than 2^63 bytes",
              "tensor sizes must fit in device memory; check the shape arithmetic");
  ir::TensorDecl d;
  d.id = static_cast<int>(kernel_->tensors.size());
  d.name = name.empty() ? "t" + std::to_string(d.id) : name;
  d.buffer = buffer;
  d.dtype = dtype;
  d.shape = std::move(shape);
  d.partition_dim = partition_dim;
  d.loc = current_loc();
  d.scope_depth = block_depth();
  kernel_->tensors.push_back(d);
  std::vector<int> enclosing;
  for (const LoopCtx& l : loops_) enclosing.push_back(l.loop_id);
  tensor_loops.push_back(enclosing);
  write_counts_.push_back(0);
  auto t = std::make_shared<TensorObj>();
  t->tracer = this;
  t->view = full_access(d.id);
  return t;
}

ir::Access Tracer::full_access(int tensor) const {
  const ir::TensorDecl& d = kernel_->tensors[tensor];
  ir::Access a;
  a.tensor = tensor;
  a.shape = d.shape;
  size_t r = d.shape.size();
  a.offset.assign(r, ir::ScalarExpr::of(0));
  a.coef.assign(r, std::vector<int64_t>(r, 0));
  for (size_t i = 0; i < r; ++i) a.coef[i][i] = 1;
  return a;
}

std::shared_ptr<TensorObj> Tracer::view_of(const ir::Access& a) {
  auto t = std::make_shared<TensorObj>();
  t->tracer = this;
  t->view = a;
  return t;
}

void Tracer::note_write(const ir::Instr& in, bool accumulation) {
  int root = storage_of(in.dst.tensor);
  // Writes inside a loop that never runs do not count (err_tensor_output_not_written_to).
  bool runs = true;
  for (const LoopCtx& l : loops_) runs = runs && l.trips > 0;
  if (runs) ++write_counts_[root];
  // Loop-dependency rule for affine_range (err_unexpected_output_dependencies, spec §2.4 / C19):
  // a write to a tensor created outside an affine loop must be indexed by that loop's variable,
  // unless it accumulates (PSUM += matmul, `+=`, dst_rmw) into it.
  bool accumulates = accumulation || in.accumulate || in.rmw.has_value();
  if (accumulates) return;
  // Across SPMD instances (C19): a shared HBM tensor must be written at locations that depend on
  // the program id, else every instance writes the same elements.
  const ir::TensorDecl& rd = kernel_->tensors[root];
  if (rd.buffer == ir::Buffer::SharedHbm && !in.dst.indirect) {
    int64_t instances = 1;
    for (int64_t g : opts_.grid) instances *= g;
    if (instances > 1) {
      bool by_pid = false;
      for (size_t ax = 0; ax < program_atoms.size(); ++ax)
        for (const ir::ScalarExpr& off : in.dst.offset)
          if (expr_depends_on(off, program_atoms[ax])) by_pid = true;
      if (!by_pid)
        nki_error(diag::Code::err_unexpected_output_dependencies,
                  "Unexpected output dependencies: every SPMD instance of the launch grid writes the same "
                  "locations of shared tensor '" + rd.name + "'",
                  "index the destination with nl.program_id(...) so each instance writes its own part");
    }
  }
  const std::vector<int>& created_in = tensor_loops[in.dst.tensor];
  for (const LoopCtx& l : loops_) {
    if (l.kind != ir::LoopKind::Affine) continue;
    if (std::find(created_in.begin(), created_in.end(), l.loop_id) != created_in.end()) continue;
    bool indexed = false;
    for (const ir::ScalarExpr& off : in.dst.offset)
      if (expr_depends_on(off, l.atom)) indexed = true;
    if (in.dst.indirect) indexed = true;  // data-dependent rows: not provable here
    if (!indexed) {
      const ir::Loop* loop = nullptr;
      (void)loop;
      nki_error(diag::Code::err_unexpected_output_dependencies,
                "Unexpected output dependencies: different iterations of affine_range loop '" +
                    kernel_->atoms[l.atom].name + "' write to the same location of tensor '" +
                    kernel_->tensors[root].name + "'",
                "index the destination with the loop variable, accumulate with +=, or use nl.sequential_range");
    }
  }
}

void Tracer::api_outside_kernel(const std::string& api) {
  // general/nki/api/nki.errors.rst, err_nki_api_outside_of_nki_kernel: "Calling NKI API outside
  // of NKI kernels is not supported."
  py::PyError e;
  e.type = "NkiError";
  e.code = diag::Code::err_nki_api_outside_of_nki_kernel;
  e.message = (api.empty() ? std::string("an NKI API that creates a tensor was") : "NKI API '" + api + "'") +
              " called outside of an NKI kernel";
  e.hint = "call NKI APIs only inside a function decorated with @nki.jit (or a helper called from it)";
  e.loc = current_loc();
  if (!outside_kernel_error_) outside_kernel_error_ = e;
  throw e;
}

int64_t Tracer::emit(ir::Instr instr, bool accumulation) {
  if (!instr.loc.valid()) instr.loc = current_loc();
  if (!tracing_) api_outside_kernel(instr.name);
  if (instr.dst.tensor >= 0) note_write(instr, accumulation);  // register ops may write no tensor
  std::vector<ir::Stmt>* block = blocks_.back();
  block->push_back(ir::Stmt{std::move(instr)});
  last_serial_ = ++instr_serial_;
  last_block_ = block;
  return last_serial_;
}

ir::Instr* Tracer::retargetable(int64_t serial) {
  if (serial < 0 || serial != last_serial_ || last_block_ != blocks_.back() || last_block_->empty()) return nullptr;
  return std::get_if<ir::Instr>(&last_block_->back().node);
}

void Tracer::poison_scope(size_t watermark) {
  // Tensors created inside a traced block are not visible after it
  // (err_local_variable_used_out_of_scope, spec §5.1 / C18).
  for (auto& [name, value] : env_->vars) {
    auto* t = as_tensor(value);
    if (!t) continue;
    int id = t->view.tensor;
    if (static_cast<size_t>(id) < watermark) continue;
    const ir::TensorDecl& d = kernel_->tensors[id];
    if (!ir::is_on_chip(d.buffer) && d.buffer != ir::Buffer::PrivateHbm) continue;
    auto lazy = std::make_shared<py::LazyErrorObj>();
    lazy->error.type = "NkiError";
    lazy->error.code = diag::Code::err_local_variable_used_out_of_scope;
    lazy->error.message = "local variable '" + name + "' (a tensor created on line " + std::to_string(d.loc.line) +
                          " inside a loop or if block) is used out of its scope";
    lazy->error.hint = "declare the tensor before the block with nl.ndarray/nl.zeros and assign into it with " +
                       name + "[...] = ...";
    lazy->verbatim = true;
    value = lazy;
  }
}

const Tracer::LoopCtx* Tracer::loop_of_atom(int atom) const {
  for (const LoopCtx& l : loops_)
    if (l.atom == atom) return &l;
  return nullptr;
}

int Tracer::new_register(const std::string& name) {
  kernel_->registers.push_back(name + std::to_string(kernel_->registers.size()));
  return static_cast<int>(kernel_->registers.size()) - 1;
}

void Tracer::trace_register_loop(ir::Loop loop, const std::function<void()>& run_body) {
  loop.id = kernel_->loop_count++;
  if (!loop.loc.valid()) loop.loc = current_loc();
  if (loop.var_name.empty()) loop.var_name = "r" + std::to_string(loop.id);
  ir::Atom a;
  a.kind = ir::AtomKind::LoopVar;
  a.loop = loop.id;
  a.name = loop.var_name;
  loop.atom = new_atom(a);
  size_t watermark = kernel_->tensors.size();
  std::vector<ir::Stmt> body;
  blocks_.push_back(&body);
  // The trip count is a run-time value; one "may run" iteration keeps writes counted.
  loops_.push_back({loop.id, loop.atom, loop.kind, 1, false});
  try {
    run_body();
  } catch (...) {
    blocks_.pop_back();
    loops_.pop_back();
    throw;
  }
  blocks_.pop_back();
  loops_.pop_back();
  loop.body = std::move(body);
  blocks_.back()->push_back(ir::Stmt{std::move(loop)});
  last_serial_ = -1;
  poison_scope(watermark);
  poison_containers(watermark);
}

py::Flow Tracer::trace_loop(const py::For& stmt, ir::LoopKind kind, int64_t start, int64_t stop, int64_t step,
                            bool python_range) {
  ir::Loop loop;
  loop.id = kernel_->loop_count++;
  loop.kind = kind;
  loop.start = start;
  loop.stop = stop;
  loop.step = step;
  loop.loc = stmt.span.begin;
  auto* nm = py::as<py::Name>(stmt.target.get());
  loop.var_name = nm ? nm->id : "i" + std::to_string(loop.id);
  ir::Atom a;
  a.kind = ir::AtomKind::LoopVar;
  a.loop = loop.id;
  a.name = loop.var_name;
  loop.atom = new_atom(a);
  auto idx = std::make_shared<IndexObj>();
  idx->tracer = this;
  idx->rest = ir::atom_expr(loop.atom);
  assign(*stmt.target, idx);

  size_t watermark = kernel_->tensors.size();
  std::vector<ir::Stmt> body;
  blocks_.push_back(&body);
  loops_.push_back({loop.id, loop.atom, kind, loop.trip_count(), python_range});
  py::Flow f;
  try {
    f = exec_block(stmt.body);
  } catch (...) {
    blocks_.pop_back();
    loops_.pop_back();
    throw;
  }
  blocks_.pop_back();
  loops_.pop_back();
  if (f == py::Flow::Break || f == py::Flow::Continue)
    nki_error(diag::Code::unsupported_control_flow, "break/continue are not supported in NKI device loops",
              "use masks or nl.static_range for unrolled loops");
  // The legacy tracer runs a device-loop body once, so a `return` that ends the body returns
  // after the whole (symbolic) loop has been recorded: the SDK 2.24 examples layout-dynamic-loop.py
  // and prof-kernel.py indent `return out_tensor` inside their affine_range loop. Any other
  // return in a loop (conditional, or with statements after it) is not supported.
  bool trailing_return = f == py::Flow::Return && !stmt.body.empty() && py::as<py::Return>(stmt.body.back().get());
  if (f == py::Flow::Return && !trailing_return)
    nki_error(diag::Code::unsupported_control_flow, "return inside an NKI device loop is not supported");
  loop.body = std::move(body);
  blocks_.back()->push_back(ir::Stmt{std::move(loop)});
  last_serial_ = -1;
  poison_scope(watermark);
  poison_containers(watermark);
  if (trailing_return) return py::Flow::Return;
  return exec_block(stmt.orelse);
}

py::Flow Tracer::trace_if(const py::If& stmt, const std::vector<ir::Predicate>& cond) {
  ir::If node;
  node.loc = stmt.span.begin;
  for (const ir::Predicate& p : cond) {
    ir::Predicate q = p;
    q.coef.clear();
    node.cond.terms.push_back(q);
  }
  size_t watermark = kernel_->tensors.size();
  auto run_branch = [&](const py::StmtList& stmts, std::vector<ir::Stmt>& out) {
    blocks_.push_back(&out);
    py::Flow f;
    try {
      f = exec_block(stmts);
    } catch (...) {
      blocks_.pop_back();
      throw;
    }
    blocks_.pop_back();
    if (f != py::Flow::Normal)
      nki_error(diag::Code::unsupported_control_flow,
                "break/continue/return inside an if on a loop index is not supported");
    poison_scope(watermark);
    poison_containers(watermark);
  };
  run_branch(stmt.body, node.then_body);
  run_branch(stmt.orelse, node.else_body);
  blocks_.back()->push_back(ir::Stmt{std::move(node)});
  last_serial_ = -1;
  return py::Flow::Normal;
}

Ref Tracer::make_param(const ArgSpec& spec, const std::string& name, int index, bool mutable_param) {
  auto t = new_tensor(spec.shape, spec.dtype, ir::Buffer::SharedHbm, name);
  ir::TensorDecl& d = kernel_->tensors[t->view.tensor];
  d.role = ir::TensorRole::Parameter;
  d.param_index = index;
  d.mutable_param = mutable_param;
  kernel_->params.push_back(d.id);
  return t;
}

namespace {

// The kernel functions of a module: values that are KernelObj.
std::vector<std::pair<std::string, std::shared_ptr<KernelObj>>> find_kernels(py::Env& env) {
  std::vector<std::pair<std::string, std::shared_ptr<KernelObj>>> out;
  for (auto& [name, v] : env.vars)
    if (auto k = std::dynamic_pointer_cast<KernelObj>(v)) out.emplace_back(name, k);
  return out;
}

}  // namespace

void Tracer::run(const py::Module& module) {
  load_module(module);
  // Module-level statements that fail are otherwise reported only where their names are used
  // (LazyErrorObj). An NKI API call at module level fails at import in Python, used or not.
  if (outside_kernel_error_) throw *outside_kernel_error_;
  // Pick the kernel.
  std::shared_ptr<py::FunctionObj> fn;
  bool pass_by_reference = false;  // @nki.trace kernels write their output arguments in place
  if (!opts_.kernel_name.empty()) {
    Ref* v = module_env()->lookup_local(opts_.kernel_name);
    if (!v) throw IoError("no function named '" + opts_.kernel_name + "' in " + file()->path());
    if (auto* lazy = py::cast<py::LazyErrorObj>(*v)) throw lazy->error;
    if (auto k = std::dynamic_pointer_cast<KernelObj>(*v)) {
      fn = k->fn;
      pass_by_reference = k->decorator == "trace";
    } else {
      fn = std::dynamic_pointer_cast<py::FunctionObj>(*v);
    }
    if (!fn) throw IoError("'" + opts_.kernel_name + "' in " + file()->path() + " is not a function");
  } else {
    auto kernels = find_kernels(*module_env());
    if (kernels.empty())
      throw IoError(std::string(kNoKernelFound) + " in " + file()->path() + " (use --kernel NAME)");
    if (kernels.size() > 1) {
      // @nki.trace marks sub-kernels; prefer the single entry point decorated otherwise.
      std::vector<std::pair<std::string, std::shared_ptr<KernelObj>>> entry;
      for (auto& k : kernels)
        if (k.second->decorator != "trace") entry.push_back(k);
      if (entry.size() == 1) kernels = entry;
    }
    if (kernels.size() > 1) {
      std::string names;
      for (auto& [n, k] : kernels) names += (names.empty() ? "" : ", ") + n;
      throw IoError("several kernels in " + file()->path() + " (" + names + "): choose one with --kernel NAME");
    }
    fn = kernels[0].second->fn;
    pass_by_reference = kernels[0].second->decorator == "trace";
  }
  kernel_->name = fn->name;
  if (fn->def) kernel_def_loc_ = fn->def->span.begin;
  // The launch grid's size is used as an int64 count everywhere (instances, bounds, budgets).
  if (!ir::checked_element_count(opts_.grid) ||
      std::any_of(opts_.grid.begin(), opts_.grid.end(), [](int64_t g) { return g < 1; }))
    nki_error(diag::Code::invalid_grid, "the SPMD launch grid " + shape_str(opts_.grid) +
                                  " must have positive dimensions whose product fits in 64 bits");
  kernel_->grid = opts_.grid;
  program_ids_grid = opts_.grid;

  tracing_ = true;
  py::CallArgs call = bind_parameters(*fn, pass_by_reference);
  Ref result = fn->call(*this, call);
  tracing_ = false;
  if (!errors_.empty()) {
    // The kernel body had errors (recover_statement): its outputs are unknown, so only the
    // checks of the instructions that were traced still say something true.
    root_.swap(kernel_->body);
    run_ir_checks(check::Pass::Bounds);
    return;
  }

  // Outputs.
  std::vector<Ref> outs;
  if (auto* tup = py::cast<py::TupleObj>(result)) {
    outs = tup->items;
    kernel_->returns_tuple = true;
  } else if (auto* lst = py::cast<py::ListObj>(result)) {
    outs = lst->items;
    kernel_->returns_tuple = true;
  } else if (!py::is_none(result)) {
    outs.push_back(result);
  }
  for (size_t i = 0; i < outs.size(); ++i) {
    auto* t = as_tensor(outs[i]);
    if (!t) nki_error(diag::Code::unsupported_return, "kernel return values must be HBM tensors, got " + outs[i]->type_name());
    int id = t->view.tensor;
    ir::TensorDecl& d = kernel_->tensors[id];
    if (!ir::is_hbm(d.buffer) && !opts_.simulation_leniency)
      nki_error(diag::Code::err_unsupported_memory,
                "kernel outputs must be HBM tensors, but '" + d.name + "' is in " + ir::buffer_name(d.buffer),
                "allocate the output with nl.ndarray(shape, dtype, buffer=nl.shared_hbm), nl.store the tile into it and return it");
    if (d.role == ir::TensorRole::Internal) {
      d.role = ir::TensorRole::Output;
      d.output_index = static_cast<int>(i);
    }
    kernel_->outputs.push_back(id);
  }
  root_.swap(kernel_->body);
  finish_checks();
}

void Tracer::finish_checks() { run_ir_checks(opts_.last_check); }

check::CheckInputs Tracer::check_inputs() const {
  check::CheckInputs in;
  in.max_errors = kMaxErrors;
  in.writes.write_counts = write_counts_;
  in.writes.kernel_def_loc = kernel_def_loc_;
  in.writes.last_return_loc = last_return_loc();
  in.target = target();
  in.direct_allocation = direct_alloc;
  in.direct_tensors = direct_tensors;
  in.folded_results = folded_results;
  return in;
}

void Tracer::run_ir_checks(check::Pass last) {
  checks_ = check::run_checks(*kernel_, check_inputs(), last);
  // Recorded in pipeline order; record_error keeps the first kMaxErrors.
  for (Diagnostic& d : checks_.errors()) record_error(std::move(d));
  for (Diagnostic& d : checks_.warnings()) warnings_.push_back(std::move(d));
}

TraceResult trace_kernel(const SourceFilePtr& file, const TraceOptions& opts) {
  TraceResult res;
  py::Module module;
  try {
    module = py::parse_module(file);
  } catch (DiagnosticError& e) {
    res.diagnostics.push_back(e.diagnostic());
    return res;
  }
  Tracer tracer(file, opts);
  return trace_with(tracer, file, module, opts);
}

TraceResult trace_with(Tracer& tracer, const SourceFilePtr& file, const py::Module& module,
                       const TraceOptions& opts) {
  TraceResult res;
  std::optional<MemoryBudget> budget;
  if (opts.max_eval_bytes > 0) budget.emplace(opts.max_eval_bytes);
  // Warnings, then the errors recorded while going on after errors, then the one that stopped
  // the compile (unless it repeats one, or follows from one, already reported).
  auto collect = [&](std::optional<Diagnostic> last) {
    res.diagnostics = tracer.warnings();
    for (const Diagnostic& d : tracer.errors()) res.diagnostics.push_back(d);
    bool repeated = last && std::any_of(tracer.errors().begin(), tracer.errors().end(), [&](const Diagnostic& d) {
      return d.line == last->line && d.col == last->col;
    });
    if (last && !repeated && tracer.errors().size() < Tracer::kMaxErrors) res.diagnostics.push_back(std::move(*last));
    res.checks = tracer.check_findings();
    res.kernel.reset();
  };
  auto fail_here = [&](std::string code, std::string message, std::string hint) {
    collect(make_diagnostic(Severity::Error, std::move(code), std::move(message), file, tracer.current_loc(),
                            std::move(hint)));
  };
  try {
    tracer.run(module);
    res.kernel = tracer.take_kernel();
  } catch (const std::bad_alloc&) {
    bool ours = budget && budget->refused();
    int64_t used = ours ? budget->used() : 0, asked = ours ? budget->refused_bytes() : 0;
    budget.reset();  // the diagnostic itself needs memory
    if (ours)
      fail_here(diag::Code::evaluation_memory,
                "compile-time evaluation of the kernel used more than its memory budget of " +
                    std::to_string(opts.max_eval_bytes >> 20) + " MiB (" + std::to_string(used >> 20) +
                    " MiB in use, a request for " + std::to_string(asked >> 20) + " MiB refused)",
                "a Python value built at compile time (a list, string or unrolled loop) grows without bound");
    else
      fail_here(diag::Code::evaluation_memory, "the machine ran out of memory while evaluating the kernel", "");
    return res;
  } catch (const ir::IndexOverflow& e) {
    fail_here(diag::Code::index_overflow, e.what(), "index expressions must stay within the tensor; check the scale of loop indices");
    return res;
  } catch (py::PyError& e) {
    if (!e.loc.valid()) e.loc = tracer.current_loc();
    collect(e.reported ? std::nullopt : std::optional<Diagnostic>(tracer.to_diagnostic(e)));
    return res;
  } catch (DiagnosticError& e) {
    collect(e.diagnostic());
    return res;
  }
  if (!tracer.errors().empty()) {
    collect(std::nullopt);
    return res;
  }
  res.diagnostics = tracer.warnings();
  res.checks = tracer.check_findings();
  return res;
}

}  // namespace nki::front
