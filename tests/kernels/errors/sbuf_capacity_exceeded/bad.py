# nki-case: args=128x50176:float32
# Loads a whole [128, 50176] fp32 row block as one tile: 196 KiB in every partition, more than
# the 192 KiB of a trn1 SBUF partition. No allocation can hold a tile larger than a partition.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def double(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.load(x)  # expect-error: sbuf_capacity_exceeded  # expect-col: 9
    nl.store(out, value=nl.multiply(t, 2.0))
    return out
