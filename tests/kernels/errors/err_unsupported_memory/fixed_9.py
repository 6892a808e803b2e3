# nki-case: args=128x256:float32
# Loads x directly into a PSUM tile and scales it.
# Fix: load into an SBUF tile.
# expect-output: in0 * 3.0
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def scale_rows(x):
    out = nl.ndarray((128, 256), dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray((128, 256), dtype=nl.float32, buffer=nl.sbuf)
    t[...] = nl.load(x)
    nl.store(out, value=nl.multiply(t, 3.0))
    return out
