// Operand / attribute conventions of the Custom instructions the simulator implements
// (ir::Opcode::Custom, dispatched on Instr::custom; the list of operations, their operand-count
// ranges and engines is the table ir/custom_ops.def). The tracer emits IR following this table.
//
// Conventions shared by all of them:
//  * "[P, F]" means: the operand's iteration space with dim 0 as the partition dim and all
//    remaining dims flattened row-major into F. Each operand's own Access.shape is used (they
//    need not match the destination's).
//  * Arithmetic is fp32 (operands converted from their dtype; the result is cast to the
//    destination dtype on store with RNE / saturation), unless stated otherwise.
//  * Instr::mask, when present, ranges over the destination's iteration space and limits which
//    destination elements are written (masked-out ones are unchanged).
//
// name                     operands / attributes -> semantics
// ------------------------ ------------------------------------------------------------------
// bn_stats                 srcs[0] data [P, F] -> dst [P, 6] = per partition (count, mean,
//                          var*count) of the even-position elements then of the odd-position
//                          elements (positions along F; population variance). Optional
//                          srcs[1] [P, F]: 0/1 membership; only elements with 1 are counted.
// bn_aggr                  srcs[0] stats [P, 3n] (n (count, mean, var*count) triples) ->
//                          dst [P, 2] = (mean, population variance) of the union.
// max8                     srcs[0] data [P, F] (F >= 8) -> dst [P, 8]: the 8 largest values in
//                          descending order (fp32 compare).
// nc_find_index8           srcs[0] data [P, F], srcs[1] vals [P, 8] -> dst [P, 8] (uint32 or
//                          uint16): flat index of the first occurrence of each value; a
//                          repeated value finds its next occurrence; absent -> all ones.
// nc_match_replace8        srcs[0] data [P, F], srcs[1] vals [P, 8], float_attrs[0] imm,
//                          optional srcs[2] dst_idx [P, 8] (written in place) -> dst = data
//                          with the first occurrence of each value replaced by imm, vals
//                          processed in reverse order (last first); absent values: no
//                          replacement, index all ones.
// gather_flattened         srcs[0] data [P, F], srcs[1] indices [P, G] (integers) ->
//                          dst [P, G]: dst[p, j] = data[p, indices[p, j]]; an out-of-range
//                          index yields the uninitialised pattern (NaN / 4).
// tensor_partition_reduce  srcs[0] data [P, F], alu0 = op (add, max, min, multiply, or bitvec
//                          and/or/xor on integer bits) -> dst [1, F]: fold over partitions
//                          0..P-1 (fp32, left to right).
// dropout                  srcs[0] data [P, F], srcs[1] prob (imm or [P, 1] / broadcast
//                          access) -> dst [P, F]: 0 where u < prob, else data, u uniform [0,1)
//                          from the simulator PRNG (no rescaling).
// rand                     -> dst: uniform [0, 1) values from the simulator PRNG.
// random_seed              srcs[0] seed (imm or a one-element access) -> reseeds the PRNG.
// nc_stream_shuffle        srcs[0] src [P, F], int_attrs = shuffle mask (up to 32 entries) ->
//                          dst [P', F] written in place: within each 32-partition quadrant q,
//                          dst[32q + i] = src[32q + mask[i]]; mask entry 255 leaves dst[32q+i]
//                          unchanged. Bit-exact when dtypes match.
// local_gather             srcs[0] src [P, F], srcs[1] index [P, J] (integers), int_attrs[0] =
//                          num_elem_per_idx (default 1), int_attrs[1] = num_valid_indices
//                          (default P/16 cores' share: 16*J) -> dst [P, V*E]: for the GpSimd
//                          core c owning partitions 16c..16c+15, the indices of those partitions
//                          are read partition-first (column-major) and the first V are kept;
//                          dst[p, v*E + e] = src[p, idx_c[v] + e] (element offsets into the
//                          flattened free dims). Bit-exact.
// range_select             srcs[0] on_true [P, F], srcs[1] bound0 [P, 1], srcs[2] bound1 [P, 1],
//                          int_attrs {comp_op0, comp_op1, range_start = 0} (comparison
//                          operators as ir::Alu values), float_attrs[0] = on_false_value ->
//                          dst [P, F] = on_true where comp_op0(range_start + j, bound0[p]) and
//                          comp_op1(range_start + j, bound1[p]) (compared in fp32), else
//                          on_false. Optional accumulator reduction of dst through reduce_op /
//                          reduce_cmd / reduce_res (VectorE registers, as for activation).
// select_reduce            srcs[0] predicate (dst-shaped), srcs[1] on_true, srcs[2] on_false
//                          (imm, [P, 1] broadcast or dst-shaped), int_attrs[0] = reverse_pred ->
//                          dst = predicate != 0 (xor reverse) ? on_true : on_false; optional
//                          accumulator reduction as range_select.
// sequence_bounds          srcs[0] segment_ids [1, n] -> dst [1, 2, n]: row 0 = start of the
//                          run of equal ids containing the element, row 1 = its end
//                          (exclusive); padding (id 0) gets start n, end -1.
// tensor_scalar_cumulative srcs[0] src [P, F], srcs[1] imm0, srcs[2] imm1 (imm or [P, 1] broadcast
//                          accesses), int_attrs {op0, op1, reduce_cmd} (ir::Alu values; 2 reduce,
//                          3 reset_reduce, 4 load_reduce) -> dst [P, F]: per partition, reg is
//                          reset to op1's identity (3), loaded from imm1 (4) or kept (2), then
//                          reg = op1(op0(src[p, j], imm0), reg) and dst[p, j] = reg for j = 0..F-1
//                          (fp32). reg is the VectorE accumulator register and persists.
// transpose / nc_transpose srcs[0] data [P, F] -> dst [F, P]. On TensorE with Target::Trn1 it
//                          is a matmul with the identity (fp32 sums over partitions: a NaN, or
//                          an Inf times 0, in input column f makes output row f NaN, except an
//                          Inf at its own position); elsewhere an exact copy.
// device_print             name "nl.device_print#PREFIX", srcs[0] = tensor -> no write; appends a
//                          Note diagnostic (code device_print, at the instruction) to
//                          RunResult::warnings: "PREFIX [shape] v0 v1 ..." (fp32 values in
//                          row-major order, at most 256). Printing works only in simulation.
#pragma once

namespace nki::machine {}  // conventions only; the implementation is custom_ops.cpp
