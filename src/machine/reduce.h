// Reductions along the free axis of a row-major [partitions, free_size] array, one result per
// partition (nl.sum/prod/max/min/mean, nisa.tensor_reduce, accumulator folds).
//
// Order and precision (shared/docs/nki-spec.md §7.3 "Reductions" and "Accumulator registers"):
// fp32 accumulation, strictly left to right, starting from the op's identity (0 for add, 1 for
// multiply, -inf for max, +inf for min, ...), i.e. acc = op(acc, x[f]) for f = 0..F-1. So a
// subtract reduction yields -(x0 + x1 + ...), and an empty row yields the identity.
#pragma once

#include <cstddef>
#include <cstdint>

#include "machine/alu.h"

namespace nki {

// acc = op(acc, x[i]) for i = 0..n-1, starting from `init`; returns acc.
float fold(AluOp op, float init, const float* x, size_t n);
uint32_t fold_bits(AluOp op, uint32_t init, const uint32_t* x, size_t n);

// out[p] = fold(op, identity(op), in[p, :]). `op` must be reduction-legal
// (alu_info(op).reduction_legal), else std::invalid_argument.
void reduce_free(AluOp op, const float* in, size_t partitions, size_t free_size, float* out);
// out[p] = sum(in[p, :]) / free_size in fp32 (NaN for free_size == 0).
void reduce_mean(const float* in, size_t partitions, size_t free_size, float* out);
// Integer-bit reductions: bitwise_and/or/xor, and add/multiply with 32-bit wrap-around.
// Other ops throw std::invalid_argument.
void reduce_free_bits(AluOp op, const uint32_t* in, size_t partitions, size_t free_size,
                      uint32_t* out);

}  // namespace nki
