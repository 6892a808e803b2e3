# nki-case: args=512x64:float32
# allow-warning: block_dimension_deprecated (the case declares a block-dimension tensor on purpose)
# Loads four row tiles into a Python list inside an affine_range loop, then stores them after it.
# Fix: one tensor with a block dimension, declared before the loop, holds every iteration's
# tile; each iteration writes its own block.
# expect-output: in0
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def stage_tiles(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    tiles = nl.ndarray((4, nl.par_dim(128), 64), dtype=x.dtype, buffer=nl.sbuf)
    for i in nl.affine_range(4):
        tiles[i] = nl.load(x[i * 128:(i + 1) * 128, :])
    for i in nl.affine_range(4):
        nl.store(out[i * 128:(i + 1) * 128, :], value=tiles[i])
    return out
