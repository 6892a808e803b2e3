# nki-case: args=32x8:float32
# nisa.nc_stream_shuffle: "shuffle_mask is a 32-element list" (2.24 docstring).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def reverse_rows(x):
    t = nl.load(x)
    d = nl.ndarray((32, 8), dtype=nl.float32, buffer=nl.sbuf)
    nisa.nc_stream_shuffle(src=t, dst=d, shuffle_mask=[15 - i for i in range(16)])  # expect-error: shuffle_mask  # expect-col: 5
    out = nl.ndarray((32, 8), dtype=nl.float32, buffer=nl.shared_hbm)
    nl.store(out, d)
    return out
