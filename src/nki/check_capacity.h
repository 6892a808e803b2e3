// On-chip capacity check (allocation accounting): a kernel whose SBUF or PSUM tensors cannot all
// fit at some point of the program is a compile error, `sbuf_capacity_exceeded` /
// `psum_capacity_exceeded` (project codes: the SDK 2.24 error manual has none for this).
//
// The usage is a lower bound, so that only kernels that certainly cannot fit are rejected:
// live ranges from liveness.h (shortest lifetimes the IR allows), one instance per loop body,
// tiles of <= 64 partitions packed into partition quadrants, and the physical partition size as
// the limit. See docs/simulator.md ("Capacity check") for the model and its sources.
//
// Kernels with direct allocation (ncc.sbuf/psum.alloc, mod_alloc) place every tile themselves;
// this check does not apply to them.
#pragma once

#include <cstdint>
#include <optional>

#include "base/diagnostic.h"
#include "ir/ir.h"

namespace nki::front {

enum class Target;

// Bytes per partition of the physical SBUF: 192 KiB on trn1 (NeuronCore-v2,
// general/nki/arch/trainium_inferentia2_arch.rst), 224 KiB on trn2 (NeuronCore-v3, current docs
// nki/guides/architecture/trainium2_arch.rst; the 2.24 page is a stub). PSUM: 16 KiB per
// partition on both, 8 banks of 2 KiB (same pages). Not the 176 KiB left to NKI tensors after
// the 16 KiB compiler reserve (nki_direct_allocation_guide.rst, NeuronCore-v2 only): the slack
// keeps borderline kernels accepted.
int64_t sbuf_partition_limit(Target t);
inline constexpr int64_t kPsumPartitionLimit = 16 * 1024;

// Bytes one partition of tensor `d` (B..., P, F...) holds: prod(B) * prod(F) * dtype size.
int64_t partition_bytes(const ir::TensorDecl& d);

// Lower bound of the bytes per partition `buf` needs at its fullest point.
int64_t peak_partition_bytes(const ir::Kernel& k, ir::Buffer buf);

// The first capacity error (SBUF, then PSUM), or nothing when the kernel may fit.
std::optional<Diagnostic> capacity_error(const ir::Kernel& k, Target target);

}  // namespace nki::front
