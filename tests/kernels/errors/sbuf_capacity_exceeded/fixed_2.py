# nki-case: args=128x25600:float32,128x25600:float32
# Adds two [128, 25600] fp32 tiles: the add's operands need 200 KiB per partition at once.
# Fix: add column tile by column tile (2 x 25 KiB per add).
# expect-output: in0 + in1
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def add(x, y):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    C = 6400
    for c in nl.affine_range(x.shape[1] // C):
        a = nl.load(x[:, c * C:(c + 1) * C])
        b = nl.load(y[:, c * C:(c + 1) * C])
        nl.store(out[:, c * C:(c + 1) * C], value=nl.add(a, b))
    return out
