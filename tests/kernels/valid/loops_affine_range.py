# nki-case: args=512x256:float32,512x256:float32
# Tiled element-wise add: independent row blocks in an affine_range loop (parallel loop,
# symbolic induction variable, every iteration writes a disjoint block).
# expect-output: in0 + in1
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def blockwise_add(a, b):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    n_blocks = a.shape[0] // nl.tile_size.pmax
    for blk in nl.affine_range(n_blocks):
        lo = blk * 128
        ta = nl.load(a[lo:lo + 128, :])
        tb = nl.load(b[lo:lo + 128, :])
        nl.store(out[lo:lo + 128, :], value=nl.add(ta, tb))
    return out
