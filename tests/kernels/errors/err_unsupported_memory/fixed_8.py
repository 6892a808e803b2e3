# nki-case: args=128x64:float32
# Adds each element's column index to x, building the index tile in PSUM.
# Fix: build the index tile in SBUF.
# expect-output: in0 + np.arange(64)[None, :]
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def add_column_index(x):
    out = nl.ndarray((128, 64), dtype=x.dtype, buffer=nl.shared_hbm)
    idx = nl.ndarray((128, 64), dtype=nl.float32, buffer=nl.sbuf)
    idx[...] = nisa.iota(nl.arange(64)[None, :] + 0 * nl.arange(128)[:, None], dtype=nl.float32)
    nl.store(out, value=nl.add(nl.load(x), idx))
    return out
