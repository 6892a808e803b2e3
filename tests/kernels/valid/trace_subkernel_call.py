# nki-case: args=256x64:float32
# A @nki.trace sub-kernel (pass-by-reference style: writes its `dst` argument) called without
# a grid from the top-level kernel, once per block from a static_range loop.
# expect-output: in0 - 1.0
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.trace
def dec_block(src, dst, blk):
    t = nl.load(src[blk * 128:(blk + 1) * 128, :])
    nl.store(dst[blk * 128:(blk + 1) * 128, :], value=nl.subtract(t, 1.0))


@nki.jit
def dec_all(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    for blk in nl.static_range(x.shape[0] // 128):
        dec_block(x, out, blk)
    return out
