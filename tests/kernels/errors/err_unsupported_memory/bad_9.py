# nki-case: args=128x256:float32
# Loads x directly into a PSUM tile and scales it.
# Error: nl.load is a DMA from HBM into SBUF; DMA cannot write PSUM.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def scale_rows(x):
    out = nl.ndarray((128, 256), dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray((128, 256), dtype=nl.float32, buffer=nl.psum)
    t[...] = nl.load(x)  # expect-error: err_unsupported_memory  # expect-col: 5
    nl.store(out, value=nl.multiply(t, 3.0))
    return out
