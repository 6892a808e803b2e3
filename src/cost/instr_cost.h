// Per-instruction cost: which timeline runs an instruction, its initiation interval (how long
// it occupies the engine) and latency (when its results are visible), from the formulas of
// shared/docs/trainium-perf.md §2.6 and §3.4 with the coefficients of cost_table.def.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cost/cost_model.h"
#include "cost/cost_table.h"
#include "ir/ir.h"

namespace nki::cost {

bool is_dma_instr(const ir::Kernel& k, const ir::Instr& in);

struct ComputeCost {
  Unit unit = Unit::DVE;
  double ii_ns = 0;        // engine occupancy
  double lat_ns = 0;       // start -> result visible
  double dep_extra_ns = 0; // added to lat when a dependant on the same engine waits (DVE/ACT static overhead)
  double mm_flops = 0, transpose_flops = 0, vector_flops = 0;
  bool fp32_matmul = false;
  // A partition-broadcast operand (a [1, F] tile read on every partition) is produced by a
  // ones-matmul on TensorE into PSUM first [A1] (TP §3.4.1): its PE time.
  double pe_broadcast_ns = 0;
};
// Cost on the instruction's engine, or on `force` (Auto engine choice). `psum_resident` (by
// tensor id, may be null) marks on-chip tiles that live in PSUM although declared in SBUF: the
// destination of a partition broadcast, which is a ones-matmul into PSUM (TP §2.2 [A1], §3.4).
ComputeCost compute_cost(const ir::Kernel& k, const ir::Instr& in, const CostTable& t, int force = -1,
                         const std::vector<char>* psum_resident = nullptr);

// Engines the compiler may choose for `in` (empty when the engine is fixed).
std::vector<Unit> auto_candidates(const ir::Instr& in, const CostTable& t);

struct DmaCost {
  Unit queue = Unit::DmaLoad;
  int64_t bytes = 0;           // payload moved
  int64_t hbm_read = 0, hbm_write = 0;
  int64_t partitions = 1;      // SBUF-side partitions (decides how many engines share it)
  int64_t runs = 1;            // contiguous runs (DMA packets)
  int64_t run_bytes = 0;       // bytes per run
  bool transpose = false;      // element-granular on one side (DMA transpose path)
  int engines = 1;
  double engine_ns = 0;        // data time on each engine used
  double hbm_ns = 0;           // time on the shared HBM server
};
DmaCost dma_cost(const ir::Kernel& k, const ir::Instr& in, const CostTable& t);

// Engine clock in GHz for a compute unit.
double unit_ghz(const CostTable& t, Unit u);

}  // namespace nki::cost
