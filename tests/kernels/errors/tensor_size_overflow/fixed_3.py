# nki-case: args=128x512:float32
# (2^61, 1024) fp32: the element count fits in int64 but the byte count does not.
# Fix: 128 rows of 1024 columns, the first 512 stored and the rest zero-filled.
# expect-output: np.concatenate([in0, np.zeros((128, 512), np.float32)], axis=1)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def huge_bytes(x):
    res = nl.ndarray((128, 1024), dtype=nl.float32, buffer=nl.shared_hbm)
    nl.store(res[0:128, 0:512], value=nl.load(x))
    nl.store(res[0:128, 512:1024], value=nl.zeros((128, 512), dtype=nl.float32))
    return res
