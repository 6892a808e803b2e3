# nki-case: args=128x50176:float32
# Loads a whole [128, 50176] fp32 row block as one tile: 196 KiB per partition (trn1 has 192 KiB).
# Fix: loop over column tiles of 512 elements (2 KiB per partition each).
# expect-output: in0 * 2.0
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def double(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    C = 512
    for c in nl.affine_range(x.shape[1] // C):
        t = nl.load(x[:, c * C:(c + 1) * C])
        nl.store(out[:, c * C:(c + 1) * C], value=nl.multiply(t, 2.0))
    return out
