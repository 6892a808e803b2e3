# nki-case: args=64x8:float32
# nisa.nc_stream_shuffle: with 32 active partitions the start partitions must be 0/32/64/96 (2.24 docstring).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def move_quadrant(x):
    t = nl.load(x)
    d = nl.zeros((64, 8), dtype=nl.float32, buffer=nl.sbuf)
    nisa.nc_stream_shuffle(src=t[32:64], dst=d[16:48], shuffle_mask=list(range(32)))  # expect-error: shuffle_start_partition  # expect-col: 5
    out = nl.ndarray((64, 8), dtype=nl.float32, buffer=nl.shared_hbm)
    nl.store(out, d)
    return out
