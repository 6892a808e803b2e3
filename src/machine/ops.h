// Instruction implementations, one per ir::Opcode (semantics: comments in src/ir/ir.h and
// docs/simulator.md). Each reads the current instruction from cx.instr's argument.
#pragma once

#include "ir/ir.h"
#include "machine/exec_context.h"

namespace nki::machine {

void exec_copy(ExecContext& cx, const ir::Instr& in);
void exec_alu(ExecContext& cx, const ir::Instr& in);
void exec_activation(ExecContext& cx, const ir::Instr& in);
void exec_memset(ExecContext& cx, const ir::Instr& in);
void exec_register(ExecContext& cx, const ir::Instr& in);
void exec_iota(ExecContext& cx, const ir::Instr& in);
void exec_select(ExecContext& cx, const ir::Instr& in);
void exec_reduce(ExecContext& cx, const ir::Instr& in);
void exec_scan(ExecContext& cx, const ir::Instr& in);
void exec_matmul(ExecContext& cx, const ir::Instr& in);
void exec_custom(ExecContext& cx, const ir::Instr& in);

// Keeps BLAS single-threaded while alive (the simulator's GEMMs are tile-sized).
class BlasSingleThread {
 public:
  BlasSingleThread();
  ~BlasSingleThread();
  BlasSingleThread(const BlasSingleThread&) = delete;
  BlasSingleThread& operator=(const BlasSingleThread&) = delete;

 private:
  int saved_;
};

// Folds `values` (P rows of F fp32 values, row-major; `mask` nullable, same layout) into the
// accumulator registers of `engine` per reduce_cmd, then writes the registers to `reduce_res`
// when given. Shared by activation and tensor_scalar_reduce.
void accumulate_registers(ExecContext& cx, const ir::Instr& in, const float* values,
                          const uint8_t* mask, int64_t P, int64_t F, int reduce_cmd);

}  // namespace nki::machine
