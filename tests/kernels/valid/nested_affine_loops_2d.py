# nki-case: args=256x1024:float32,1x1024:float32
# Nested affine_range loops over row and column tiles; a [1, 512] bias slice is broadcast
# across the 128 partitions by nl.add (nl APIs broadcast along the partition dim).
# expect-output: in0 + in1
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def add_bias_tiled(x, bias):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    for c in nl.affine_range(x.shape[1] // 512):
        b = nl.load(bias[0:1, c * 512:(c + 1) * 512])
        for r in nl.affine_range(x.shape[0] // 128):
            t = nl.load(x[r * 128:(r + 1) * 128, c * 512:(c + 1) * 512])
            nl.store(out[r * 128:(r + 1) * 128, c * 512:(c + 1) * 512], value=nl.add(t, b))
    return out
