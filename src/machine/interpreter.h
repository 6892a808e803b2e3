// Walks a kernel body: runs loops concretely, evaluates `if` conditions, (re)initialises tensors
// when the block that creates them is entered, and dispatches instructions.
#pragma once

#include <map>
#include <vector>

#include "ir/ir.h"
#include "machine/exec_context.h"

namespace nki::machine {

// For each tensor, the statement list (block) that creates it, derived from its scope_depth and
// the blocks enclosing its first use: the kernel body is depth 0, and every Loop body and If
// branch adds one level. Tensors created in a nested block are re-initialised each time that
// block is entered (e.g. every iteration of a loop for `nl.zeros` inside the loop).
struct ScopeInfo {
  // block (address of its std::vector<Stmt>) -> tensors created there
  std::map<const std::vector<ir::Stmt>*, std::vector<int>> created_in;
  std::vector<const std::vector<ir::Stmt>*> block_of;  // per tensor; kernel body when unused
  // Parent of every nested block (kernel body -> nullptr).
  std::map<const std::vector<ir::Stmt>*, const std::vector<ir::Stmt>*> parent;
};
ScopeInfo analyse_scopes(const ir::Kernel& k);

class Interpreter {
 public:
  Interpreter(ExecContext& cx, const ScopeInfo& scopes) : cx_(cx), scopes_(scopes) {}
  // Runs one SPMD instance (program ids already set in cx.env, memory prepared).
  void run_instance();

 private:
  void run_block(const std::vector<ir::Stmt>& body);
  void run_dynamic_loop(const ir::Loop& lp);
  [[noreturn]] void throw_bad_register();
  void enter_block(const std::vector<ir::Stmt>& body);
  void exec(const ir::Instr& in);

  ExecContext& cx_;
  const ScopeInfo& scopes_;
  const ir::Loop* loop_ = nullptr;  // innermost loop running, named by sim_budget errors
};

}  // namespace nki::machine
