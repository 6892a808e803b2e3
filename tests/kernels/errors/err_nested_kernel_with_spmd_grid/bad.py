# nki-case: args=256x128:float32
# Launches a traced sub-kernel with an SPMD grid from inside the top-level kernel.
# Gridded launches are only allowed from the host, not inside another kernel.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.trace
def negate_block(src, dst):
    blk = nl.program_id(0)
    t = nl.load(src[blk * 128:(blk + 1) * 128, :])
    nl.store(dst[blk * 128:(blk + 1) * 128, :], value=nl.negative(t))


@nki.jit
def negate_all(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    negate_block[2](x, res)  # expect-error: err_nested_kernel_with_spmd_grid  # expect-col: 5
    return res
