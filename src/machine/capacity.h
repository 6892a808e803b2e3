// Static on-chip capacity accounting (used by the checker): SBUF and PSUM bytes per partition
// over the tensors that can be live at the same time (spec §4.1: SBUF 192 KiB per partition on
// trn1, 224 KiB on trn2; PSUM 16 KiB per partition in 8 banks of 2 KiB, and one PSUM tile must
// fit in a bank).
//
// Liveness is a simple upper bound: a tensor is live in the block that creates it (see
// ScopeInfo in interpreter.h) and every block nested in it, so the usage of a block is the sum
// of the tensors created in it and in its enclosing blocks, each counted once. The per-partition
// size of a tensor (B..., P, F...) is prod(B) * prod(F) * dtype size.
#pragma once

#include <cstdint>
#include <vector>

#include "base/diagnostic.h"
#include "ir/ir.h"
#include "machine/executor.h"

namespace nki::machine {

inline constexpr int64_t kPsumBankBytes = 2048;
inline constexpr int64_t kPsumPartitionBytes = 16 * 1024;
int64_t sbuf_partition_bytes(Target t);

// Bytes one partition of tensor `d` occupies.
int64_t partition_bytes(const ir::TensorDecl& d);

// Errors `sbuf_capacity_exceeded` / `psum_capacity_exceeded` (located at the biggest tensor
// involved, naming the biggest tensors); empty when everything fits.
std::vector<Diagnostic> check_capacity(const ir::Kernel& k, Target target);

}  // namespace nki::machine
