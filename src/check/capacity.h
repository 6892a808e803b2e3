// On-chip capacity check (allocation accounting). neuronxcc's own allocator and scheduler decide
// where and when each SBUF/PSUM tile lives, so this check only REJECTS what no allocation can
// fit; everything else it has to say is a warning (project rule: a check that cannot prove a
// kernel invalid does not reject it).
//
// Errors, `sbuf_capacity_exceeded` / `psum_capacity_exceeded` (project codes: the SDK 2.24 error
// manual has none for this):
//  * one physical tile of a tensor that the kernel uses (prod of its free dims x dtype size; each
//    block of a tensor with block dims is one tile) is larger than a partition of its memory;
//  * the operands one instruction reads need more than a partition at the same time (distinct
//    source tensors, only the tiles the instruction touches), or the results it writes do. A
//    result may take the memory of a source whose last use is that instruction, so sources and
//    results are not added up.
//
// Warnings, `sbuf_capacity_estimate` / `psum_capacity_estimate`: the live-range model of
// liveness.h (shortest lifetimes the IR allows, one instance per loop body, live physical tiles
// of block tensors, a result taking the place of a source that dies at its instruction) finds a
// point where the live tensors exceed a partition. The compiler may still fit the kernel
// (rematerialisation, spilling, a schedule this model does not see), so the kernel compiles.
//
// Tiles of <= 64 partitions may share bytes in different partition quadrants, and the limit is
// the physical partition size. See docs/simulator.md ("Capacity check") for the model and its
// sources.
//
// Kernels with direct allocation (ncc.sbuf/psum.alloc, mod_alloc) place every tile themselves;
// this check does not apply to them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "ir/ir.h"
#include "target/target.h"

namespace nki::check {

// The limits are the target's physical bytes per SBUF / PSUM partition (TargetDesc::
// sbuf_partition_bytes, psum_partition_bytes), not the SBUF bytes left to NKI tensors after the
// compiler reserve (sbuf_direct_alloc_bytes): the slack keeps borderline kernels accepted.

// Bytes one partition of tensor `d` (B..., P, F...) holds with all its blocks: prod(B) * prod(F)
// * dtype size.
int64_t partition_bytes(const ir::TensorDecl& d);
// Bytes per partition of one physical tile (one block): prod(F) * dtype size.
int64_t tile_partition_bytes(const ir::TensorDecl& d);

// The live-range estimate of the bytes per partition `buf` needs at its fullest point.
int64_t peak_partition_bytes(const ir::Kernel& k, ir::Buffer buf);

// The first provable capacity error (SBUF, then PSUM), or nothing when the kernel may fit.
// Appends the estimate warnings to `warnings` when there is no error. The limits and the name in
// messages are the target's (target/target.h).
std::optional<Diagnostic> capacity_error(const ir::Kernel& k, Target target,
                                         std::vector<Diagnostic>* warnings = nullptr);

}  // namespace nki::check
