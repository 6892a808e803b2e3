// The list scheduler behind cost::estimate (cost_model.h): walks the kernel with concrete loop
// values, places each instruction on its engine / DMA queue after its dependencies, and
// extrapolates loops once their per-iteration advance repeats.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "cost/branch_segments.h"
#include "cost/cost_model.h"
#include "cost/gap_resource.h"
#include "cost/geometry.h"
#include "cost/instr_cost.h"

namespace nki::cost {

// One scheduled instruction (or one extrapolated loop).
struct Rec {
  Unit unit = Unit::PE;
  double start = 0, end = 0, done = 0;
  const ir::Instr* instr = nullptr;  // null for a loop summary
  const ir::Loop* loop = nullptr;
  int64_t loop_iterations = 0;
  int pred = -1;                     // the record whose completion or engine release set `start`
};

// Everything that advances linearly while a loop runs in steady state.
struct Totals {
  std::array<double, kNumUnits> busy{};
  std::array<int64_t, kNumUnits> count{};
  double dma_engine_busy = 0, hbm_busy = 0, mm_flops = 0, transpose_flops = 0, vector_flops = 0;
  int64_t hbm_read = 0, hbm_write = 0, dma_bytes = 0, dma_count = 0, instructions = 0;
  void add_scaled(const Totals& a, const Totals& b, int64_t n);  // += n * (a - b)
};

class Scheduler {
 public:
  Scheduler(const ir::Kernel& k, const CostTable& t, const CostOptions& o);
  void run();
  CostReport report();

 private:
  struct Entry {
    Box box;
    double wdone = 0, rdone = -1;
    int wunit = -1, runit = -1, wrec = -1, rrec = -1;
  };
  struct Access {
    int64_t key;
    Box box;
  };
  // What an instruction costs does not depend on loop values (shapes and strides are static), so
  // it is worked out once per instruction, not once per scheduled or replayed execution.
  struct InstrInfo {
    bool dma = false;
    DmaCost dc;
    ComputeCost cc;                       // on the instruction's own engine
    std::vector<std::pair<Unit, ComputeCost>> alternatives;  // the compiler's engine choice
    std::vector<int> broadcast_srcs;      // indices into srcs of [1, F] partition-broadcast operands
  };
  const InstrInfo& info(const ir::Instr& in);
  // Timeline state compared between iterations to detect a steady state (appended to `out`).
  void append_clocks(std::vector<double>& out) const;
  // Work done so far per resource (compute engines, DMA engines, HBM), same purpose.
  void append_work(std::vector<double>& out) const;
  // iterate's buffers, one set per loop depth (a deque: growing it keeps outer frames' references).
  struct IterScratch {
    std::vector<double> hist_clocks, hist_work, delta, work_delta, prev_delta, prev_work_delta;
  };
  std::deque<IterScratch> scratch_;

  void run_block(const std::vector<ir::Stmt>& body, int depth, bool first_iteration);
  void find_invariant_compute();
  void limit_sbuf_instances();
  void limit_psum_instances();
  int64_t body_size(const std::vector<ir::Stmt>& body);
  void iterate(int64_t trips, int depth, const ir::Loop* loop, const std::function<void(int64_t)>& body,
               const std::function<void(int64_t, double, int)>& replay_iteration);
  void enter_block(const std::vector<ir::Stmt>& body, bool schedule = true);
  void exec(const ir::Instr& in);
  void perf_lints(const ir::Instr& in, bool dma, const std::vector<Access>& reads);
  // Extrapolated iterations: record what they read and write (no scheduling), at the times of
  // the same instructions in the last scheduled iteration plus `offset`.
  void replay_block(const std::vector<ir::Stmt>& body, double offset, int loop_rec, bool first_iteration);
  void charge_replayed_iteration();
  void replay(const ir::Instr& in, double offset, int loop_rec);
  void memset_tile(int tensor);
  void shift(double by, int64_t left, int loop_rec, const std::vector<double>& delta, const std::vector<double>& work_delta, int first_rec, double last_done);
  Access resolve(const ir::Access& a);
  double sync(int from, Unit to) const;
  int push(const Rec& r);
  void lint(const ir::Instr& in, const std::string& code, const std::string& msg, const std::string& hint);
  void single_buffered_load_lint(const ir::Instr& in);

