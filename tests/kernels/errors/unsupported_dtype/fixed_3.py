# nki-case: args=128x128:int32
# Causal mask on an int32 tile with affine_select.
# Fix: select on a float32 copy of the tile.
# expect-output: np.tril(in0).astype(np.float32)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def causal_int(x):
    out = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.shared_hbm)
    i, j = nl.mgrid[0:128, 0:128]
    y = nisa.affine_select(j <= i, nl.load(x, dtype=nl.float32), 0.0)
    nl.store(out, value=y)
    return out
