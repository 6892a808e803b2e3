#include "cost/instr_cost.h"

#include "ir/custom_ops.h"

#include <algorithm>
#include <cmath>

#include "cost/geometry.h"

namespace nki::cost {

namespace {

bool is16(DType d) { return d == DType::BFloat16 || d == DType::Float16; }

Unit unit_of(ir::Engine e) {
  switch (e) {
    case ir::Engine::Tensor: return Unit::PE;
    case ir::Engine::Scalar: return Unit::ACT;
    case ir::Engine::GpSimd: return Unit::POOL;
    default: return Unit::DVE;  // Vector, Unknown (the compiler's usual choice), Sync
  }
}

const ir::Access* first_tensor_src(const ir::Instr& in, int skip = 0) {
  int seen = 0;
  for (const ir::Operand& o : in.srcs)
    if (!o.is_imm && o.access.tensor >= 0 && seen++ >= skip) return &o.access;
  return nullptr;
}

}  // namespace

double unit_ghz(const CostTable& t, Unit u) {
  switch (u) {
    case Unit::PE: return t.pe_ghz;
    case Unit::DVE: return t.dve_ghz;
    case Unit::ACT: return t.act_ghz;
    case Unit::POOL: return t.pool_ghz;
    default: return 1.0;
  }
}

bool is_dma_instr(const ir::Kernel& k, const ir::Instr& in) {
  if (in.engine == ir::Engine::Dma) return true;
  if (in.op != ir::Opcode::Copy || in.dst.tensor < 0) return false;
  const ir::Access* s = first_tensor_src(in);
  bool dst_hbm = ir::is_hbm(k.tensors[static_cast<size_t>(in.dst.tensor)].buffer);
  bool src_hbm = s && ir::is_hbm(k.tensors[static_cast<size_t>(s->tensor)].buffer);
  return dst_hbm || src_hbm;
}

std::vector<Unit> auto_candidates(const ir::Instr& in, const CostTable& t) {
  if (t.auto_engine_balance <= 0) return {};
  // nl.reciprocal / nl.abs run on Vector or Scalar (86051b85 general/nki/api/nki.api.shared.rst,
  // operator table and "NKI Engine Selection"); the tracer records them on ScalarE.
  if (in.op == ir::Opcode::Activation && (in.name == "nl.reciprocal" || in.name == "nl.abs"))
    return {Unit::ACT, Unit::DVE};
  if (in.engine != ir::Engine::Vector) return {};
  // The tracer records engine=unknown as the Vector Engine; the APIs below default to unknown
  // (SDK 2.24 nki.isa signatures) and nl.* element-wise ops leave the choice to the compiler.
  const std::string& n = in.name;
  // nl-level operations are recorded without a module prefix ("add", "multiply", "copy").
  bool chooses = n.find('.') == std::string::npos || n.rfind("nl.", 0) == 0 || n == "nisa.tensor_scalar" || n == "nisa.tensor_tensor" ||
                 n == "nisa.tensor_copy" || n == "nisa.memset";
  if (!chooses) return {};
  std::vector<Unit> c = {Unit::DVE};
  int streaming = 0;
  for (const ir::Operand& o : in.srcs) streaming += !o.is_imm;
  switch (in.op) {
    // GpSimdE is not a candidate for copies and ALU ops: the NKIBench baselines, whose element-wise
    // ops all leave the engine to the compiler, show 0.04-1.2 % GpSimd-active time (TP §3.9-4,
    // [AO-base] profile_results); the compiler puts them on VectorE / ScalarE.
    case ir::Opcode::Copy: c.push_back(Unit::ACT); if (t.auto_engine_pool > 0) c.push_back(Unit::POOL); break;
    case ir::Opcode::Memset: c.push_back(Unit::POOL); break;
    case ir::Opcode::Alu: {
      // ScalarE runs func(x * scale + bias): a multiply / add by a constant or [P,1] vector [A1].
      auto affine = [](ir::Alu a) { return a == ir::Alu::Add || a == ir::Alu::Subtract || a == ir::Alu::Multiply; };
      if (streaming <= 1 && affine(in.alu0) && (!in.has_second || affine(in.alu1))) c.push_back(Unit::ACT);
      if (t.auto_engine_pool > 0) c.push_back(Unit::POOL);
      break;
    }
    default: return {};
  }
  return c;
}

ComputeCost compute_cost(const ir::Kernel& k, const ir::Instr& in, const CostTable& t, int force,
                         const std::vector<char>* psum_resident) {
  ComputeCost c;
  c.unit = force >= 0 ? static_cast<Unit>(force) : unit_of(in.engine);
  const Layout dst = in.dst.tensor >= 0 ? layout_of(k, in.dst) : Layout{};
  // Tensor operands that stream over the free dim ([P,1] and scalars are per-partition constants).
  int streaming = 0;
  bool any_psum = dst.psum, all16 = is16(dst.dtype), all_sbuf = dst.sbuf, strided = dst.inner_stride_bytes > 16;
  int psum_inputs = 0, sbuf_inputs = 0;
  bool partition_broadcast = false;
  for (const ir::Operand& o : in.srcs) {
    if (o.is_imm || o.access.tensor < 0) continue;
    Layout l = layout_of(k, o.access);
    if (psum_resident && static_cast<size_t>(o.access.tensor) < psum_resident->size() &&
        (*psum_resident)[static_cast<size_t>(o.access.tensor)]) {
      l.psum = true;
      l.sbuf = false;
    }
    all16 &= is16(l.dtype);
    if (l.broadcast_free) continue;
    ++streaming;
    if (!l.hbm && l.partitions == 1 && dst.partitions > 1 && in.op != ir::Opcode::Matmul) {
      // Read on every partition: it arrives through a ones-matmul in PSUM.
      partition_broadcast = true;
      any_psum = true;
      all_sbuf = false;
      ++psum_inputs;
      continue;
    }
    any_psum |= l.psum;
    all_sbuf &= l.sbuf;
    psum_inputs += l.psum;
    sbuf_inputs += l.sbuf;
    strided |= l.inner_stride_bytes > 16;
  }
  const double N = static_cast<double>(std::max<int64_t>(dst.free_elems, 1));
  const double elems = static_cast<double>(std::max<int64_t>(dst.elements, 1));
  double cycles = N;       // engine cycles before the MIN_II floor
  double divisor = 1;      // perf-mode speed-up
  bool floor_ii = true;    // MIN_II applies
  double fixed = 0;        // cycles added on top (POOL start, accumulator read)

  auto copy_like_perf = [&]() {
    // [A2] NC-v3 perf mode for tensor_copy / tensor_scalar on 16-bit data.
    if (c.unit != Unit::DVE || !all16) return;
    divisor = (all_sbuf && !strided && !any_psum) ? t.dve_perf_mode_copy : t.dve_perf_mode_copy_psum;
  };

  switch (in.op) {
    case ir::Opcode::Matmul: {
      c.unit = Unit::PE;
      const ir::Access* st = first_tensor_src(in, 0);
      const ir::Access* mv = first_tensor_src(in, 1);
      Layout ls = st ? layout_of(k, *st) : Layout{}, lm = mv ? layout_of(k, *mv) : Layout{};
      double ns = static_cast<double>(std::max<int64_t>(ls.free_elems, 1));
      double nm = static_cast<double>(std::max<int64_t>(lm.free_elems, 1));
      double kp = static_cast<double>(std::max<int64_t>(ls.partitions, 1));
      c.fp32_matmul = ls.dtype == DType::Float32 || lm.dtype == DType::Float32;
      double kdt = c.fp32_matmul ? t.pe_fp32_factor : 1;
      // [ISA26] back-to-back nc_matmul: max(min(64, N_stationary), N_moving) PE cycles.
      cycles = kdt * std::max(std::min(t.mm_init_cycles, ns), nm);
      floor_ii = false;
      bool identity = mv && k.tensors[static_cast<size_t>(mv->tensor)].role == ir::TensorRole::Constant;
      (identity ? c.transpose_flops : c.mm_flops) += 2 * kp * ns * nm;
      break;
    }
    case ir::Opcode::Copy:
      cycles = N;
      copy_like_perf();
      break;
    case ir::Opcode::Alu: {
      bool tensor_tensor = streaming >= 2;
      if (tensor_tensor) {
        bool one_psum = psum_inputs >= 1 && sbuf_inputs >= 1;
        bool fast16 = t.dve_bf16_tt_fast_path > 0 && all16 && all_sbuf && !strided && !in.has_second &&
                      (in.alu0 == ir::Alu::Add || in.alu0 == ir::Alu::Multiply || in.alu0 == ir::Alu::Subtract);
        // [ISA26] tensor_tensor: N with one input in PSUM, N on the NC-v2 bf16 fast path, else 2N.
        cycles = (one_psum || fast16) ? N : 2 * N;
        if (c.unit == Unit::DVE && all16 && all_sbuf) divisor = t.dve_perf_mode_tt;
      } else {
        cycles = N;  // tensor_scalar: one or two ALU ops cost the same [ISA26]
        copy_like_perf();
      }
      c.vector_flops = elems * (in.has_second ? 2 : 1);
      break;
    }
    case ir::Opcode::Activation:
      if (c.unit == Unit::DVE && in.act == ir::Act::Reciprocal) cycles = t.dve_reciprocal_factor * N;
      else cycles = N;
      if (in.reduce_op) fixed += t.min_ii;  // ActReadAccumulator / tensor_scalar_reduce [A1]
      c.vector_flops = elems;
      break;
    case ir::Opcode::Reduce: {
      const ir::Access* s = first_tensor_src(in);
      Layout ls = s ? layout_of(k, *s) : Layout{};
      double n_in = static_cast<double>(std::max<int64_t>(ls.free_elems, 1));
      bool half = is16(ls.dtype) && is16(dst.dtype) && (in.alu0 == ir::Alu::Add || in.alu0 == ir::Alu::Maximum);
      cycles = half ? n_in / 2 : n_in;  // [ISA26] tensor_reduce
      c.vector_flops = static_cast<double>(std::max<int64_t>(ls.elements, 1));
      break;
    }
    case ir::Opcode::Memset:
      cycles = (is16(dst.dtype) && !in.srcs.empty() && in.srcs[0].is_imm && in.srcs[0].imm == 0) ? N / 2 : N;
      copy_like_perf();
      break;
    case ir::Opcode::Iota:
      c.unit = c.unit == Unit::DVE ? Unit::POOL : c.unit;
      cycles = N;
      break;
    case ir::Opcode::Select:
      // affine_select on GpSimd: ~150 + N [ISA26]; predicated copy with SBUF predicate: 2N.
      cycles = in.select_pred ? N : (all_sbuf ? 2 * N : N);
      break;
    case ir::Opcode::Scan:
      cycles = 2 * N;  // tensor_tensor_scan [ISA26]
      c.vector_flops = 2 * elems;
      break;
    case ir::Opcode::Register:
      break;  // never reached: cost::estimate refuses register operations before scheduling
    case ir::Opcode::Custom: {
      using ir::CustomOp;
      const CustomOp op = in.custom;
      const ir::Access* s = first_tensor_src(in);
      Layout ls = s ? layout_of(k, *s) : Layout{};
      double n_in = static_cast<double>(std::max<int64_t>(ls.free_elems, 1));
      if (op == CustomOp::Transpose || op == CustomOp::NcTranspose) {
        if (c.unit == Unit::PE) {
          // [ISA26] PE transpose: max(P, min(64, F)) back-to-back; fp32 slower (v2 4x, v3 2x).
          double p = static_cast<double>(std::max<int64_t>(ls.partitions, 1));
          double kt = ls.dtype == DType::Float32 ? t.pe_transpose_fp32_factor : 1;
          cycles = kt * std::max(p, std::min(t.mm_init_cycles, n_in));
          floor_ii = false;
          c.transpose_flops = 2 * p * p * n_in;
        } else {
          cycles = N;
        }
      } else if (op == CustomOp::BnAggr) {
        cycles = t.dve_bn_aggr_factor * n_in;
      } else if (op == CustomOp::BnStats || op == CustomOp::Max8 || op == CustomOp::NcFindIndex8 ||
                 op == CustomOp::NcMatchReplace8 || op == CustomOp::Dropout || op == CustomOp::RangeSelect ||
                 op == CustomOp::SelectReduce || op == CustomOp::NcStreamShuffle ||
                 op == CustomOp::TensorPartitionReduce || op == CustomOp::GatherFlattened) {
        cycles = std::max(n_in, N);
      } else if (op == CustomOp::TensorScalarCumulative) {
        cycles = 2 * N;  // a scan over the free dim, like tensor_tensor_scan
      } else if (op == CustomOp::DevicePrint || op == CustomOp::RandomSeed) {
        cycles = 0;
        floor_ii = false;
      } else {
        cycles = std::max(n_in, N);  // rand, local_gather, sequence_bounds, others: one pass
      }
      break;
    }
  }
  if (c.unit == Unit::POOL) {
    // GpSimd: start-up plus one 32-bit element per partition per cycle (2 for 16-bit) [A1][ISA26].
    double w = t.pool_elems_per_cycle_32b * (is16(dst.dtype) ? 2 : 1);
    cycles = t.pool_start_cycles + cycles / w;
  }
  if (c.unit != Unit::PE) {
    cycles = cycles / std::max(divisor, 1e-9);
    if (strided) cycles *= t.stride_penalty;
    if (floor_ii) cycles = std::max(t.min_ii, cycles);
  }
  cycles += fixed;
  if (partition_broadcast) {
    double p = static_cast<double>(std::max<int64_t>(dst.partitions, 1));
    c.pe_broadcast_ns = std::max(std::min(t.mm_init_cycles, p), N) / t.pe_ghz;
  }
  const double ghz = unit_ghz(t, c.unit);
  c.ii_ns = cycles / ghz;
  switch (c.unit) {
    case Unit::PE: c.lat_ns = c.ii_ns + t.pe_latency_cycles / ghz; break;
    case Unit::DVE: c.lat_ns = c.ii_ns; c.dep_extra_ns = t.dve_dep_cycles / ghz; break;
    case Unit::ACT: c.lat_ns = c.ii_ns; c.dep_extra_ns = t.act_dep_cycles / ghz; break;
    default: c.lat_ns = c.ii_ns; break;
  }
  return c;
}

DmaCost dma_cost(const ir::Kernel& k, const ir::Instr& in, const CostTable& t) {
  DmaCost d;
  const ir::Access* src = first_tensor_src(in);
  const ir::Access& dst = in.dst;
  const ir::TensorDecl& td = k.tensors[static_cast<size_t>(dst.tensor)];
  const ir::TensorDecl* ts = src ? &k.tensors[static_cast<size_t>(src->tensor)] : nullptr;
  const bool dst_hbm = ir::is_hbm(td.buffer), src_hbm = ts && ir::is_hbm(ts->buffer);
  d.queue = (src_hbm && !dst_hbm) ? Unit::DmaLoad : (dst_hbm && !src_hbm) ? Unit::DmaStore : Unit::DmaOther;

  const int64_t elems = std::max<int64_t>(ir::element_count(dst.shape), 0);
  const int64_t dsize = static_cast<int64_t>(dtype_size(td.dtype));
  d.bytes = elems * dsize;
  if (src_hbm) d.hbm_read = elems * static_cast<int64_t>(dtype_size(ts->dtype));
  if (dst_hbm) d.hbm_write = d.bytes;

  // Contiguous runs: the longest innermost stretch of the (shared) iteration space that is
  // contiguous on both sides and stays within one partition of an on-chip side [A1] [DMA].
  DimWalk wd = dim_walk(k, dst);
  DimWalk ws = src ? dim_walk(k, *src) : wd;
  const bool same_space = src && src->shape == dst.shape;
  int64_t run = 1;
  for (size_t j = dst.shape.size(); j-- > 0;) {
    int64_t n = dst.shape[j];
    if (n == 1) continue;
    bool ok_d = !wd.partition[j] && wd.stride[j] == run && !(dst.indirect);
    bool ok_s = !same_space || (!ws.partition[j] && ws.stride[j] == run && !(src->indirect));
    if (!ok_d || !ok_s) break;
    run *= n;
  }
  d.run_bytes = run * dsize;
  d.runs = std::max<int64_t>(elems / std::max<int64_t>(run, 1), 1);
  // Partitions on the on-chip side decide how many of the 16 engines share the transfer.
  const ir::Access* chip = !dst_hbm ? &dst : (src && !src_hbm ? src : nullptr);
  d.partitions = chip ? std::max<int64_t>(layout_of(k, *chip).partitions, 1) : static_cast<int64_t>(t.dma_engines) * 8;
  const int64_t per_engine = static_cast<int64_t>(t.dma_partitions_per_engine);
  d.engines = static_cast<int>(std::clamp<int64_t>((d.partitions + per_engine - 1) / per_engine, 1,
                                                   static_cast<int64_t>(t.dma_engines)));
  const double eng_bytes = static_cast<double>(d.bytes) / d.engines;
  const double eng_runs = std::ceil(static_cast<double>(d.runs) / d.engines);
  // Element-granular runs on one side (a transposing load): the DMA transpose path [A2] [PG].
  d.transpose = d.run_bytes < 16 && elems > 1 && same_space;
  if (d.transpose) {
    d.engine_ns = eng_bytes / (t.dma_engine_bytes_per_ns * t.dma_transpose_efficiency);
  } else {
    // Each packet (contiguous run) costs a fixed descriptor time plus its bytes at the engine
    // rate [A1] [DBW]; the per-DMA fixed cost is on the queue (scheduler, dma_queue_fixed_ns).
    double per_run = t.dma_run_ns + static_cast<double>(d.run_bytes) / t.dma_engine_bytes_per_ns;
    d.engine_ns = eng_runs * per_run;
  }
  d.hbm_ns = static_cast<double>(d.hbm_read + d.hbm_write) / t.hbm_gb_per_s;  // B / (GB/s) = ns
  return d;
}

}  // namespace nki::cost