  const ir::Kernel& k_;
  const CostTable& t_;
  const TargetDesc& hw_;  // the target's geometry (PSUM banks, partitions)
  const CostOptions& o_;
  ir::AtomEnv env_;  // saturating: a bound past int64 is tracked as the whole range
  BranchSegmenter segmenter_{k_};  // which iterations of a loop may be extrapolated together
  // Scopes: tensors created in each block, rotating instance of each tensor.
  std::map<const std::vector<ir::Stmt>*, std::vector<int>> created_in_;
  std::vector<int> root_, instances_, instance_;
  std::vector<char> in_loop_block_;  // by root tensor: created in a loop body (may rotate)
  // What each region (a tensor's rotating instance) was last written / read by: indexed by
  // region_base_[tensor] + instance (Access::key).
  std::vector<std::vector<Entry>> regions_;
  std::vector<int64_t> region_base_;
  // Loop-invariant compute the compiler hoists: runs on the first iteration of its loop only.
  std::unordered_set<const ir::Instr*> hoisted_;
  std::unordered_map<const void*, int64_t> body_size_;
  std::unordered_map<const ir::Instr*, InstrInfo> info_;
  std::vector<Access> reads_, writes_;  // exec's operands (reused)
  std::unordered_set<const ir::Instr*> fp32_checked_;  // perf_fp32_matmul looked at once per instruction
  // Partition broadcasts ([1, F] copied onto every partition, e.g. tile.broadcast_to): the copy is
  // the ones-matmul itself, on TensorE into PSUM, and its tile is read from PSUM (TP §2.2 [A1],
  // §3.4 operation table). By tensor id; the copies by instruction.
  std::vector<char> psum_resident_;
  std::unordered_set<const ir::Instr*> broadcast_copies_;
  void find_partition_broadcasts();

  std::array<double, kNumUnits> free_{};     // engine / queue next issue time
  std::array<double, kNumUnits> covered_{};  // DMA queues: busy-interval union so far
  std::array<int, kNumUnits> last_{};        // last record on each unit
  std::vector<GapResource> dma_engine_;
  GapResource hbm_;
  int dma_rr_ = 0;
  double frontier_ = 0;
  int frontier_rec_ = -1;
  std::vector<bool> act_seen_;
  Totals tot_;
  std::vector<Rec> recs_;
  std::unordered_map<const ir::Instr*, std::pair<double, double>> last_time_;  // end, done
  int64_t replayed_ = 0;
  int64_t scheduled_ = 0;
  int extrapolated_ = 0;
  std::vector<Lint> lints_;
  // HBM boxes loaded so far (perf_redundant_reload), compared exactly.
  struct LoadedRegion {
    int root;
    Box box;
    bool operator==(const LoadedRegion& o) const {
      if (root != o.root || box.rank != o.box.rank || box.whole != o.box.whole) return false;
      for (size_t d = 0; d < box.rank; ++d)
        if (box.lo[d] != o.box.lo[d] || box.hi[d] != o.box.hi[d]) return false;
      return true;
    }
  };
  struct LoadedRegionHash {
    size_t operator()(const LoadedRegion& r) const {
      uint64_t h = static_cast<uint64_t>(r.root) * 0x9E3779B97F4A7C15ull;
      for (size_t d = 0; d < r.box.rank; ++d) {
        h = (h ^ static_cast<uint64_t>(r.box.lo[d])) * 0x100000001B3ull;
        h = (h ^ static_cast<uint64_t>(r.box.hi[d])) * 0x100000001B3ull;
      }
      return static_cast<size_t>(h ^ (h >> 29));
    }
  };
  std::unordered_set<LoadedRegion, LoadedRegionHash> loaded_;
  std::unordered_set<int> hbm_written_;
  std::unordered_set<int> constant_tiles_;  // SBUF tiles loaded from compile-time constants
  int64_t psum_banks_ = 0;            // peak PSUM banks live at once, one buffer per tile
  std::unordered_set<int> psum_starved_;  // loop PSUM tiles that got no second buffer
  std::map<std::pair<std::string, int>, bool> linted_;
};

}  // namespace nki::cost
