#include "machine/executor.h"

#include <string>
#include <variant>

#include "base/diag_codes.h"
#include "base/dtype_convert.h"
#include "ir/walk.h"
#include "machine/atom_env.h"
#include "machine/exec_context.h"
#include "machine/interpreter.h"
#include "machine/memory.h"
#include "machine/ops.h"
#include "machine/sim_error.h"

namespace nki::machine {

namespace {

std::string shape_str(const std::vector<int64_t>& s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
  return r + "]";
}

void load_argument(const ir::Kernel& k, Memory& mem, int t, const HostTensor& a, size_t index) {
  const ir::TensorDecl& d = k.tensors[static_cast<size_t>(t)];
  if (a.dtype != d.dtype)
    throw_sim_error(k, d.loc, diag::Code::arg_dtype_mismatch,
                    "argument " + std::to_string(index) + " ('" + d.name + "') has dtype " +
                        dtype_name(a.dtype) + ", the kernel expects " + dtype_name(d.dtype));
  if (a.shape != d.shape)
    throw_sim_error(k, d.loc, diag::Code::arg_shape_mismatch,
                    "argument " + std::to_string(index) + " ('" + d.name + "') has shape " +
                        shape_str(a.shape) + ", the kernel expects " + shape_str(d.shape));
  const int64_t n = a.element_count();
  if (static_cast<int64_t>(a.data.size()) != n * static_cast<int64_t>(dtype_size(a.dtype)))
    throw_sim_error(k, d.loc, diag::Code::arg_bad_data,
                    "argument " + std::to_string(index) + " ('" + d.name + "') holds " +
                        std::to_string(a.data.size()) + " bytes for " + std::to_string(n) +
                        " elements");
  Storage& s = mem.storage(t);
  convert(a.dtype, a.data.data(), s.dtype, s.bytes.data(), static_cast<size_t>(n));
  if (!s.written.empty()) std::fill(s.written.begin(), s.written.end(), 1);
}

// Marks the root of every tensor an instruction may store into (dst, reduce_res; every operand
// of a Custom instruction, conservatively).
void mark_written(const std::vector<ir::Stmt>& body, const Memory& mem, std::vector<bool>& w) {
  ir::WalkCallbacks cb;
  cb.instr = [&](const ir::Instr& in, int) {
    if (in.dst.tensor >= 0) w[static_cast<size_t>(mem.root(in.dst.tensor))] = true;
    if (in.reduce_res && in.reduce_res->tensor >= 0)
      w[static_cast<size_t>(mem.root(in.reduce_res->tensor))] = true;
    if (in.op == ir::Opcode::Custom)
      for (const ir::Operand& o : in.srcs)
        if (!o.is_imm && o.access.tensor >= 0)
          w[static_cast<size_t>(mem.root(o.access.tensor))] = true;
  };
  ir::walk(body, cb);
}

HostTensor read_back(const ir::Kernel& k, Memory& mem, int t, bool may_move) {
  const ir::TensorDecl& d = k.tensors[static_cast<size_t>(t)];
  HostTensor h;
  h.dtype = d.dtype;
  h.shape = d.shape;
  const int64_t n = h.element_count();
  if (may_move && mem.root(t) == t && mem.storage_dtype(t) == d.dtype) {
    h.data = mem.take_bytes(t);
    if (static_cast<int64_t>(h.data.size()) == n * static_cast<int64_t>(dtype_size(d.dtype)))
      return h;
  }
  h.data.resize(static_cast<size_t>(n) * dtype_size(d.dtype));
  // Views (alias tensors) read their root's leading bytes at their own dtype.
  convert(mem.storage_dtype(t), mem.data(t), d.dtype, h.data.data(), static_cast<size_t>(n));
  return h;
}

}  // namespace

RunResult execute(const ir::Kernel& k, const std::vector<HostTensor>& args,
                  const RunOptions& options) {
  if (args.size() != k.params.size())
    throw_sim_error(k, SourceLoc{}, diag::Code::arg_count_mismatch,
                    "kernel '" + k.name + "' takes " + std::to_string(k.params.size()) +
                        " tensor argument(s), got " + std::to_string(args.size()));
  RunResult result;
  Memory mem(k, options);
  std::vector<bool> written(k.tensors.size(), false);
  mark_written(k.body, mem, written);
  // Parameters the kernel never stores into are read in place from the caller's buffers.
  std::vector<bool> borrowed(args.size(), false);
  for (size_t i = 0; i < args.size(); ++i) {
    int t = k.params[i];
    if (t < 0 || t >= static_cast<int>(k.tensors.size()))
      throw_sim_error(k, SourceLoc{}, diag::Code::sim_bad_ir, "parameter refers to an unknown tensor");
    const ir::TensorDecl& d = k.tensors[static_cast<size_t>(t)];
    if (mem.root(t) == t && !written[static_cast<size_t>(t)] && args[i].dtype == d.dtype &&
        args[i].shape == d.shape && mem.storage_dtype(t) == d.dtype &&
        args[i].data.size() == static_cast<size_t>(args[i].element_count()) * dtype_size(d.dtype)) {
      mem.borrow(t, args[i].data.data());
      borrowed[i] = true;
    }
  }
  mem.allocate_persistent();
  for (size_t i = 0; i < args.size(); ++i)
    if (!borrowed[i]) load_argument(k, mem, k.params[i], args[i], i);
  BlasSingleThread blas_guard;

  const ScopeInfo scopes = analyse_scopes(k);
  AtomEnv env(k);
  ExecContext cx(k, options, mem, env, result.warnings);
  Interpreter interp(cx, scopes);

  // SPMD instances in row-major order over the grid (spec §2.5, §7.3).
  std::vector<int64_t> pid(k.grid.size(), 0);
  int64_t instances = ir::element_count(k.grid);
  cx.work.precheck(instances);
  for (int64_t i = 0; i < instances; ++i) {
    env.set_program_ids(pid);
    mem.begin_instance();
    cx.regs.reset(nki::describe(cx.opt.target).partitions);
    try {
      interp.run_instance();
    } catch (const ir::IndexOverflow& e) {
      cx.fail(diag::Code::index_overflow, std::string(e.what()) + " while computing an index of this instruction",
              "index expressions must stay within the tensor; check the scale of loop indices");
    }
    for (size_t d = pid.size(); d-- > 0;) {
      if (++pid[d] < k.grid[d]) break;
      pid[d] = 0;
    }
  }
  mem.materialize_all();  // on-chip tiles can be results (legacy simulation kernels)

  // Parameter contents after the run: for pass-by-reference kernels, or when a parameter was
  // written (nt.mutable_tensor).
  bool any_param_written = false;
  for (int t : k.params) any_param_written |= written[static_cast<size_t>(mem.root(t))];
  if (k.outputs.empty() || any_param_written)
    for (size_t i = 0; i < k.params.size(); ++i)
      result.args_after.push_back(borrowed[i] ? args[i]
                                              : read_back(k, mem, k.params[i], false));
  for (size_t i = 0; i < k.outputs.size(); ++i) {
    int t = k.outputs[i];
    bool last_use = true;
    for (size_t j = i + 1; j < k.outputs.size(); ++j) last_use &= mem.root(k.outputs[j]) != mem.root(t);
    result.outputs.push_back(read_back(k, mem, t, last_use));
  }
  return result;
}

}  // namespace nki::machine
