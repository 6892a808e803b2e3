# nki-case: args=64x8:float32
# Fix of bad.py: start dst at a quadrant boundary (src partitions 32..63 move to 0..31).
# expect-output: np.concatenate([in0[32:64], np.zeros((32, 8), np.float32)])
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def move_quadrant(x):
    t = nl.load(x)
    d = nl.zeros((64, 8), dtype=nl.float32, buffer=nl.sbuf)
    nisa.nc_stream_shuffle(src=t[32:64], dst=d[0:32], shuffle_mask=list(range(32)))
    out = nl.ndarray((64, 8), dtype=nl.float32, buffer=nl.shared_hbm)
    nl.store(out, d)
    return out
