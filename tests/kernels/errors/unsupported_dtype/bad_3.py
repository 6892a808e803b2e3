# nki-case: args=128x128:int32
# Causal mask on an int32 tile with affine_select.
# Error: affine_select supports float or 8/16-bit integer tiles.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def causal_int(x):
    out = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.shared_hbm)
    i, j = nl.mgrid[0:128, 0:128]
    y = nisa.affine_select(j <= i, nl.load(x), 0.0)  # expect-error: unsupported_dtype  # expect-col: 9
    nl.store(out, value=y)
    return out
