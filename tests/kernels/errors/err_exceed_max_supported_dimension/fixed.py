# nki-case: args=32x4x16:float32
# Transposes a 3-D tile in one call.
# Fix: view the input as a 2-D [32, 64] tensor before loading.
# expect-output: in0.reshape(32, 64).T
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def flat_transpose(x):
    res = nl.ndarray((64, 32), dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x.reshape((32, 64)))
    yt = nl.transpose(xt)
    nl.store(res, value=nl.copy(yt))
    return res
