// State shared by the instruction implementations while one kernel runs: the kernel, options,
// memory, loop/program-id values, engine accumulator registers, the PRNG and the warnings list.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "base/diag_codes.h"
#include "base/diagnostic.h"
#include "ir/ir.h"
#include "machine/atom_env.h"
#include "machine/executor.h"
#include "machine/memory.h"
#include "machine/sim_error.h"
#include "machine/work_budget.h"

namespace nki::machine {

// Per-engine accumulator registers (spec §7.3): one fp32 lane per partition.
struct AccumRegs {
  std::vector<float> scalar, vector, gpsimd;
  std::vector<float>& of(ir::Engine e) {
    if (e == ir::Engine::Vector) return vector;
    if (e == ir::Engine::GpSimd) return gpsimd;
    return scalar;
  }
  void reset(int64_t partitions) {
    for (auto* r : {&scalar, &vector, &gpsimd}) r->assign(static_cast<size_t>(partitions), 0.f);
  }
};

// Counter-based PRNG (splitmix64 over seed and a running counter): deterministic for a given
// seed and instruction sequence; tests must not depend on exact values (spec §7.3).
struct Rng {
  uint64_t seed = 0x5eed5eed5eedULL;
  uint64_t counter = 0;
  uint64_t next() {
    uint64_t z = seed + 0x9e3779b97f4a7c15ULL * ++counter;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1) with 24 random bits.
  float uniform() { return static_cast<float>(next() >> 40) * (1.0f / 16777216.0f); }
};

struct ExecContext {
  ExecContext(const ir::Kernel& kernel, const RunOptions& options, Memory& memory, AtomEnv& atoms,
              std::vector<Diagnostic>& warn)
      : k(kernel), opt(options), mem(memory), env(atoms), warnings(warn),
        work(kernel, options.max_work, options.max_seconds) {
    regs.reset(nki::describe(options.target).partitions);
  }

  const ir::Kernel& k;
  const RunOptions& opt;
  Memory& mem;
  AtomEnv& env;
  std::vector<Diagnostic>& warnings;
  AccumRegs regs;
  Rng rng;
  WorkMeter work;
  // Virtual registers (ir::Kernel::registers): 32-bit integers, zero until written.
  std::vector<int32_t> vregs = std::vector<int32_t>(k.registers.size(), 0);
  const ir::Instr* instr = nullptr;  // the instruction being executed

  [[noreturn]] void fail(std::string code, std::string message, std::string hint = {}) const {
    throw_sim_error(k, instr ? instr->loc : SourceLoc{}, std::move(code), std::move(message),
                    std::move(hint));
  }

  // Records an uninitialised read of `tensor` by the current instruction (once per site).
  void note_uninit(bool happened, int tensor) {
    if (!happened) return;
    int line = instr ? instr->loc.line : 0, col = instr ? instr->loc.col : 0;
    if (!warned_.insert({line * 4096 + col, tensor}).second) return;
    warnings.push_back(make_diagnostic(
        Severity::Warning, diag::Code::uninitialized_read,
        "'" + (instr ? instr->name : std::string("instruction")) +
            "' reads elements of tensor '" + k.tensors[static_cast<size_t>(tensor)].name +
            "' that were never written (they hold NaN / the integer sentinel)",
        k.file, instr ? instr->loc : SourceLoc{}));
  }

 private:
  std::set<std::pair<int64_t, int>> warned_;
};

}  // namespace nki::machine
