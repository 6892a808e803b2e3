# nki-case: args=512x64:float32
# allow-warning: block_dimension_deprecated (the case declares a block-dimension tensor on purpose)
# Keeps four row blocks in a block-dimension SBUF tensor and applies exp to the whole tensor.
# `blocks` has a block dim in front of the partition dim, so it is not a tile.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def blocked_exp(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    blocks = nl.ndarray((4, nl.par_dim(128), 64), dtype=x.dtype, buffer=nl.sbuf)
    for b in nl.affine_range(4):
        blocks[b] = nl.load(x[b * 128:(b + 1) * 128, :])
    ex = nl.exp(blocks)  # expect-error: err_failed_to_infer_tile_from_local_tensor  # expect-col: 10
    for b in nl.affine_range(4):
        nl.store(res[b * 128:(b + 1) * 128, :], value=ex[b])
    return res
