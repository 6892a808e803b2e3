# nki-case: args=256x128:float32
# Launches a traced sub-kernel with an SPMD grid from inside the top-level kernel.
# Fix: pass the block index explicitly and call the sub-kernel without a grid.
# expect-output: -in0
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.trace
def negate_block(src, dst, blk):
    t = nl.load(src[blk * 128:(blk + 1) * 128, :])
    nl.store(dst[blk * 128:(blk + 1) * 128, :], value=nl.negative(t))


@nki.jit
def negate_all(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    for blk in nl.static_range(2):
        negate_block(x, res, blk)
    return res
