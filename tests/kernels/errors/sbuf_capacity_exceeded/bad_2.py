# nki-case: args=128x25600:float32,128x25600:float32
# Adds two [128, 25600] fp32 tiles (100 KiB per partition each). The add reads both at the same
# time, so its operands need 200 KiB of every SBUF partition: more than the 192 KiB of trn1,
# whatever the compiler does with the other tiles.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def add(x, y):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    a = nl.load(x)
    b = nl.load(y)
    s = nl.add(a, b)  # expect-error: sbuf_capacity_exceeded  # expect-col: 9
    nl.store(out, value=s)
    return out
